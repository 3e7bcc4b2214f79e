"""Every prompt about a card says what the card does (issue 23 item 6): the card in the seat's own view (a Merlin
window's black card) or the card the prompt is named after (Lancelot's Armor, Sir Kay, Morgan #2)."""

from __future__ import annotations

from engine import get_game
from service.render import panel
from service.render.explain import about
from service.render.i18n import t
from service.render.narration.cardbook import text as card_text

GAME = get_game("board")


def _table(**stack):
    stack.update(skip_gesture=True, knights=["gawain", "palamedes", "percival"], first=0)
    return GAME.new_game({"players": 3, "stack": stack}, 1)


def test_a_merlin_window_explains_the_black_card_drawn_in_the_askers_language():
    state = _table(black=["morgan_two_engines"], hands=[[], ["merlin"], ["fight_1"]])
    state, _ = GAME.apply_code(state, 0, "evil:black")
    asked = [p.seat for p in GAME.pending(state) if p.kind == "window"]
    assert asked
    card = about("board", "window", GAME.view(state, asked[0]))
    assert card is not None and card.id == "morgan_two_engines"
    for lang in ("en", "ro"):
        question = panel("board", state, asked[0], game_id=1, seq=1, lang=lang).question
        assert t(lang, "ask.card", text=card_text(card, lang)) in question


def test_the_armors_prompt_explains_the_armor():
    state = _table(board={"relics": [["armor"], [], []]}, black=["morgan_two_engines", "despair"])
    state, _ = GAME.apply_code(state, 0, "evil:black")
    question = panel("board", state, 0, game_id=1, seq=2, lang="en").question
    armor = about("board", "armor", {})
    assert armor is not None and card_text(armor, "en") in question


def test_prompts_named_after_a_card_find_it_and_others_find_none():
    assert about("cards", "morgan2_count", {}).id == "morgan_2"
    assert about("board", "kay", {}).id == "kay"
    assert about("board", "heroic", {"drawn": "despair"}) is None  # the heroic action is about no one card
    assert about("board", "window", {}) is None  # the card not in this seat's view: nothing said
