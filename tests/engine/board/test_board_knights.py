"""Scenarios for the knights' powers (B-KNIGHT)."""

from __future__ import annotations

from board_helpers import GAME, asked, codes, play, table

F1, F2, F3, F4, F5 = "fight_1", "fight_2", "fight_3", "fight_4", "fight_5"


def test_arthur_exchange_is_forced_and_blind() -> None:
    state = table(3, knights=["arthur", "kay", "gawain"], hands=[[F1, "grail"], [F5, "merlin"], []])
    play(state, 0, "evil:siege")
    assert "arthur:1.fight_1" in codes(state, 0) and not any(c.startswith("arthur:2") for c in codes(state, 0))
    play(state, 0, "arthur:1.fight_1")
    assert asked(state) == [(1, "arthur")]
    assert set(codes(state, 1)) == {"give:fight_5", "give:merlin"}  # no refusal possible
    play(state, 1, "give:merlin")
    assert sorted(state.hands[0]) == ["grail", "merlin"] and sorted(state.hands[1]) == [F1, F5]
    assert asked(state) == [(0, "heroic")] and not any(c.startswith("arthur") for c in codes(state, 0))


def test_galahad_plays_a_special_card_for_free() -> None:
    state = table(3, knights=["galahad", "kay", "gawain"], hands=[["piety", "fate"], [], []])
    play(state, 0, "evil:siege", "galahad:piety.self")
    assert state.life[0] == 6 and asked(state) == [(0, "heroic")]
    assert not any(c.startswith(("play:", "galahad:")) for c in codes(state, 0))  # no second special card
    play(state, 0, "draw")


def test_galahads_free_special_card_is_optional_he_may_play_it_as_his_heroic_action() -> None:
    """B-KNIGHT (issue 21, item 6): seed 002, "Indien jij heer Galahad bent, mag je jouw speciale kracht gebruiken om
    deze actie zonder kost te spelen" (may), and "kan je geen tweede speciale witte kaart spelen als jouw verplichte
    heroïsche actie". On the Grail with only Piety he plays it as his heroic action and stays on the quest."""
    board = {"loc": ["grail", "camelot", "camelot"], "grail_white": 2}
    state = table(3, knights=["galahad", "kay", "gawain"], hands=[["piety", F1], [], []], board=board)
    play(state, 0, "evil:siege")
    legal = codes(state, 0)
    assert {"play:piety.self", "galahad:piety.self"} <= set(legal) and "move:camelot" in legal
    play(state, 0, "play:piety.self")
    assert state.life[0] == 6 and state.loc[0] == "grail" and asked(state) == [(0, "post")]
    assert not any(c.startswith(("play:", "galahad:")) for c in codes(state, 0))
    play(state, 0, "end")
    assert asked(state) == [(1, "evil")]


def test_galahad_may_use_his_free_card_after_his_heroic_action() -> None:
    """Seed 002 (Galahad's sheet): "moet hij een *verschillende* actie kiezen of hebben gekozen als zijn normale
    actie" — the free card may come after another heroic action."""
    state = table(3, knights=["galahad", "kay", "gawain"], hands=[["piety"], [], []], board={"life": [3, 4, 4]})
    play(state, 0, "evil:siege", "draw")
    assert "galahad:piety.self" in codes(state, 0) and "play:piety.self" not in codes(state, 0)
    play(state, 0, "galahad:piety.self")
    assert state.life[0] == 6 and asked(state) == [(0, "post")]


def test_gawain_draws_three_at_the_round_table() -> None:
    state = table(3, knights=["gawain", "kay", "galahad"], hands=[[], [], []])
    play(state, 0, "evil:siege", "draw")
    assert len(state.hands[0]) == 3


def test_kay_adds_a_card_after_the_reveal_even_out_of_turn() -> None:
    board = {"loc": ["camelot", "black_knight", "camelot"], "black_knight_white": [F2, F2, F3],
             "black_knight_black": [["black_knight_3", False, 0], ["black_knight_3", False, 0],
                                    ["black_knight_1", False, 2]]}
    hands = [[], [F1, F4], []]
    state = table(3, knights=["gawain", "kay", "galahad"], hands=hands, board=board, black=["black_knight_1"])
    play(state, 0, "evil:black", "face:up")  # 4th black card ends the fight: 7 vs 8...
    assert asked(state) == [(1, "kay")]
    assert codes(state, 1) == ["pass", "kay:1", "kay:4"]
    play(state, 1, "kay:4")  # ...but Kay adds a 4, any value, on his unfinished pair board: 11 vs 8
    assert state.swords_white == 1 and F4 not in state.hands[1]


def test_kay_in_his_own_siege_after_the_roll() -> None:
    state = table(3, knights=["kay", "gawain", "galahad"], hands=[[F3, F2], [], []], board={"engines": 4}, dice=[4])
    play(state, 0, "evil:life", "siege", "add:3", "roll")
    assert asked(state) == [(0, "kay")]
    play(state, 0, "kay:2")
    assert state.engines == 3


def test_palamedes_is_capped_at_six() -> None:
    board = {"loc": ["picts", "camelot", "camelot"], "war_white": {"picts": [F1, F2, F3, F4], "saxons": []},
             "life": [6, 4, 4]}
    state = table(3, knights=["palamedes", "kay", "gawain"], hands=[[F5], [], []], board=board)
    play(state, 0, "evil:siege", "fight:5")
    assert state.life[0] == 6


def test_percival_looks_at_the_top_black_card_before_choosing() -> None:
    state = table(3, knights=["percival", "kay", "gawain"], black=["vivien", "despair"])
    events = play(state, 0, "peek")
    assert GAME.view(state, 0)["you"]["black_top"] == ["vivien"]
    assert GAME.view(state, 1)["you"]["black_top"] == []
    assert [e.to for e in events if e.kind == "black_seen"] == [frozenset([0])]
    assert "peek" not in codes(state, 0)
    play(state, 0, "evil:siege")


def test_percival_with_the_armor_looks_at_two_and_buries_one() -> None:
    state = table(3, knights=["percival", "kay", "gawain"], black=["morgan_two_engines", "despair"],
                  board={"relics": [["armor"], [], []]})
    play(state, 0, "peek")
    assert codes(state, 0) == ["bury:0", "bury:1"]
    assert GAME.view(state, 0)["you"]["bury"] == ["morgan_two_engines", "despair"]
    assert GAME.view(state, 1)["you"]["bury"] == [] and "morgan_two_engines" not in str(GAME.view(state, None))
    play(state, 0, "bury:0")
    assert state.black_deck[0] == "morgan_two_engines" and state.black_deck[-1] == "despair"
    play(state, 0, "evil:black")
    assert state.grail_black == ["despair"]


def test_tristan_leaves_the_round_table_for_free_once() -> None:
    state = table(3, knights=["tristan", "kay", "gawain"], hands=[["grail"], [], []])
    play(state, 0, "evil:siege", "move:grail")
    assert state.loc[0] == "grail" and asked(state) == [(0, "heroic")]
    legal = codes(state, 0)
    assert "grail" in legal and not any(c.startswith("move:") for c in legal)
    play(state, 0, "grail")
    assert state.grail_white == 1
