"""Vivien (digest §5, C-CHAR): her player takes one of the two Loyalty cards in the middle and gives the other to any
player; both then decide keep-or-swap in secret, so nobody knows their four cards any more (an accused one too)."""

from __future__ import annotations

from engine.cards.rules import table
from engine.cards.state import State
from engine.core.events import Event, private, public


def revealed(s: State, card: str, number: int, seat: int, after: str, ev: list[Event]) -> bool:
    """Vivien laid face up (or played by Gawain); True unless solo (nothing to do)."""
    if s.solo:
        return False
    ev.append(public("vivien", seat=seat))
    s.vivien = {"by": seat, "after": after, "slots": {}}
    s.after = after
    s.phase, s.actor = "vivien_give", seat
    return True


def give(s: State, seat: int, args: tuple, ev: list[Event]) -> None:
    """The action `give:<seat>`: each of the two sees the middle card he may take."""
    ev.append(public("vivien_give", seat=seat, target=args[0]))
    n = s.n
    slots = {seat: n, args[0]: n + 1}
    touched = set(slots) | {n, n + 1}
    s.loyalty_public -= touched
    for known in s.known:
        for slot in touched:
            known.pop(slot, None)
    for who, slot in slots.items():
        s.known[who][slot] = s.loyalty[slot]
        ev.append(private("vivien_card", who, loyalty=s.loyalty[slot]))
    s.vivien["slots"] = slots
    s.window = list(slots)
    s.phase = "vivien_keep"


def keep(s: State, seat: int, args: tuple, ev: list[Event]) -> None:
    decided(s, seat, ev)


def swap(s: State, seat: int, args: tuple, ev: list[Event]) -> None:
    slot = s.vivien["slots"][seat]
    s.loyalty[seat], s.loyalty[slot] = s.loyalty[slot], s.loyalty[seat]
    s.known[seat][slot] = s.loyalty[slot]
    decided(s, seat, ev)


def decided(s: State, seat: int, ev: list[Event]) -> None:
    s.window.remove(seat)
    ev.append(public("vivien_decided", seat=seat))
    if not s.window:
        s.vivien = None
        table.continue_after(s, s.after, ev)
