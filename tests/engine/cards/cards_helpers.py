"""Shared helpers for the card game's scenario tests: build a stacked game, play codes, read views."""

from __future__ import annotations

from typing import Any

from engine import get_game
from engine.cards.state import State

GAME = get_game("cards")


def make(players: int = 4, expert: bool = False, seed: int = 1, first: int = 0, **stack: Any) -> State:
    """A game scripted by its `stack` (keys: `engine.cards.stack`); unless told, everybody is Loyal."""
    if "loyalty" not in stack and players > 1:  # everybody loyal; the middle holds a Traitor (two with 7 players)
        stack["loyalty"] = ["loyal"] * players + (["traitor", "loyal"] if players < 7 else ["traitor", "traitor"])
    return GAME.new_game({"players": players, "expert": expert, "first": first, "stack": stack}, seed)


def play(state: State, *moves: tuple[int, str]) -> list:
    """Apply (seat, code) moves in order; returns all events."""
    events = []
    for seat, code in moves:
        _, ev = GAME.apply_code(state, seat, code)
        events += ev
    return events


def kinds(events: list) -> list[str]:
    return [e.kind for e in events]


def public_kinds(events: list) -> list[str]:
    return [e.kind for e in events if e.public]


def codes(state: State, seat: int) -> list[str]:
    return [GAME.encode(a) for a in GAME.legal_actions(state, seat)]


def last(events: list, kind: str):
    found = [e for e in events if e.kind == kind]
    assert found, f"no {kind} event in {kinds(events)}"
    return found[-1]
