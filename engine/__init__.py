"""Pure rules of Shadows over Camelot (board game) and its card game: no I/O, no clock, no global randomness.

`get_game("board")` / `get_game("cards")` return the game objects; see `engine.core.game.Game` for the protocol.
"""

from __future__ import annotations

import importlib

from engine.core import Action, Event, Game, IllegalAction, Prompt

__all__ = ["Action", "Event", "Game", "IllegalAction", "Prompt", "get_game", "GAMES"]

GAMES = {"board": "engine.board.game:BoardGame", "cards": "engine.cards.game:CardGame"}
_loaded: dict[str, Game] = {}


def get_game(name: str) -> Game:
    """The game object for `name` ("board" or "cards"); one shared, stateless instance per kind."""
    if name not in _loaded:
        if name not in GAMES:
            raise KeyError(f"unknown game {name!r}")
        module, cls = GAMES[name].split(":")
        _loaded[name] = getattr(importlib.import_module(module), cls)()
    return _loaded[name]
