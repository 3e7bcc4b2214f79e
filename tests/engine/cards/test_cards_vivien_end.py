"""C-CHAR (Vivien's loyalty swap) and C-END (finish the resolution, final reveal, flips, who wins, play on, solo)."""

from __future__ import annotations

import json

import pytest
from cards_helpers import GAME, codes, kinds, last, make, play

from engine import IllegalAction
from engine.cards.catalogue import TURN_CAP
from engine.core.prompts import RESPONSE


def test_vivien_take_give_and_secret_keep_or_swap_for_both():
    loyalty = ["loyal", "loyal", "loyal", "traitor", "loyal"]  # middle: traitor (slot 3), loyal (slot 4)
    s = make(3, deck=["vivien"], loyalty=loyalty)
    play(s, (0, "listen"))
    assert s.phase == "vivien_give" and codes(s, 0) == ["give:1", "give:2"]
    ev = play(s, (0, "give:2"))
    cards = {e.to: e.data["loyalty"] for e in ev if e.kind == "vivien_card"}
    assert cards == {frozenset({0}): "traitor", frozenset({2}): "loyal"}
    prompts = GAME.pending(s)
    assert {(p.seat, p.kind, p.timing) for p in prompts} == {(0, "vivien_keep", RESPONSE), (2, "vivien_keep", RESPONSE)}
    assert GAME.view(s, 0)["you"]["vivien_card"] == "traitor" and GAME.view(s, 1)["you"]["vivien_card"] is None
    ev = play(s, (0, "swap"))
    assert s.loyalty[0] == "traitor" and s.loyalty[3] == "loyal" and s.phase == "vivien_keep"
    assert all("swap" not in json.dumps(e.data) for e in ev)
    ev = play(s, (2, "keep"))
    assert s.loyalty[2] == "loyal" and s.current == 1 and s.phase == "turn"
    assert GAME.timeout_action(s, 1).kind in {"listen", "quest", "accuse"}


def test_vivien_timeout_keeps():
    s = make(3, deck=["vivien"])
    play(s, (0, "listen"), (0, "give:1"))
    assert GAME.timeout_action(s, 0).kind == "keep" and GAME.timeout_action(s, 1).kind == "keep"


def test_vivien_does_nothing_in_solo():
    s = make(1, deck=["vivien"])
    play(s, (0, "listen"))
    assert s.phase == "turn" and s.current == 0


def test_end_finishes_the_resolution_then_reveals_and_traitor_flips_a_white_sword():
    loyalty = ["loyal", "traitor", "loyal", "loyal", "loyal"]
    threat = ["grail_5", "grail_4", "grail_3", "grail_2", "dragon_5", "dragon_4", "dragon_2"]
    s = make(3, loyalty=loyalty, threat=threat, swords=[5, 2])
    ev = play(s, (0, "quest:dragon"))  # +2 white (7) and the Grail secondary +3 black: both placed
    assert last(ev, "quest_result").data["swords"] == [["dragon", "white", 2], ["grail", "black", 3]]
    assert last(ev, "final_reveal").data["loyalties"] == [[0, "loyal"], [1, "traitor"], [2, "loyal"]]
    assert last(ev, "swords_flipped").data["count"] == 1
    assert (s.white, s.black) == (6, 6) and GAME.result(s) is None  # neither side: play goes on
    assert s.current == 1 and s.phase == "traitor"  # the Traitor is revealed now: his turn draws two


def test_loyal_win_with_seven_white_and_more_than_black():
    s = make(3, threat=["dragon_5", "dragon_4", "dragon_2"], swords=[5, 3])
    play(s, (0, "quest:dragon"))
    r = GAME.result(s)
    assert r["winner"] == "loyal" and r["reason"] == "swords" and r["loyalty"] == ["loyal"] * 3
    assert GAME.view(s, None)["result"] == r and GAME.pending(s) == [] and GAME.legal_actions(s, 1) == []


def test_evil_win_with_seven_black_at_least_as_many_as_white():
    s = make(3, threat=["dragon_5"], swords=[6, 6])
    play(s, (0, "quest:dragon"))
    assert GAME.result(s)["winner"] == "evil"
    with pytest.raises(IllegalAction) as err:
        GAME.apply_code(s, 1, "listen")
    assert err.value.rule == "C-END"


def test_accusation_reaching_seven_ends_the_game():
    loyalty = ["loyal", "traitor", "loyal", "loyal", "loyal"]
    s = make(3, loyalty=loyalty, swords=[6, 0])
    play(s, (0, "accuse:1"))
    assert GAME.result(s)["winner"] == "loyal"


