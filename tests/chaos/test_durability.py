"""Chaos: real Celery workers, beat, PostgreSQL and a broker (Redis, then RabbitMQ) under concurrent games of bots
and scripted people, while random workers are SIGKILLed and the service's PostgreSQL backends are terminated.

Then: every game finished and its log replays to its result; every person's tap was applied exactly once; no
outbox row was sent twice (the delivering gateway is not killed: its sends are at least once by design, see
`service.delivery.senders`); nothing was left pending; and no game waited longer for its next move than one scan
interval beyond the visibility timeout, plus the time a move itself takes on this loaded machine (its work, its
delivery and the scripted person's answer).

A modest run by default; `CHAOS_KILLS`, `CHAOS_GAMES` (games at once) and `CHAOS_WORKERS` run it longer, and
`CHAOS_REPORT=<file>` appends each run's figures there as a JSON line.
"""

from __future__ import annotations

import json
import os
import time

import pytest
from sqlalchemy import select

from service.play import lobby
from service.settings import get_settings
from service.store import session_scope
from service.store.models import GameRow, InboxRow, OutboxRow
from tests.chaos.audit import audit
from tests.chaos.mayhem import APP_NAME, Mayhem
from tests.chaos.people import People
from tests.workers.test_celery_worker import wait_for

pytestmark = [pytest.mark.chaos, pytest.mark.e2e]

KILLS = int(os.environ.get("CHAOS_KILLS", "6"))
GAMES = int(os.environ.get("CHAOS_GAMES", "6"))
WORKERS = int(os.environ.get("CHAOS_WORKERS", "3"))
VISIBILITY, SCAN, GRACE = 4.0, 2.0, 4.0
MOVE = 3.0  # a move's own time under the load (its work, delivery, the person's answer), beyond any recovery


def start_game(n: int, people: People) -> int:
    """The n-th game: two people and a paced bot, one person and two bots, the card game's bots, or toy bots."""
    kind = n % 4
    humans = [f"p{n}a", f"p{n}b"][: (2, 1, 0, 0)[kind]]
    people.add(*humans)
    if kind == 2:
        return lobby.create_and_start("rec", f"g{n}", "cards", {}, [], 3, seed=n, bot_delay=0.02)
    bots, target, pace = ((1, 30, 0.2), (2, 30, 0.0), None, (3, 50, 0.1))[kind]
    return lobby.create_and_start("rec", f"g{n}", "toy", {"target": target}, humans, bots, seed=n, bot_delay=pace)


def running(game_ids: list[int]) -> list[int]:
    with session_scope() as s:
        return list(s.scalars(select(GameRow.id).where(GameRow.id.in_(game_ids), GameRow.status == "active")))


def settled() -> bool:
    """Nothing left to send or to apply."""
    with session_scope() as s:
        return not s.scalar(select(OutboxRow.id).where(OutboxRow.status == "pending").limit(1)) and not s.scalar(
            select(InboxRow.update_id).limit(1)
        )


def test_games_survive_killed_workers_and_terminated_backends(celery_broker, monkeypatch, request):
    for name, value in (("CELERY_VISIBILITY_TIMEOUT", VISIBILITY), ("DEADLINE_SCAN_INTERVAL", SCAN)):
        monkeypatch.setenv(name, str(value))
    monkeypatch.setenv("RECOVERY_GRACE", str(GRACE))
    get_settings.cache_clear()
    cluster = celery_broker
    service = {"PGAPPNAME": APP_NAME}
    cluster.start("-Q", "deliver.rec", "-P", "threads", "-c", "4", env=service)  # the gateway's deliveries

    def worker():
        return cluster.start("-Q", "celery", "-P", "solo", env=service)

    pool = [worker() for _ in range(WORKERS)]
    cluster.start_beat()
    people = People(cluster.calls_file)
    people.start()
    mayhem = Mayhem(pool, worker, cluster.kill, KILLS)
    started = time.monotonic()
    mayhem.start()
    game_ids: list[int] = []
    while not mayhem.done.is_set():
        for _ in range(GAMES - len(running(game_ids))):
            game_ids.append(start_game(len(game_ids), people))
        time.sleep(0.3)
    try:
        wait_for(lambda: not running(game_ids), 120, "every game to finish")
        wait_for(settled, 60, "the outbox and the inbox to empty")
    finally:
        people.stop()
    found = audit(game_ids, people.taps, cluster.calls_file)
    figures = {
        "broker": request.node.callspec.params["celery_broker"],
        **found.figures(),
        "kills": mayhem.kills,
        "backends_terminated": mayhem.terminated,
        "seconds": round(time.monotonic() - started),
    }
    print("chaos:", json.dumps(figures))
    if os.environ.get("CHAOS_REPORT"):
        with open(os.environ["CHAOS_REPORT"], "a") as f:
            f.write(json.dumps(figures) + "\n")
    assert not mayhem.errors and not people.errors, (mayhem.errors, people.errors)
    assert mayhem.kills == KILLS
    assert not people.refused_early, people.refused_early[:5]
    assert not found.findings, found.findings
    assert found.longest_stall <= VISIBILITY + SCAN + MOVE, figures
