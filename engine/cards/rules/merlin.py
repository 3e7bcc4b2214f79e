"""Merlin (digest §5, C-CHAR, C-SILENCE): revealed, he ends the silence and Morgan #1/#2; in a resolution he removes
cards (`engine.cards.resolve.apply_merlin`); Merlin #4 lays a token on a quest, secretly chosen, that removes that
quest's highest card at the next resolution."""

from __future__ import annotations

from engine.cards.rules import morgan, table
from engine.cards.state import State
from engine.core.events import Event, private, public


def revealed(s: State, card: str, number: int, seat: int, after: str, ev: list[Event]) -> bool:
    """A Merlin laid face up; True when Merlin #4 asks his player where the token goes."""
    ends_morgans(s, ev)
    if number == 4:
        s.phase, s.actor, s.after = "token", seat, after
        return True
    return False


def ends_morgans(s: State, ev: list[Event]) -> None:
    morgan.silence_off(s, "merlin", ev)
    s.morgan1 = s.morgan2 = False


def token(s: State, seat: int, args: tuple, ev: list[Event]) -> None:
    """The action `token:<quest>`: only its player knows the quest."""
    s.token, s.token_by = args[0], seat
    ev.append(public("merlin4_token", seat=seat))
    ev.append(private("merlin4_quest", seat, quest=args[0]))
    table.continue_after(s, s.after, ev)
