"""Real Celery workers (subprocesses) on the Redis broker, against the test PostgreSQL database."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.processes import stop_group

ROOT = Path(__file__).resolve().parents[2]


class Workers:
    """Starts and kills worker processes; `calls()` reads what their recording adapters sent."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.calls_file = tmp / "calls.jsonl"
        self.procs: list[subprocess.Popen] = []

    def start(
        self,
        *args: str,
        pause: float | None = None,
        exit_at: str | None = None,
        env: dict[str, str] | None = None,
        wait: float = 30.0,
    ) -> subprocess.Popen:
        """A worker (Celery arguments `args`); `pause`: seconds each move sleeps before its commit; `exit_at`:
        functions at whose first call the worker exits (`worker_main.exit_at`); `env`: more environment."""
        ready = self.tmp / f"ready-{len(self.procs)}"
        env = dict(os.environ, **(env or {}), CAMELOT_TEST_CALLS=str(self.calls_file), CAMELOT_TEST_READY=str(ready))
        env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])
        if pause is not None:
            env["CAMELOT_TEST_PAUSE_IN_PLAY"] = str(pause)
        if exit_at is not None:
            env["CAMELOT_TEST_EXIT_AT"] = exit_at
        log = open(self.tmp / f"worker-{len(self.procs)}.log", "w")  # noqa: SIM115 - lives as long as the worker
        proc = subprocess.Popen(
            [sys.executable, str(ROOT / "tests/workers/worker_main.py"), *args],
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.procs.append(proc)
        deadline = time.monotonic() + wait
        while not ready.exists():
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(
                    f"worker did not start: {(self.tmp / f'worker-{len(self.procs) - 1}.log').read_text()}"
                )
            time.sleep(0.05)
        return proc

    def start_beat(self) -> subprocess.Popen:
        """Celery beat with the app's schedule (deadline and outbox scans)."""
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
        code = (
            "import sys; from workers.app import configure; "
            "configure().start(['beat', '--loglevel', 'WARNING', '-s', sys.argv[1]])"
        )
        log = open(self.tmp / "beat.log", "w")  # noqa: SIM115 - lives as long as beat
        proc = subprocess.Popen(
            [sys.executable, "-c", code, str(self.tmp / "beat-schedule")],
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.procs.append(proc)
        return proc

    def kill(self, proc: subprocess.Popen) -> None:
        """SIGKILL the worker and its pool children (its whole process group)."""
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(10)

    def stop_all(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                stop_group(proc)

    def calls(self) -> list[dict]:
        if not self.calls_file.exists():
            return []
        return [json.loads(line) for line in self.calls_file.read_text().splitlines() if line.strip()]


@pytest.fixture
def celery_pg(backbone_pg, toy_game, recording, monkeypatch, tmp_path) -> Iterator[Workers]:
    """PostgreSQL + Redis sessions + the Redis broker (same claimed db), fast rates, short visibility timeout."""
    from service.sessions import reset_sessions
    from service.settings import get_settings
    from service.store import dispose_all

    monkeypatch.setenv("CELERY_BROKER_URL", backbone_pg.redis_url)
    monkeypatch.setenv("CELERY_VISIBILITY_TIMEOUT", "3")
    get_settings.cache_clear()
    reset_sessions()
    dispose_all()
    workers = Workers(tmp_path)
    yield workers
    workers.stop_all()


@pytest.fixture(params=["redis", "rabbitmq"])
def celery_broker(request, celery_pg, monkeypatch) -> Workers:
    """`celery_pg` on each supported broker: Redis (the sessions' claimed db) or RabbitMQ (this run's own virtual
    host, its queues emptied first)."""
    if request.param == "rabbitmq":
        from service.settings import get_settings

        url = request.getfixturevalue("rabbitmq_url")
        purge_queues(url, ["celery", "deliver.rec"])
        monkeypatch.setenv("CELERY_BROKER_URL", url)
        get_settings.cache_clear()
    return celery_pg


def purge_queues(url: str, names: list[str]) -> None:
    """Empty these queues of an AMQP broker (what an earlier test left), those that exist."""
    from kombu import Connection, Queue

    with Connection(url) as conn:
        for name in names:
            with contextlib.suppress(*conn.channel_errors):  # no such queue yet
                Queue(name, channel=conn.channel()).purge()
