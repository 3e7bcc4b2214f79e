"""Scoring a table by side result (win 1, loss 0, no winner or void ½), merit as the side-corrected result, the
standings' order (points, merit, opponents' score, the seeded lot), and the tournament's course: registration,
late registration, withdrawal, and when it is over."""

from __future__ import annotations

import pytest

from service.tournaments.course import AUTO, AUTO_CAP, ROUND_ROBIN, Entrant, Format, active, may_register, over
from service.tournaments.pairing import meetings
from service.tournaments.scoring import SeatScore, score_table
from service.tournaments.standings import Result, lot, standings


def test_the_winning_side_scores_one_and_merit_corrects_for_the_side():
    result = {"winner": "evil", "loyalty": ["loyal", "traitor", "loyal", "loyal"]}
    scores = score_table(result, {0: 10, 1: 11, 3: 13}, loyal_rate=0.6)  # seat 2 is a bot: not scored
    assert scores == [
        SeatScore(10, "loyal", 0.0, pytest.approx(-0.6)),
        SeatScore(11, "evil", 1.0, pytest.approx(0.6)),
        SeatScore(13, "loyal", 0.0, pytest.approx(-0.6)),
    ]
    loyal_win = score_table({"winner": "loyal", "loyalty": ["loyal", "traitor"]}, {0: 1, 1: 2}, loyal_rate=0.6)
    assert [(s.points, round(s.merit, 6)) for s in loyal_win] == [(1.0, 0.4), (0.0, -0.4)]


def test_no_winner_and_a_void_table_give_half_a_point_each_and_no_merit():
    no_winner = score_table({"winner": None, "loyalty": ["loyal", "traitor", "loyal"]}, {0: 1, 1: 2, 2: 3}, 0.5)
    assert [(s.side, s.points, s.merit) for s in no_winner] == [("loyal", 0.5, 0.0), ("evil", 0.5, 0.0),
                                                                 ("loyal", 0.5, 0.0)]
    void = score_table(None, {0: 1, 1: 2}, 0.5, void=True)
    assert [(s.side, s.points, s.merit) for s in void] == [(None, 0.5, 0.0), (None, 0.5, 0.0)]


def test_standings_rank_by_points_then_merit_then_opponents_then_the_lot():
    results = [
        # table 1: 1 and 2 won (loyal), 3 lost; table 2: 4 won alone (the Traitor), 5 and 6 lost
        Result(1, 1, 1.0, 0.4), Result(1, 2, 1.0, 0.4), Result(1, 3, 0.0, -0.4),
        Result(2, 4, 1.0, 0.6), Result(2, 5, 0.0, -0.4), Result(2, 6, 0.0, -0.4),
    ]
    rows = standings([1, 2, 3, 4, 5, 6], results, seed=7)
    assert [r.player for r in rows[:1]] == [4]  # equal points, more merit: the Traitor's harder win
    assert {r.player for r in rows[1:3]} == {1, 2}  # equal in all but the lot
    assert [r.player for r in rows[1:3]] == sorted([1, 2], key=lambda p: lot(7, p))
    # 3 sat with two winners (opponents 1.0 each: mean 1.0), 5 and 6 with 4 and each other (mean 0.5)
    assert rows[3].player == 3 and rows[3].opponents == 1.0
    assert {r.player for r in rows[4:]} == {5, 6} and rows[4].opponents == 0.5
    assert all(r.tables == 1 for r in rows)


def test_withdrawn_players_keep_their_results_marked():
    rows = standings([1, 2], [Result(1, 1, 1.0, 0.5), Result(1, 2, 0.0, -0.5)], seed=1, withdrawn={1})
    assert [(r.player, r.points, r.withdrawn) for r in rows] == [(1, 1.0, True), (2, 0.0, False)]


def test_registration_is_open_until_round_two_is_seated_and_late_registrants_start_there():
    assert may_register("registration", 0) and may_register("running", 1)
    assert not may_register("running", 2) and not may_register("finished", 1)
    entrants = [Entrant(1), Entrant(2), Entrant(3, first_round=2), Entrant(4, withdrawn_after=1)]
    assert active(entrants, 1) == [1, 2, 4]
    assert active(entrants, 2) == [1, 2, 3]


def _rows(points: dict[int, float]):
    return standings(list(points), [Result(i, p, v, 0.0) for i, (p, v) in enumerate(points.items())], seed=1)


def test_when_the_tournament_is_over():
    fixed = Format(low=3, high=3, rounds=2)
    three = [1, 2, 3]
    assert over(fixed, 1, _rows({1: 1, 2: 0, 3: 0}), three, {}) is None
    assert over(fixed, 2, _rows({1: 1, 2: 1, 3: 0}), three, {}) == "rounds"
    assert over(fixed, 1, _rows({1: 1, 2: 0}), [1, 2], {}) == "too_few"  # after a withdrawal: no table of three

    until_winner = Format(low=3, high=3, rounds=AUTO)
    assert over(until_winner, 1, _rows({1: 1, 2: 0, 3: 0}), three, {}) is None  # at least two rounds
    assert over(until_winner, 2, _rows({1: 2, 2: 2, 3: 0}), three, {}) is None  # two share the lead
    assert over(until_winner, 2, _rows({1: 2, 2: 1, 3: 0}), three, {}) == "winner"
    assert over(until_winner, AUTO_CAP, _rows({1: 2, 2: 2, 3: 0}), three, {}) == "rounds"

    robin = Format(low=3, high=3, rounds=AUTO, pairing=ROUND_ROBIN)
    six = [1, 2, 3, 4, 5, 6]
    met = meetings([[1, 2, 3], [4, 5, 6]])
    assert over(robin, 1, _rows(dict.fromkeys(six, 0.0)), six, met) is None
    everyone = meetings([[a, b, c] for a in six for b in six for c in six if a < b < c])
    assert over(robin, 4, _rows(dict.fromkeys(six, 0.0)), six, everyone) == "all_met"
