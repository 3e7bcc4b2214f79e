"""Seeded complete games of both engines, played by the engines' own bots (the soak's configurations: every
player count and variant, random and heuristic seats), kept as moves with their events for the narration tests."""

from __future__ import annotations

import random
from functools import cache

from engine import get_game
from engine.soak import bots_for, config_for
from service.render.narration.history import Move

NAMES = dict(enumerate(["Anna", "Bob", "Cleo", "Dan", "Eva", "Finn", "Gus"]))
LANGS = ["en", "cs", "pl", "nl", "ro", "it"]
GAMES = {"board": 40, "cards": 150}  # seeds per game: enough for every kind bots reach (board ~0.6 s, cards ~0.2 s)


def play(game: str, seed: int) -> list[Move]:
    """One game as `(seq, seat, events)` moves, seq 0 being the setup; deterministic in `seed`."""
    return record(game, seed)[0]


def record(game: str, seed: int, bot: str = "mixed") -> tuple[list[Move], list[tuple[int, str]], dict]:
    """One game's moves, its action log `(seat, code)` and its config."""
    engine = get_game(game)
    config = config_for(game, seed)
    bots = bots_for(game, bot, config, seed)
    rng = random.Random(seed ^ 0x5EED)
    start = getattr(engine, "start", None)
    state, events = start(config, seed) if start else (engine.new_game(config, seed), [])
    log: list[Move] = [(0, None, list(events))]
    codes: list[tuple[int, str]] = []
    while engine.result(state) is None and len(log) < 5000:
        seat = engine.pending(state)[0].seat
        bot_of = bots[seat] if isinstance(bots, dict) else bots
        action = bot_of.choose(engine, state, seat, rng)
        state, events = engine.apply(state, seat, action)
        log.append((len(log), seat, list(events)))
        codes.append((seat, engine.encode(action)))
    return log, codes, config


@cache
def logs(game: str) -> tuple[tuple[Move, ...], ...]:
    return tuple(tuple(play(game, seed)) for seed in range(GAMES[game]))


def seats_of(log: tuple[Move, ...] | list[Move]) -> list[int]:
    """The seats of a game (every seat that decided, and every seat a private event went to)."""
    seats = {seat for _, seat, _ in log if seat is not None}
    for _, _, events in log:
        for e in events:
            seats |= set(e.to or ())
    return sorted(seats)
