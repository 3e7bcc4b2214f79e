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
from service.render.i18n import t


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


def test_a_card_game_that_ends_in_silence_shows_no_silence_on_the_board_or_the_picture():
    """C-SILENCE, C-END: the engine ends the silence with the game; text and picture follow its view as they are."""
    game = get_game("cards")
    stack = {"loyalty": ["loyal", "loyal", "traitor", "loyal", "loyal", "loyal"], "swords": [6, 0],
             "threat": ["morgan_3"], "silence": True}
    state = game.new_game({"players": 4, "stack": stack}, 1)
    kwargs = dict(game_id=1, seq=0, group_lang="en", seat_langs={}, seat_names={}, with_image=True)
    silent = present("cards", state, [], **kwargs)
    assert silent.silence and t("en", "cards.silence") in silent.board
    _, events = game.apply_code(state, 0, "accuse:2")
    over = present("cards", state, events, **kwargs)
    assert game.result(state) is not None and over.silence is False
    assert t("en", "cards.silence") not in over.board
    view = game.view(state, None)
    assert over.board_image == board_image.render("cards", view, "en", {})
    assert over.board_image != board_image.render("cards", {**view, "silence": True}, "en", {})
