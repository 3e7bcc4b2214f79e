"""Listen to Rumors (digest §3, C-LISTEN): the top Rumor card goes face up onto the Threat pile, where a character
acts (`characters`); under Morgan #2 the listener first says how many cards were laid since, under Morgan #1 he
looks at a quest card alone and announces it face down (`morgan`)."""

from __future__ import annotations

from engine.cards.catalogue import CARDS
from engine.cards.rules import characters, table
from engine.cards.state import PUBLIC, State
from engine.core.events import Event, private


def listen(s: State, seat: int, args: tuple, ev: list[Event]) -> None:
    """The action `listen`."""
    if s.morgan2:
        s.phase, s.actor = "count", seat
        return
    draw(s, seat, ev)


def draw(s: State, seat: int, ev: list[Event]) -> None:
    """Reveal the top Rumor card onto the Threat pile (Morgan #1: look, announce, face down)."""
    card = table.draw(s, ev)
    if s.morgan1 and CARDS[card].kind == "quest":
        s.held, s.held_seen = card, table.seen_by(s, seat)
        s.phase, s.actor = "announce", seat
        ev.append(private("morgan1_look", seat, card=card))
        return
    table.push(s, card, PUBLIC)
    characters.reveal(s, card, seat, "turn", ev)
