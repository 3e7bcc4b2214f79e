"""A revealed Traitor's turn (digest §3, C-TRAITOR): he draws two Rumor cards, puts one face up on the Threat pile
(face up even under Morgan #1: he does not listen) and discards the other face down."""

from __future__ import annotations

from engine.cards.rules import characters, table
from engine.cards.state import PUBLIC, State
from engine.core.events import Event, private


def begin_turn(s: State, seat: int, ev: list[Event]) -> bool:
    """His turn begins if he can draw; False when the deck and the discards are empty (his turn is skipped)."""
    hand, masks = table.draw_hand(s, seat, 2, ev)
    if not hand:
        return False
    s.traitor_hand, s.traitor_seen, s.phase = hand, masks, "traitor"
    ev.append(private("traitor_draw", seat, cards=list(hand)))
    return True


def place(s: State, seat: int, args: tuple, ev: list[Event]) -> None:
    """The action `place:<i>`: the i-th drawn card face up, the other discarded face down."""
    hand, s.traitor_hand = s.traitor_hand, []
    masks, s.traitor_seen = s.traitor_seen, []
    card = table.play_one(s, hand, masks, args[0])
    table.push(s, card, PUBLIC)
    characters.reveal(s, card, seat, "turn", ev)
