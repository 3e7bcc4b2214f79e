"""Scenarios for the Traitor (B-TRAITOR), the variants (B-VAR) and table talk (B-TALK)."""

from __future__ import annotations

import random

import pytest
from board_helpers import GAME, asked, check_invariants, codes, play, table

from engine.core import IllegalAction

F1, F2, F3, F4, F5 = "fight_1", "fight_2", "fight_3", "fight_4", "fight_5"
TRAITOR_AT_2 = ["loyal", "loyal", "traitor"]


def test_accusations_wait_for_six_swords_or_engines() -> None:
    state = table(3, loyalty=TRAITOR_AT_2, board={"engines": 4, "swords_white": 1, "swords_black": 4})
    play(state, 0, "evil:siege")
    assert not any(c.startswith("accuse") for c in codes(state, 0))  # 5 engines, 5 swords
    state = table(3, loyalty=TRAITOR_AT_2, board={"engines": 5})
    play(state, 0, "evil:siege")
    assert {"accuse:1", "accuse:2"} <= set(codes(state, 0))


def test_false_accusation_flips_a_white_sword_and_clears_the_accused() -> None:
    state = table(3, loyalty=TRAITOR_AT_2, board={"engines": 6, "swords_white": 2})
    play(state, 0, "evil:life", "accuse:1")
    assert state.swords_white == 1 and state.swords_black == 1
    assert GAME.view(state, None)["seats"][1]["loyalty"] == "loyal" and GAME.view(state, None)["seats"][1]["accused"]
    play(state, 0, "end")
    play(state, 1, "evil:siege")
    assert any(c.startswith("accuse") for c in codes(state, 1))
    play(state, 1, "draw", "end")
    play(state, 2, "evil:siege", "draw", "end")
    play(state, 0, "evil:siege")
    assert not any(c.startswith("accuse") for c in codes(state, 0))  # one accusation per knight per game


def test_unmasked_traitor_loses_his_cards_and_relics_and_adds_a_white_sword() -> None:
    board = {"engines": 6, "relics": [[], [], ["excalibur", "grail", "armor"]],
             "loc": ["camelot", "camelot", "lancelot"], "lancelot_white": [F1]}
    state = table(3, loyalty=TRAITOR_AT_2, hands=[[], [], [F2, "merlin"]], board=board)
    play(state, 0, "evil:life", "accuse:2")
    assert state.revealed[2] and state.swords_white == 1 and state.hands[2] == []
    assert state.relics[2] == ["armor"] and state.lancelot_white == []
    assert GAME.view(state, None)["seats"][2]["loyalty"] == "traitor"
    check_invariants(state)


def test_revealed_traitor_turn_discards_a_random_card_then_feeds_evil() -> None:
    board = {"engines": 6, "revealed": [False, False, True]}
    state = table(3, loyalty=TRAITOR_AT_2, hands=[[F1, F2], [F3], []], board=board, first=2)
    assert asked(state) == [(2, "traitor_steal")] and codes(state, 2) == ["steal:0", "steal:1"]
    play(state, 2, "steal:1")
    assert state.hands[1] == [] and F3 in state.white_discard
    assert codes(state, 2) == ["evil:black", "evil:siege"]
    play(state, 2, "evil:siege")
    assert state.engines == 7 and asked(state) == [(0, "evil")]


def test_revealed_traitor_gets_nothing_from_fate_or_reinforcements() -> None:
    board = {"revealed": [False, False, True]}
    state = table(3, loyalty=TRAITOR_AT_2, hands=[["fate"], [], []], board=board)
    play(state, 0, "evil:siege", "play:fate.draw")
    assert [len(h) for h in state.hands] == [1, 1, 0]


def test_fate_lets_the_traitor_reveal_himself_and_everyone_discards_two() -> None:
    state = table(3, loyalty=["traitor", "loyal", "loyal"], hands=[["fate"], [F1, F2, F3], [F1]])
    play(state, 0, "evil:siege")
    assert "play:fate.reveal" in codes(state, 0)
    play(state, 0, "play:fate.reveal")
    assert state.revealed[0] and asked(state) == [(1, "discard"), (2, "discard")]
    play(state, 1, "discard:fight_1", "discard:fight_3")
    play(state, 2, "discard:fight_1")
    assert state.hands == [[], [F2], []] and asked(state) == [(1, "evil")]
    loyal = table(3, loyalty=["loyal", "loyal", "traitor"], hands=[["fate"], [], []])
    play(loyal, 0, "evil:siege")
    assert "play:fate.reveal" not in codes(loyal, 0)


