"""What the chaos test does to the service while it plays: SIGKILLs a random worker (and starts another in its
place) and terminates random PostgreSQL backends of the service's processes, at random moments."""

from __future__ import annotations

import random
import subprocess
import threading
from collections.abc import Callable

from sqlalchemy import text

from service.store import get_engine

APP_NAME = "camelot-chaos"  # the service's processes connect as this (PGAPPNAME): the test's own connections do not


class Mayhem(threading.Thread):
    """Until `kills` workers were killed: every 1–2.5 s one to three random backends are terminated, and a moment
    later a random worker of `workers` is killed and replaced (`start` starts one and waits until it is ready)."""

    def __init__(
        self,
        workers: list[subprocess.Popen],
        start: Callable[[], subprocess.Popen],
        kill: Callable[[subprocess.Popen], None],
        kills: int,
        seed: int = 0,
    ) -> None:
        super().__init__(name="chaos-mayhem", daemon=True)
        self.workers, self.start_worker, self.kill_worker = workers, start, kill
        self.target = kills
        self.rng = random.Random(seed)
        self.kills = 0
        self.terminated = 0
        self.errors: list[BaseException] = []
        self.done = threading.Event()

    def run(self) -> None:
        try:
            while self.kills < self.target:
                if self.done.wait(self.rng.uniform(0.5, 1.25)):
                    return
                self.terminated += terminate_backends(self.rng.choice((1, 2, 3)), self.rng)
                if self.done.wait(self.rng.uniform(0.5, 1.25)):
                    return
                victim = self.rng.choice(self.workers)
                self.kill_worker(victim)
                self.kills += 1
                self.workers[self.workers.index(victim)] = self.start_worker()
        except BaseException as exc:  # noqa: BLE001 - reported by the test
            self.errors.append(exc)
        finally:
            self.done.set()


def terminate_backends(n: int, rng: random.Random) -> int:
    """Terminate up to `n` random backends of the service's processes (workers and the delivering gateway, busy or
    idle in their pools); returns how many were."""
    with get_engine().connect() as conn:
        pids = list(
            conn.execute(
                text("SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = :app"),
                {"app": APP_NAME},
            ).scalars()
        )
        chosen = rng.sample(pids, min(n, len(pids)))
        return sum(
            bool(conn.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid}).scalar()) for pid in chosen
        )
