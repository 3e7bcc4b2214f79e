"""Scenarios for setup (B-SETUP), the turn (B-TURN), sacrifice (B-SACRIFICE), life and death (B-LIFE),
leaving (B-LEAVE) and the end of the game (B-END)."""

from __future__ import annotations

import pytest
from board_helpers import GAME, asked, check_invariants, codes, play, table

from engine.core import IllegalAction

F1, F2, F3, F4, F5 = "fight_1", "fight_2", "fight_3", "fight_4", "fight_5"


def test_setup_deals_a_merlin_and_five_cards_four_life_and_arthur_starts() -> None:
    state, events = GAME.start({"players": 5, "knights": ["gawain", "kay", "arthur", "tristan", "galahad"]}, 4)
    assert state.current == 2
    assert all(len(h) == 6 and "merlin" in h for h in state.hands)
    assert state.life == [4] * 5 and state.loc == ["camelot"] * 5
    assert sorted(state.loyalty).count("traitor") <= 1
    assert asked(state) == [(i, "gesture") for i in range(5)]
    hand_events = [e for e in events if e.kind == "hand"]
    assert [sorted(e.to) for e in hand_events] == [[i] for i in range(5)]
    check_invariants(state)


def test_opening_gesture_split_by_agreement() -> None:
    hands = [["merlin", F1, F2, F3, F4, F5], ["merlin", "grail", F1, F1, F2, F2], ["merlin", F3, F3, F4, F4, F5]]
    state = table(3, hands=hands, skip_gesture=False)
    play(state, 0, "give:fight_5")
    play(state, 1, "give:grail")
    play(state, 2, "give:fight_4")
    assert GAME.view(state, None)["table"] == ["fight_5", "grail", "fight_4"]
    play(state, 0, "give:1", "give:1", "give:2")  # the first player proposes: seat 1 takes two cards
    assert asked(state) == [(1, "split"), (2, "split")]
    play(state, 1, "accept")
    play(state, 2, "accept")
    assert sorted(state.hands[1]).count("grail") == 1 and "fight_5" in state.hands[1]
    assert len(state.hands) == 3 and [len(h) for h in state.hands] == [5, 7, 6]
    assert asked(state) == [(0, "evil")]


def test_opening_gesture_refused_deals_one_card_each_at_random() -> None:
    state = table(3, skip_gesture=False)
    for seat in range(3):
        play(state, seat, codes(state, seat)[0])
    play(state, 0, "give:0", "give:0", "give:0")
    play(state, 1, "accept")
    play(state, 2, "refuse")
    assert [len(h) for h in state.hands] == [6, 6, 6]


def test_evil_phase_offers_black_card_siege_engine_or_life() -> None:
    state = table(3)
    assert asked(state) == [(0, "evil")]
    assert set(codes(state, 0)) == {"evil:black", "evil:siege", "evil:life"}
    play(state, 0, "evil:siege")
    assert state.engines == 1 and asked(state) == [(0, "heroic")]


def test_heroic_action_is_compulsory_and_cannot_be_passed() -> None:
    state = table(3, hands=[[F1], [], []])
    play(state, 0, "evil:life")
    legal = codes(state, 0)
    assert "end" not in legal and "pass" not in legal
    with pytest.raises(IllegalAction) as err:
        play(state, 0, "end")
    assert err.value.rule == "B-TURN"
    play(state, 0, "draw")
    assert codes(state, 0) == ["end", "sacrifice"]


def test_sacrifice_second_action_must_be_of_another_type() -> None:
    state = table(3, hands=[[F1, F1, F1], [], []])
    play(state, 0, "evil:siege", "draw", "sacrifice")
    assert state.life[0] == 3
    legal = codes(state, 0)
    assert "draw" not in legal and "siege" not in legal  # quest action already taken
    assert "move:grail" in legal and "heal:fight_1" in legal
    play(state, 0, "move:grail")
    assert state.loc[0] == "grail" and asked(state) == [(1, "evil")]  # no second sacrifice


