"""Round transitions are idempotent: a game's end recorded again (a redelivered job), the beat's pass run twice, and
two transitions at once (two beat processes, or a beat and a job) create one round and post its standings once, on
SQLite and PostgreSQL; the rounds' unique constraint holds even where the lock is not taken. A table whose game was
aborted is void (½ each), recorded by the beat."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError

from service.play import tournament_deadlines, tournament_rounds
from service.store import session_scope
from service.store.games import seats_of
from service.store.models import TournamentRound, TournamentSeat, utcnow
from service.tournaments import rows
from tests.service.tournaments.test_tournament_rounds import _open, _texts
from tests.service.tournaments.tournament_steps import command, end_game, rounds

SIX = ["ann", "ben", "cat", "dan", "eve", "fay"]


def _round_one_over(recording) -> tuple[int, list[int]]:
    """Six people at two card tables of three; both games end (loyal win, the Traitor at seat 1)."""
    tournament_id = _open(recording, "cards", ["high-3", "rounds-2"], SIX)
    command("olga", "start")
    [(_, tables)] = rounds(tournament_id)
    games = [game for game, _ in tables]
    for game in games:
        end_game(game, "loyal", ["loyal", "traitor", "loyal"])
    return tournament_id, games


def _count_rounds(tournament_id: int) -> int:
    with session_scope() as s:
        return s.scalar(select(func.count()).where(TournamentRound.tournament_id == tournament_id))


@pytest.mark.parametrize("fixture", ["backbone_local", "backbone_pg"])
def test_a_redelivered_end_and_a_second_beat_pass_open_one_round(fixture, request, recording):
    request.getfixturevalue(fixture)
    tournament_id, games = _round_one_over(recording)
    assert tournament_rounds.game_ended(games[0]) == "recorded"
    assert tournament_rounds.game_ended(games[0]) == "done"  # redelivered
    assert _count_rounds(tournament_id) == 1  # the other table is not recorded yet
    assert tournament_rounds.game_ended(games[1]) == "recorded"  # the round's last: round 2 opens
    for _ in range(2):
        assert tournament_rounds.game_ended(games[1]) == "done"
        assert tournament_deadlines.scan()["recorded"] == 0
    assert _count_rounds(tournament_id) == 2
    assert len(_texts(recording, "📊 Tournament #1: standings after round 1")) == 1
    assert len(_texts(recording, "🎲 Tournament #1, round 2")) == 1
    with session_scope() as s:
        points = dict(s.execute(select(TournamentSeat.seat, func.sum(TournamentSeat.points))
                                .where(TournamentSeat.points.is_not(None)).group_by(TournamentSeat.seat)).all())
    assert points == {0: 2.0, 1: 0.0, 2: 2.0}  # the loyal seats won at both tables, the Traitor lost


def test_two_transitions_at_once_create_one_round(backbone_pg, recording):
    """Two threads record the round's last table at the same moment (as two beat processes would): the tournament's
    row lock orders them, the second finds the round open."""
    tournament_id, games = _round_one_over(recording)
    assert tournament_rounds.game_ended(games[0]) == "recorded"
    start = threading.Barrier(2)
    outcomes: list[str] = []

    def transition() -> None:
        start.wait()
        outcomes.append(tournament_rounds.game_ended(games[1]))

    threads = [threading.Thread(target=transition) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["done", "recorded"]
    assert _count_rounds(tournament_id) == 2
    assert len(_texts(recording, "📊 Tournament #1: standings after round 1")) == 1


def test_two_beat_passes_at_once_create_one_round(backbone_pg, recording):
    """Both tables' ends were missed (their jobs lost): two beat processes find them at the same moment."""
    tournament_id, _ = _round_one_over(recording)
    later = utcnow() + timedelta(seconds=tournament_deadlines.MISSED_AFTER + 1)
    start = threading.Barrier(2)
    counts: list[int] = []

    def beat() -> None:
        start.wait()
        counts.append(tournament_deadlines.scan(later)["recorded"])

    threads = [threading.Thread(target=beat) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(counts) == [0, 2]  # the second found both recorded
    assert _count_rounds(tournament_id) == 2
    assert len(_texts(recording, "🎲 Tournament #1, round 2")) == 1


@pytest.mark.parametrize("fixture", ["backbone_local", "backbone_pg"])
def test_without_the_lock_the_unique_round_still_holds(fixture, request, recording):
    """Were the lock lost, two transitions that both got as far as creating round 2 would not both commit: the
    rounds' (tournament, number) is unique, and the second rolls back whole (its round, tables and games)."""
    request.getfixturevalue(fixture)
    tournament_id, games = _round_one_over(recording)
    for game in games:
        assert tournament_rounds.game_ended(game) == "recorded"
    opened = tournament_rounds.Opened()
    with pytest.raises(IntegrityError), session_scope() as s:
        tournament = rows.lock(s, tournament_id)
        tournament.round = 1  # as a second transition would find it, not having waited for the first
        tournament_rounds.open_round(s, tournament, 2, utcnow(), opened)
    assert _count_rounds(tournament_id) == 2 and len(rounds(tournament_id)[1][1]) == 2  # its tables rolled back


@pytest.mark.parametrize("fixture", ["backbone_local", "backbone_pg"])
def test_an_aborted_table_is_void_half_a_point_each_recorded_by_the_beat(fixture, request, recording):
    request.getfixturevalue(fixture)
    tournament_id = _open(recording, "cards", ["high-3", "rounds-1"], SIX[:3])
    command("olga", "start")
    [(_, [(game_id, _)])] = rounds(tournament_id)
    end_game(game_id, None, [], status="aborted")  # e.g. an admin's /abort
    assert tournament_deadlines.scan()["recorded"] == 1
    with session_scope() as s:
        assert sorted(s.scalars(select(TournamentSeat.points))) == [0.5, 0.5, 0.5]
        assert len(seats_of(s, game_id)) == 3
    assert _texts(recording, "🏆 Tournament #1 is over")