def test_solo_game_has_no_loyalty_and_no_accusations():
    s = make(1, swords=[3, 3], threat=["dragon_5", "dragon_4", "dragon_2"])
    assert codes(s, 0) == ["listen", "quest:dragon"]
    play(s, (0, "quest:dragon"))
    assert s.current == 0 and GAME.view(s, 0)["you"]["loyalty"] is None
    s = make(1, swords=[5, 0], threat=["dragon_5", "dragon_4", "dragon_2"])
    ev = play(s, (0, "quest:dragon"))
    assert GAME.result(s)["winner"] == "loyal" and "final_reveal" not in kinds(ev)


def test_turn_cap_is_reported_as_such():
    s = make(2, deck=["grail_2", "grail_3"])
    s.turn = TURN_CAP - 2
    play(s, (0, "listen"))
    assert GAME.result(s) is None
    play(s, (1, "listen"))
    assert GAME.result(s)["reason"] == "turn_cap" and GAME.result(s)["winner"] is None


def test_vivien_card_may_go_to_any_player_even_one_already_accused():
    """C-CHAR, seed 001 (Viviana, OCR spelling): "drugg karte przekazuje dowolnemu graczowi" (to any player, accused
    or not) and "Obaj gracze decyduja teraz": the accused receiver decides keep-or-swap like anybody."""
    s = make(3, swords=[2, 2], deck=["grail_2", "vivien"])
    play(s, (0, "accuse:1"), (1, "listen"), (2, "listen"))
    assert s.phase == "vivien_give" and codes(s, 2) == ["give:0", "give:1"]
    play(s, (2, "give:1"))
    assert {(p.seat, p.kind) for p in GAME.pending(s)} == {(1, "vivien_keep"), (2, "vivien_keep")}
    assert GAME.view(s, 1)["you"]["vivien_card"] == "loyal"


def test_an_accused_revealer_decides_keep_or_swap_and_nothing_public_tells_his_choice():
    """C-CHAR, seed 001 (Viviana, OCR spelling): "Obaj gracze decyduja teraz, czy cheg zachowac swoja dotychczasowa
    karte Lojalnosci, czy zamienic ja na nowsa" and "Gracze nie zdradzajg swojego wyboru innym graczom". Here the
    revealer was accused (shown Loyal) and the card he takes from the middle is the Traitor."""
    s = make(3, swords=[2, 2], deck=["vivien"], loyalty=["loyal", "loyal", "loyal", "traitor", "loyal"])
    play(s, (0, "accuse:1"), (1, "listen"), (1, "give:2"))
    assert {(p.seat, p.kind) for p in GAME.pending(s)} == {(1, "vivien_keep"), (2, "vivien_keep")}
    assert GAME.view(s, 1)["you"]["vivien_card"] == "traitor"
    kept, swapped = GAME.copy(s), GAME.copy(s)
    play(kept, (1, "keep"), (2, "keep"))
    play(swapped, (1, "swap"), (2, "keep"))
    assert kept.loyalty[1] == "loyal" and swapped.loyalty[1] == "traitor"
    assert GAME.view(kept, None) == GAME.view(swapped, None) and GAME.view(kept, 0) == GAME.view(swapped, 0)
    assert GAME.view(swapped, None)["revealed"] == [{"seat": 1, "loyalty": "loyal"}]  # what was shown, not the swap
    assert GAME.view(swapped, 1)["you"]["loyalty"] == "traitor"


def test_a_revealed_traitor_who_reveals_vivien_decides_too_and_keeps_the_traitors_turn():
    """C-CHAR with C-TRAITOR, seed 001: the revealed Traitor places Vivien, so he is its revealer ("Obaj gracze
    decyduja"); "Po ujawnieniu, Zdrajca … Podczas kazdej swojej tury, musi dobra¢ 2 karty": his public status, not
    his secret choice, decides his turns, so swapping to Loyal shows nothing ([choice])."""
    loyalty = ["loyal", "traitor", "loyal", "loyal", "loyal"]
    s = make(3, swords=[2, 2], deck=["vivien", "grail_2", "dragon_2", "picts_2", "saxons_2", "picts_3"],
             loyalty=loyalty)
    play(s, (0, "accuse:1"), (1, "place:0"), (1, "give:0"))
    assert {p.seat for p in GAME.pending(s)} == {0, 1} and GAME.view(s, 1)["you"]["vivien_card"] == "loyal"
    play(s, (1, "swap"), (0, "keep"))
    assert s.loyalty[1] == "loyal" and GAME.view(s, None)["traitors_revealed"] == [1]
    play(s, (2, "listen"), (0, "listen"))
    assert s.phase == "traitor" and s.current == 1  # still the revealed Traitor's draw-two turn
