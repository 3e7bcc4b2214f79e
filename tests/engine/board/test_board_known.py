"""What a seat knows of other hands (`known_hands` in its view): cards it saw go in, less those it saw leave; the
resampling of hidden information keeps them where they are."""

from __future__ import annotations

import random

from board_helpers import GAME, check_invariants, play, table

F1, F2, F3, F4, F5 = "fight_1", "fight_2", "fight_3", "fight_4", "fight_5"


def _known(state, seat: int) -> list[list[str]]:
    return GAME.view(state, seat)["you"]["known_hands"]


def _always_kept(state, seat: int, holder: int, cards: list[str]) -> None:
    for k in range(30):
        other = GAME.resample_hidden(state, seat, random.Random(k))
        hand = list(other.hands[holder])
        for card in cards:
            hand.remove(card)  # raises if the card was re-dealt away
        assert GAME.view(other, seat) == GAME.view(state, seat)
        check_invariants(other)


def test_arthurs_exchange_tells_each_side_one_card_of_the_other() -> None:
    hands = [[F1, "grail"], [F5, "merlin", "reinforcements"], [F3]]
    state = table(3, knights=["arthur", "kay", "gawain"], hands=hands)
    play(state, 0, "evil:siege", "arthur:1.fight_1")
    play(state, 1, "give:merlin")
    assert _known(state, 0) == [[], [F1], []] and _known(state, 1) == [["merlin"], [], []]
    assert _known(state, 2) == [[], [], []]
    _always_kept(state, 0, 1, [F1])
    _always_kept(state, 1, 0, ["merlin"])
    play(state, 0, "draw", "end")
    play(state, 1, "evil:siege", "play:reinforcements.self")
    assert _known(state, 0)[1] == [F1]  # another card went, in view of all: the fight card is still there
    check_invariants(state)


def test_a_messenger_tells_the_giver_and_an_unseen_discard_forgets_one_of_each_kind() -> None:
    state = table(3, hands=[["messenger", F1, F1, F2, F3], [F4], [F5]], black=["morgan_discard_or_life"])
    play(state, 0, "evil:siege", "play:messenger.1", "give:fight_1", "give:fight_1", "give:fight_2")
    assert _known(state, 0)[1] == [F1, F1, F2] and _known(state, 2)[1] == []
    _always_kept(state, 0, 1, [F1, F1, F2])
    play(state, 0, "end")
    play(state, 1, "evil:black")
    for _ in ("window", "volunteer"):
        for seat in (1, 2, 0):
            play(state, seat, "pass")
    play(state, 1, "discard:fight_4")  # which card went, only he knows: any of the three may have
    assert _known(state, 0)[1] == [F1]
    check_invariants(state)


def test_cards_taken_from_a_face_up_split_are_known_to_all_until_played() -> None:
    board = {"loc": ["dragon", "dragon", "camelot"], "lancelot_stage": "dragon",
             "lancelot_white": [F5, F5, F5, F4, F4, F4, F3, F3]}
    state = table(3, hands=[[F3], [], []], board=board, white=[F1, F1, F2, F2, F3, F4, F5])
    play(state, 0, "evil:siege", "fight:3")
    play(state, 0, *["give:1"] * 7)
    play(state, 1, "accept")
    taken = sorted([F1, F1, F2, F2, F3, F4, F5])
    assert _known(state, 0)[1] == taken and _known(state, 2)[1] == taken and _known(state, 1)[1] == []
    _always_kept(state, 2, 1, taken)
    _always_kept(state, 0, 1, taken)
    play(state, 0, "end")
    play(state, 1, "evil:siege", "move:black_knight")
    play(state, 1, "end")
    play(state, 2, "evil:siege", "draw", "end")
    play(state, 0, "evil:siege", "draw", "end")
    play(state, 1, "evil:siege", "fight:5")  # played face up: everybody sees it leave
    assert _known(state, 2)[1] == [F1, F1, F2, F2, F3, F4]
    check_invariants(state)
