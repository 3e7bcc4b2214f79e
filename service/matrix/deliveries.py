"""The gateway's own Celery consumer of the "matrix" queue, used when there is a broker.

Sending to an end-to-end encrypted room needs the device's olm keys and the sync loop's view of the room, and
only the gateway process has them. So Matrix deliver tasks are routed to their own queue
(`workers.queue.GATEWAY_QUEUES`), which this thread consumes with the solo pool: each task calls the
gateway's registered adapter, as in-process delivery does. `camelot worker` consumes only the default queue.
"""

from __future__ import annotations

import asyncio
import socket
import threading

import redis
import structlog
from celery.platforms import EX_OK
from celery.worker import state

from service.sessions.redis_backend import P
from service.settings import get_settings
from workers.app import configure
from workers.queue import GATEWAY_QUEUES

log = structlog.get_logger(__name__)
PLATFORM = "matrix"


def release_stale_locks() -> int:
    """Drop the Matrix delivery locks (`workers.delivery`) a killed predecessor of this gateway left behind:
    SIGKILL runs no `finally`, and they would hold up Matrix messages until they expire (two minutes). Safe at
    start-up because this gateway is the only Matrix sender. Returns how many there were."""
    url = get_settings().redis_url
    if not url:
        return 0  # in-memory sessions: the locks died with the process
    client = redis.Redis.from_url(url)
    keys = list(client.scan_iter(f"{P}lock:deliver:{PLATFORM}:*"))
    if keys:
        client.delete(*keys)
        log.info("matrix.stale_locks_released", count=len(keys))
    return len(keys)


class DeliveryConsumer:
    """A Celery worker in a thread of this process, on one queue only; one per process (Celery's stop flag is
    process-wide)."""

    def __init__(self) -> None:
        self.queue = GATEWAY_QUEUES[PLATFORM]
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        worker = configure().WorkController(
            hostname=f"{self.queue}-gateway@{socket.gethostname()}",
            pool_cls="solo",
            concurrency=1,
            queues=[self.queue],
            without_gossip=True,
            without_mingle=True,
            without_heartbeat=True,
        )
        state.should_stop = None
        self._thread = threading.Thread(target=worker.start, name=f"{self.queue}-deliveries", daemon=True)
        self._thread.start()
        log.info("matrix.deliveries_consuming", queue=self.queue)

    async def stop(self) -> None:
        """Finish the task at hand and stop consuming (the worker checks the flag at least once a second); the
        caller's event loop keeps running meanwhile, as the task's sends need it."""
        if self._thread is None:
            return
        state.should_stop = EX_OK
        await asyncio.to_thread(self._thread.join)
        self._thread = None
