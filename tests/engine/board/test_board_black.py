"""Scenarios for black cards (B-BLACK): the cancel window, face-down cards, quests over, decks, each special card."""

from __future__ import annotations

from board_helpers import GAME, asked, check_invariants, codes, play, table

F1, F2, F3 = "fight_1", "fight_2", "fight_3"


def _pass_all(state, seats=range(3)) -> None:
    for seat in seats:
        play(state, seat, "pass")


def test_three_merlins_from_several_players_cancel_a_special_card() -> None:
    state = table(3, hands=[["merlin", "merlin"], ["merlin"], [F1]], black=["morgan_two_engines"])
    play(state, 0, "evil:black")
    assert asked(state) == [(0, "window"), (1, "window"), (2, "window")]  # everybody is asked, holders or not
    assert codes(state, 2) == ["pass"]
    play(state, 0, "merlin:2")
    play(state, 1, "merlin:1")
    play(state, 2, "pass")
    assert state.engines == 0 and state.hands[0] == [] and state.hands[1] == []
    assert state.white_discard.count("merlin") == 3 and "morgan_two_engines" in state.black_discard
    assert asked(state) == [(0, "heroic")]


def test_two_merlins_do_not_cancel_and_stay_in_hand() -> None:
    state = table(3, hands=[["merlin", "merlin"], [], [F1]], black=["morgan_two_engines"])
    play(state, 0, "evil:black", "merlin:2")
    _pass_all(state, (1, 2))
    assert state.engines == 2 and state.hands[0] == ["merlin", "merlin"]


def test_standard_black_cards_cannot_be_cancelled_by_merlins() -> None:
    state = table(3, hands=[["merlin"] * 3, [], []], black=["despair"])
    play(state, 0, "evil:black")
    assert state.grail_black == ["despair"] and asked(state) == [(0, "heroic")]  # no window at all


def test_excalibur_cancels_any_black_card_and_leaves_the_game() -> None:
    state = table(3, hands=[[F1], [F2], [F3]], black=["despair"], board={"relics": [[], [], ["excalibur"]]})
    play(state, 0, "evil:black")
    assert asked(state) == [(0, "window"), (1, "window"), (2, "window")]
    assert codes(state, 2) == ["pass", "excalibur"] and codes(state, 1) == ["pass"]
    play(state, 2, "excalibur")
    assert state.grail_black == [] and state.relics[2] == [] and "despair" in state.black_discard
    assert asked(state) == [(0, "heroic")]


def test_vivien_blocks_the_merlin_cancel() -> None:
    state = table(3, hands=[["merlin"] * 3, [], []], black=["morgan_two_engines"], board={"vivien": True})
    play(state, 0, "evil:black")
    assert state.engines == 2
    assert "play:merlin.engine" not in codes(state, 0)


def test_face_down_black_knight_hides_value_and_compensates_with_a_white_card() -> None:
    state = table(3, hands=[[], [], []], black=["black_knight_7"], white=["grail"])
    play(state, 0, "evil:black")
    assert codes(state, 0) == ["face:up", "face:down"]
    events = play(state, 0, "face:down")
    assert state.hands[0] == ["grail"]
    assert GAME.view(state, None)["quests"]["black_knight"]["black"] == ["hidden"]
    assert GAME.view(state, 1)["quests"]["black_knight"]["black"] == ["hidden"]
    assert GAME.view(state, 0)["you"]["face_down"] == [{"quest": "black_knight", "index": 0, "card": "black_knight_7"}]
    secret = [e for e in events if "black_knight_7" in str(e.data)]
    assert secret and all(e.to == frozenset([0]) for e in secret)


def test_black_card_of_a_finished_quest_adds_a_siege_engine() -> None:
    for card, board in (("despair", {"grail_done": True}), ("excalibur", {"excalibur_done": True}),
                        ("lancelot_3", {"lancelot_stage": "done"}), ("dark_forest", {"grail_done": True})):
        state = table(3, black=[card], board=board)
        play(state, 0, "evil:black")
        if asked(state)[0][1] == "window":
            _pass_all(state)
        assert state.engines == 1 and card in state.black_discard, card


def test_lancelot_cards_go_to_the_dragon_after_lancelot() -> None:
    state = table(3, black=["lancelot_5"], board={"lancelot_stage": "dragon"})
    play(state, 0, "evil:black", "face:up")
    assert GAME.view(state, None)["quests"]["dragon"]["black"] == ["lancelot_5"]


