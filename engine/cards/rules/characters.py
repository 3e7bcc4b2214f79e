"""A Rumor card laid face up on the Threat pile (digest §5, C-CHAR): the table sees it, and a character acts through
its family's module — Morgan, Merlin, Vivien; a quest card or Mordred does nothing more now."""

from __future__ import annotations

from types import ModuleType

from engine.cards.catalogue import CARDS
from engine.cards.rules import merlin, morgan, table, vivien
from engine.cards.state import State
from engine.core.events import Event, public

REVEALED: dict[str, ModuleType] = {"morgan": morgan, "merlin": merlin, "vivien": vivien}
"""Card kind → the module whose `revealed(state, card, number, seat, after, events)` is what it does when laid face
up; True when it asks someone (the play then waits for the answer)."""


def reveal(s: State, card: str, seat: int, after: str, ev: list[Event]) -> None:
    """`card` laid face up by `seat`; then `after` ("turn" or "resolve") goes on unless a character asked."""
    ev.append(public("reveal", seat=seat, card=card))
    c = CARDS[card]
    family = REVEALED.get(c.kind)
    if family is None or not family.revealed(s, card, c.number, seat, after, ev):
        table.continue_after(s, after, ev)
