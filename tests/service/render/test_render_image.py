"""Pictures of the games: real PNGs of a phone's width, drawn from the public view only, every piece in its place.

What was drawn is read from the canvas's record (each text with its box and font, each game piece marked), not
from pixels; the secrecy test compares the PNG bytes themselves.
"""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest
from PIL import Image

import service.render
from engine import get_game
from engine.board import catalogue as board_cat
from engine.bots import heuristic_bot
from engine.core.simulate import play_game
from service.render import board_image, present
from service.render.i18n import available_languages, t
from service.render.pictures import board, cards, fonts

NAMES = {0: "Řehoř Dvořák", 1: "Ștefan Țepeș", 2: "Łucja Żółć", 3: "Niccolò dell'Àrte", 4: "Kay", 5: "Анна", 6: "Jo"}


def _states(name: str, count: int, seed: int) -> list:
    """`count` states of random games stopped at random moments (some at their end)."""
    game, rng = get_game(name), random.Random(seed)
    states = []
    for i in range(count):
        config = {"players": rng.randint(3, 7) if name == "board" else rng.randint(2, 7)}
        if name == "cards":
            config["expert"] = rng.random() < 0.5
        steps = rng.choice([0, rng.randrange(1, 120), rng.randrange(120, 500), 20_000])
        states.append(play_game(game, config, seed + i, heuristic_bot(name), max_actions=steps).state)
    return states


def _public(name: str, state) -> dict:
    return get_game(name).view(state, None)


def _drawn(canvas, kind: str) -> list[str]:
    return [m.key for m in canvas.marks if m.kind == kind]


BOARD_STATES = _states("board", 8, 100)
CARD_STATES = _states("cards", 8, 200)
ALL_STATES = [("board", s) for s in BOARD_STATES] + [("cards", s) for s in CARD_STATES]


@pytest.mark.parametrize(("name", "state"), ALL_STATES)
def test_a_picture_is_a_phone_sized_png(name, state):
    view = _public(name, state)
    png = board_image.render(name, view, "en", NAMES)
    image = Image.open(io.BytesIO(png))
    height = board.height(view) if name == "board" else cards.height(view)
    assert image.format == "PNG" and image.size == (board_image.WIDTH, height) == (720, height)
    assert 600 < height < 1400  # portrait, within Telegram's photo limits
    assert board_image.render(name, view, "en", NAMES) == png  # deterministic


@pytest.mark.parametrize(("name", "state"), ALL_STATES)
def test_the_picture_is_the_same_whatever_the_hidden_cards(name, state):
    """Re-deal every secret (hands, decks, loyalty, face-down cards): the picture must not change by one byte."""
    game = get_game(name)
    png = board_image.render(name, game.view(state, None), "cs", NAMES)
    others = [game.resample_hidden(state, None, random.Random(k)) for k in range(3)]
    assert any(game.snapshot(other) != game.snapshot(state) for other in others)  # secrets were re-dealt
    for other in others:
        assert board_image.render(name, game.view(other, None), "cs", NAMES) == png


def test_a_face_down_threat_card_draws_as_its_back_whatever_it_is():
    """Morgan #1: the top card lies face down; re-dealt beneath, the picture shows the same back and announcement."""
    game = get_game("cards")
    for seed in range(40):
        state, rng, bot = game.new_game({"players": 5}, seed), random.Random(seed), heuristic_bot("cards")
        while game.result(state) is None and game.view(state, None)["threat_top"] != "hidden":
            seat = game.pending(state)[0].seat
            state, _ = game.apply(state, seat, bot.choose(game, state, seat, rng))
        if game.result(state) is None:
            break
    else:
        pytest.fail("no game laid a card face down")
    canvas = board_image.draw("cards", game.view(state, None), "en", NAMES)
    assert _drawn(canvas, "card") == ["hidden"]
    png = canvas.png()
    for k in range(5):
        other = game.resample_hidden(state, None, random.Random(k))
        assert board_image.render("cards", game.view(other, None), "en", NAMES) == png


@pytest.mark.parametrize("lang", available_languages())
@pytest.mark.parametrize(("name", "state"), ALL_STATES[::3])
def test_every_text_lies_inside_the_picture_unclipped_and_apart(name, state, lang):
    canvas = board_image.draw(name, _public(name, state), lang, NAMES)
    for placed in canvas.texts:
        left, top, right, bottom = placed.box
        assert 0 <= left <= right <= canvas.width and 0 <= top <= bottom <= canvas.height, placed
        assert placed.size >= 20  # 10 px or more when the picture is shown 360 px wide
    _assert_apart(canvas)


def _assert_apart(canvas) -> None:
    boxes = [p.box for p in canvas.texts]
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            overlap = min(a[2], b[2]) - max(a[0], b[0]), min(a[3], b[3]) - max(a[1], b[1])
            assert overlap[0] <= 0 or overlap[1] <= 0, (canvas.texts[i], b)


@pytest.mark.parametrize("quest", ["picts", "grail", "black_knight", "lancelot", "excalibur"])
def test_a_crowded_quest_keeps_its_labels_apart_from_its_knights(quest):
    """Seven knights, Heroism, Mordred, the Dark Forest and "over" on one quest: labels go above the tokens (on
    Lancelot, open so that the line naming the Dragon is drawn too)."""
    view = _public("board", play_game(get_game("board"), {"players": 7}, 3, heuristic_bot("board"), 0).state)
    view["heroism"] = quest
    crowd = {"knights": list(range(7)), "mordred": True, "dark_forest": True, "open": quest == "lancelot"}
    view["quests"][quest] |= crowd
    canvas = board_image.draw("board", view, "it", NAMES)
    _assert_apart(canvas)
    assert sum(k.startswith(f"{quest}:") for k in _drawn(canvas, "knight")) == 7


