"""Dying (B-LIFE, B-TURN, B-END): issue 21 items 2, 3 and 4, each against the seed that says it."""

from __future__ import annotations

from board_helpers import asked, check_invariants, codes, play, table

F1, F2, F3, F4, F5 = "fight_1", "fight_2", "fight_3", "fight_4", "fight_5"


# --- item 2: no heroic action after dying in one's own Evil phase --------------------------------------------


def test_a_knight_dying_in_his_evil_phase_is_offered_the_grail_at_once_and_keeps_his_cards() -> None:
    """B-LIFE: seed 002, "Je enige hoop: indien de Heilige Graal eerder in het spel gewonnen was en de eigenaar ervan
    jou van deze laat drinken, overleef je jouw val naar 0 levenspunten"; FAQ: he "houdt zijn witte kaarten.
    Niettemin eindigt zijn beurt onmiddellijk". The Grail is offered before his cards would go, not at his turn's
    end."""
    board = {"life": [1, 4, 4], "relics": [[], [], ["grail"]], "loc": ["grail", "camelot", "camelot"],
             "grail_white": 6}
    state = table(3, hands=[["grail", F2], [F1], [F3]], board=board)
    play(state, 0, "evil:life")
    assert asked(state) == [(2, "grail_rescue")]
    play(state, 2, "drink")
    assert state.life[0] == 4 and sorted(state.hands[0]) == [F2, "grail"] and state.grail_white == 6
    assert asked(state) == [(1, "evil")]
    check_invariants(state)


def test_a_black_card_that_kills_the_drawer_in_his_evil_phase_ends_his_turn() -> None:
    """B-TURN: seed 002, "Indien je jouw fase van 'voortgang van het Kwade' overleeft, moet je vervolgens 1 van de 5
    heroïsche acties ondernemen" — Morgan takes his last life point: no heroic action, his hand is discarded."""
    state = table(3, hands=[["merlin", F4, F4, F4], [F1], [F2]], board={"life": [1, 4, 4]},
                  black=["morgan_lose_life"])
    play(state, 0, "evil:black")
    for seat in range(3):
        play(state, seat, "pass")
    assert not state.alive[0] and state.hands[0] == [] and state.life == [0, 3, 3]
    assert asked(state) == [(1, "evil")]
    check_invariants(state)


def test_dying_by_ones_own_sacrifice_still_allows_that_last_action() -> None:
    """B-SACRIFICE (unchanged): "kan je de innerlijke krachten vinden die vereist zijn om deze ene finale actie uit te
    voeren, maar hierna sterf je onmiddellijk"."""
    state = table(3, hands=[[F1, F1, F1, "grail"], [], []], board={"life": [1, 4, 4]})
    play(state, 0, "evil:siege", "draw", "sacrifice")
    assert state.life[0] == 0 and asked(state) == [(0, "heroic")] and "heal:fight_1" in codes(state, 0)
    play(state, 0, "heal:fight_1")
    assert not state.alive[0] and asked(state) == [(1, "evil")]

