"""Cards explained: every card of both games has a rules text in every language, and `/card NAME` finds it by any
language's name."""

from __future__ import annotations

import pytest

from engine.board import catalogue as board_cat
from engine.cards import catalogue as cards_cat
from service.render import i18n
from service.render.narration import card_text, find
from service.render.narration.cardbook import fold, name, text
from service.render.narration.cardbook_data import BOOK, RELICS
from tests.service.render.narration.games import LANGS


def test_the_book_holds_every_card_relic_quest_and_knight_the_engines_know():
    have = {(c.game, c.family, c.id) for c in BOOK}
    wanted = {("board", "white", c) for c in board_cat.WHITE_COUNTS}
    wanted |= {("board", "black", c) for c in board_cat.BLACK_COUNTS}
    wanted |= {("board", "relic", r) for r in RELICS} | {("board", "quest", q) for q in board_cat.LOCATIONS}
    wanted |= {("board", "knight", k) for k in board_cat.KNIGHTS}
    wanted |= {("cards", "rumor", c) for c in cards_cat.RUMOR_COUNTS}
    wanted |= {("cards", "quest", q) for q in cards_cat.QUESTS}
    wanted |= {("cards", "knight", k) for k in cards_cat.KNIGHTS}
    assert have == wanted


@pytest.mark.parametrize("lang", LANGS)
def test_every_card_has_its_own_rules_text_in_every_language(lang):
    for card in BOOK:
        key = f"cardtext.{card.game}.{card.text}"
        assert i18n.has(key, lang), key
        said = text(card, lang)
        assert said and "{" not in said and "cardtext." not in said, (card, said)
        assert not name(card, lang).startswith(("board.", "cards.")), card  # a name, not a missing key


@pytest.mark.parametrize("lang", LANGS)
def test_every_card_is_found_by_its_name_in_every_language(lang):
    for card in BOOK:
        assert card in find(name(card, lang)).cards, (lang, card)


def test_names_match_without_case_accents_or_punctuation():
    assert fold("Święty  Graal") == fold("swiety graal") == "swiety graal"
    assert fold("Merlin #3") == "merlin 3" and fold("Excalibur ?") == "excalibur ?"
    assert {c.id for c in find("SWIETY GRAAL").cards} == {"grail"}
    assert [c.id for c in find("merlin #3").cards] == ["merlin_3"]
    assert [c.id for c in find("kay").cards] == ["kay"]  # a later word of "Sir Kay"
    assert [c.id for c in find("Gowen").cards] == ["gawain", "gawain"]  # Polish: the board's and the card game's


def test_a_prefix_that_leads_to_one_rules_text_answers_it_and_one_that_does_not_asks_back():
    assert {c.id for c in find("fight").cards} == set(board_cat.FIGHT.values())
    assert card_text("fight", "en").startswith("🃏 Fight 1, Fight 2, Fight 3, Fight 4, Fight 5 (white card)\n")
    assert find("heldenm").cards[0].id == "heroism"
    assert find("morg").choices and not find("morg").cards
    assert card_text("morg", "en").startswith("🃏 Which one? ")


def test_a_name_shared_by_several_things_explains_each():
    answer = card_text("Excalibur", "it")
    assert answer.count("🃏 Excalibur") == 4  # the black card, the relic, the quest, the card game's quest
    assert "(carta Nera)" in answer and "(reliquia)" in answer


def test_the_answer_is_in_the_askers_language_whatever_the_names_language():
    assert card_text("Dama del Lago", "cs").startswith("🃏 Lady of the Lake (bílá karta)\nExcalibur se posune")
    assert card_text("Lancelots Pantser", "pl") == (
        "🃏 Lancelot's Armor (relikwia)\n"
        "Zdobywa się ją u Lancelota; z nią Percewal ogląda 2 czarne karty i jedną wkłada pod talię."
    )
    assert card_text("Picten 4", "en") == (
        "🃏 Picts 4 (card game: Rumor card)\nCounts towards Picts; a “?” is worth the number of “?” cards in its stack."
    )


def test_an_unknown_name_says_so():
    assert card_text("Gandalf", "en") == "🃏 No card is called “Gandalf”."
    assert card_text("  ", "nl") == "🃏 Geen kaart heet „”."
