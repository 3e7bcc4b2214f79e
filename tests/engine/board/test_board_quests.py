"""Scenarios for quests (B-QUEST) and Camelot (B-CAMELOT)."""

from __future__ import annotations

import pytest
from board_helpers import GAME, asked, check_invariants, codes, play, table

from engine.core import IllegalAction

F1, F2, F3, F4, F5 = "fight_1", "fight_2", "fight_3", "fight_4", "fight_5"


def test_solo_quest_takes_one_knight_at_a_time() -> None:
    state = table(3, board={"loc": ["camelot", "black_knight", "camelot"]})
    play(state, 0, "evil:siege")
    assert "move:black_knight" not in codes(state, 0) and "move:lancelot" in codes(state, 0)
    with pytest.raises(IllegalAction):
        play(state, 0, "move:black_knight")


def test_leaving_a_solo_quest_discards_its_white_cards_but_not_black() -> None:
    board = {"loc": ["black_knight", "camelot", "camelot"], "black_knight_white": [F1, F1],
             "black_knight_black": [["black_knight_3", False, 1]]}
    state = table(3, board=board)
    play(state, 0, "evil:siege", "move:camelot")
    assert state.black_knight_white == [] and state.black_knight_black == [["black_knight_3", False, 1]]
    assert state.white_discard == [F1, F1]


@pytest.mark.parametrize(("quest", "played", "ok", "bad"), [
    ("black_knight", [F1, F1, F3], [3], [1, 2]),
    ("black_knight", [F4, F4, F4], [], [4, 1]),
    ("lancelot", [F3, F3, F3, F2], [2], [3, 1]),
    ("lancelot", [F2, F2], [2, 3], []),
    ("dragon", [F1, F1, F1, F2, F2, F2, F4, F4], [4], [1, 2, 3]),
])
def test_fight_cards_must_keep_the_pattern_completable(quest, played, ok, bad) -> None:
    hand = [F1, F2, F3, F4, F5]
    board = {"loc": [quest, "camelot", "camelot"], "lancelot_stage": "dragon" if quest == "dragon" else "lancelot"}
    board["black_knight_white" if quest == "black_knight" else "lancelot_white"] = list(played)
    state = table(3, hands=[hand, [], []], board=board)
    play(state, 0, "evil:siege")
    legal = codes(state, 0)
    for v in ok:
        assert f"fight:{v}" in legal
    for v in bad:
        assert f"fight:{v}" not in legal


def test_black_knight_won_gives_life_three_cards_and_a_white_sword() -> None:
    board = {"loc": ["black_knight", "camelot", "camelot"], "black_knight_white": [F5, F5, F4],
             "black_knight_black": [["black_knight_3", True, 2], ["black_knight_1", False, 1]]}
    state = table(3, hands=[[F4], [], []], board=board, white=["grail", "grail", F1])
    play(state, 0, "evil:siege", "fight:4")
    assert state.swords_white == 1 and state.life[0] == 5 and sorted(state.hands[0]) == [F1, "grail", "grail"]
    assert state.loc[0] == "camelot" and state.black_knight_white == [] and state.black_knight_black == []
    check_invariants(state)


def test_fight_ties_go_to_evil() -> None:
    board = {"loc": ["black_knight", "camelot", "camelot"], "black_knight_white": [F1, F1, F2],
             "black_knight_black": [["black_knight_5", False, 1]]}
    state = table(3, hands=[[F2], [], []], board=board)
    play(state, 0, "evil:siege", "fight:2")  # 6 vs 5: won
    assert state.swords_white == 1
    board["black_knight_black"] = [["black_knight_3", False, 1], ["black_knight_3", False, 1]]
    state = table(3, hands=[[F2], [], []], board=board)
    play(state, 0, "evil:siege", "fight:2")  # 6 vs 6: lost
    assert state.swords_black == 1 and state.life[0] == 3


def test_excalibur_holder_adds_one_to_his_fights() -> None:
    board = {"loc": ["black_knight", "camelot", "camelot"], "black_knight_white": [F1, F1, F2],
             "relics": [["excalibur"], [], []],
             "black_knight_black": [["black_knight_3", False, 1], ["black_knight_3", False, 1]]}
    state = table(3, hands=[[F2], [], []], board=board)
    play(state, 0, "evil:siege", "fight:2")  # 6 + 1 vs 6
    assert state.swords_white == 1


