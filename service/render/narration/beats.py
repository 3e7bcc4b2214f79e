"""Events grouped into beats: one line says a cause and what it caused.

The engines emit fine-grained events (a fight, then the quest's end, then each knight's life, the swords, the cards).
Read one per line they drown the story, so the narrator groups them: a *head* event opens a beat; the events right
after it that it caused are *absorbed* (told by the head's own line, e.g. Excalibur's new position after a push) or
become *parts* ("— +1 ❤, 3 cards, ⚪ sword"). Which follower goes where is each game's rule (`Rules.take`); an
event that no beat takes opens its own, so nothing is ever dropped.

For a reader with private events, a public event whose private twin follows it (a hidden draw, then the same draw
with its card for the drawer) is replaced by the twin: the reader sees his card, never the same fact twice.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from engine.core.events import Event
from service.render.narration.words import Ctx

ABSORB = "absorb"
PART = "part"


@dataclass
class Beat:
    head: Event
    absorbed: list[Event] = field(default_factory=list)
    parts: list[Event] = field(default_factory=list)

    def took(self, kind: str) -> Event | None:
        """The absorbed event of `kind`, if any."""
        return next((e for e in self.absorbed if e.kind == kind), None)


class Rules(Protocol):
    """What a game module gives the narrator."""

    TWINS: dict[str, str]

    def take(self, beat: Beat, event: Event) -> str | None: ...

    def line(self, beat: Beat, ctx: Ctx) -> str: ...


def visible(events: list[Event], viewer: int | None, twins: dict[str, str], public: bool = True) -> list[Event]:
    """The events `viewer` may see (`public=False`: his private ones only), a public event followed by its private
    twin for him left out."""
    seen = [e for e in events if e.visible_to(viewer) and (public or not e.public)]
    if viewer is None:
        return seen
    out: list[Event] = []
    for e in seen:
        if not e.public and out and out[-1].public and twins.get(e.kind) == out[-1].kind:
            out.pop()
        out.append(e)
    return out


def group(events: list[Event], take: Callable[[Beat, Event], str | None]) -> list[Beat]:
    beats: list[Beat] = []
    for e in events:
        how = take(beats[-1], e) if beats else None
        if how == ABSORB:
            beats[-1].absorbed.append(e)
        elif how == PART:
            beats[-1].parts.append(e)
        else:
            beats.append(Beat(e))
    return beats


def with_parts(text: str, parts: list[str]) -> str:
    """"⚔ Dragon won" + ["+2 ❤", "2 ⚪ swords"] → "⚔ Dragon won — +2 ❤, 2 ⚪ swords"."""
    parts = [p for p in parts if p]
    return f"{text} — {', '.join(parts)}" if parts else text
