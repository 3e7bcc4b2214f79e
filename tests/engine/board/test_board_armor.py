"""Lancelot's Armor has a power of its own, for whoever holds it (B-KNIGHT, relic; issue 21 item 1).

Seed 002 (relic section): "wanneer de eigenaar van Lancelots Pantser een zwarte kaart trekt, trekt hij in plaats
hiervan de bovenste 2 zwarte kaarten, waarvan hij er één uitkiest die getrokken wordt terwijl de andere zwarte kaart
onderaan de zwarte trekstapel wordt geschoven" and "De kracht van de relikwie blijft dus beschikbaar voor hem, telkens
hij kiest om een zwarte kaart te trekken" (the revealed Traitor). Seed 000: "Kdykoliv se nositel Lancelotovy zbroje
rozhodne ve fázi Rozpínání zla líznout černou kartu, vezme si místo jedné karty dvě".
"""

from __future__ import annotations

from board_helpers import GAME, asked, check_invariants, codes, play, table

F1, F2 = "fight_1", "fight_2"


def test_any_holder_of_the_armor_draws_two_black_cards_keeps_one_and_puts_the_other_under_the_deck() -> None:
    """B-KNIGHT: Sir Gawain (not Percival) holds the Armor; he plays the Despair, the Morgan goes to the bottom."""
    state = table(3, board={"relics": [["armor"], [], []]}, black=["morgan_two_engines", "despair"])
    events = play(state, 0, "evil:black")
    assert asked(state) == [(0, "armor")] and codes(state, 0) == ["armor:0", "armor:1"]
    assert GAME.view(state, 0)["you"]["armor"] == ["morgan_two_engines", "despair"]
    for seat in (None, 1, 2):  # the two cards are his alone to see
        assert "morgan_two_engines" not in str(GAME.view(state, seat)), seat
    seen = [e for e in events if "morgan_two_engines" in str(e.data)]
    assert seen and all(e.to == frozenset([0]) for e in seen)
    assert [e.kind for e in events if e.public][-1] == "armor_draw"
    check_invariants(state)
    play(state, 0, "armor:1")
    assert state.black_deck[0] == "morgan_two_engines" and state.grail_black == ["despair"]
    assert state.engines == 0 and asked(state) == [(0, "heroic")] and GAME.view(state, 0)["you"]["armor"] == []
    check_invariants(state)


def test_the_kept_card_is_resolved_as_drawn_a_special_card_opens_the_merlin_window() -> None:
    state = table(3, hands=[["merlin"], ["merlin"], ["merlin"]], board={"relics": [["armor"], [], []]},
                  black=["despair", "morgan_two_engines"])
    play(state, 0, "evil:black", "armor:1")
    assert asked(state) == [(0, "window"), (1, "window"), (2, "window")]
    assert GAME.view(state, None)["drawn"] == "morgan_two_engines" and state.black_deck[0] == "despair"


def test_a_kept_black_knight_card_stays_hidden_from_the_others_until_placed() -> None:
    state = table(3, board={"relics": [["armor"], [], []]}, black=["black_knight_7", "despair"])
    events = play(state, 0, "evil:black", "armor:0")
    assert [e.data["card"] for e in events if e.kind == "black_drawn" and e.public] == ["hidden"]
    assert asked(state) == [(0, "face")] and "black_knight_7" not in str(GAME.view(state, 1))
    assert state.black_deck[0] == "despair"


def test_a_revealed_traitor_keeps_the_armor_and_its_power() -> None:
    """B-TRAITOR: "Het is het enige relikwie dat bij zijn eigenaar blijft, zelfs indien hij als verrader ontmaskerd
    wordt" — and its power stays with him each time he chooses to draw a black card."""
    board = {"relics": [[], [], ["armor"]], "revealed": [False, False, True], "life": [4, 4, 0]}
    state = table(3, loyalty=["loyal", "loyal", "traitor"], hands=[[F1], [F2], []], board=board, first=2,
                  black=["despair", "picts"])
    play(state, 2, "steal:0", "evil:black")
    assert asked(state) == [(2, "armor")] and GAME.view(state, 2)["you"]["armor"] == ["despair", "picts"]
    play(state, 2, "armor:1")
    assert state.war_black["picts"] == ["picts"] and state.black_deck[0] == "despair"
    assert asked(state) == [(0, "evil")]
    check_invariants(state)


def test_percival_who_used_the_armor_for_his_look_then_draws_the_card_he_left_on_top() -> None:
    """Seed 002 FAQ (Percival with the Armor): he looks at 2, buries one, puts the other back, then decides "of hij
    hetzij een zwarte kaart trekt en ze speelt": the Armor was used for the look, he draws one card."""
    board = {"relics": [["armor"], [], []]}
    state = table(3, knights=["percival", "kay", "gawain"], board=board, black=["morgan_two_engines", "despair"])
    play(state, 0, "peek", "bury:0", "evil:black")
    assert state.grail_black == ["despair"] and asked(state) == [(0, "heroic")]
    state = table(3, knights=["percival", "kay", "gawain"], board=board, black=["morgan_two_engines", "despair"])
    play(state, 0, "evil:black")  # without looking first, the Armor's own power applies
    assert asked(state) == [(0, "armor")]


def test_morgans_chain_of_three_black_cards_is_not_drawn_with_the_armor() -> None:
    """Seed 000: the power works when the holder "se rozhodne … líznout černou kartu" (decides to draw one)."""
    black = ["morgan_three_black", "despair", "picts", "excalibur"]
    state = table(3, board={"relics": [["armor"], [], []]}, black=["despair", *black])
    play(state, 0, "evil:black", "armor:1")
    for seat in range(3):
        play(state, seat, "pass")
    assert state.grail_black == ["despair"] and state.war_black["picts"] == ["picts"] and state.excalibur_position == 4
    assert asked(state) == [(0, "heroic")]


def test_without_the_armor_a_single_card_is_drawn() -> None:
    state = table(3, black=["despair"])
    play(state, 0, "evil:black")
    assert state.grail_black == ["despair"] and asked(state) == [(0, "heroic")]