def test_lancelot_won_gives_the_armor_and_flips_to_the_dragon() -> None:
    board = {"loc": ["lancelot", "camelot", "camelot"], "lancelot_white": [F5, F5, F5, F4]}
    state = table(3, hands=[[F4], [], []], board=board)
    play(state, 0, "evil:siege", "fight:4")
    assert state.relics[0] == ["armor"] and state.lancelot_stage == "dragon" and len(state.hands[0]) == 4
    play(state, 0, "end")
    play(state, 1, "evil:siege")
    assert "move:dragon" in codes(state, 1) and "move:lancelot" not in codes(state, 1)


def test_dragon_won_shares_seven_cards_by_agreement() -> None:
    board = {"loc": ["dragon", "dragon", "camelot"], "lancelot_stage": "dragon",
             "lancelot_white": [F5, F5, F5, F4, F4, F4, F3, F3]}
    state = table(3, hands=[[F3], [], []], board=board)
    play(state, 0, "evil:siege", "fight:3")
    assert state.swords_white == 2 and state.life[:2] == [6, 6]  # +2 each; Palamedes' extra life is capped at 6
    assert asked(state) == [(0, "split")] and len(GAME.view(state, None)["table"]) == 7
    play(state, 0, *["give:1"] * 7)
    play(state, 1, "accept")
    assert len(state.hands[1]) == 7 and state.lancelot_stage == "done"


def test_excalibur_track_moves_with_discards_and_black_cards() -> None:
    state = table(3, hands=[["grail"], [], []], board={"loc": ["excalibur"] * 3, "excalibur_position": 9},
                  black=["excalibur"])
    play(state, 0, "evil:black")
    assert state.excalibur_position == 8
    state = table(3, hands=[["grail", F1], [], []],
                  board={"loc": ["excalibur", "camelot", "camelot"], "excalibur_position": 9})
    play(state, 0, "evil:siege", "excal:grail")
    assert state.excalibur_done and state.relics[0] == ["excalibur"] and state.swords_white == 2 and state.life[0] == 5
    assert len(state.hands[0]) == 1 + 7  # the only knight present takes the 7 cards privately


def test_excalibur_lost_at_the_evil_end() -> None:
    state = table(3, board={"loc": ["excalibur", "camelot", "camelot"], "excalibur_position": 1}, black=["excalibur"])
    play(state, 0, "evil:black")
    assert state.excalibur_done and state.swords_black == 2 and state.life[0] == 3


def test_grail_cards_fill_from_the_relic_and_cleanse_a_full_quest() -> None:
    board = {"loc": ["grail", "camelot", "camelot"], "grail_white": 3,
             "grail_black": ["despair", "despair", "desolation", "despair"]}
    state = table(3, hands=[["grail"], [], []], board=board)
    assert GAME.view(state, None)["quests"]["grail"]["spots"] == [
        "grail", "grail", "grail", "despair", "desolation", "despair", "despair"]
    play(state, 0, "evil:siege", "grail")  # full: removes the black card nearest the relic, both discarded
    assert state.grail_white == 3 and state.grail_black == ["despair", "despair", "desolation"]


def test_a_despair_drawn_onto_a_full_grail_quest_is_not_placed_it_removes_the_farthest_grail_card() -> None:
    """B-QUEST (issue 21, item 5; this test asserted the Despair took the Grail card's place before): seed 002
    DESPAIR, "wordt de kaart niet op het bord gelegd, maar daarentegen gebruikt om de Graalkaart te verwijderen die zich
    het verst van de Heilige Graal bevindt"; seed 004, "la carta non viene posta sul tabellone, ma usata per scartare
    la carta Graal più lontana dal Santo Graal". Both cards are discarded; a spot is free again."""
    board = {"grail_white": 4, "grail_black": ["despair", "despair", "despair"]}
    state = table(3, board=board, black=["despair"])
    events = play(state, 0, "evil:black")
    assert state.grail_white == 3 and state.grail_black == ["despair"] * 3
    assert state.black_discard == ["despair"] and state.white_discard == ["grail"]
    assert GAME.view(state, None)["quests"]["grail"]["spots"] == ["grail"] * 3 + [None] + ["despair"] * 3
    assert not any(e.kind == "black_placed" for e in events) and asked(state) == [(0, "heroic")]
    check_invariants(state)


def test_grail_won_gives_the_relic_to_the_player_of_the_last_card() -> None:
    board = {"loc": ["grail", "grail", "camelot"], "grail_white": 6}
    state = table(3, hands=[["grail"], [], []], board=board)
    play(state, 0, "evil:siege", "grail")
    assert state.relics[0] == ["grail"] and state.swords_white == 3 and state.grail_done
    assert state.life[:2] == [5, 6]


