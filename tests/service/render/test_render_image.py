"""Board pictures: real PNGs, drawn from the public view only (a re-deal of every secret draws the same picture)."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from engine import get_game
from engine.bots import heuristic_bot
from engine.core.simulate import play_game
from service.render import board_image, present


@pytest.mark.parametrize(("name", "players", "steps"), [("board", 5, 150), ("cards", 4, 20), ("board", 3, 60)])
def test_picture_is_a_png_of_public_information_only(name, players, steps):
    game = get_game(name)
    state = play_game(game, {"players": players}, 3, heuristic_bot(name), max_actions=steps).state
    png = board_image.render(name, game.view(state, None), "ro", {0: "Ana"})
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG" and image.size[0] == board_image.WIDTH and image.size[1] > 200
    assert len(image.getcolors(maxcolors=1 << 16) or []) > 4  # something was drawn
    other = game.resample_hidden(state, None, random.Random(1))
    assert board_image.render(name, game.view(other, None), "ro", {0: "Ana"}) == png


def test_a_seat_view_is_refused():
    game = get_game("cards")
    state = game.new_game({"players": 3}, 1)
    with pytest.raises(ValueError):
        board_image.render("cards", game.view(state, 0), "en", {})


def test_present_attaches_the_picture_when_asked():
    game = get_game("board")
    state = game.new_game({"players": 4}, 2)
    kwargs = dict(game_id=1, seq=0, group_lang="en", seat_langs={}, seat_names={})
    assert present("board", state, [], **kwargs).board_image is None
    image = present("board", state, [], with_image=True, **kwargs).board_image
    assert image is not None and image.startswith(b"\x89PNG")
