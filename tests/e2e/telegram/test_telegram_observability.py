"""Every process of a Telegram deployment answers /healthz, /readyz and /metrics during a game: the gateway
(`camelot serve --telegram`), a worker (`camelot worker`) and beat (`camelot beat`), each on its own port from
METRICS_PORT. The worker counts the moves it applied (as many as the game's log holds) with their round trips, the
gateway counts the messages it sent, and the outbox gauges are there in each. A process whose Redis does not answer
is alive but not ready."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fake_bot_api import FakeBotApi
from telegram_players import Table
from telegram_stack import CAMELOT, Stack, scaled_limits
from test_telegram_games import game_row, open_table, outbox_drained

from service.settings import get_settings
from tests.scrape import Samples, get, samples

pytestmark = pytest.mark.e2e
ROOT = Path(__file__).resolve().parents[3]
PORTS = 8  # METRICS_PORTS: the processes take the first free ones from METRICS_PORT
ROLES = ("worker", "telegram", "beat")


def free_run(count: int) -> int:
    """A port whose next `count - 1` are free too (as far as one can tell without holding them)."""
    for _ in range(50):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            first = s.getsockname()[1]
        if first + count < 65536 and all(_free(p) for p in range(first, first + count)):
            return first
    raise RuntimeError("no run of free ports")


def _free(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def total(found: Samples, name: str, **labels: str) -> float:
    """The sum of the samples of `name` whose labels include `labels`."""
    return sum(v for (n, ls), v in found.items() if n == name and set(labels.items()) <= set(ls))


def ports_by_role(first: int, timeout: float = 60.0) -> dict[str, int]:
    """Which process took which port: each names its role in `camelot_process{role}`."""
    deadline = time.monotonic() + timeout
    found: dict[str, int] = {}
    while time.monotonic() < deadline:
        for port in range(first, first + PORTS):
            if port in found.values():
                continue
            try:
                roles = [dict(ls)["role"] for (n, ls) in samples(port) if n == "camelot_process"]
            except (OSError, AssertionError):
                continue
            found.update({role: port for role in roles})
        if set(ROLES) <= set(found):
            return found
        time.sleep(0.5)
    raise TimeoutError(f"not every process serves its metrics: {found}")


def ready(port: int, timeout: float = 60.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        status, body = get(port, "/readyz")
        if status == 200 or time.monotonic() > deadline:
            return {"status": status, **json.loads(body)}
        time.sleep(0.5)


@pytest.fixture
def observed_stack(
    backbone_pg: Any, redis_url: str, fake_api: FakeBotApi, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[Stack, int]]:
    """The gateway and a worker (telegram_stack.Stack) and beat, all serving from METRICS_PORT."""
    fake_api.world.limits = scaled_limits()
    running = Stack(fake_api, redis_url, tmp_path)
    first = free_run(PORTS)
    running.env.update({"METRICS_PORT": str(first), "METRICS_PORTS": str(PORTS)})
    for key in ("TELEGRAM_TOKEN", "TELEGRAM_BASE_URL", "CELERY_BROKER_URL"):
        monkeypatch.setenv(key, running.env[key])
    get_settings.cache_clear()
    running.start()
    out = (tmp_path / "beat.log").open("ab")  # beat writes its schedule file where it runs: in tmp_path
    running.procs["beat"] = subprocess.Popen(
        [sys.executable, "-c", CAMELOT, "beat"], env=running.env, cwd=tmp_path, stdout=out, stderr=subprocess.STDOUT
    )
    fake_api.wait(lambda: fake_api.calls["getUpdates"] > 0, 30, "the gateway's first poll")
    try:
        yield running, first
    finally:
        running.stop()


def test_every_process_answers_and_the_moves_are_counted(observed_stack, fake_api: FakeBotApi) -> None:
    stack, first = observed_stack
    ports = ports_by_role(first)
    for role, port in ports.items():
        assert get(port, "/healthz") == (200, '{"alive": true}'), role
        state = ready(port)
        assert state["status"] == 200 and state["ready"], (role, state, stack.log_tail())
        assert {"database", "redis", "broker", role} <= set(state["checks"]), (role, state)
    assert ready(ports["telegram"])["checks"]["telegram"]["detail"] == "@camelot_test_bot, polling"

    users = [fake_api.add_user(name) for name in ("Ann", "Ben", "Cid")]
    _, game_id, _ = open_table(fake_api, "cards", users, seed=3, bot_rights=None)
    table = Table(fake_api, users, seed=3)
    table.play_until(lambda: game_row(game_id)[1] >= 4, timeout=120)
    deadline = time.monotonic() + 60
    while True:  # the moves played and delivered: the game stands still
        before = game_row(game_id)
        time.sleep(1.0)
        if (game_row(game_id) == before and outbox_drained()) or time.monotonic() > deadline:
            break
    status, seq, actions = game_row(game_id)
    assert status == "active" and seq == actions >= 4

    worker = samples(ports["worker"])
    assert total(worker, "camelot_moves_applied_total", by="person") == seq
    assert total(worker, "camelot_move_round_trip_seconds_count", by="person") == seq
    assert total(worker, "camelot_games_started_total", kind="cards") == 1
    gateway = samples(ports["telegram"])
    assert total(gateway, "camelot_messages_sent_total", platform="telegram", kind="send") > 0
    assert total(gateway, "camelot_messages_sent_total", platform="telegram", kind="edit") > 0
    for role, port in ports.items():
        found = samples(port)
        assert ("camelot_outbox_backlog", (("platform", "telegram"),)) in found, role
        assert ("camelot_outbox_oldest_age_seconds", (("platform", "telegram"),)) in found, role
        assert ("camelot_queue_length", (("queue", "deliver.telegram"),)) in found, role
        assert total(found, "camelot_shared_read_ok") == 3, (role, found)


def test_a_process_whose_redis_is_unreachable_is_alive_but_not_ready(backbone_pg: Any, tmp_path: Path) -> None:
    """`camelot beat` with the sessions' Redis on a closed port (its broker reachable): /healthz 200, /readyz 503
    naming Redis in words."""
    port = free_run(1)
    env = dict(
        os.environ,
        CELERY_BROKER_URL=backbone_pg.redis_url,
        REDIS_URL=f"redis://127.0.0.1:{free_run(1)}/0",
        METRICS_PORT=str(port),
        METRICS_PORTS="1",
        PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    )
    out = (tmp_path / "beat.log").open("ab")
    proc = subprocess.Popen(
        [sys.executable, "-c", CAMELOT, "beat"], env=env, cwd=tmp_path, stdout=out, stderr=subprocess.STDOUT
    )
    try:
        deadline = time.monotonic() + 60
        while get(port, "/healthz")[0] != 200:
            assert proc.poll() is None and time.monotonic() < deadline, (tmp_path / "beat.log").read_text()
            time.sleep(0.3)
        status, body = get(port, "/readyz")
        found = json.loads(body)["checks"]
        assert status == 503 and found["redis"]["ok"] is False
        assert found["redis"]["detail"].startswith("cannot reach Redis at redis://127.0.0.1:")
        assert found["database"]["ok"] and found["broker"]["ok"]
    finally:
        proc.terminate()
        proc.wait(20)
