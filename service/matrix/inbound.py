"""Room events → normalized `Inbound` commands. Pure: no client, no I/O.

Commands start with `!` (`!newgame cards`, `!join` …). A choice is answered with its number: a plain
message in a direct room, a reply to the message that offered it (any room), or a keycap reaction on it.
"""

from __future__ import annotations

from typing import NamedTuple

from service.callback import Choice, LobbyTap, unpack
from service.chat.base import Inbound
from service.matrix import numbered

PLATFORM = "matrix"
PREFIX = "!"
COMMANDS = frozenset({"newgame", "join", "leave", "start", "abort", "status", "rules", "help", "set"})


class Origin(NamedTuple):
    """Who said it where: the parts of every Inbound that come from the event itself."""

    room: str
    user: str
    event_id: str
    user_name: str | None
    is_group: bool


class NumberAnswer(NamedTuple):
    number: int
    menu_event: str | None  # the message answered (reply or reaction), None for a plain number


def parse_command(body: str) -> tuple[str, tuple[str, ...]] | None:
    """`!join` → ("join", ()); `!newgame cards 5` → ("newgame", ("cards", "5")); anything else None."""
    words = body.strip().split()
    if not words or not words[0].startswith(PREFIX):
        return None
    name = words[0][len(PREFIX):].lower()
    return (name, tuple(words[1:])) if name in COMMANDS else None


def reply_target(content: dict) -> str | None:
    relates = content.get("m.relates_to") or {}
    return (relates.get("m.in_reply_to") or {}).get("event_id")


def number_in_message(body: str, content: dict, *, direct: bool) -> NumberAnswer | None:
    """A number typed as an answer: plain in a direct room, or as a reply anywhere."""
    number = numbered.parse_number(body)
    if number is None:
        return None
    target = reply_target(content)
    if target is None and not direct:
        return None  # a bare number in a group is conversation, not a choice
    return NumberAnswer(number, target)


def number_in_reaction(key: str, reacts_to: str) -> NumberAnswer | None:
    number = numbered.reaction_number(key)
    return NumberAnswer(number, reacts_to) if number is not None else None


def command(origin: Origin, name: str, args: tuple[str, ...], *, admin: bool) -> Inbound:
    """A `!command`; `admin` (room power level ≥ 50) travels as the `admin` flag in args' first slot."""
    return Inbound(
        PLATFORM, origin.room, origin.user, origin.event_id, "command",
        command=name, args=args, user_name=origin.user_name, is_group=origin.is_group, text=None,
    ) if not admin else Inbound(
        PLATFORM, origin.room, origin.user, origin.event_id, "command",
        command=name, args=args, user_name=origin.user_name, is_group=origin.is_group, text="admin",
    )


def choice(origin: Origin, data: str) -> Inbound | None:
    """The Inbound for a chosen button's data (a game choice or a lobby tap); None if the data is malformed."""
    parsed = unpack(data)
    if isinstance(parsed, Choice):
        return Inbound(
            PLATFORM, origin.room, origin.user, origin.event_id, "action",
            game_id=parsed.game_id, prompt_seq=parsed.seq, code=parsed.code,
            user_name=origin.user_name, is_group=origin.is_group,
        )
    if isinstance(parsed, LobbyTap):
        return Inbound(
            PLATFORM, origin.room, origin.user, origin.event_id, "action",
            code=data, user_name=origin.user_name, is_group=origin.is_group,
        )
    return None
