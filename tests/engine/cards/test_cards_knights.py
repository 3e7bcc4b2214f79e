"""C-KNIGHTS: the expert variant (set-aside Morgans, Knight draws, Arthur, Tristan, Gawain, Galahad, Percival)."""

from __future__ import annotations

import json
import random

from cards_helpers import GAME, codes, kinds, last, make, play

from engine.core.prompts import RESPONSE

TRAITOR_AT_1 = ["loyal", "traitor", "loyal", "loyal", "loyal"]


def test_success_shuffles_a_set_aside_morgan_into_the_deck():
    s = make(3, expert=True, threat=["dragon_5", "dragon_4", "dragon_2"], aside=["morgan_1", "morgan_2", "morgan_7"])
    ev = play(s, (0, "quest:dragon"))
    assert "morgan_shuffled_in" in kinds(ev) and s.aside == ["morgan_1", "morgan_2"] and "morgan_7" in s.deck
    assert len(s.deck) == 62 - 3 - 2 and GAME.view(s, None)["knights"]["morgans_aside"] == 2


def test_failure_with_a_black_sword_draws_a_secret_knight_card():
    s = make(3, expert=True, threat=["dragon_5"], knights=["galahad"])
    ev = play(s, (0, "quest:dragon"))
    drawn = last(ev, "knight_card")
    assert drawn.to == frozenset({0}) and drawn.data == {"card": "galahad"} and last(ev, "knight_drawn").public
    assert GAME.view(s, None)["knights"]["held"] == [1, 0, 0]
    assert GAME.view(s, 0)["you"]["knights"] == ["galahad"] and "galahad" not in json.dumps(GAME.view(s, 1))


def test_arthur_window_asks_every_other_player_and_forces_a_listen():
    s = make(3, expert=True, threat=["dragon_5"], deck=["grail_2"], hands=[[], ["tristan"], ["arthur"]])
    play(s, (0, "quest:dragon"))
    assert {(p.seat, p.kind, p.timing) for p in GAME.pending(s)} == {(1, "arthur", RESPONSE), (2, "arthur", RESPONSE)}
    assert codes(s, 1) == ["pass"] and codes(s, 2) == ["arthur", "pass"]
    ev = play(s, (1, "pass"), (2, "arthur"))
    assert last(ev, "knight_played").data == {"seat": 2, "card": "arthur", "target": 0}
    assert GAME.view(s, None)["threat_top"] == "grail_2" and s.current == 1 and s.black == 0


def test_arthur_all_pass_the_quest_goes_on():
    s = make(3, expert=True, threat=["dragon_5"], hands=[[], [], ["arthur"]])
    play(s, (0, "quest:dragon"), (1, "pass"), (2, "pass"))
    assert s.phase == "gawain" and s.threat == []  # resolving: Gawain's window, then the swords
    play(s, (0, "pass"), (1, "pass"), (2, "pass"))
    assert s.black == 1


def test_no_window_when_nobody_holds_a_knight_card():
    s = make(3, expert=True, threat=["dragon_5"], hands=[["arthur"], [], []])
    play(s, (0, "quest:dragon"))
    assert s.phase == "gawain"  # the quester's own Arthur is no use; Gawain's window asks everyone
    play(s, (0, "pass"), (1, "pass"), (2, "pass"))
    assert s.black == 1


def test_tristan_looks_at_the_deck_privately_before_acting():
    s = make(3, expert=True, deck=["grail_2", "dragon_3"], hands=[["tristan", "tristan"], [], []])
    ev = play(s, (0, "tristan"))
    look = last(ev, "tristan_look")
    assert look.to == frozenset({0}) and look.data["deck"][:2] == ["grail_2", "dragon_3"]
    assert len(look.data["deck"]) == 59 and s.current == 0 and "tristan" not in codes(s, 0)
    assert GAME.view(s, 0)["you"]["tristan"][:2] == ["grail_2", "dragon_3"]
    assert GAME.view(s, 1)["you"]["tristan"] is None
    play(s, (0, "listen"))
    assert GAME.view(s, None)["threat_top"] == "grail_2"


