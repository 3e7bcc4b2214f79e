"""A gateway's own Celery consumer of its platform's deliveries, used when there is a broker (the gateway asks the
installed broker for it: `service.play.queue.Broker.consume_deliveries`).

With a broker, each platform's deliver tasks go to a queue named after the platform
(`workers.celery_queue.queue_of`), which only that platform's gateway process consumes; `camelot worker` consumes
the default queue, where moves are. Sending is mostly waiting on the platform's API (tens to hundreds of
milliseconds a call): in the worker's pool it held the processes that apply moves (measured with `camelot bench
pipeline --send-latency 0.05`: 100 moves/s offered got 31 moves/s and 15 s round trips). Matrix has a second reason:
only its gateway holds the end-to-end keys.

The consumer is a Celery worker in a thread of the gateway process, with a thread per delivery shard (each task
calls the adapter the gateway registered, as in-process delivery does): shards send in parallel, as they did from
the workers' pool processes. A platform's global rate grants about one message per shard pass, so one sender at a
time would send one message per API round trip. Several gateways of one account (Telegram's webhook mode) all
consume the queue: a deliver task sends its shard under the shard's lease (`service.delivery.leases`), renewed
while it sends and lapsing when its gateway dies, so a shard has one sender at a time and a dead one's shards are
taken over by another gateway's `ShardWatch` within about one and a half `LEASE_SECONDS`.
"""

from __future__ import annotations

import asyncio
import os
import socket
import threading

import structlog
from celery.platforms import EX_OK
from celery.worker import state

from service.delivery.takeover import ShardWatch
from service.settings import get_settings
from workers.app import configure

log = structlog.get_logger(__name__)


def delivery_queue(platform: str) -> str:
    """The Celery queue of a platform's deliver tasks."""
    return f"deliver.{platform}"


class DeliveryConsumer:
    """A Celery worker in a thread of this process, on one platform's delivery queue only; one per process
    (Celery's stop flag is process-wide)."""

    def __init__(self, platform: str) -> None:
        self.platform = platform
        self.queue = delivery_queue(platform)
        self._thread: threading.Thread | None = None
        self._watch = ShardWatch(platform)

    def start(self) -> None:
        worker = configure().WorkController(
            hostname=f"{self.queue}-gateway{os.getpid()}@{socket.gethostname()}",  # one per process (`run.worker_args`)
            pool_cls="threads",
            concurrency=get_settings().delivery_shards,
            queues=[self.queue],
            without_gossip=True,
            without_mingle=True,
            without_heartbeat=True,
        )
        state.should_stop = None
        self._thread = threading.Thread(target=worker.start, name=f"{self.queue}-deliveries", daemon=True)
        self._thread.start()
        self._watch.start()
        log.info("deliveries.consuming", platform=self.platform, queue=self.queue)

    async def stop(self) -> None:
        """Finish the task at hand and stop consuming (the worker checks the flag at least once a second); the
        caller's event loop keeps running meanwhile, as the task's sends may need it."""
        if self._thread is None:
            return
        self._watch.stop()
        state.should_stop = EX_OK
        await asyncio.to_thread(self._thread.join)
        self._thread = None
