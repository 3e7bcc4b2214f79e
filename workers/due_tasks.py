"""Publishing work that is due (see `service.play.queue.schedule`): a loop in every worker's main process.

Each pass claims what is due with a lease, publishes it to Celery and then forgets it. A worker that dies between
the claim and the publish leaves the lease to run out, and another worker publishes the task then; one that dies
between the publish and the release publishes it twice, which the tasks allow (a bot move is valid only at its
seq; a delivery sends what is still pending).
"""

from __future__ import annotations

import json
import threading
import time

import structlog
from celery.signals import worker_ready, worker_shutdown

from service.play.queue import enqueue, handing_on
from service.sessions import get_sessions

log = structlog.get_logger(__name__)
LEASE = 30.0  # seconds before a claimed but unpublished task is due again
BATCH = 200
IDLE = 0.02  # seconds between passes

_stop = threading.Event()


def release_due(now: float | None = None) -> int:
    """One pass: publish every task due by `now` (at most BATCH); returns how many."""
    sessions = get_sessions()
    claimed = sessions.scheduler.claim(time.time() if now is None else now, LEASE, BATCH)
    with handing_on():  # the pass's messages in one round trip to the broker
        for member, _ in claimed:
            item = json.loads(member)
            enqueue(item["task"], **item["kwargs"])
    if claimed:
        sessions.scheduler.release([member for member, _ in claimed], claimed[0][1])
    return len(claimed)


def run_loop(stop: threading.Event) -> None:
    """A pass every IDLE seconds (at once again if it took a full batch): what falls due meanwhile goes out
    together, which costs far less per task than a pass for each."""
    while not stop.is_set():
        try:
            full = release_due() >= BATCH
        except Exception:  # a Redis hiccup must not end the loop: the tasks wait in Redis
            log.exception("due_tasks.pass_failed")
            full = False
        if not full:
            stop.wait(IDLE)


@worker_ready.connect
def _start(**_: object) -> None:
    _stop.clear()
    threading.Thread(target=run_loop, args=(_stop,), name="due-tasks", daemon=True).start()


@worker_shutdown.connect
def _end(**_: object) -> None:
    _stop.set()
