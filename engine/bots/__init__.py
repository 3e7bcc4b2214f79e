"""Bots that fill empty seats and play for players who time out."""

from __future__ import annotations

import importlib
from typing import Any

from engine.bots.random_bot import RandomBot

HEURISTIC = {
    "board": "engine.bots.board_heuristic:BoardHeuristicBot",
    "cards": "engine.bots.cards_heuristic:CardsHeuristicBot",
}


def heuristic_bot(game_name: str, **kwargs: Any) -> Any:
    """The heuristic bot for a game; `as_loyal=True` makes it play as if loyal whatever its seat's loyalty."""
    module, cls = HEURISTIC[game_name].split(":")
    return getattr(importlib.import_module(module), cls)(**kwargs)


__all__ = ["RandomBot", "heuristic_bot"]
