"""A heuristic board-game player: scores each legal action by its worth in swords and takes the best.

Playing as loyal it pushes quests forward, heals when low and keeps Camelot safe; playing for a Traitor it looks
loyal while feeding Evil (see `engine.bots.board`). The service uses `as_loyal=True` for a seat that timed out,
whatever its loyalty, so a timeout never reveals alignment. The bot decides only from what its seat may know:
its view of the game and the public fields of the decision due.
"""

from __future__ import annotations

import random
from typing import Any

from engine.board.turns import heroic_actions
from engine.bots.board import loyal, traitor
from engine.bots.board.knowledge import seen
from engine.core.actions import Action
from engine.core.game import Game


class BoardHeuristicBot:
    def __init__(self, as_loyal: bool = False) -> None:
        self.as_loyal = as_loyal

    def choose(self, game: Game, state: Any, seat: int, rng: random.Random) -> Action:
        actions = game.legal_actions(state, seat)
        if not actions:
            raise RuntimeError(f"seat {seat} has nothing to decide")
        if len(actions) == 1:
            return actions[0]
        s = seen(game, state, seat)
        if s.frame.get("kind") == "post":
            s.second = heroic_actions(state, seat)  # a sacrifice's second action (own hand, public board)
        as_traitor = not self.as_loyal and s.view["you"]["loyalty"] == "traitor"
        score = traitor.score if as_traitor else loyal.score
        best: list[Action] = []
        best_score = float("-inf")
        for action in actions:
            value = score(s, action)
            if value > best_score:
                best, best_score = [action], value
            elif value == best_score:
                best.append(action)
        return best[rng.randrange(len(best))]
