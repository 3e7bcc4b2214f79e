"""C-SILENCE and the listening Morgans: the issue's walk-through, Morgan #1's face-down cards, Morgan #2's count."""

from __future__ import annotations

import json

from cards_helpers import GAME, codes, kinds, last, make, play


def silence_everywhere(state) -> set[bool]:
    return {GAME.view(state, seat)["silence"] for seat in [None, *range(state.n)]}


def test_walkthrough_morgan_listen_merlin_then_morgan_quest():
    s = make(3, deck=["morgan_3", "dragon_4", "merlin_1", "morgan_5", "dragon_5"])
    assert silence_everywhere(s) == {False}
    ev = play(s, (0, "listen"))
    assert "silence_on" in kinds(ev) and silence_everywhere(s) == {True}
    ev = play(s, (1, "listen"))  # a quest card: the silence holds
    assert "silence_off" not in kinds(ev) and silence_everywhere(s) == {True}
    assert GAME.view(s, None)["threat_top"] == "dragon_4"
    ev = play(s, (2, "listen"))  # a Merlin from the Rumor deck ends it
    assert last(ev, "silence_off").data["reason"] == "merlin" and silence_everywhere(s) == {False}
    ev = play(s, (0, "listen"))  # Morgan again
    assert "silence_on" in kinds(ev) and silence_everywhere(s) == {True}
    ev = play(s, (1, "listen"), (2, "quest:dragon"))  # a quest declared ends it
    assert last(ev, "silence_off").data["reason"] == "quest" and silence_everywhere(s) == {False}


def test_only_the_top_threat_card_is_in_any_view():
    s = make(3, deck=["dragon_4", "grail_3", "picts_2"])
    play(s, (0, "listen"), (1, "listen"), (2, "listen"))
    for seat in [None, 0, 1, 2]:
        blob = json.dumps(GAME.view(s, seat))
        assert "picts_2" in blob and "dragon_4" not in blob and "grail_3" not in blob
    assert GAME.view(s, None)["threat_count"] == 3


def test_morgan_1_look_announce_face_down_and_quest_on_the_announcement():
    s = make(3, deck=["morgan_1", "dragon_4", "mordred"])
    play(s, (0, "listen"))
    assert GAME.view(s, None)["morgan1"] is True
    ev = play(s, (1, "listen"))
    look = last(ev, "morgan1_look")
    assert look.to == frozenset({1}) and look.data == {"card": "dragon_4"}
    assert s.phase == "announce" and GAME.view(s, 1)["you"]["held"] == "dragon_4"
    assert GAME.view(s, 2)["you"]["held"] is None
    ev = play(s, (1, "announce:grail.5"))  # a lie is allowed
    assert last(ev, "morgan1_announce").public
    pub = GAME.view(s, None)
    assert pub["threat_top"] == "hidden" and pub["threat_announced"] == {"seat": 1, "quest": "grail", "value": 5}
    assert "dragon_4" not in json.dumps(pub) and "dragon_4" not in json.dumps(GAME.view(s, 2))
    assert GAME.view(s, 1)["you"]["morgan1_card"] == "dragon_4"
    assert codes(s, 2) == ["listen", "quest:grail"]  # the announced quest, true or not
    ev = play(s, (2, "listen"))  # a character is revealed normally, even under Morgan #1
    assert GAME.view(s, None)["threat_top"] == "mordred" and "morgan1_look" not in kinds(ev)


def test_morgan_1_pile_is_shuffled_before_resolving():
    s = make(3, deck=["morgan_1", "dragon_4"], threat=["dragon_5", "dragon_3", "dragon_2"])
    play(s, (0, "listen"), (1, "listen"), (1, "announce:dragon.4"))
    ev = play(s, (2, "quest:dragon"))
    assert last(ev, "quest_sorted").data["totals"] == {"dragon": 14}
    assert sorted(s.discard) == sorted(["dragon_5", "dragon_3", "dragon_2", "morgan_1", "dragon_4"])


def test_morgan_1_and_2_end_when_a_merlin_is_revealed_not_at_a_quest():
    s = make(3, deck=["morgan_2", "dragon_4", "merlin_2"])
    play(s, (0, "listen"), (1, "listen"), (1, "count:1"), (2, "quest:dragon"))
    assert s.morgan2 and not s.silence
    play(s, (0, "listen"), (0, "count:2"))
    assert not s.morgan2 and GAME.view(s, None)["morgan2"] is False


def test_morgan_2_each_listener_announces_a_count_publicly():
    s = make(3, deck=["morgan_2", "dragon_4", "grail_3"])
    play(s, (0, "listen"))
    play(s, (1, "listen"))
    assert s.phase == "count" and GAME.pending(s)[0].kind == "morgan2_count"
    assert "count:1" in codes(s, 1) and "count:20" in codes(s, 1)
    ev = play(s, (1, "count:1"))
    assert last(ev, "morgan2_count").public and last(ev, "morgan2_count").data == {"seat": 1, "count": 1}
    ev = play(s, (2, "listen"), (2, "count:3"))  # a wrong count is announced as said
    assert last(ev, "morgan2_count").data["count"] == 3 and GAME.view(s, None)["threat_top"] == "grail_3"
    assert "morgan2_count" not in json.dumps({k: v for k, v in GAME.view(s, None).items() if k != "pending"})


def test_the_silence_ends_with_the_game():
    """C-SILENCE with C-END, seed 001 (OCR spelling): the silence holds "do momentu, gdy ktory$ z graczy zdecyduje
    si¢ Wyruszy¢ na Wyprawe lub z talii Poglosek odkryta zostanie karta Merlina", but "Gra konczy si¢ w momencie,
    gdy na stole pojawi si¢ co najmniej 7 Biatych lub 7 Czarnych Mieczy": an accusation that ends the game during
    a silence ends the silence (and Morgan #1/#2) with it, in the view and by an event."""
    loyalty = ["loyal", "loyal", "traitor", "loyal", "loyal", "loyal"]
    s = make(4, swords=[6, 0], loyalty=loyalty, deck=["morgan_2"])
    play(s, (0, "listen"))
    assert silence_everywhere(s) == {True} and GAME.view(s, None)["morgan2"]
    ev = play(s, (1, "accuse:2"))
    assert GAME.result(s)["winner"] == "loyal"
    assert silence_everywhere(s) == {False} and GAME.view(s, None)["morgan2"] is False
    assert last(ev, "silence_off").data == {"reason": "end"}
    assert kinds(ev).index("silence_off") < kinds(ev).index("game_over")
