"""A process's /metrics, /healthz and /readyz (`service.observability.http`): the port taken from METRICS_PORT (the
next free one when it is busy), readiness in words and false when Redis, the database's schema or a process's own
check fails, and the gauges read from shared state on scrape (outbox backlog and age, deadlines, broker queues)."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from datetime import timedelta

import pytest

from service.observability import checks, http
from service.play import lobby, queue
from service.settings import get_settings
from service.store import outbox, session_scope
from service.store.models import Deadline, OutboxRow, utcnow
from tests.scrape import free_port, get, samples


def closed_port() -> int:
    return free_port()


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch) -> Iterator[int]:
    """This process's server on a free port (stopped after the test)."""
    monkeypatch.setenv("METRICS_PORT", str(free_port()))
    get_settings.cache_clear()
    port = http.serve("test")
    assert port is not None
    yield port
    http.stop()
    get_settings.cache_clear()


def test_healthz_readyz_and_metrics_answer(backbone_pg, served):
    assert get(served, "/healthz") == (200, '{"alive": true}')
    status, body = get(served, "/readyz")
    ready = json.loads(body)
    assert status == 200 and ready["ready"] is True, body
    assert set(ready["checks"]) >= {"database", "redis", "broker"}
    assert "schema at" in ready["checks"]["database"]["detail"]
    found = samples(served)
    assert found[("camelot_process", (("role", "test"),))] == 1
    assert found[("camelot_outbox_backlog", (("platform", "telegram"),))] == 0
    assert found[("camelot_shared_read_ok", (("source", "outbox"),))] == 1
    assert get(served, "/other")[0] == 404


def test_readiness_is_false_when_redis_is_unreachable(backbone_pg, served, monkeypatch):
    monkeypatch.setenv("REDIS_URL", f"redis://127.0.0.1:{closed_port()}/0")
    get_settings.cache_clear()
    status, body = get(served, "/readyz")
    ready = json.loads(body)
    assert status == 503 and ready["ready"] is False
    assert ready["checks"]["redis"]["ok"] is False
    assert "cannot reach Redis" in ready["checks"]["redis"]["detail"]
    assert ready["checks"]["database"]["ok"] is True


def test_readiness_is_false_on_an_unmigrated_database_and_on_a_failing_own_check(served, tmp_path, monkeypatch):
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'empty.sqlite3'}")
    monkeypatch.delenv("REDIS_URL", raising=False)
    monkeypatch.delenv("CELERY_BROKER_URL", raising=False)
    get_settings.cache_clear()
    ready = json.loads(get(served, "/readyz")[1])
    assert "revision none" in ready["checks"]["database"]["detail"]
    assert "camelot migrate" in ready["checks"]["database"]["detail"]

    def gateway() -> str:
        raise checks.Problem("not connected to its platform")

    checks.register("gateway", gateway)
    try:
        status, body = get(served, "/readyz")
    finally:
        checks.unregister("gateway")
    assert status == 503 and json.loads(body)["checks"]["gateway"]["detail"] == "not connected to its platform"


def test_a_busy_port_makes_the_process_take_the_next(monkeypatch):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        first = taken.getsockname()[1]
        monkeypatch.setenv("METRICS_PORT", str(first))
        monkeypatch.setenv("METRICS_PORTS", "50")
        get_settings.cache_clear()
        try:
            port = http.serve("test")
            assert port is not None and first < port < first + 50
            assert get(port, "/healthz")[0] == 200
            assert http.serve("test") == port  # once a process
        finally:
            http.stop()
            get_settings.cache_clear()


def test_no_port_no_server(monkeypatch):
    monkeypatch.setenv("METRICS_PORT", "0")
    get_settings.cache_clear()
    assert http.serve("test") is None


def test_the_outbox_backlog_its_oldest_message_and_overdue_deadlines_are_read_on_scrape(
    backbone_pg, served, toy_game, recording
):
    with session_scope() as s:
        for chat in ("111", "222", "333"):
            outbox.add(s, "telegram", chat, "send", {"text": "hello"})
        s.flush()
        oldest = s.query(OutboxRow).order_by(OutboxRow.id).first()
        oldest.created = utcnow() - timedelta(seconds=120)
    game_id = lobby.create_and_start("rec", "grp", "toy", {}, ["alice", "bob"], 0, seed=4)
    found = samples(served)
    assert found[("camelot_outbox_backlog", (("platform", "telegram"),))] == 3
    assert found[("camelot_outbox_backlog", (("platform", "matrix"),))] == 0
    assert 120 <= found[("camelot_outbox_oldest_age_seconds", (("platform", "telegram"),))] < 180
    assert found[("camelot_deadlines_open", ())] == 1 and found[("camelot_deadlines_due", ())] == 0
    with session_scope() as s:
        s.query(Deadline).filter_by(game_id=game_id).update({"due_at": utcnow() - timedelta(seconds=1)})
    assert samples(served)[("camelot_deadlines_due", ())] == 1


def test_the_brokers_queues_are_read_and_a_broker_down_is_said_not_hidden(backbone_pg, served, monkeypatch):
    monkeypatch.setenv("CELERY_BROKER_URL", backbone_pg.redis_url)
    get_settings.cache_clear()
    queue.broker().publish("noop", {})  # no worker: it waits in the moves' queue
    found = samples(served)
    assert found[("camelot_queue_length", (("queue", "celery"),))] == 1
    assert found[("camelot_queue_length", (("queue", "deliver.telegram"),))] == 0
    assert json.loads(get(served, "/readyz")[1])["checks"]["broker"]["ok"] is True

    monkeypatch.setenv("CELERY_BROKER_URL", f"redis://127.0.0.1:{closed_port()}/0")
    get_settings.cache_clear()
    found = samples(served)
    assert found[("camelot_shared_read_ok", (("source", "broker"),))] == 0
    assert found[("camelot_shared_read_ok", (("source", "outbox"),))] == 1
    broker = json.loads(get(served, "/readyz")[1])["checks"]["broker"]
    assert broker["ok"] is False and "cannot reach the broker" in broker["detail"]
