"""The random bot: uniform over the seat's legal actions. Works for any game."""

from __future__ import annotations

import random
from typing import Any

from engine.core.actions import Action
from engine.core.game import Game


class RandomBot:
    def choose(self, game: Game, state: Any, seat: int, rng: random.Random) -> Action:
        actions = game.legal_actions(state, seat)
        if not actions:
            raise RuntimeError(f"seat {seat} has nothing to decide")
        return actions[rng.randrange(len(actions))]
