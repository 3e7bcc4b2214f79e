"""Accusing (digest §3, C-ACCUSE): once 4+ swords are out, each player may once accuse another, whose loyalty is then
shown (Percival may be played first, in the expert variant): a Traitor gives white swords, a loyal player black."""

from __future__ import annotations

from engine.cards.catalogue import ACCUSE_SWORDS, PERCIVAL_SWORDS, TRAITOR
from engine.cards.rules import end, table
from engine.cards.state import State
from engine.core.events import Event, public


def accuse(s: State, seat: int, args: tuple, ev: list[Event]) -> None:
    """The action `accuse:<seat>`."""
    target = args[0]
    s.accused[seat] = target
    ev.append(public("accuse", seat=seat, target=target))
    if s.expert and any(s.knights):
        s.accusing = target
        table.open_window(s, "percival", table.order_from(s, seat))
        return
    reveal(s, target, False, ev)


def reveal(s: State, target: int, percival: bool, ev: list[Event]) -> None:
    """The accused's loyalty shown; Percival played against it places more swords."""
    loyalty = s.revealed[target] = s.loyalty[target]
    s.loyalty_public.add(target)
    count = PERCIVAL_SWORDS if percival else ACCUSE_SWORDS
    placed = table.place_swords(s, "white" if loyalty == TRAITOR else "black", count)
    s.accusations.append((s.current, target, loyalty, placed))
    ev.append(public("loyalty_revealed", seat=target, loyalty=loyalty, swords=placed, percival=percival))
    end.end_check(s, "turn", ev)
