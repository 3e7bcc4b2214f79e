"""C-RESOLVE and the resolution-time characters of C-CHAR: seed examples, thresholds, Mordred, Morgans, Merlins."""

from __future__ import annotations

import pytest
from cards_helpers import GAME, last, make, play

EX1 = ["grail_3", "grail_q", "picts_5", "picts_3", "picts_2", "picts_q", "picts_q",
       "excalibur_5", "excalibur_3", "excalibur_q", "excalibur_q"]


def resolve(threat: list[str], quest: str, players: int = 3, **stack):
    s = make(players, threat=threat, **stack)
    ev = play(s, (0, f"quest:{quest}"))
    return s, last(ev, "quest_sorted").data["totals"], last(ev, "quest_result").data, ev


def test_seed_example_1_excalibur_12_two_white_picts_secondary_14_one_black():
    s, totals, result, _ = resolve(EX1, "excalibur")
    assert totals == {"excalibur": 12, "grail": 4, "picts": 14}
    assert result["outcome"] == "success"
    assert result["swords"] == [["excalibur", "white", 2], ["picts", "black", 1]]
    assert (s.white, s.black) == (2, 1)
    assert s.threat == [] and len(s.discard) == len(EX1)


def test_seed_example_2_excalibur_7_one_black_picts_11_secondary_nothing():
    threat = ["grail_4", "picts_5", "picts_3", "picts_2", "picts_q", "excalibur_3", "excalibur_q", "excalibur_q"]
    s, totals, result, _ = resolve(threat, "excalibur")
    assert totals == {"excalibur": 7, "grail": 4, "picts": 11}
    assert result["outcome"] == "early" and result["swords"] == [["excalibur", "black", 1]]
    assert (s.white, s.black) == (0, 1)


@pytest.mark.parametrize(
    ("cards", "outcome", "swords"),
    [
        (["dragon_5", "dragon_4", "dragon_q"], "early", [["dragon", "black", 1]]),  # 10
        (["dragon_5", "dragon_4", "dragon_2"], "success", [["dragon", "white", 2]]),  # 11
        (["dragon_5", "dragon_4", "dragon_4"], "success", [["dragon", "white", 2]]),  # 13
        (["dragon_5", "dragon_4", "dragon_3", "dragon_2"], "late", [["dragon", "black", 2]]),  # 14
        (["grail_5", "grail_4", "grail_3"], "success", [["grail", "white", 3]]),  # 12: the Grail gives 3
        (["saxons_5", "saxons_4", "saxons_3", "saxons_2"], "late", [["saxons", "black", 1]]),
    ],
)
def test_main_quest_thresholds_and_swords_per_quest(cards, outcome, swords):
    _, _, result, _ = resolve(cards, cards[0].split("_")[0])
    assert result["outcome"] == outcome and result["swords"] == swords


def test_question_marks_are_worth_their_count_in_the_stack():
    _, totals, _, _ = resolve(["picts_q", "picts_q", "picts_q", "grail_q", "dragon_q", "dragon_q"], "dragon")
    assert totals == {"picts": 9, "grail": 1, "dragon": 4}


def test_secondary_quest_under_14_gives_nothing_and_14_gives_its_black_swords():
    threat = ["grail_5", "grail_4", "grail_3", "grail_2", "dragon_5", "dragon_4", "dragon_4", "picts_4"]
    _, totals, result, _ = resolve(threat, "picts")
    assert totals == {"grail": 14, "dragon": 13, "picts": 4}
    assert result["swords"] == [["picts", "black", 1], ["grail", "black", 3]]


def test_main_quest_absent_from_the_pile_is_too_early():
    _, totals, result, _ = resolve(["picts_5", "mordred"], "saxons")
    assert "saxons" not in totals and result["outcome"] == "early"


def test_mordred_seed_example_picts_12_saxons_5():
    threat = ["picts_5", "picts_q", "picts_q", "saxons_4", "mordred"]
    _, totals, _, _ = resolve(threat, "picts")
    assert totals == {"picts": 12, "saxons": 5}


def test_morgan_3_adds_one_sword_to_every_placement():
    threat = ["morgan_3", "grail_5", "grail_4", "grail_3", "grail_2", "dragon_5", "dragon_4", "dragon_2"]
    _, _, result, _ = resolve(threat, "dragon")
    assert result["swords"] == [["dragon", "white", 3], ["grail", "black", 4]]


