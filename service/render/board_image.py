"""A picture of the game (PNG bytes) drawn with Pillow from the PUBLIC view only, for chats where it reads better.

Board game: Camelot with the Round Table's swords and the siege engines, the quests around it, the knights.
Card game: the Threat pile's top card large, the swords, Morgan's silence, the piles. The drawing lives in
`service/render/pictures/`; this module is the entry point and refuses a seat's view (it could hold secrets).
"""

from __future__ import annotations

from typing import Any

from service.render.pictures import board, cards
from service.render.pictures.canvas import Canvas
from service.render.pictures.layout import WIDTH

__all__ = ["WIDTH", "draw", "render"]


def draw(game_name: str, view: dict[str, Any], lang: str, names: dict[int, str]) -> Canvas:
    """The picture with its record of what was drawn. `view` must be `game.view(state, None)`."""
    if "you" in view:
        raise ValueError("pictures are drawn from the public view only")
    return board.draw(view, lang, names) if game_name == "board" else cards.draw(view, lang, names)


def render(game_name: str, view: dict[str, Any], lang: str, names: dict[int, str]) -> bytes:
    """PNG bytes of the public picture. `view` must be `game.view(state, None)`."""
    return draw(game_name, view, lang, names).png()
