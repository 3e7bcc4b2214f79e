"""Random and bot play of complete games: used by property tests, the soak command and the benchmark."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Protocol

from engine.core.actions import Action
from engine.core.game import Game


class Bot(Protocol):
    def choose(self, game: Game, state: Any, seat: int, rng: random.Random) -> Action: ...


@dataclass
class Played:
    state: Any
    log: list[tuple[int, str]] = field(default_factory=list)
    capped: bool = False  # True when the game hit `max_actions` without ending


def play_game(
    game: Game,
    config: dict[str, Any],
    seed: int,
    bots: dict[int, Bot] | Bot,
    max_actions: int = 20_000,
    record: bool = True,
) -> Played:
    """Play until the game ends: each step the first pending seat's bot chooses. Deterministic in `seed`."""
    rng = random.Random(seed ^ 0x5EED)
    state = game.new_game(config, seed)
    played = Played(state)
    for _ in range(max_actions):
        if game.result(state) is not None:
            return played
        prompts = game.pending(state)
        if not prompts:
            raise RuntimeError(f"{game.name} seed {seed}: game not over but nobody is prompted")
        seat = prompts[0].seat
        bot = bots if not isinstance(bots, dict) else bots[seat]
        action = bot.choose(game, state, seat, rng)
        state, _ = game.apply(state, seat, action)
        played.state = state
        if record:
            played.log.append((seat, game.encode(action)))
    played.capped = game.result(state) is None
    return played