def test_sacrifice_to_zero_still_acts_then_dies_despite_a_quest_win() -> None:
    board = {"life": [1, 4, 4], "loc": ["grail", "grail", "camelot"], "grail_white": 6}
    state = table(3, hands=[["grail", "reinforcements"], [F1], [F1]], board=board)
    play(state, 0, "evil:siege", "play:reinforcements.others", "sacrifice")
    assert state.life[0] == 0 and state.alive[0]
    play(state, 0, "grail")  # the Grail is won: +1 life would heal him, but he dies regardless
    assert state.grail_done and not state.alive[0]
    assert state.life[1] == 5 + 1  # Palamedes, present, gets the extra life
    assert "grail" not in state.relics[0]
    assert asked(state) == [(1, "evil")]  # shared cards all went to the only surviving knight


def test_a_knight_dying_in_his_own_evil_phase_takes_no_heroic_action() -> None:
    """B-TURN (issue 21, item 2; this test asserted the opposite before): seed 002, "Indien je jouw fase van
    'voortgang van het Kwade' overleeft, moet je vervolgens 1 van de 5 heroïsche acties ondernemen"; seed 000,
    "Pokud přežijete fázi rozpínání zla, přijdou na řadu rytíři a jejich hrdinské akce"; B-LIFE: "Al je witte kaarten
    worden onmiddellijk met afbeelding naar beneden verwijderd". No Grail in play: he dies at once, hand discarded."""
    board = {"life": [1, 4, 4], "loc": ["grail", "camelot", "camelot"], "grail_white": 6}
    state = table(3, hands=[["grail", F2, F3], [F1], [F1]], board=board)
    events = play(state, 0, "evil:life")  # 0 life in the Evil phase: no heroic action, not even the Grail's last card
    assert not state.alive[0] and state.hands[0] == [] and state.white_discard == ["grail", F2, F3]
    assert state.grail_white == 6 and not state.grail_done and "grail" not in state.relics[0]
    assert asked(state) == [(1, "evil")]
    assert not [e for e in events if e.public and {"grail", F2, F3} & set(map(str, e.data.values()))]
    check_invariants(state)


def test_life_is_clamped_to_six() -> None:
    state = table(3, hands=[["piety"], [], []], board={"life": [5, 4, 4]})
    play(state, 0, "evil:siege", "play:piety.self")
    assert state.life[0] == 6


def test_death_discards_cards_and_removes_excalibur_and_armor() -> None:
    board = {"life": [4, 1, 4], "relics": [[], ["excalibur", "armor"], []]}
    state = table(3, hands=[[], ["merlin", F1], [F2]], board=board, black=["morgan_lose_life"])
    play(state, 0, "evil:black")
    for seat in range(3):
        play(state, seat, "pass")
    assert not state.alive[1] and state.hands[1] == [] and state.relics[1] == []
    assert "merlin" in state.white_discard
    check_invariants(state)


def test_grail_holder_may_let_a_dying_knight_drink() -> None:
    board = {"life": [4, 1, 4], "relics": [[], [], ["grail"]]}
    state = table(3, hands=[[], [F1, F1], [F2]], board=board, black=["morgan_lose_life"])
    play(state, 0, "evil:black")
    for seat in range(3):
        play(state, seat, "pass")
    assert asked(state) == [(2, "grail_rescue")]
    play(state, 2, "drink")
    assert state.alive[1] and state.life[1] == 4 and state.hands[1] == [F1, F1]
    assert state.relics[2] == []


def test_grail_rescue_declined_kills() -> None:
    board = {"life": [4, 1, 4], "relics": [[], [], ["grail"]]}
    state = table(3, hands=[[], [F1], [F2]], board=board, black=["morgan_lose_life"])
    play(state, 0, "evil:black")
    for seat in range(3):
        play(state, seat, "pass")
    play(state, 2, "decline")
    assert not state.alive[1]


def test_leaving_is_dying_at_once() -> None:
    state = table(4, hands=[[F1], [F2, "merlin"], [], []])
    play(state, 1, "leave")
    assert not state.alive[1] and state.hands[1] == []
    play(state, 0, "evil:siege", "draw", "end")
    assert asked(state) == [(2, "evil")]  # the dead are skipped
    with pytest.raises(IllegalAction) as err:
        play(state, 1, "leave")
    assert err.value.rule == "B-LEAVE"


