"""With a real Celery worker: a SIGKILL in the middle of `play` loses nothing and applies the move exactly once;
a bot game runs to its end through the broker, and each chat's messages are sent in outbox order."""

from __future__ import annotations

import time

import pytest
from sqlalchemy import text

from engine import get_game
from service.callback import pack
from service.chat.base import Inbound
from service.play import lobby
from service.play.dispatch import submit
from service.store import games as game_rows
from service.store import get_engine, session_scope
from service.store.models import GameRow, OutboxRow, ProcessedUpdate

pytestmark = pytest.mark.e2e


def wait_for(check, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


def log_of(game_id: int) -> list[tuple[int, str]]:
    with session_scope() as s:
        return game_rows.action_log(s, game_id)


def in_open_transaction() -> bool:
    with get_engine().connect() as conn:
        return bool(
            conn.execute(
                text(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                    "AND state = 'idle in transaction' AND now() - xact_start > interval '300 milliseconds'"
                )
            ).scalar()
        )


def test_worker_killed_mid_play_applies_the_move_exactly_once_after_redelivery(celery_broker):
    celery_pg = celery_broker
    first = celery_pg.start("-P", "solo", pause=30)
    game_id = lobby.create_and_start("rec", "grp", "toy", {}, ["alice", "bob"], 0, seed=8)
    submit(Inbound("rec", "dm-alice", "alice", "kill-1", "tap", text=pack(game_id, 0, "add:2")))
    wait_for(in_open_transaction, 20, "the worker to be inside play's transaction")
    celery_pg.kill(first)
    assert log_of(game_id) == []  # the transaction died with the worker

    celery_pg.start("-P", "solo")
    wait_for(lambda: log_of(game_id), 40, "the redelivered move")
    time.sleep(1.5)  # room for a wrong second application
    assert log_of(game_id) == [(0, "add:2")]
    with session_scope() as s:
        assert s.query(ProcessedUpdate).filter_by(update_id="kill-1").count() == 1
        assert s.get(GameRow, game_id).seq == 1


SENDS = ("send_text", "edit_text")


def test_bot_game_through_the_broker_runs_to_the_end_with_ordered_delivery(celery_broker):
    celery_pg = celery_broker
    celery_pg.start("--concurrency", "2")
    game_id = lobby.create_and_start("rec", "grp", "toy", {"target": 25}, [], 3, seed=21)

    def finished() -> bool:
        with session_scope() as s:
            return s.get(GameRow, game_id).status == "finished"

    wait_for(finished, 60, "the bot game to finish")
    with session_scope() as s:
        game = s.get(GameRow, game_id)
        state = get_game("toy").replay(game.config, game.seed, game_rows.action_log(s, game_id))
        assert get_game("toy").result(state) == game.result

    def all_done() -> bool:
        with session_scope() as s:
            return s.query(OutboxRow).filter(OutboxRow.status == "pending").count() == 0

    wait_for(all_done, 60, "the outbox to drain")
    with session_scope() as s:
        rows = {r.id: r for r in s.query(OutboxRow).filter_by(chat="grp")}
        assert {r.status for r in rows.values()} <= {"sent", "superseded"}
        expected = sorted(i for i, r in rows.items() if r.op in ("send", "upsert") and r.status == "sent")
        calls = celery_pg.calls()
        group = [c for c in calls if c["chat"] == "grp" and c["method"] in SENDS]
        sent = [int(c["row"].removeprefix("outbox:")) for c in group]
        assert len(set(sent)) == len(sent) and set(sent) <= set(expected)  # each row sent once
        for gathered in set(expected) - set(sent):  # no call of its own: a bot's move told in its turn's message
            row = rows[gathered]
            assert row.payload.get("run") and any(row.payload["text"] in c["text"] for c in group), gathered
        for n, later in enumerate(sent):
            for earlier in sent[n + 1 :]:
                if later > earlier:  # sent before a row written earlier: only the newest edit of a message, in the
                    row = rows[later]  # place of its first (superseded) edit that was written before that row
                    assert row.op == "upsert", (later, earlier)
                    assert any(
                        r.ref == row.ref and r.status == "superseded" and r.id < earlier for r in rows.values()
                    ), (later, earlier)


def test_a_deadline_that_passed_while_everything_was_down_fires_after_restart(celery_pg, monkeypatch):
    from service.settings import get_settings
    from service.store.models import Deadline

    monkeypatch.setenv("TURN_DEADLINE", "1")
    monkeypatch.setenv("DEADLINE_SCAN_INTERVAL", "1")
    get_settings.cache_clear()
    game_id = lobby.create_and_start("rec", "grp", "toy", {}, ["alice", "bob"], 0, seed=8)  # no process running
    with session_scope() as s:
        due = s.query(Deadline).filter_by(game_id=game_id, seat=0).one().due_at
    time.sleep(1.5)  # the deadline passes while nothing runs
    from service.store.models import utcnow

    assert utcnow() > due and log_of(game_id) == []
    celery_pg.start("-P", "solo")
    celery_pg.start_beat()
    wait_for(lambda: log_of(game_id), 20, "the timeout move")
    assert log_of(game_id)[0] == (0, "add:1")  # the toy game's timeout default
    wait_for(lambda: any("ran out of time" in c["text"] for c in celery_pg.calls()), 20, "the announcement")


def test_paced_bot_games_wait_in_the_sessions_not_in_the_workers_prefetch(celery_pg):
    """Bots with a pace: every game finishes, and the broker never holds a message that cannot run yet (an ETA
    message occupies a prefetch slot until due: a thousand paced games would starve the worker)."""
    import json

    import redis

    celery_pg.start("--concurrency", "2")
    ids = [
        lobby.create_and_start("rec", f"paced-{n}", "toy", {"target": 8}, [], 2, seed=n, bot_delay=0.2)
        for n in range(12)
    ]
    broker = redis.Redis.from_url(celery_pg_url())
    seen_due = 0

    def finished() -> bool:
        nonlocal seen_due
        queued = [json.loads(m) for m in broker.lrange("celery", 0, -1)]
        assert not [m for m in queued if m["headers"].get("eta")], "an ETA message in the broker queue"
        seen_due = max(seen_due, broker.zcard("camelot:due"))
        with session_scope() as s:
            return all(s.get(GameRow, i).status == "finished" for i in ids)

    wait_for(finished, 90, "the paced bot games to finish")
    assert seen_due > 0  # the paced moves did wait in the sessions


def celery_pg_url() -> str:
    from service.settings import get_settings

    return get_settings().celery_broker_url
