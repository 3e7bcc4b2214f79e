"""The application's queue interface (`service.play.queue`) and its composition root (`service.compose`): jobs run
in-process without a broker and go to the installed broker with one; nothing is run or lost when nothing is wired;
Celery is loaded only by a process that uses the broker."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from service.play import queue
from service.settings import get_settings

ROOT = Path(__file__).resolve().parents[3]


class FakeBroker:
    def __init__(self) -> None:
        self.published: list[tuple[str, dict[str, Any], float | None]] = []
        self.together: list[list[tuple[str, dict[str, Any]]]] = []

    def publish(self, task: str, kwargs: dict[str, Any], countdown: float | None = None) -> None:
        self.published.append((task, kwargs, countdown))

    def publish_together(self, jobs: list[tuple[str, dict[str, Any]]]) -> None:
        self.together.append(jobs)

    def consume_deliveries(self, platform: str) -> Any:
        raise NotImplementedError


@pytest.fixture
def installed(monkeypatch):
    """The queue's installation as it is, restored after the test."""
    for name in ("_in_process", "_broker_factory", "_broker"):
        monkeypatch.setattr(queue, name, getattr(queue, name))


def test_without_a_broker_the_installed_jobs_run_here_in_order(backbone_local, installed):
    ran: list[str] = []
    queue.install({"first": lambda: (ran.append("first"), queue.enqueue("second")), "second": lambda: ran.append("2")})
    queue.enqueue("first")
    assert ran == ["first", "2"]  # the job it enqueued ran after it, before enqueue returned


def test_with_a_broker_jobs_go_to_the_installed_broker_and_a_hand_on_goes_together(
    backbone_local, installed, monkeypatch
):
    broker = FakeBroker()
    queue.install({}, broker=lambda: broker)
    monkeypatch.setenv("CELERY_BROKER_URL", "memory://")
    get_settings.cache_clear()
    queue.enqueue("resume_bots", game_id=3)
    with queue.handing_on():
        queue.enqueue("rate_game", game_id=4)
        queue.enqueue("resume_bots", game_id=5)
        assert broker.together == []  # held until the block ends
    assert broker.published == [("resume_bots", {"game_id": 3}, None)]
    assert broker.together == [[("rate_game", {"game_id": 4}), ("resume_bots", {"game_id": 5})]]


def test_nothing_wired_is_refused_loudly(backbone_local, installed, monkeypatch):
    monkeypatch.setattr(queue, "_in_process", None)
    with pytest.raises(RuntimeError, match="compose.wire"):
        queue.enqueue("noop")
    monkeypatch.setattr(queue, "_broker_factory", None)
    monkeypatch.setattr(queue, "_broker", None)
    monkeypatch.setenv("CELERY_BROKER_URL", "memory://")
    get_settings.cache_clear()
    with pytest.raises(RuntimeError, match="no broker is installed"):
        queue.enqueue("noop")


CELERY_WHEN_USED = """
import sys
from service import compose
from service.play import queue
compose.wire()
before = "celery" in sys.modules
broker = queue.broker()
print(before, type(broker).__module__, "celery" in sys.modules)
"""


def test_the_composition_root_loads_celery_only_when_the_broker_is_first_used():
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    run = subprocess.run([sys.executable, "-c", CELERY_WHEN_USED], env=env, cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr[-3000:]
    assert run.stdout.split() == ["False", "workers.celery_queue", "True"]