def test_morgan_4_adds_its_value_to_present_quests_only():
    _, totals, _, _ = resolve(["dragon_5", "grail_2", "morgan_4_3"], "dragon")
    assert totals == {"dragon": 8, "grail": 5}


def test_morgan_5_success_only_on_12_or_13():
    _, _, result, _ = resolve(["morgan_5", "dragon_5", "dragon_4", "dragon_2"], "dragon")
    assert result["outcome"] == "early" and result["swords"] == [["dragon", "black", 1]]
    _, _, result, _ = resolve(["morgan_5", "dragon_5", "dragon_4", "dragon_3"], "dragon")
    assert result["outcome"] == "success"


def test_morgan_6_question_marks_worth_one():
    _, totals, _, _ = resolve(["morgan_6", "dragon_q", "dragon_q", "dragon_q", "dragon_5"], "dragon")
    assert totals == {"dragon": 8}


def test_morgan_7_loyal_lose_at_once_on_main_14():
    s, _, _, ev = resolve(["morgan_7", "dragon_5", "dragon_4", "dragon_3", "dragon_2"], "dragon")
    assert GAME.result(s)["winner"] == "evil" and GAME.result(s)["reason"] == "morgan_7"
    assert s.black == 2  # the swords were placed, but the game is lost whatever they are


def test_morgan_7_harmless_below_14():
    s, _, _, _ = resolve(["morgan_7", "dragon_5", "dragon_4", "dragon_3"], "dragon")
    assert GAME.result(s) is None and s.white == 2


@pytest.mark.parametrize(
    ("merlin", "threat", "totals"),
    [
        ("merlin_1", ["picts_5", "picts_2", "saxons_4", "saxons_q", "dragon_5"],
         {"picts": 2, "saxons": 1, "dragon": 5}),
        ("merlin_2", ["dragon_5", "dragon_3", "grail_4", "grail_2", "picts_5"], {"dragon": 3, "grail": 2, "picts": 5}),
        ("merlin_3", ["excalibur_5", "excalibur_4", "grail_4", "grail_3", "picts_5"],
         {"excalibur": 4, "grail": 3, "picts": 5}),
    ],
)
def test_merlins_1_to_3_remove_the_highest_card_of_their_quests(merlin, threat, totals):
    quest = threat[-1].split("_")[0]
    _, got, _, ev = resolve([merlin, *threat], quest)
    assert got == totals
    assert len(last(ev, "quest_sorted").data["removed"]) == 2


def test_merlin_never_removes_a_question_mark():
    _, totals, _, _ = resolve(["merlin_1", "picts_q", "picts_q", "saxons_5"], "saxons")
    assert totals == {"picts": 4}  # Saxons' only card removed: the quest is absent; Picts "?" untouched


def test_merlin_4_token_chosen_at_reveal_removes_at_next_resolution():
    s = make(3, deck=["merlin_4"], threat=["dragon_5", "dragon_4", "dragon_3", "dragon_q"])
    ev = play(s, (0, "listen"))
    assert s.phase == "token" and GAME.pending(s)[0].seat == 0
    ev = play(s, (0, "token:dragon"))
    assert GAME.view(s, None)["merlin4_token"] is True
    assert GAME.view(s, 0)["you"]["merlin4_quest"] == "dragon" and GAME.view(s, 1)["you"]["merlin4_quest"] is None
    assert all(e.kind != "merlin4_quest" or e.to == frozenset({0}) for e in ev)
    s.threat.append("dragon_2")
    s.threat_seen.append(-1)
    ev = play(s, (1, "quest:dragon"))
    assert last(ev, "quest_sorted").data["totals"] == {"dragon": 10}  # 4+3+1+2: the 5 removed
    assert s.token is None


def test_merlin_5_main_succeeds_with_exactly_five_cards():
    threat = ["merlin_5", "dragon_5", "dragon_4", "dragon_4", "dragon_3", "dragon_2"]
    _, totals, result, _ = resolve(threat, "dragon")
    assert totals["dragon"] == 18 and result["outcome"] == "success"
    _, _, result, _ = resolve(threat[:-1], "dragon")
    assert result["outcome"] == "late"


def test_swords_never_exceed_the_box():
    _, _, result, _ = resolve(["grail_5", "grail_4", "grail_3", "grail_2"], "grail", swords=[8, 7])
    assert result["swords"] == [["grail", "black", 1]]
