"""A prefork worker's pool processes play the moves, so each serves its own counters, on the next free ports from
METRICS_PORT: together they count every move of a bot game, and each answers /readyz."""

from __future__ import annotations

import json
import time

from service.play import lobby
from service.store import session_scope
from service.store.models import GameRow
from tests.scrape import free_port, get, samples
from tests.workers.test_celery_worker import wait_for

PORTS = 6


def test_each_pool_process_serves_the_moves_it_played(celery_pg, monkeypatch):
    first = free_port()
    monkeypatch.setenv("METRICS_PORT", str(first))
    monkeypatch.setenv("METRICS_PORTS", str(PORTS))
    celery_pg.start("-P", "prefork", "--concurrency", "2")
    game_id = lobby.create_and_start("rec", "grp", "toy", {"target": 25}, [], 3, seed=21)

    def finished() -> bool:
        with session_scope() as s:
            return s.get(GameRow, game_id).status == "finished"

    wait_for(finished, 60, "the bot game to finish")
    with session_scope() as s:
        moves = s.get(GameRow, game_id).seq
    deadline = time.monotonic() + 30
    while True:
        served = {port: samples(port) for port in range(first, first + PORTS) if get(port, "/healthz")[0] == 200}
        applied = {
            port: sum(v for (name, labels), v in found.items() if name == "camelot_moves_applied_total")
            for port, found in served.items()
        }
        if (len(served) == 2 and sum(applied.values()) == moves) or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    assert len(served) == 2, served.keys()  # one server per pool process
    assert sum(applied.values()) == moves > 5, applied  # each counted by the process that played it, once
    for port in served:
        assert json.loads(get(port, "/readyz")[1])["checks"]["worker"] == {"ok": True, "detail": "consuming"}
