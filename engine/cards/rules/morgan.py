"""Morgan (digest §5, C-CHAR, C-SILENCE): revealed, she starts the silence (engine state the service enforces), which
a Merlin or a quest declared ends. Morgan #1: quest cards listened to go face down, their listener announcing one;
Morgan #2: each listener first says how many cards were laid on the Threat pile since her."""

from __future__ import annotations

from engine.cards.rules import listen, table
from engine.cards.state import State
from engine.core.events import Event, public


def revealed(s: State, card: str, number: int, seat: int, after: str, ev: list[Event]) -> bool:
    """A Morgan laid face up; asks nobody (False: the play goes on)."""
    if not s.silence:
        s.silence = True
        ev.append(public("silence_on", seat=seat, card=card))
    if number == 1:
        s.morgan1 = True
    elif number == 2:
        s.morgan2, s.morgan2_count = True, 0
    return False


def silence_off(s: State, reason: str, ev: list[Event]) -> None:
    if s.silence:
        s.silence = False
        ev.append(public("silence_off", reason=reason))


def count(s: State, seat: int, args: tuple, ev: list[Event]) -> None:
    """The action `count:<n>` under Morgan #2 (the seed names no penalty for a wrong count), then the listen."""
    ev.append(public("morgan2_count", seat=seat, count=args[0]))
    listen.draw(s, seat, ev)


def announce(s: State, seat: int, args: tuple, ev: list[Event]) -> None:
    """The action `announce:<quest>:<value>` under Morgan #1: the card he looked at goes face down."""
    card, s.held = s.held, None
    table.push(s, card, s.held_seen)
    s.announced[-1] = (seat, args[0], args[1])
    ev.append(public("morgan1_announce", seat=seat, quest=args[0], value=args[1]))
    table.next_turn(s, ev)
