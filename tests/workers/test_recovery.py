"""With real Celery workers and beat: what a dead worker leaves half done is finished from the database.

A worker that dies between a move's commit and its hand-on (the cached state, the delivery request, the next bot's
move) freezes nothing: the beat's scans find the bot's turn waiting and the outbox rows pending, and the next
person's button (newer than the cached meta) is let through to the worker."""

from __future__ import annotations

import time

import pytest
from sqlalchemy import text

from service.callback import pack
from service.chat.base import Inbound
from service.play import lobby
from service.play.dispatch import precheck, submit
from service.settings import get_settings
from service.store import games as game_rows
from service.store import get_engine, session_scope
from service.store.models import GameRow, OutboxRow, ProcessedUpdate, Seat
from tests.workers.test_celery_worker import log_of, wait_for

pytestmark = pytest.mark.e2e

GRACE = 2.0
SCAN = 1.0


@pytest.fixture
def quick_recovery(celery_pg, monkeypatch):
    """The scans every second, a move handed on again after two seconds."""
    monkeypatch.setenv("DEADLINE_SCAN_INTERVAL", str(SCAN))
    monkeypatch.setenv("RECOVERY_GRACE", str(GRACE))
    get_settings.cache_clear()
    return celery_pg


def prompt_of(game_id: int, seat: int) -> int | None:
    with session_scope() as s:
        return s.query(Seat).filter_by(game_id=game_id, seat=seat).one().prompt_seq


def tap(user: str, game_id: int, seq: int, code: str, update_id: str) -> Inbound:
    return Inbound("rec", f"dm-{user}", user, update_id, "tap", text=pack(game_id, seq, code))


def test_a_hand_on_lost_before_a_bots_turn_is_handed_on_again_by_the_beat(quick_recovery):
    workers = quick_recovery
    game_id = lobby.create_and_start("rec", "grp", "toy", {"target": 40}, ["ann"], 1, seed=4)
    first = workers.start("-P", "solo", exit_at="service.play.person_move:after_commit")
    workers.start_beat()
    submit(tap("ann", game_id, prompt_of(game_id, 0), "add:1", "ann-1"))
    assert first.wait(20) == 3  # died right after the commit
    assert log_of(game_id) == [(0, "add:1")]

    workers.start("-P", "solo")
    started = time.monotonic()
    wait_for(lambda: len(log_of(game_id)) == 2, 20, "the bot's move")
    assert time.monotonic() - started < GRACE + SCAN + 8  # the grace, a scan, a worker's start and the move
    wait_for(lambda: prompt_of(game_id, 0) is not None, 10, "ann's prompt")
    submit(tap("ann", game_id, prompt_of(game_id, 0), "add:1", "ann-2"))
    wait_for(lambda: len(log_of(game_id)) >= 3, 20, "ann's second move")
    assert log_of(game_id)[2] == (0, "add:1")


def test_a_hand_on_lost_before_a_persons_turn_delivers_and_lets_the_tap_through(quick_recovery):
    workers = quick_recovery
    game_id = lobby.create_and_start("rec", "grp", "toy", {"target": 40}, ["ann", "bob"], 0, seed=4)
    first = workers.start("-P", "solo", exit_at="service.play.person_move:after_commit")
    submit(tap("ann", game_id, prompt_of(game_id, 0), "add:1", "ann-1"))
    assert first.wait(20) == 3
    workers.start("-P", "solo")
    workers.start_beat()

    def bobs_panel_sent() -> bool:
        with session_scope() as s:
            rows = s.query(OutboxRow).filter_by(chat="dm-bob").all()
            return bool(rows) and all(row.status != "pending" for row in rows)

    wait_for(bobs_panel_sent, 20, "bob's panel (the sweep delivers what the lost hand-on did not ask for)")
    seq = prompt_of(game_id, 1)
    assert seq == 1
    bobs = tap("bob", game_id, seq, "add:2", "bob-1")
    assert precheck(bobs) is None  # the cache is older than bob's button: not "expired"
    submit(bobs)
    wait_for(lambda: len(log_of(game_id)) == 2, 20, "bob's move")
    with session_scope() as s:
        assert game_rows.action_log(s, game_id) == [(0, "add:1"), (1, "add:2")]


def idle_in_transaction() -> int | None:
    """The pid of a backend of this database idle inside a transaction for a while (a move paused before its
    commit), if any."""
    with get_engine().connect() as conn:
        return conn.execute(
            text(
                "SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
                "AND state = 'idle in transaction' AND now() - xact_start > interval '300 milliseconds'"
            )
        ).scalar()


def test_a_move_whose_database_connection_is_terminated_is_tried_again_and_applied_once(celery_pg, monkeypatch):
    """The backend of a move's transaction is terminated before its commit: the task fails on the database and is
    tried again (not acknowledged and dropped), and applies the move once. The recovery grace is long, so only the
    task's own retry can have applied it within the test."""
    monkeypatch.setenv("RECOVERY_GRACE", "600")
    get_settings.cache_clear()
    celery_pg.start("-P", "solo", pause=2)
    game_id = lobby.create_and_start("rec", "grp", "toy", {}, ["alice", "bob"], 0, seed=8)
    submit(tap("alice", game_id, prompt_of(game_id, 0), "add:2", "db-1"))
    pid = wait_for(idle_in_transaction, 20, "the move's open transaction")
    with get_engine().connect() as conn:
        assert conn.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid}).scalar()
    wait_for(lambda: log_of(game_id), 30, "the move, tried again")
    time.sleep(1.5)  # room for a wrong second application
    assert log_of(game_id) == [(0, "add:2")]
    with session_scope() as s:
        assert s.query(ProcessedUpdate).filter_by(update_id="db-1").count() == 1


def test_a_lobby_command_whose_worker_died_is_redelivered_and_applied_once(celery_broker, monkeypatch):
    """issue 26: a /join whose worker dies before its effect commits is redelivered (after the visibility timeout)
    and applied; a /newgame whose worker dies after its effect committed is redelivered and is a duplicate (no
    "a game is already open" in the group). The recovery grace is long: the broker's redelivery does it."""
    celery_pg = celery_broker
    monkeypatch.setenv("RECOVERY_GRACE", "600")
    get_settings.cache_clear()
    first = celery_pg.start("-P", "solo", exit_at="service.play.lobby:join,service.play.lobby:_deliver")
    submit(Inbound("rec", "grp", "ann", "c-new", "command", command="newgame", is_group=True))
    assert first.wait(20) == 3  # after the lobby's commit, before its delivery request
    celery_pg.start("-P", "solo", exit_at="service.play.lobby:join")
    submit(Inbound("rec", "grp", "bob", "c-join", "command", command="join", is_group=True))
    wait_for(lambda: celery_pg.procs[-1].poll() is not None, 20, "the second worker's death in join")
    celery_pg.start("-P", "solo")
    with session_scope() as s:
        game_id = s.query(GameRow.id).one()[0]
    wait_for(lambda: seats_of(game_id) == 2, 30, "bob's redelivered /join")
    time.sleep(1.5)
    assert seats_of(game_id) == 2
    with session_scope() as s:
        assert s.query(GameRow).count() == 1
        assert s.query(ProcessedUpdate).filter(ProcessedUpdate.update_id.in_(["c-new", "c-join"])).count() == 2
    group = [c["text"] for c in celery_pg.calls() if c["chat"] == "grp" and c["method"] == "send_text"]
    assert group and not any("already" in text for text in group), group


def seats_of(game_id: int) -> int:
    with session_scope() as s:
        return s.query(Seat).filter_by(game_id=game_id).count()