@pytest.mark.parametrize("state", BOARD_STATES)
def test_every_quest_knight_sword_engine_and_relic_is_on_the_board(state):
    view = _public("board", state)
    canvas = board_image.draw("board", view, "en", NAMES)
    quests = {"camelot", *board_cat.QUESTS} - (set() if view["quests"]["lancelot"]["open"] else {"lancelot"})
    assert sorted(_drawn(canvas, "quest")) == sorted(quests)  # the Dragon named as what follows Lancelot
    on_board = sorted(k for k in _drawn(canvas, "knight") if not k.startswith(("seat:", "current:")))
    playing = [s for s in view["seats"] if s["alive"] and not s["revealed"]]
    assert on_board == sorted(f"{s['location']}:{s['seat']}" for s in playing)
    assert sorted(_drawn(canvas, "seat")) == sorted(str(s["seat"]) for s in view["seats"])
    swords = _drawn(canvas, "sword")
    assert (swords.count("white"), swords.count("black")) == (view["swords"]["white"], view["swords"]["black"])
    assert len(_drawn(canvas, "engine")) == view["siege_engines"]
    relics = sorted(f"{s['seat']}:{r}" for s in view["seats"] for r in s["relics"])
    assert sorted(_drawn(canvas, "relic")) == relics


@pytest.mark.parametrize("state", CARD_STATES)
def test_the_card_picture_shows_the_top_threat_card_the_swords_and_the_silence(state):
    view = _public("cards", state)
    canvas = board_image.draw("cards", view, "it", NAMES)
    assert _drawn(canvas, "card") == ([view["threat_top"]] if view["threat_top"] else [])
    swords = _drawn(canvas, "sword")
    assert (swords.count("white"), swords.count("black")) == (view["swords"]["white"], view["swords"]["black"])
    assert _drawn(canvas, "silence") == (["on"] if view["silence"] else [])
    assert sorted(_drawn(canvas, "seat")) == sorted(str(i) for i in range(view["players"]))
    texts = [p.text for p in canvas.texts]
    assert f"{view['threat_count']} {'carta' if view['threat_count'] == 1 else 'carte'} nella pila" in texts


def test_silence_and_top_card_are_drawn_when_the_view_says_so():
    view = _public("cards", CARD_STATES[1]) | {"silence": True, "threat_top": "merlin_3", "result": None}
    canvas = board_image.draw("cards", view, "en", NAMES)
    assert _drawn(canvas, "silence") == ["on"] and _drawn(canvas, "card") == ["merlin_3"]
    texts = [p.text for p in canvas.texts]
    assert "Silence!" in texts and "Merlin card" in texts and "Merlin #3" in texts


def test_czech_romanian_and_polish_names_are_drawn_whole_with_the_shipped_font():
    view = _public("board", BOARD_STATES[0])
    canvas = board_image.draw("board", view, "ro", NAMES)
    package = Path(service.render.__file__).parent
    assert fonts.BOLD.is_file() and fonts.BOLD.is_relative_to(package / "fonts")
    for seat in range(len(view["seats"])):
        name = NAMES[seat]
        assert all(fonts.has_glyph(c, bold=True) for c in name.replace(" ", ""))
        drawn = [p for p in canvas.texts if p.text == name]
        assert drawn and all(p.font == str(fonts.BOLD) for p in drawn), name
    assert {p.font for p in canvas.texts} <= {str(fonts.REGULAR), str(fonts.BOLD)}  # no other font, no fallback


def test_a_long_name_is_shortened_to_its_box_and_emoji_are_left_out():
    assert not fonts.has_glyph("🌸") and fonts.clean("Anna 🌸 Nová") == "Anna Nová"
    names = {0: "Bartholomew-Alexander Montgomery of the Western Marches", 1: "🌸🌸", 2: "Ana 🌸"}
    view = _public("board", play_game(get_game("board"), {"players": 3}, 5, heuristic_bot("board"), 10).state)
    canvas = board_image.draw("board", view, "en", names)
    texts = [p.text for p in canvas.texts]
    long = [t for t in texts if t.startswith("Bartholomew")]
    assert long and all(t.endswith("…") and len(t) < len(names[0]) for t in long)
    assert "#2" in texts and "Ana" in texts
    seat_box = next(m.box for m in canvas.marks if m.kind == "seat" and m.key == "0")
    name_box = next(p.box for p in canvas.texts if p.text.startswith("Bartholomew") and p.box[1] > seat_box[1])
    assert seat_box[0] < name_box[0] and name_box[2] < seat_box[2]


def test_fit_keeps_what_fits_and_shortens_only_what_does_not():
    face = fonts.font(24)
    assert fonts.fit("Kay", face, 200) == "Kay"
    short = fonts.fit("Sir Palamedes the Saracen Knight", face, 200)
    assert short.endswith("…") and face.getlength(short) <= 200
    assert face.getlength(fonts.fit("Sir Palamedes the Saracen Knight", face, 200)[:-1] + "x…") > 150


@pytest.mark.parametrize(
    ("name", "view"),
    [
        ("board", {"game": "board", "seats": [{"seat": 0}, {"seat": 1, "alive": False}], "quests": {}}),
        ("cards", {"game": "cards", "players": 2}),
    ],
)
def test_a_view_missing_keys_draws_them_as_absent(name, view):
    canvas = board_image.draw(name, view, "nl", {})
    assert canvas.png().startswith(b"\x89PNG") and _drawn(canvas, "seat") == ["0", "1"]


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
    assert image == board_image.render("board", game.view(state, None), "en", {i: f"#{i + 1}" for i in range(4)})


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