def test_alive_hidden_traitor_flips_two_white_swords_at_the_end() -> None:
    board = {"swords_white": 8, "swords_black": 3, "war_white": {"picts": [F1, F2, F3, "fight_4"], "saxons": []},
             "loc": ["picts", "camelot", "camelot"]}
    state = table(3, loyalty=TRAITOR_AT_2, hands=[["fight_5"], [], []], board=board)
    play(state, 0, "evil:siege", "fight:5")  # 12th sword: 9 white vs 3 black, then the flip: 7 vs 5
    result = GAME.result(state)
    assert result["swords"] == {"white": 7, "black": 5} and result["winner"] == "loyal"
    assert result["loyalty"] == TRAITOR_AT_2


def test_no_traitor_variant_shows_loyalty_to_all() -> None:
    state = table(4, traitor="none")
    assert state.loyalty == ["loyal"] * 4 and "traitor" in state.removed
    assert [s["loyalty"] for s in GAME.view(state, None)["seats"]] == ["loyal"] * 4
    check_invariants(state)


def test_traitor_among_us_always_has_n_loyal_and_one_traitor_card() -> None:
    traitors = 0
    for seed in range(40):
        state = GAME.new_game({"players": 4, "variant": {"traitor": "among_us"}}, seed)
        assert sorted(state.loyalty + state.loyalty_unused) == ["loyal"] * 4 + ["traitor"]
        traitors += "traitor" in state.loyalty
        check_invariants(state)
    assert 25 <= traitors <= 40  # 4 in 5 tables have a Traitor (standard: 4 in 8)


def test_three_player_rule_hides_own_loyalty_until_six_swords_or_engines() -> None:
    stack = {"three_player_rule": True, "loyalty": ["traitor", "loyal", "loyal"], "hands": [["fate"], [], []]}
    state = table(3, board={"engines": 4}, **stack)
    play(state, 0, "evil:siege")
    assert GAME.view(state, 0)["you"]["loyalty"] is None
    assert "play:fate.draw" in codes(state, 0) and "play:fate.reveal" not in codes(state, 0)
    state = table(3, board={"engines": 5}, **stack)
    events = play(state, 0, "evil:siege")
    assert GAME.view(state, 0)["you"]["loyalty"] == "traitor" and GAME.view(state, 1)["you"]["loyalty"] == "loyal"
    seen = [e for e in events if e.kind == "loyalty"]
    assert sorted(next(iter(e.to)) for e in seen) == [0, 1, 2]
    assert "play:fate.reveal" in codes(state, 0)


def test_three_player_rule_czech_reading_waits_for_six_swords_only() -> None:
    """B-VAR [choice] (issue 21, also from the rulebooks): seed 000, "smí se podívat až ve chvíli, kdy je u Kulatého
    stolu položeno nejméně šest mečů" (six swords); seed 002 FAQ, "een 6° zwaard of 6° belegeringsmachine" (the
    default). With `three_player_trigger: "swords"` six siege engines are not enough."""
    stack = {"three_player_rule": True, "three_player_trigger": "swords", "loyalty": ["traitor", "loyal", "loyal"]}
    state = table(3, board={"engines": 5, "swords_white": 3, "swords_black": 2}, **stack)
    play(state, 0, "evil:siege")
    assert state.engines == 6 and GAME.view(state, 0)["you"]["loyalty"] is None
    play(state, 0, "draw", "end")
    state = table(3, board={"swords_white": 3, "swords_black": 2, "war_black": {"picts": ["picts"] * 3, "saxons": []}},
                  black=["picts"], **stack)
    play(state, 0, "evil:black")  # the lost war lays the 6th sword
    assert [GAME.view(state, i)["you"]["loyalty"] for i in range(3)] == ["traitor", "loyal", "loyal"]
    with pytest.raises(IllegalAction) as err:
        GAME.new_game({"players": 3, "three_player_rule": True, "three_player_trigger": "engines"}, 1)
    assert err.value.rule == "B-VAR"


def test_squires_have_no_power_and_the_winner_is_knighted() -> None:
    board = {"loc": ["picts", "camelot", "camelot"], "war_white": {"picts": [F1, F2, F3, "fight_4"], "saxons": []}}
    state = table(3, squires=True, hands=[["fight_5"], [], []], board=board)
    assert state.knight == [None, None, None]
    play(state, 0, "evil:siege", "fight:5")
    assert state.knight[0] is not None and state.knight[1:] == [None, None]


