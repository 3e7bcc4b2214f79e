"""Work due later (bot pace, delivery waits) waits in the sessions, not as Celery ETA messages, and is published
when due: a thousand paced games must not fill the workers' prefetch slots with messages that cannot run yet."""

from __future__ import annotations

import json
import time

import pytest

from service.play import queue
from service.sessions import get_sessions
from service.settings import get_settings
from workers import due_tasks


@pytest.fixture
def broker(backbone_pg, monkeypatch):
    monkeypatch.setenv("CELERY_BROKER_URL", backbone_pg.redis_url)
    get_settings.cache_clear()
    published: list[tuple[str, dict]] = []
    monkeypatch.setattr(due_tasks, "enqueue", lambda task, **kw: published.append((task, kw)))
    yield published
    get_settings.cache_clear()


def test_a_countdown_is_kept_in_the_sessions_and_published_when_due(broker, monkeypatch):
    now = 1_000_000.0
    monkeypatch.setattr(queue.time, "time", lambda: now)  # the scheduling clock
    queue.enqueue("play_bot", countdown=2.0, game_id=7, seat=1, seq=3)
    assert due_tasks.release_due(now + 1.9) == 0 and broker == []
    assert due_tasks.release_due(now + 2.0) == 1
    assert broker == [("play_bot", {"game_id": 7, "seat": 1, "seq": 3})]  # stamped enqueued_at when published
    assert due_tasks.release_due(now + 100.0) == 0  # published once


def test_identical_timed_tasks_both_run_but_a_chats_delivery_waits_once(broker):
    queue.enqueue("noop", countdown=0.5, until=0, delay=0)
    queue.enqueue("noop", countdown=0.5, until=0, delay=0)
    queue.enqueue("deliver", countdown=0.5, platform="rec", chat="c1")
    queue.enqueue("deliver", countdown=0.7, platform="rec", chat="c1")
    assert due_tasks.release_due(time.time() + 1.0) == 3
    assert sorted(task for task, _ in broker) == ["deliver", "noop", "noop"]


def test_a_claimer_that_died_before_publishing_is_replaced_after_the_lease(broker):
    queue.enqueue("play_bot", countdown=0.1, game_id=1, seat=0, seq=0)
    now = time.time() + 1.0
    claimed = get_sessions().scheduler.claim(now, due_tasks.LEASE, 10)  # a worker claims it, then is killed
    assert [json.loads(m)["task"] for m, _ in claimed] == ["play_bot"]
    assert due_tasks.release_due(now + 1.0) == 0
    assert due_tasks.release_due(now + due_tasks.LEASE + 0.1) == 1
    assert broker == [("play_bot", {"game_id": 1, "seat": 0, "seq": 0})]


def test_the_moves_of_stopped_games_are_unscheduled_and_nothing_else(broker):
    for game_id in (1, 2, 3):
        queue.enqueue("play_bot", countdown=5.0, game_id=game_id, seat=0, seq=4)
    queue.enqueue("deliver", countdown=5.0, platform="rec", chat="c1")
    assert queue.unschedule_moves({1, 3}) == 2
    assert due_tasks.release_due(time.time() + 10.0) == 2
    assert sorted((task, kw.get("game_id")) for task, kw in broker) == [("deliver", None), ("play_bot", 2)]