def test_gawain_after_totals_plays_one_drawn_card_into_the_resolution():
    s = make(3, expert=True, threat=["dragon_5", "dragon_4"], deck=["morgan_5", "dragon_2", "grail_3"],
             hands=[[], ["gawain"], []])
    play(s, (0, "quest:dragon"), (1, "pass"), (2, "pass"))  # Arthur's window asks the others first
    assert s.phase == "gawain" and GAME.view(s, None)["resolution"]["totals"] == {"dragon": 9}
    ev = play(s, (0, "pass"), (1, "gawain"))
    assert last(ev, "gawain_draw").to == frozenset({1})
    assert codes(s, 1) == ["pick:1", "pick:2"]  # not the Morgan
    ev = play(s, (1, "pick:1"))
    assert last(ev, "gawain_card").data == {"seat": 1, "card": "dragon_2"}
    assert last(ev, "quest_result").data["outcome"] == "success" and s.white == 2
    assert s.discard_seen == [0b010, 0b010, -1, -1, -1]  # two unplayed, face down, seen by seat 1 only; the pile


def test_gawain_with_only_morgans_plays_nothing():
    s = make(3, expert=True, threat=["dragon_5"], deck=["morgan_5", "morgan_6", "morgan_7"], hands=[[], ["gawain"], []],
             aside=["morgan_1", "morgan_2", "morgan_3"])
    play(s, (0, "quest:dragon"), (1, "pass"), (2, "pass"), (0, "pass"), (1, "gawain"))
    assert codes(s, 1) == ["pass"]
    play(s, (1, "pass"))
    assert s.black == 1 and s.phase == "turn"


def test_galahad_looks_at_a_loyalty_card_instead_of_acting():
    s = make(3, expert=True, loyalty=TRAITOR_AT_1, hands=[["galahad"], [], []])
    ev = play(s, (0, "galahad:1"))
    assert last(ev, "galahad_look").to == frozenset({0}) and last(ev, "galahad_look").data["loyalty"] == "traitor"
    assert last(ev, "knight_played").public and "traitor" not in json.dumps(last(ev, "knight_played").data)
    assert GAME.view(s, 0)["you"]["looks"] == [{"seat": 1, "loyalty": "traitor"}] and s.current == 1


def test_percival_at_an_accusation_gives_two_swords():
    s = make(3, expert=True, loyalty=TRAITOR_AT_1, swords=[2, 2], hands=[[], [], ["percival"]])
    play(s, (0, "accuse:1"))
    assert s.phase == "percival" and len(GAME.pending(s)) == 3 and s.revealed[1] is None
    play(s, (0, "pass"), (1, "pass"), (2, "percival"))
    assert s.white == 4 and GAME.view(s, None)["accusations"][0]["swords"] == 2


def test_percival_at_the_final_reveal_flips_two():
    s = make(3, expert=True, loyalty=TRAITOR_AT_1, swords=[6, 2], threat=["picts_5", "picts_4", "picts_2"],
             hands=[[], [], ["percival"]])
    play(s, (0, "quest:picts"), (1, "pass"), (2, "pass"))  # Arthur's window
    play(s, (0, "pass"), (1, "pass"), (2, "pass"))  # Gawain's window
    assert s.phase == "percival" and (s.white, s.black) == (7, 2)
    ev = play(s, (0, "pass"), (1, "pass"), (2, "percival"))
    assert last(ev, "swords_flipped").data["count"] == 2 and (s.white, s.black) == (5, 4) and GAME.result(s) is None


def test_a_current_tristan_look_knows_the_cards_drawn_secretly_afterwards():
    s = make(3, expert=True, deck=["morgan_1", "dragon_4"], hands=[["tristan"], [], []])
    play(s, (0, "tristan"), (0, "listen"), (1, "listen"), (1, "announce:grail.5"))
    assert s.threat_seen[-1] == 0b011  # laid by seat 1, known to seat 0 through Tristan
    assert GAME.view(s, 0)["you"]["morgan1_card"] == "dragon_4" and GAME.view(s, 2)["you"]["morgan1_card"] is None
    rng = random.Random(5)
    assert all(GAME.resample_hidden(s, 0, rng).threat[-1] == "dragon_4" for _ in range(30))
    assert any(GAME.resample_hidden(s, 2, rng).threat[-1] != "dragon_4" for _ in range(30))