def test_harder_squires_start_with_less() -> None:
    state = GAME.new_game({"players": 4, "squires": True, "squire_life": 3, "squire_cards": 3}, 2)
    assert state.life == [3] * 4 and all(len(h) == 4 for h in state.hands)


def test_joining_mid_game_takes_a_free_knight_left_of_arthur() -> None:
    state = table(3, knights=["gawain", "arthur", "kay"], first=0)
    _, events = GAME.join(state)
    assert state.n == 4 and state.order == [0, 1, 3, 2] and state.knight[3] not in ("gawain", "arthur", "kay")
    assert state.life[3] == 4 and len(state.hands[3]) == 5 and state.loc[3] == "camelot"
    check_invariants(state)
    play(state, 0, "evil:siege", "draw", "end")
    play(state, 1, "evil:siege", "draw", "end")
    assert asked(state) == [(3, "evil")]


def test_join_refused_when_the_table_is_full() -> None:
    state = GAME.new_game({"players": 7}, 1)
    with pytest.raises(IllegalAction) as err:
        GAME.join(state)
    assert err.value.rule == "B-VAR"


def test_table_talk_is_etiquette_public_view_never_names_hidden_cards() -> None:
    """B-TALK is not enforced by the engine; what it guarantees is that nothing hidden reaches the public view."""
    state = GAME.new_game({"players": 5}, 9)
    rng = random.Random(1)
    for _ in range(80):
        if GAME.result(state):
            break
        public = str(GAME.view(state, None))
        for seat in range(state.n):
            assert str(sorted(state.hands[seat])) not in public or not state.hands[seat]
        seat = GAME.pending(state)[0].seat
        actions = GAME.legal_actions(state, seat)
        GAME.apply(state, seat, actions[rng.randrange(len(actions))])


def test_fate_unmasking_is_free_at_any_moment_of_the_traitors_turn() -> None:
    state = table(3, loyalty=["traitor", "loyal", "loyal"], hands=[["fate", F1], [F2, F3], []])
    assert "play:fate.reveal" in codes(state, 0)  # already in the Evil phase
    play(state, 0, "play:fate.reveal")
    assert state.revealed[0] and asked(state) == [(1, "discard")]
    play(state, 1, "discard:fight_2", "discard:fight_3")
    assert codes(state, 0) == ["evil:black", "evil:siege"]
    play(state, 0, "evil:siege")
    assert asked(state) == [(1, "evil")]


# --- the Traitor unmasking himself with Fate in his own turn (a standing action) ------------------------------


def _unmask(state, seat: int) -> None:
    """The Traitor sends his standing action, asked or not: his hand is discarded, his relics leave the game."""
    assert GAME.view(state, seat)["you"]["standing"] == ["play:fate.reveal"] or seat in [p for p, _ in asked(state)]
    play(state, seat, "play:fate.reveal")
    assert state.revealed[seat] and state.hands[seat] == [] and not GAME.standing_actions(state, seat)
    check_invariants(state)


def test_fate_unmasking_is_refused_in_another_knights_turn() -> None:
    """B-TRAITOR (issue 21, item 7): seed 002 FATE, "Indien hij het wenst, mag de verrader deze kaart in zijn beurt
    spelen, zelfs vooraleer hij normaliter kan beschuldigd worden". Not in another knight's turn, asked or not; the
    standing offer comes back with his own turn."""
    hands = [["merlin", F1, F2], ["merlin", F3], ["fate", "merlin", F4], [F5]]
    state = table(4, loyalty=["loyal", "loyal", "traitor", "loyal"], hands=hands, black=["morgan_two_engines"])
    assert GAME.standing_actions(state, 2) == [] and GAME.view(state, 2)["you"]["standing"] == []
    play(state, 0, "evil:black")
    assert (2, "window") in asked(state) and "play:fate.reveal" not in codes(state, 2)  # asked, in seat 0's turn
    before = GAME.digest(state)
    with pytest.raises(IllegalAction) as err:
        play(state, 2, "play:fate.reveal")
    assert err.value.rule == "B-TRAITOR" and GAME.digest(state) == before
    for seat in range(4):
        play(state, seat, "pass")
    play(state, 0, "draw", "end")
    play(state, 1, "evil:siege", "draw", "end")
    assert asked(state) == [(2, "evil")] and "play:fate.reveal" in codes(state, 2)  # his own turn


