"""Scenarios for the special white cards and healing (digest §11.1; heroic action types C and D of B-TURN)."""

from __future__ import annotations

from board_helpers import GAME, asked, check_invariants, codes, play, table

F1, F2, F3 = "fight_1", "fight_2", "fight_3"


def test_merlin_removes_a_siege_engine_a_figure_or_the_last_black_fight_card() -> None:
    board = {"engines": 3, "war_black": {"picts": ["picts", "mercenaries"], "saxons": []},
             "black_knight_black": [["black_knight_1", False, 1], ["black_knight_7", True, 2]]}
    state = table(3, hands=[["merlin", "merlin", "merlin"], [], []], board=board)
    play(state, 0, "evil:life")
    assert {"play:merlin.engine", "play:merlin.picts", "play:merlin.black_knight"} <= set(codes(state, 0))
    assert "play:merlin.saxons" not in codes(state, 0) and "play:merlin.excalibur" not in codes(state, 0)
    play(state, 0, "play:merlin.black_knight")
    assert state.black_knight_black == [["black_knight_1", False, 1]] and "black_knight_7" in state.black_discard
    assert not any(c.startswith("play:") for c in codes(state, 0))  # one special card per turn
    check_invariants(state)


def test_only_one_special_card_per_turn_even_with_a_sacrifice() -> None:
    state = table(3, hands=[["piety", "fate", F1], [], []])
    play(state, 0, "evil:siege", "play:piety.self", "sacrifice")
    assert not any(c.startswith("play:") for c in codes(state, 0))


def test_convocation_calls_knights_home_and_shares_one_card_each() -> None:
    board = {"loc": ["camelot", "grail", "picts"]}
    state = table(3, hands=[["convocation"], [], []], board=board, white=["grail", F3, F2])
    play(state, 0, "evil:siege", "play:convocation")
    assert asked(state) == [(1, "convocation"), (2, "convocation")]
    play(state, 1, "return")
    play(state, 2, "stay")
    assert state.loc == ["camelot", "camelot", "picts"]
    assert GAME.view(state, None)["table"] == ["grail", F3]
    play(state, 0, "give:0", "give:1")
    play(state, 1, "accept")
    assert state.hands[0] == ["grail"] and state.hands[1] == [F3]


def test_fate_each_living_knight_draws_one() -> None:
    state = table(3, hands=[["fate"], [], []], board={"alive": [True, False, True]})
    play(state, 0, "evil:siege", "play:fate.draw")
    assert [len(h) for h in state.hands] == [1, 0, 1]


def test_piety_gives_one_life_to_each_other_knight() -> None:
    state = table(3, hands=[["piety"], [], []], board={"life": [4, 6, 2]})
    play(state, 0, "evil:siege", "play:piety.others")
    assert state.life == [4, 6, 3]


def test_clairvoyance_reorders_the_top_five_black_cards_and_only_its_player_knows() -> None:
    black = ["despair", "picts", "vivien", "excalibur", "saxons"]
    state = table(3, hands=[["clairvoyance"], [], []], black=black)
    events = play(state, 0, "evil:siege", "play:clairvoyance")
    assert [e.data["cards"] for e in events if e.kind == "black_seen"] == [black]
    assert all(e.to == frozenset([0]) for e in events if e.kind == "black_seen")
    assert GAME.view(state, 0)["you"]["reorder"] == black and GAME.view(state, 1)["you"]["reorder"] == []
    play(state, 0, "top:4", "top:3", "top:0", "top:0")
    order = ["saxons", "excalibur", "despair", "picts", "vivien"]
    assert state.black_deck[-5:][::-1] == order and GAME.view(state, 0)["you"]["black_top"] == order
    assert GAME.view(state, 1)["you"]["black_top"] == []


def test_heroism_goes_on_any_open_quest_and_adds_to_a_defeat_too() -> None:
    board = {"war_black": {"picts": ["picts"] * 3, "saxons": []}}
    state = table(3, hands=[["heroism"], [], []], board=board, black=["picts"])
    play(state, 0, "evil:siege")
    assert "play:heroism.camelot" not in codes(state, 0)
    play(state, 0, "play:heroism.picts", "end")
    play(state, 1, "evil:black")
    assert state.swords_black == 2 and state.heroism is None and "heroism" in state.white_discard


def test_reinforcements_four_cards_or_one_for_each_other_knight() -> None:
    state = table(3, hands=[["reinforcements"] + [F1] * 11, [], []])
    play(state, 0, "evil:siege", "play:reinforcements.self")
    assert len(state.hands[0]) == 15  # any hand size
    state = table(3, hands=[["reinforcements"], [], []])
    play(state, 0, "evil:siege", "play:reinforcements.others")
    assert [len(h) for h in state.hands] == [0, 1, 1]


