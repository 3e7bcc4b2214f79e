"""Issue 23 item 11: the text board reads on a phone held upright: lines folded to 36 characters at the board's
separators, and no symbol that is not an emoji (U+1F0A0, the card back, shows as a box on some phones)."""

from __future__ import annotations

import random

import pytest

from engine import get_game
from engine.soak import bots_for
from service.render import i18n, phone
from service.render.present import renderer

LANGS = ["en", "cs", "pl", "nl", "ro", "it"]
NAMES = dict(enumerate(["Arthur", "Gawain", "Percival", "Tristan", "Galahad", "Lancelot", "Guinevere"]))
CARD_BACK = "\U0001f0a0"


def boards(kind: str, players: int, seed: int, lang: str, every: int = 5) -> list[str]:
    engine = get_game(kind)
    config = {"players": players}
    state, bots, rng = engine.new_game(config, seed), bots_for(kind, "heuristic", config, seed), random.Random(seed)
    names = {i: NAMES[i] for i in range(players)}
    out = []
    for n in range(5000):
        if engine.result(state) is not None:
            break
        seat = engine.pending(state)[0].seat
        bot = bots[seat] if isinstance(bots, dict) else bots
        state, _ = engine.apply(state, seat, bot.choose(engine, state, seat, rng))
        if n % every == 0 or engine.result(state) is not None:
            out.append(renderer(kind).board(engine.view(state, None), lang, names))
    return out


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(("kind", "players"), [("board", 7), ("cards", 5)])
def test_board_lines_fit_a_phone_wherever_they_can_be_folded(kind, players, lang):
    texts = boards(kind, players, 3, lang)
    assert len(texts) > 10
    for text in texts:
        assert CARD_BACK not in text
        for line in text.split("\n"):
            assert len(line) <= phone.PHONE_WIDTH or not any(sep in line for sep in (" · ", " ← ", ", ")), line


def test_no_catalogue_text_uses_the_card_back():
    for lang in LANGS:
        for message in i18n._catalog(lang) or []:
            assert CARD_BACK not in str(message.string or ""), (lang, message.id)


def test_fold_breaks_at_separators_and_indents_what_follows():
    line = "Saxons: run 1,2,3,4 · warriors 2/4 ← Arthur, Percival"
    assert phone.fold(line) == "Saxons: run 1,2,3,4 · warriors 2/4\n   ← Arthur, Percival"
    assert phone.fold("short · line") == "short · line"
    knights = "Excalibur: sword at 9/10 ← Arthur, Percival, Tristan, Galahad, Lancelot"
    assert phone.fold(knights) == (
        "Excalibur: sword at 9/10\n   ← Arthur, Percival, Tristan,\n   Galahad, Lancelot"
    )
    sentence = "Morgan's silence: no talking until someone goes on a quest."
    assert phone.fold(sentence) == sentence  # no separator: left to the chat