def test_fate_unmasking_while_others_decide_in_his_own_turn_lets_them_go_on_without_him() -> None:
    """B-TRAITOR: in his turn he may unmask although not asked (the others are deciding in his Merlin window); the
    window goes on without him, and each other knight first discards two cards."""
    hands = [["merlin", "fate"], ["merlin", "merlin", F3, F4], ["merlin", F1, F2]]
    state = table(3, loyalty=["traitor", "loyal", "loyal"], hands=hands, black=["morgan_two_engines"])
    play(state, 0, "evil:black", "pass")
    assert asked(state) == [(1, "window"), (2, "window")]
    assert [GAME.view(state, i)["you"]["standing"] for i in range(3)] == [["play:fate.reveal"], [], []]
    public = GAME.view(state, None)
    assert "you" not in public and "fate" not in str(public)
    play(state, 1, "merlin:2")
    _unmask(state, 0)
    assert GAME.view(state, None)["seats"][0]["loyalty"] == "traitor"
    assert asked(state) == [(1, "discard"), (2, "discard")]
    play(state, 1, "discard:fight_3", "discard:fight_4")
    play(state, 2, "discard:fight_1", "discard:fight_2")
    assert asked(state) == [(2, "window")]
    play(state, 2, "merlin:1")
    assert state.engines == 0 and "morgan_two_engines" in state.black_discard and state.hands == [[], [], []]
    assert asked(state) == [(1, "evil")]  # his heroic steps lapse: the next knight plays
    check_invariants(state)


def test_fate_unmasking_during_his_own_quest_discards_the_cards_he_played_there() -> None:
    board = {"loc": ["black_knight", "camelot", "camelot"], "black_knight_white": [F2],
             "black_knight_black": [["black_knight_3", True, 1]]}
    state = table(3, loyalty=["traitor", "loyal", "loyal"], hands=[["fate", F2], [F1], [F3]], board=board)
    _unmask(state, 0)  # in his Evil phase, before choosing
    assert state.black_knight_white == [] and state.black_knight_black == [["black_knight_3", True, 1]]
    assert GAME.view(state, None)["quests"]["black_knight"]["knights"] == []
    assert state.white_discard.count(F2) == 2 and asked(state) == [(1, "discard"), (2, "discard")]
    play(state, 1, "discard:fight_1")
    play(state, 2, "discard:fight_3")
    assert codes(state, 0) == ["evil:black", "evil:siege"]  # he still makes his Evil step, as a revealed Traitor
    play(state, 0, "evil:siege")
    assert asked(state) == [(1, "evil")]
    check_invariants(state)


def test_fate_unmasking_is_refused_to_a_loyal_knight_a_traitor_without_fate_and_a_revealed_traitor() -> None:
    loyal = table(3, loyalty=["loyal", "loyal", "traitor"], hands=[["fate"], [], []])
    no_fate = table(3, loyalty=TRAITOR_AT_2, hands=[[], [], [F1]], first=2)
    revealed = table(3, loyalty=TRAITOR_AT_2, hands=[[], [], []], board={"revealed": [False, False, True]}, first=2)
    unseen = table(3, loyalty=TRAITOR_AT_2, hands=[[], [], ["fate"]], three_player_rule=True, first=2)
    for state, seat in ((loyal, 0), (loyal, 1), (no_fate, 2), (revealed, 2), (unseen, 2)):
        before = GAME.digest(state)
        assert GAME.standing_actions(state, seat) == [] and GAME.view(state, seat)["you"]["standing"] == []
        with pytest.raises(IllegalAction) as err:
            GAME.apply_code(state, seat, "play:fate.reveal")
        assert err.value.rule == "B-TRAITOR" and GAME.digest(state) == before


def test_fate_unmasking_mid_split_hands_the_proposal_to_the_next_knight() -> None:
    board = {"loc": ["dragon", "dragon", "camelot"], "lancelot_stage": "dragon",
             "lancelot_white": [F5, F5, F5, F4, F4, F4, F3, F3]}
    state = table(3, loyalty=["traitor", "loyal", "loyal"], hands=[[F3, "fate"], [], []], board=board)
    play(state, 0, "evil:siege", "fight:3")
    assert asked(state) == [(0, "split")]
    play(state, 0, "give:0")
    _unmask(state, 0)
    assert asked(state) == [(1, "split")] and codes(state, 1) == ["give:1"]
    play(state, 1, *["give:1"] * 6)
    assert len(state.hands[1]) == 6 and len(state.white_discard) == 1 + 9 + 1  # his card, the quest's, Fate
    assert asked(state) == [(1, "evil")]
    check_invariants(state)


