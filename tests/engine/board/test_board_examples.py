"""The seeds' worked examples and FAQ answers, played through the engine."""

from __future__ import annotations

from board_helpers import GAME, check_invariants, codes, play, table

F1, F2, F3, F4, F5 = "fight_1", "fight_2", "fight_3", "fight_4", "fight_5"


def test_lancelot_fight_fourteen_against_eleven_with_four_face_down_cards() -> None:
    """Dutch rulebook p. 14: the 5th black card ends the quest; 3+1+1+5+1 = 11 against 4+5+5 = 14: the knight wins."""
    black = [["lancelot_3", True, 0], ["lancelot_1", True, 2], ["lancelot_1", True, 0], ["lancelot_5", True, 2]]
    board = {"loc": ["camelot", "lancelot", "camelot"], "lancelot_white": [F4, F5, F5], "lancelot_black": black}
    state = table(3, knights=["gawain", "palamedes", "galahad"], board=board, black=["lancelot_1"])
    assert GAME.view(state, 1)["quests"]["lancelot"]["black"] == ["hidden"] * 4
    events = play(state, 0, "evil:black", "face:up")
    fight = next(e for e in events if e.kind == "fight")
    assert (fight.data["white"], fight.data["black"], fight.data["won"]) == (14, 11, True)
    revealed = next(e for e in events if e.kind == "black_revealed")
    assert sorted(revealed.data["cards"]) == ["lancelot_1"] * 3 + ["lancelot_3", "lancelot_5"]
    assert state.relics[1] == ["armor"] and state.swords_white == 1 and state.lancelot_stage == "dragon"
    check_invariants(state)


def test_merlin_faq_on_the_grail_with_despair_and_desolation() -> None:
    """Dutch FAQ: Merlin removes only the LAST black card on the Grail, never a Desolation."""
    board = {"grail_white": 1, "grail_black": ["despair", "despair", "desolation", "despair"]}
    hands = [["merlin", F1], ["merlin", F2], ["merlin", F3]]
    state = table(3, knights=["arthur", "gawain", "tristan"], hands=hands, board=board,
                  black=["despair", "black_knight_3"])
    spots = GAME.view(state, None)["quests"]["grail"]["spots"]
    assert spots == ["grail", None, None, "despair", "desolation", "despair", "despair"]
    play(state, 0, "evil:black")  # Arthur draws a Despair
    assert GAME.view(state, None)["quests"]["grail"]["spots"][2] == "despair"
    play(state, 0, "play:merlin.grail", "end")  # and removes it again
    assert state.grail_black == ["despair", "despair", "desolation", "despair"]
    play(state, 1, "evil:black", "face:down")  # Gawain: a Black Knight face down
    play(state, 1, "play:merlin.grail", "end")  # then removes the last (current) Despair of the Grail
    assert GAME.view(state, None)["quests"]["grail"]["spots"] == [
        "grail", None, None, None, "desolation", "despair", "despair"]
    play(state, 2, "evil:siege")  # Tristan may not: the last card on the Grail is a Desolation
    assert "play:merlin.grail" not in codes(state, 2) and "play:merlin.black_knight" in codes(state, 2)
    check_invariants(state)


def test_twelfth_siege_engine_beats_a_twelfth_white_majority_sword() -> None:
    """Dutch FAQ: a war lost lays the 12th sword (white majority) and the 12th engine at once: the game is lost."""
    board = {"engines": 10, "swords_white": 8, "swords_black": 3,
             "war_black": {"picts": ["picts", "picts", "mercenaries"], "saxons": []}}
    state = table(3, loyalty=["loyal"] * 3, board=board, black=["picts"])
    play(state, 0, "evil:black")
    result = GAME.result(state)
    assert result["winner"] == "evil" and result["reason"] == "siege_engines"
    assert state.swords_white + state.swords_black == 12 and state.swords_white > state.swords_black


def test_four_white_seven_black_then_heroism_is_too_late() -> None:
    """Dutch FAQ: the game ended when the 7th black sword landed; a later Grail win with Heroism changes nothing."""
    board = {"swords_white": 4, "swords_black": 6, "grail_white": 6, "heroism": "grail",
             "loc": ["grail", "camelot", "camelot"],
             "black_knight_black": [["black_knight_1", False, 1]] * 3}
    state = table(3, loyalty=["loyal"] * 3, hands=[["grail"], [], []], board=board, black=["black_knight_1"])
    play(state, 0, "evil:black", "face:up")  # 4th Black Knight card, nobody there: the 7th black sword
    result = GAME.result(state)
    assert result["winner"] == "evil" and result["reason"] == "black_swords"
    assert GAME.legal_actions(state, 0) == [] and state.grail_white == 6


def test_a_dead_traitor_does_not_flip_swords() -> None:
    """Digest §4/§9: the dead never reveal; a dead Traitor does not flip two swords at the end."""
    board = {"swords_white": 6, "swords_black": 5, "alive": [True, True, False], "life": [4, 4, 0],
             "war_white": {"picts": [F1, F2, F3, F4], "saxons": []}, "loc": ["picts", "camelot", "camelot"]}
    state = table(3, loyalty=["loyal", "loyal", "traitor"], hands=[[F5], [], []], board=board)
    play(state, 0, "evil:siege", "fight:5")
    result = GAME.result(state)
    assert result["swords"] == {"white": 7, "black": 5} and result["winner"] == "loyal"
    alive = table(3, loyalty=["loyal", "loyal", "traitor"], hands=[[F5], [], []], board={**board, "alive": [True] * 3,
                                                                                         "life": [4, 4, 4]})
    play(alive, 0, "evil:siege", "fight:5")
    assert GAME.result(alive)["swords"] == {"white": 5, "black": 7} and GAME.result(alive)["winner"] == "evil"


def test_arthur_forced_exchange_both_cards_chosen_blind() -> None:
    """Knight sheet: Arthur's exchange is forced; the other knight picks his card without seeing Arthur's."""
    state = table(3, knights=["arthur", "gawain", "kay"], hands=[[F5], [F1, F2], [F3]])
    play(state, 0, "evil:siege", "arthur:2.fight_5")
    view = GAME.view(state, 2)
    assert view["you"]["hand"] == [F3] and "fight_5" not in str(view)  # Kay does not see what he will get
    play(state, 2, "give:fight_3")
    assert state.hands[0] == [F3] and state.hands[2] == [F5]