def test_mercenaries_go_to_the_war_of_the_drawers_choice() -> None:
    state = table(3, black=["mercenaries"])
    play(state, 0, "evil:black", "war:saxons")
    assert state.war_black["saxons"] == ["mercenaries"]


def test_last_evil_spot_ends_the_quest_at_once() -> None:
    board = {"war_black": {"picts": ["picts", "picts", "mercenaries"], "saxons": []},
             "loc": ["camelot", "picts", "camelot"], "war_white": {"picts": [F1], "saxons": []}}
    state = table(3, black=["picts"], board=board)
    play(state, 0, "evil:black")
    assert state.war_black["picts"] == [] and state.war_white["picts"] == []
    assert state.swords_black == 1 and state.engines == 2 and state.life[1] == 3 and state.loc[1] == "camelot"
    check_invariants(state)


def test_both_decks_are_rebuilt_when_one_runs_out() -> None:
    state = table(3)
    state.white_discard.extend(state.white_deck[:-1])
    del state.white_deck[:-1]
    state.black_discard.extend(state.black_deck[:10])
    del state.black_deck[:10]
    black_total = len(state.black_deck) + len(state.black_discard)
    play(state, 0, "evil:siege", "draw")
    assert state.white_discard == [] and state.black_discard == []
    assert len(state.black_deck) == black_total
    check_invariants(state)


def test_desolation_discards_the_farthest_grail_card_then_lands_as_despair() -> None:
    state = table(3, black=["desolation"], board={"grail_white": 2})
    play(state, 0, "evil:black")
    _pass_all(state)
    assert state.grail_white == 1 and state.grail_black == ["desolation"]


def test_dark_forest_blocks_grail_cards_until_another_quest_is_won() -> None:
    board = {"loc": ["grail", "camelot", "camelot"], "dark_forest": True}
    state = table(3, hands=[["grail"], [], []], board=board)
    play(state, 0, "evil:siege")
    assert "grail" not in codes(state, 0)
    board = {"loc": ["black_knight", "camelot", "camelot"], "dark_forest": True,
             "black_knight_white": [F1, F1, F2], "black_knight_black": [["black_knight_1", False, 1]]}
    state = table(3, hands=[[F2], [], []], board=board)
    play(state, 0, "evil:siege", "fight:2")
    assert not state.dark_forest and "dark_forest" in state.black_discard


def test_guinevere_sends_everyone_home_and_ends_the_turn() -> None:
    board = {"loc": ["black_knight", "grail", "camelot"], "black_knight_white": [F1]}
    state = table(3, black=["guinevere"], board=board)
    play(state, 0, "evil:black")
    _pass_all(state)
    assert state.loc == ["camelot"] * 3 and state.black_knight_white == [] and asked(state) == [(1, "evil")]


def test_mists_of_avalon_add_a_black_sword_to_every_lost_quest() -> None:
    board = {"mists": True, "war_black": {"picts": ["picts"] * 3, "saxons": []}}
    state = table(3, black=["picts"], board=board)
    play(state, 0, "evil:black")
    assert state.swords_black == 2


def test_mordred_asks_for_an_extra_five_on_his_war() -> None:
    state = table(3, black=["mordred"], hands=[[], [], []])
    play(state, 0, "evil:black")
    _pass_all(state)
    play(state, 0, "war:picts")
    assert GAME.view(state, None)["quests"]["picts"]["mordred"]
    state.war_white["picts"] = ["fight_1", "fight_2", "fight_3", "fight_4", "fight_5"]  # run done but for the 5
    assert GAME.view(state, None)["quests"]["picts"]["needed"] == 5


def test_morgan_volunteer_spares_the_others_a_discard() -> None:
    state = table(3, hands=[[F1, F2], [F1], [F3]], black=["morgan_discard_or_life"])
    play(state, 0, "evil:black")
    _pass_all(state)
    play(state, 0, "pass")
    play(state, 1, "volunteer")
    play(state, 2, "pass")
    assert state.life[1] == 2 and [len(h) for h in state.hands] == [2, 1, 1]