def test_fate_unmasking_by_arthur_while_he_waits_for_a_card_cancels_the_exchange() -> None:
    hands = [[F5, "fate"], [F1, F2, F3], [F4]]
    state = table(3, knights=["arthur", "kay", "gawain"], loyalty=["traitor", "loyal", "loyal"], hands=hands)
    play(state, 0, "evil:siege", "arthur:1.fight_5")
    assert asked(state) == [(1, "arthur")] and GAME.view(state, 0)["you"]["standing"] == ["play:fate.reveal"]
    _unmask(state, 0)
    play(state, 1, "discard:fight_1", "discard:fight_2")
    play(state, 2, "discard:fight_4")
    assert state.hands == [[], [F3], []] and F5 in state.white_discard and asked(state) == [(1, "evil")]
    check_invariants(state)


def test_fate_unmasking_withdraws_his_morgan_volunteering_and_ends_his_own_pending_discard() -> None:
    hands = [["fate", F5], [F1, F2, F3, F4], [F1, F2, F3]]
    state = table(3, loyalty=["traitor", "loyal", "loyal"], hands=hands, black=["morgan_discard_or_life"])
    play(state, 0, "evil:black")
    for seat in range(3):
        play(state, seat, "pass")
    play(state, 0, "volunteer")
    play(state, 1, "pass")
    assert asked(state) == [(2, "volunteer")]
    _unmask(state, 0)
    play(state, 1, "discard:fight_1", "discard:fight_2")
    play(state, 2, "discard:fight_1", "discard:fight_2")
    play(state, 2, "pass")  # his offer left with him: nobody spares the others
    assert asked(state) == [(1, "discard"), (2, "discard")] and state.life == [0, 4, 4]
    state = table(3, loyalty=["traitor", "loyal", "loyal"], hands=hands, black=["morgan_discard_or_life"])
    play(state, 0, "evil:black")
    for _ in ("window", "volunteer"):
        for seat in range(3):
            play(state, seat, "pass")
    assert asked(state) == [(0, "discard"), (1, "discard"), (2, "discard")]
    _unmask(state, 0)  # instead of his own discard
    play(state, 1, "discard:fight_1", "discard:fight_2")
    play(state, 2, "discard:fight_1", "discard:fight_2")
    assert asked(state) == [(1, "discard"), (2, "discard")]
    play(state, 1, "discard:fight_3")
    play(state, 2, "discard:fight_3")
    assert state.hands == [[], [F4], []] and asked(state) == [(1, "evil")]
    check_invariants(state)


def test_fate_unmasking_in_his_own_excalibur_window_takes_excalibur_out_of_the_game() -> None:
    board = {"relics": [["excalibur"], [], []]}
    state = table(3, loyalty=["traitor", "loyal", "loyal"], hands=[["fate"], [F1], [F2]], black=["despair"],
                  board=board)
    play(state, 0, "evil:black")
    assert codes(state, 0) == ["pass", "excalibur"]
    _unmask(state, 0)
    assert state.relics[0] == [] and asked(state) == [(1, "discard"), (2, "discard")]
    play(state, 1, "discard:fight_1")
    play(state, 2, "discard:fight_2")
    assert asked(state) == [(1, "window"), (2, "window")] and codes(state, 1) == ["pass"]
    play(state, 1, "pass")
    play(state, 2, "pass")
    assert state.grail_black == ["despair"] and asked(state) == [(1, "evil")]
    check_invariants(state)


def test_fate_unmasking_during_his_own_convocation_lets_the_others_answer_it() -> None:
    board = {"loc": ["camelot", "grail", "picts"]}
    hands = [["convocation", "fate"], [F1, F2], [F3]]
    state = table(3, loyalty=["traitor", "loyal", "loyal"], hands=hands, board=board, white=["grail", F4, F5])
    play(state, 0, "evil:siege", "play:convocation")
    assert asked(state) == [(1, "convocation"), (2, "convocation")]
    _unmask(state, 0)
    play(state, 1, "discard:fight_1", "discard:fight_2")
    play(state, 2, "discard:fight_3")
    play(state, 1, "return")
    play(state, 2, "stay")
    assert state.loc[1] == "camelot" and state.hands[1] == ["grail"] and asked(state) == [(1, "evil")]
    check_invariants(state)


def test_fate_unmasking_is_refused_during_the_opening_gesture_nobodys_turn() -> None:
    hands = [[F1, F2, F3, F4], ["fate", F5], [F1, F2, F3, F4]]
    state = table(3, loyalty=["loyal", "traitor", "loyal"], hands=hands, skip_gesture=False, first=1)
    assert (1, "gesture") in asked(state) and GAME.standing_actions(state, 1) == []
    with pytest.raises(IllegalAction):
        play(state, 1, "play:fate.reveal")