def test_twelfth_siege_engine_loses_at_once() -> None:
    state = table(3, board={"engines": 11})
    play(state, 0, "evil:siege")
    assert GAME.result(state)["winner"] == "evil" and GAME.result(state)["reason"] == "siege_engines"
    assert GAME.pending(state) == []


def test_seventh_black_sword_loses_at_once() -> None:
    board = {"swords_black": 6, "war_black": {"picts": ["picts", "picts", "picts"], "saxons": []}}
    state = table(3, board=board, black=["picts"])
    play(state, 0, "evil:black")
    assert GAME.result(state)["reason"] == "black_swords"


def test_all_loyal_dead_loses_even_with_white_swords() -> None:
    board = {"life": [1, 1, 1], "swords_white": 8}
    state = table(3, loyalty=["loyal", "loyal", "loyal"], board=board, black=["morgan_lose_life"])
    play(state, 0, "evil:black")
    for seat in range(3):
        play(state, seat, "pass")
    assert GAME.result(state)["reason"] == "loyal_dead"  # seat 0 dies in his Evil phase: at once (issue 21, item 2)
    assert state.alive == [False, False, False]


def test_twelfth_sword_ends_the_game_and_the_majority_wins() -> None:
    board = {"swords_white": 8, "swords_black": 3, "loc": ["black_knight", "camelot", "camelot"],
             "black_knight_white": [F2, F2, F3], "black_knight_black": [["black_knight_1", False, 1]]}
    state = table(3, loyalty=["loyal", "loyal", "loyal"], hands=[[F3], [], []], board=board)
    play(state, 0, "evil:siege", "fight:3")
    result = GAME.result(state)
    assert result["winner"] == "loyal" and result["reason"] == "swords" and result["swords"] == {"white": 9, "black": 3}


def test_a_game_ending_while_a_decision_holds_cards_keeps_every_card_counted() -> None:
    """B-END: the last loyal knight leaves while he decides how to place a Black Knight card he drew; the game is lost
    at once and the card he held (like a split's cards or a look's) goes to its discard pile, not out of the count."""
    board = {"alive": [True, False, True], "life": [4, 0, 4]}
    state = table(3, loyalty=["loyal", "loyal", "traitor"], hands=[[F1], [], [F2]], board=board,
                  black=["black_knight_5"])
    play(state, 0, "evil:black")
    assert asked(state) == [(0, "face")]
    play(state, 0, "leave")
    assert GAME.result(state)["reason"] == "loyal_dead" and "black_knight_5" in state.black_discard
    check_invariants(state)


def test_leaving_during_a_window_counts_as_passing() -> None:
    state = table(3, hands=[["merlin"], ["merlin"], ["merlin", "merlin"]], black=["morgan_two_engines"])
    play(state, 0, "evil:black", "merlin:1")
    play(state, 2, "merlin:2")
    play(state, 1, "leave")
    assert state.engines == 0 and "morgan_two_engines" in state.black_discard  # 3 Merlins were offered
    assert asked(state) == [(0, "heroic")]
    check_invariants(state)


def test_leaving_mid_turn_lets_the_next_knight_play() -> None:
    state = table(3, hands=[[F3, F4], [F1], [F2]], dice=[1])
    play(state, 0, "evil:siege", "siege", "add:3")
    play(state, 0, "leave")
    assert not state.alive[0] and asked(state) == [(1, "evil")]
    check_invariants(state)


def test_leaving_while_asked_for_a_card_drops_the_question() -> None:
    state = table(3, knights=["arthur", "kay", "gawain"], hands=[[F5], [F1], [F2]])
    play(state, 0, "evil:siege", "arthur:1.fight_5")
    play(state, 1, "leave")
    assert state.hands[0] == [F5] and asked(state) == [(0, "heroic")]
    check_invariants(state)
    state = table(3, skip_gesture=False)
    play(state, 1, "leave")
    play(state, 0, codes(state, 0)[0])
    play(state, 2, codes(state, 2)[0])
    assert asked(state)[0] == (0, "split")
    check_invariants(state)
