"""Dying (B-LIFE, B-TURN, B-END): issue 21 items 2, 3 and 4, each against the seed that says it."""

from __future__ import annotations

from board_helpers import GAME, asked, check_invariants, codes, play, table

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


# --- item 3: the last loyal knight dying as the 12th sword lands loses the game ------------------------------


def test_the_last_loyal_knight_sacrificing_his_last_life_for_the_twelfth_sword_loses() -> None:
    """B-END: his sacrifice brings him to 0, his war's victory lays the 12th sword (9 white against 3 black):
    the death is resolved before the swords are counted, and all loyal knights are dead. Seed 002 FAQ: "indien alle
    ridders dood zijn, is het spel verloren op het ogenblik dat de laatste loyale ridder sterft, zelfs indien er 12 of
    meer zwaarden … waarvan de meerderheid wit is, op het bord zou komen wanneer de laatste ridder sterft"."""
    board = {"alive": [True, True, False], "life": [1, 4, 0], "loc": ["picts", "camelot", "camelot"],
             "war_white": {"picts": [F1, F2, F3, F4], "saxons": []}, "swords_white": 8, "swords_black": 3}
    state = table(3, loyalty=["loyal", "traitor", "loyal"], hands=[[F5, "reinforcements"], [F1], []], board=board)
    play(state, 0, "evil:siege", "play:reinforcements.others", "sacrifice", "fight:5")
    result = GAME.result(state)
    assert result["winner"] == "evil" and result["reason"] == "loyal_dead"
    assert state.swords_white + state.swords_black == 12 and not state.alive[0]
    check_invariants(state)


def test_a_lost_war_that_kills_the_last_loyal_knight_and_lays_the_twelfth_sword_loses() -> None:
    """B-END: the Traitor draws the 4th Pict; the war's black sword is the 12th (9 white, 3 black) and its -1 life
    kills the last loyal knight there. Seed 002 FAQ (the same answer): the game "is verloren op het ogenblik dat de
    laatste loyale ridder sterft, zelfs indien er 12 of meer zwaarden … op het bord zou komen"."""
    board = {"alive": [True, True, False], "life": [4, 1, 0], "loc": ["camelot", "picts", "camelot"],
             "war_black": {"picts": ["picts", "picts", "mercenaries"], "saxons": []},
             "swords_white": 9, "swords_black": 2}
    state = table(3, loyalty=["traitor", "loyal", "loyal"], hands=[[F1], [F2], []], board=board, black=["picts"])
    play(state, 0, "evil:black")
    result = GAME.result(state)
    assert result["winner"] == "evil" and result["reason"] == "loyal_dead" and not state.alive[1]
    check_invariants(state)


def test_a_knight_the_grail_saves_as_the_twelfth_sword_lands_lives_to_count_the_swords() -> None:
    """B-END: resolving the death first includes the Grail: saved, he is alive when the majority is counted."""
    board = {"alive": [True, True, True], "life": [4, 1, 4], "loc": ["camelot", "picts", "camelot"],
             "war_black": {"picts": ["picts", "picts", "mercenaries"], "saxons": []},
             "swords_white": 9, "swords_black": 2, "relics": [[], [], ["grail"]]}
    state = table(3, loyalty=["loyal", "loyal", "loyal"], board=board, black=["picts"])
    play(state, 0, "evil:black")
    assert GAME.result(state) is None and asked(state) == [(2, "grail_rescue")]
    play(state, 2, "drink")
    result = GAME.result(state)
    assert result["winner"] == "loyal" and result["reason"] == "swords" and state.life[1] == 4


# --- item 4: Excalibur goes to the Grail rescuer -------------------------------------------------------------


def _lady_at_zero(relics: list[list[str]]) -> object:
    """Seat 0 at 1 life draws at the Round Table, sacrifices his last life and wins Excalibur with the Lady."""
    board = {"life": [1, 4, 4], "excalibur_position": 9, "relics": relics}
    state = table(3, loyalty=["loyal"] * 3, hands=[["lady_of_the_lake"], [F1], [F2]], board=board)
    play(state, 0, "evil:siege", "draw", "sacrifice", "play:lady_of_the_lake")
    assert state.excalibur_done and state.life[0] == 0 and not any("excalibur" in r for r in state.relics)
    return state


def test_excalibur_won_by_a_dying_knight_goes_to_the_knight_who_lets_him_drink() -> None:
    """B-LIFE: nobody was on the quest; the Grail's holder lets him drink and receives Excalibur. Seed 002 FAQ: "is de
    speler die hem de Heilige Graal te drinken geeft, de speler die dan het Excalibur-zwaard ontvangt"."""
    state = _lady_at_zero([[], ["grail"], []])
    assert asked(state) == [(1, "grail_rescue")]
    events = play(state, 1, "drink")
    assert state.relics == [[], ["excalibur"], []] and state.life[0] == 4
    assert any(e.kind == "relic_won" and e.data == {"seat": 1, "relic": "excalibur"} for e in events)
    assert asked(state) == [(1, "evil")]
    check_invariants(state)


def test_excalibur_won_by_a_dying_knight_holding_the_grail_is_his_when_he_drinks() -> None:
    """B-LIFE: seed 002 FAQ, "Indien deze stervende ridder zelf de Heilige Graal heeft, dan is Excalibur voor hem"."""
    state = _lady_at_zero([["grail"], [], []])
    assert asked(state) == [(0, "grail_rescue")]
    play(state, 0, "drink")
    assert state.relics == [["excalibur"], [], []]


def test_excalibur_won_by_a_dying_knight_nobody_saves_leaves_the_game() -> None:
    """B-LIFE: without the Grail he dies, and a dying knight's Excalibur leaves the game (seed 002: "Indien je
    Excalibur of Lancelots Pantser bezat, zijn deze nu voor altijd verloren")."""
    state = _lady_at_zero([[], ["grail"], []])
    play(state, 1, "decline")
    assert not state.alive[0] and state.relics == [[], ["grail"], []]
    check_invariants(state)
