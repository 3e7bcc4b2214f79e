"""Bots and timeouts: the heuristic plays sensibly, a timeout never depends on (so never reveals) loyalty."""

from __future__ import annotations

import random

from cards_helpers import GAME, make, play

from engine.bots import RandomBot, heuristic_bot
from engine.core.simulate import play_game


def loyal_wins(bot, players: int, games: int = 120) -> float:
    wins = sum(GAME.result(play_game(GAME, {"players": players}, seed, bot, record=False).state)["winner"] == "loyal"
               for seed in range(games))
    return wins / games


def test_heuristic_bot_beats_random_play_and_plays_a_traitor_against_the_loyal():
    assert loyal_wins(RandomBot(), 4) < 0.05
    assert loyal_wins(heuristic_bot("cards", as_loyal=True), 1) > 0.6
    as_loyal = loyal_wins(heuristic_bot("cards", as_loyal=True), 4)
    with_traitors = loyal_wins(heuristic_bot("cards"), 4)
    assert as_loyal > 0.4 and with_traitors < as_loyal


def test_turn_timeout_is_the_same_whatever_the_seat_loyalty():
    for deck in (["dragon_5", "dragon_4", "dragon_2"], ["grail_5", "grail_4"]):
        states = [make(3, deck=deck, loyalty=lo) for lo in (
            ["loyal", "loyal", "loyal", "traitor", "loyal"], ["traitor", "loyal", "loyal", "loyal", "loyal"])]
        for s in states:
            play(s, (0, "listen"), (1, "listen"))
        actions = {GAME.timeout_action(s, 2) for s in states}
        assert len(actions) == 1


def test_morgan_1_timeout_announces_the_truth_even_for_a_traitor():
    s = make(3, deck=["morgan_1", "dragon_4"], loyalty=["loyal", "traitor", "loyal", "loyal", "loyal"])
    play(s, (0, "listen"), (1, "listen"))
    assert GAME.encode(GAME.timeout_action(s, 1)) == "announce:dragon.4"
    assert GAME.encode(heuristic_bot("cards").choose(GAME, s, 1, random.Random(0))) != "announce:dragon.4"


def test_response_timeouts_are_the_safe_default():
    s = make(3, expert=True, threat=["dragon_5"], hands=[[], ["arthur"], ["percival"]])
    play(s, (0, "quest:dragon"))
    assert GAME.encode(GAME.timeout_action(s, 1)) == "pass" and GAME.encode(GAME.timeout_action(s, 2)) == "pass"


def test_bots_and_the_timeout_answer_an_accused_revealers_keep_or_swap():
    s = make(3, swords=[3, 2], deck=["vivien"], accusations=[[0, 1]], first=1)
    play(s, (1, "listen"), (1, "give:0"))
    rng = random.Random(0)
    for seat in (0, 1):
        legal = GAME.legal_actions(s, seat)
        assert {GAME.encode(a) for a in legal} == {"keep", "swap"}
        assert RandomBot().choose(GAME, s, seat, rng) in legal
        assert heuristic_bot("cards").choose(GAME, s, seat, rng) in legal
        assert GAME.encode(GAME.timeout_action(s, seat)) == "keep"