def test_morgan_without_volunteer_everyone_with_cards_discards_one() -> None:
    state = table(3, hands=[[F1, F2, F2], [], [F3]], black=["morgan_discard_or_three"])
    play(state, 0, "evil:black")
    _pass_all(state)
    assert asked(state) == [(0, "volunteer")]  # only a knight with 3+ cards (public hand sizes) can volunteer
    play(state, 0, "pass")
    assert asked(state) == [(0, "discard"), (2, "discard")]
    play(state, 0, "discard:fight_2")
    play(state, 2, "discard:fight_3")
    assert state.hands == [[F1, F2], [], []]


def test_morgan_volunteer_with_three_cards_discards_three() -> None:
    state = table(3, hands=[[F1, F2, F2, F3], [F1], [F3]], black=["morgan_discard_or_three"])
    play(state, 0, "evil:black")
    _pass_all(state)
    play(state, 0, "volunteer")
    play(state, 0, "discard:fight_2", "discard:fight_2", "discard:fight_3")
    assert state.hands == [[F1], [F1], [F3]] and asked(state) == [(0, "heroic")]


def test_morgan_three_black_cards_cannot_be_cancelled_by_merlins() -> None:
    black = ["morgan_three_black", "morgan_two_engines", "despair", "picts"]
    state = table(3, hands=[["merlin"] * 3, [], []], black=black)
    play(state, 0, "evil:black")
    _pass_all(state)
    assert state.engines == 2 and state.grail_black == ["despair"] and state.war_black["picts"] == ["picts"]
    assert state.hands[0] == ["merlin"] * 3 and asked(state) == [(0, "heroic")]


def test_morgan_lose_life_and_two_engines() -> None:
    state = table(3, black=["morgan_lose_life", "morgan_two_engines"])
    play(state, 0, "evil:black")
    _pass_all(state)
    assert state.life == [3, 3, 3]
    state = table(3, black=["morgan_two_engines"])
    play(state, 0, "evil:black")
    _pass_all(state)
    assert state.engines == 2


def test_a_drawn_black_knight_card_is_seen_only_by_its_drawer_until_placed() -> None:
    state = table(3, black=["black_knight_7"], board={"relics": [[], ["excalibur"], []]})
    events = play(state, 0, "evil:black")
    assert [e.data["card"] for e in events if e.kind == "black_drawn" and e.public] == ["hidden"]
    assert [e.data["card"] for e in events if e.kind == "black_drawn" and e.to == frozenset([0])] == ["black_knight_7"]
    assert GAME.view(state, None)["drawn"] == "hidden" and GAME.view(state, 1)["drawn"] == "hidden"
    assert GAME.view(state, 0)["drawn"] == "black_knight_7"
    assert "black_knight_7" not in str(GAME.view(state, 1))
    _pass_all(state)
    play(state, 0, "face:up")
    assert GAME.view(state, None)["quests"]["black_knight"]["black"] == ["black_knight_7"]


def test_the_cancel_window_names_no_card_its_drawer_may_still_hide() -> None:
    """B-BLACK: a Black Knight or Lancelot card may still go face down while the window is open, and a cancelled one
    is discarded face down: the window's public events say "hidden" (the drawer saw it privately); a special card,
    read out when drawn, is named."""
    state = table(3, black=["black_knight_7"], board={"relics": [[], ["excalibur"], []]})
    events = play(state, 0, "evil:black") + [e for seat in range(3) for e in play(state, seat, "pass")]
    events += play(state, 0, "face:down")
    public = [e for e in events if e.public]
    assert [e.data["card"] for e in public if e.kind == "black_not_cancelled"] == ["hidden"]
    assert "black_knight_7" not in str([e.data for e in public])
    state = table(3, black=["lancelot_3"], board={"relics": [[], ["excalibur"], []]})
    play(state, 0, "evil:black")
    events = play(state, 0, "pass") + play(state, 1, "excalibur")
    assert [(e.data["card"], e.data["by"]) for e in events if e.kind == "black_cancelled"] == [("hidden", "excalibur")]
    assert "lancelot_3" not in str([e.data for e in events if e.public]) and "lancelot_3" in state.black_discard
    state = table(3, black=["morgan_two_engines"], board={"relics": [[], ["excalibur"], []]})
    play(state, 0, "evil:black")
    events = [e for seat in range(3) for e in play(state, seat, "pass")]
    assert [e.data["card"] for e in events if e.kind == "black_not_cancelled"] == ["morgan_two_engines"]
