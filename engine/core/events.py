"""Events: what happened, and who may see it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Event:
    """`to` is None for a public event, else the seats allowed to see it (a drawn card, a peek)."""

    kind: str
    data: dict[str, Any] = field(default_factory=dict)
    to: frozenset[int] | None = None

    @property
    def public(self) -> bool:
        return self.to is None

    def visible_to(self, seat: int | None) -> bool:
        return self.to is None or (seat is not None and seat in self.to)


def private(kind: str, seats: int | list[int] | frozenset[int], **data: Any) -> Event:
    to = frozenset([seats]) if isinstance(seats, int) else frozenset(seats)
    return Event(kind, data, to)


def public(kind: str, **data: Any) -> Event:
    return Event(kind, data, None)