def test_grail_lost_when_seven_black_cards() -> None:
    state = table(3, board={"grail_black": ["despair"] * 6, "loc": ["grail", "camelot", "camelot"]}, black=["despair"])
    play(state, 0, "evil:black")
    assert state.grail_done and state.swords_black == 3 and state.life[0] == 3


def test_wars_need_an_ascending_run_from_one() -> None:
    board = {"loc": ["picts", "camelot", "camelot"], "war_white": {"picts": [F1, F2], "saxons": []}}
    state = table(3, hands=[[F1, F3, F4], [], []], board=board)
    play(state, 0, "evil:siege")
    assert [c for c in codes(state, 0) if c.startswith("fight")] == ["fight:3"]


def test_wars_in_any_order_variant() -> None:
    board = {"loc": ["picts", "camelot", "camelot"], "war_white": {"picts": [F1, F2], "saxons": []}}
    state = table(3, hands=[[F1, F3, F4], [], []], board=board, war_any_order=True)
    play(state, 0, "evil:siege")
    assert [c for c in codes(state, 0) if c.startswith("fight")] == ["fight:3", "fight:4"]


def test_war_won_shares_four_cards_and_gives_life() -> None:
    board = {"loc": ["picts", "camelot", "camelot"], "war_white": {"picts": [F1, F2, F3, F4], "saxons": []},
             "war_black": {"picts": ["picts"], "saxons": []}}
    state = table(3, hands=[[F5], [], []], board=board)
    play(state, 0, "evil:siege", "fight:5")
    assert state.swords_white == 1 and state.life[0] == 5 and len(state.hands[0]) == 4
    assert state.war_black["picts"] == [] and "picts" in state.black_discard


def test_quest_lost_with_nobody_present_still_gives_swords_and_engines() -> None:
    state = table(3, board={"war_black": {"picts": [], "saxons": ["saxons"] * 3}}, black=["saxons"])
    play(state, 0, "evil:black")
    assert state.swords_black == 1 and state.engines == 2 and state.life == [4, 4, 4]


def test_heroism_adds_a_sword_of_the_results_colour() -> None:
    board = {"loc": ["grail", "camelot", "camelot"], "grail_white": 6}
    state = table(3, hands=[["grail", "heroism"], [], []], board=board)
    play(state, 0, "evil:siege", "play:heroism.grail", "sacrifice", "grail")
    assert state.swords_white == 4 and "heroism" in state.white_discard


def test_palamedes_gains_an_extra_life_on_a_won_quest() -> None:
    board = {"loc": ["camelot", "picts", "camelot"], "war_white": {"picts": [F1, F2, F3, F4], "saxons": []}}
    state = table(3, hands=[[], [F5], []], board=board, first=1)
    play(state, 1, "evil:siege", "fight:5")
    assert state.life[1] == 6


def test_round_table_draws_two_only_below_twelve_cards() -> None:
    state = table(3, knights=["kay", "palamedes", "percival"], hands=[[F1] * 11, [], []])
    play(state, 0, "evil:siege", "draw")
    assert len(state.hands[0]) == 13
    state = table(3, knights=["kay", "palamedes", "percival"], hands=[[F1] * 12, [], []])
    play(state, 0, "evil:siege")
    assert "draw" not in codes(state, 0)


def test_siege_fight_beats_the_die_to_remove_an_engine() -> None:
    state = table(3, hands=[[F3, F4, F1], [], []], board={"engines": 3}, dice=[6])
    play(state, 0, "evil:life", "siege", "add:3", "add:4", "roll")
    assert state.engines == 2 and state.hands[0] == [F1]
    state = table(3, hands=[[F3, F4], [], []], board={"engines": 3}, dice=[7])
    play(state, 0, "evil:life", "siege", "add:3", "add:4", "roll")
    assert state.engines == 3 and state.life[0] == 2
    state = table(3, hands=[[F3, F4], [], []], board={"engines": 3, "relics": [["excalibur"], [], []]}, dice=[7])
    play(state, 0, "evil:life", "siege", "add:3", "add:4", "roll")
    assert state.engines == 2


def test_siege_win_is_not_a_quest_win_for_vivien() -> None:
    state = table(3, hands=[[F5, F5], [], []], board={"engines": 3, "vivien": True}, dice=[2])
    play(state, 0, "evil:life", "siege", "add:5", "roll")
    assert state.engines == 2 and state.vivien
