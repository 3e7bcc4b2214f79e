"""Rendering: engine views and events → text, buttons and pictures, per game and language.

The worker calls `present(...)` after each move and gets back everything to send; it never formats
anything itself. Implementations live in the modules of this package (one per game, plus i18n, menus,
images); this file fixes the contract between the worker and the renderers.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from service.chat.base import Keyboard


@dataclass(frozen=True)
class Panel:
    """A player's private messages in their direct chat: `text` is their state (the hand panel, edited in place);
    `question`, when they must decide, is what they are asked in words, sent with `buttons` as a new message at the
    bottom of the chat (`service.play.asking`). `buttons` may also hold standing actions alone (no question)."""

    text: str
    buttons: Keyboard | None = None
    question: str = ""


@dataclass(frozen=True)
class Presentation:
    """What one move produces for the chats.

    `board`: the group's board summary, edited in place (the worker skips the edit when unchanged).
    `lines`: the move's narrated public events (`service.render.narration`), sent to the group as one message.
    `panels`: per seat, the seat's private panel (the worker sends/edits only those whose text or buttons changed).
    `silence`: the card game's Morgan silence after this move (None for games without silence).
    `mentions`: seats that must decide now (the group summary mentions them).
    """

    board: str
    lines: list[str] = field(default_factory=list)
    panels: dict[int, Panel] = field(default_factory=dict)
    private_lines: dict[int, list[str]] = field(default_factory=dict)
    silence: bool | None = None
    mentions: list[int] = field(default_factory=list)
    board_image: bytes | None = None


from service.render.present import action_label, panel, present, result_text  # noqa: E402 - dataclasses come first

__all__ = ["Panel", "Presentation", "action_label", "panel", "present", "result_text"]
