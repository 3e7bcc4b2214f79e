"""The test-only `stack` scripts the rulebook's situations (C-SETUP): each test sets one up and plays the rule on it."""

from __future__ import annotations

import pytest
from cards_helpers import GAME, codes, kinds, last, make, play

from engine import IllegalAction
from engine.cards.catalogue import RUMORS
from engine.cards.state import conserved


def test_an_empty_deck_is_rebuilt_from_the_discards():
    """C-LISTEN: "Jesli talia Pogtosek si¢ wyczerpie, potasujcie odrzucone karty, aby uformowac nowy stos"."""
    s = make(3, deck=[], rest="discard", discard=["grail_2"])
    assert s.deck == [] and len(s.discard) == len(RUMORS) - 3 and s.discard[-1] == "grail_2" and conserved(s)
    view = GAME.view(s, None)
    assert view["deck_count"] == 0 and view["discard_count"] == len(RUMORS) - 3 and codes(s, 0) == ["listen"]
    ev = play(s, (0, "listen"))
    assert last(ev, "reshuffle").data == {"count": len(RUMORS) - 3} and s.discard == [] and conserved(s)


def test_the_deck_is_exactly_what_is_named_when_the_rest_is_discarded():
    s = make(3, deck=["dragon_4", "vivien"], rest="discard")
    assert s.deck == ["vivien", "dragon_4"] and "vivien" not in s.discard
    play(s, (0, "listen"), (1, "listen"))
    assert s.phase == "vivien_give" and s.deck == []


def test_silence_in_force_ends_at_a_quest():
    s = make(3, threat=["morgan_3", "dragon_4"], silence=True)
    assert all(GAME.view(s, seat)["silence"] for seat in (None, 0, 1, 2))
    ev = play(s, (0, "quest:dragon"))
    assert last(ev, "silence_off").data == {"reason": "quest"} and not GAME.view(s, None)["silence"]


def test_morgan_1_in_force_makes_the_listener_look_and_announce():
    s = make(3, discard=["morgan_1"], morgan1=True, deck=["dragon_4"])
    assert GAME.view(s, None)["morgan1"] and not GAME.view(s, None)["silence"]
    ev = play(s, (0, "listen"))
    assert last(ev, "morgan1_look").data == {"card": "dragon_4"} and s.phase == "announce"


def test_morgan_2_in_force_carries_its_count():
    s = make(3, threat=["morgan_2", "grail_2", "grail_3"], morgan2=2, deck=["dragon_4"])
    play(s, (0, "listen"))
    assert s.phase == "count" and GAME.encode(GAME.timeout_action(s, 0)) == "count:3"


def test_a_face_down_threat_card_and_its_announcement():
    s = make(3, threat=["dragon_5", ["dragon_4", 1, "grail", 5]], discard=["morgan_1"], morgan1=True)
    pub = GAME.view(s, None)
    assert pub["threat_top"] == "hidden" and pub["threat_announced"] == {"seat": 1, "quest": "grail", "value": 5}
    assert GAME.view(s, 1)["you"]["morgan1_card"] == "dragon_4" and GAME.view(s, 0)["you"]["morgan1_card"] is None
    assert codes(s, 0) == ["listen", "quest:grail"]
    ev = play(s, (0, "quest:grail"))  # the lie found out: no Grail card at all, too early
    assert last(ev, "quest_result").data["outcome"] == "early" and last(ev, "quest_sorted").data["totals"] == {
        "dragon": 9}


def test_accusations_already_made():
    loyalty = ["loyal", "traitor", "loyal", "loyal", "loyal", "loyal"]
    s = make(4, swords=[3, 2], loyalty=loyalty, accusations=[[2, 0], [0, 1]], first=2, deck=["grail_2", "dragon_2"])
    view = GAME.view(s, None)
    assert view["accusations"] == [{"by": 2, "target": 0, "loyalty": "loyal", "swords": 1},
                                   {"by": 0, "target": 1, "loyalty": "traitor", "swords": 1}]
    assert view["traitors_revealed"] == [1] and not any(c.startswith("accuse") for c in codes(s, 2))
    play(s, (2, "listen"), (3, "accuse:2"), (0, "listen"))  # seat 3 may still accuse
    assert s.phase == "traitor" and s.current == 1  # the revealed Traitor's turn: he draws two


def test_merlin_4_token_in_force():
    s = make(3, threat=["merlin_4", "dragon_5", "dragon_4", "dragon_2"], token=["dragon", 2])
    assert GAME.view(s, None)["merlin4_token"] and GAME.view(s, 2)["you"]["merlin4_quest"] == "dragon"
    assert GAME.view(s, 0)["you"]["merlin4_quest"] is None
    ev = play(s, (0, "quest:dragon"))
    assert last(ev, "merlin4_token_used").data == {"seat": 2, "quest": "dragon"}
    assert last(ev, "quest_sorted").data["totals"] == {"dragon": 6} and "merlin4_token_used" in kinds(ev)


@pytest.mark.parametrize(
    "stack",
    [
        {"silence": True, "threat": ["dragon_4"]},  # no Morgan to have started it
        {"morgan1": True},  # Morgan #1 still in the deck
        {"morgan2": 1, "threat": ["morgan_1"]},
        {"token": ["dragon", 0]},  # Merlin #4 never revealed
        {"token": ["nowhere", 0], "threat": ["merlin_4"]},
        {"rest": "box"},
        {"threat": [["mordred", 0, "picts", 2]]},  # only quest cards lie face down
        {"accusations": [[0, 0]]},
        {"accusations": [[0, 1], [0, 2]]},  # each accuses once
        {"accusations": [[0, 1], [2, 1]]},  # nobody is accused twice
        {"accusations": [[2, 0]], "loyalty": ["traitor", "loyal", "loyal", "loyal", "loyal"]},  # first seat: a draw
        {"discard": ["morgan_1", "morgan_2", "morgan_3", "morgan_5", "morgan_6", "morgan_7", "morgan_4_1"]},
    ],
)
def test_a_stack_that_no_game_can_reach_is_refused(stack):
    with pytest.raises(IllegalAction) as err:
        make(3, **stack)
    assert err.value.rule == "C-SETUP"