def test_lady_of_the_lake_moves_excalibur_or_heals_two() -> None:
    state = table(3, hands=[["lady_of_the_lake"], [], []],
                  board={"excalibur_position": 9, "loc": ["camelot", "excalibur", "camelot"]})
    play(state, 0, "evil:siege", "play:lady_of_the_lake")
    assert state.excalibur_done and state.relics[0] == ["excalibur"]  # the player gets Excalibur...
    assert state.life[0] == 4 and state.life[1] == 5 + 1  # ...only knights present get life (Palamedes +1)
    assert len(state.hands[1]) == 7
    state = table(3, hands=[["lady_of_the_lake"], [], []], board={"excalibur_done": True, "life": [3, 4, 4]})
    play(state, 0, "evil:siege", "play:lady_of_the_lake")
    assert state.life[0] == 5


def test_messenger_gives_up_to_three_cards_privately() -> None:
    state = table(3, hands=[["messenger", F1, F2, F3, "grail"], [], []])
    play(state, 0, "evil:siege", "play:messenger.2", "give:fight_1", "give:grail")
    assert asked(state) == [(0, "messenger")]
    events = play(state, 0, "give:fight_3")
    assert sorted(state.hands[2]) == [F1, F3, "grail"] and state.hands[0] == [F2]
    assert all(e.to == frozenset([0, 2]) for e in events if e.kind == "white_received")


def test_healing_discards_three_identical_cards_specials_included() -> None:
    state = table(3, hands=[["merlin", "merlin", "merlin", F1, F1], [], []], board={"life": [2, 4, 4]})
    play(state, 0, "evil:siege")
    assert "heal:merlin" in codes(state, 0) and "heal:fight_1" not in codes(state, 0)
    play(state, 0, "heal:merlin")
    assert state.life[0] == 3 and state.hands[0] == [F1, F1]


def test_after_a_lady_of_the_lake_win_without_agreement_her_player_chooses_who_is_dealt_first() -> None:
    """B-QUEST (issue 21, also from the rulebooks): seed 002 FAQ (Lady of the Lake), "Indien geen overeenstemming kan
    worden bereikt tijdens het verdelen, worden de kaarten willekeurig verdeeld onder de ridders die aanwezig waren op
    de queeste, te beginnen met de ridder die gekozen wordt door de ridder van de Lady of the Lake"."""
    board = {"excalibur_position": 9, "loc": ["camelot", "excalibur", "excalibur"]}
    state = table(3, hands=[["lady_of_the_lake"], [], []], board=board)
    play(state, 0, "evil:siege", "play:lady_of_the_lake")
    assert state.relics[0] == ["excalibur"] and asked(state) == [(1, "split")]  # the first knight present proposes
    play(state, 1, *["give:1"] * 4, *["give:2"] * 3)
    play(state, 2, "refuse")
    assert asked(state) == [(0, "deal_first")] and codes(state, 0) == ["first:1", "first:2"]
    assert len(GAME.view(state, None)["table"]) == 7  # the cards stay on the table while she chooses
    events = play(state, 0, "first:2")
    assert [len(h) for h in state.hands] == [0, 3, 4]  # dealt one by one from the knight she chose
    assert any(e.kind == "deal_first" and e.data == {"seat": 0, "target": 2} for e in events)
    assert asked(state) == [(0, "post")]
    check_invariants(state)


def test_a_refused_split_without_the_lady_is_dealt_from_the_proposer_at_once() -> None:
    board = {"loc": ["picts", "picts", "camelot"], "war_white": {"picts": [F1, F2, F3, "fight_4"], "saxons": []}}
    state = table(3, hands=[["fight_5"], [], []], board=board)
    play(state, 0, "evil:siege", "fight:5", *["give:1"] * 4)
    play(state, 1, "refuse")
    assert [len(h) for h in state.hands] == [2, 2, 0] and asked(state) == [(0, "post")]


def test_the_ladys_knight_unmasking_as_the_traitor_before_naming_the_first_leaves_the_deal_to_chance() -> None:
    board = {"excalibur_position": 9, "loc": ["camelot", "excalibur", "excalibur"]}
    state = table(3, loyalty=["traitor", "loyal", "loyal"], hands=[["lady_of_the_lake", "fate"], [], []], board=board)
    play(state, 0, "evil:siege", "play:lady_of_the_lake")
    play(state, 1, *["give:1"] * 7)
    play(state, 2, "refuse")
    assert asked(state) == [(0, "deal_first")]
    play(state, 0, "play:fate.reveal")
    assert state.revealed[0] and [len(h) for h in state.hands] == [0, 4, 3]  # dealt from the first knight there
    check_invariants(state)
