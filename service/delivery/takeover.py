"""A gateway's watch over its platform's delivery shards: a shard whose sender died mid-task (its gateway killed)
keeps due rows that no deliver task will come for until a new move asks (the dead task's message comes back only
when the broker redelivers it: at once on RabbitMQ, after the visibility timeout on Redis). Every half lease, each
gateway asks for the shards that nobody holds and that keep rows older than a lease: a dead sender's shards are
sent again by a live gateway within about a lease and a half of its death, without waiting for the beat's sweep.

A shard whose sender stopped to wait for a chat's rate (a long backlog behind a group's limit) holds no lease until
its next task comes; it leaves a mark for that wait and a lease more (`waiting_mark`), so the watch does not ask for
another sender of a shard that is only waiting: each such request started one more chain of waiting tasks.
"""

from __future__ import annotations

import threading
from datetime import timedelta

import structlog

from service.play.queue import enqueue
from service.sessions import get_sessions
from service.settings import get_settings
from service.store import outbox, session_scope
from service.store.models import utcnow

log = structlog.get_logger(__name__)


def shard_lease(platform: str, shard: int) -> str:
    """The name of the lease a shard's sender holds (`service.delivery.senders.deliver_shard`)."""
    return f"deliver:{platform}:shard:{shard}"


def waiting_mark(platform: str, shard: int) -> str:
    """The mark a shard's sender leaves while its next task waits for a chat's rate (`deliver_shard`)."""
    return f"deliver-waiting:{platform}:{shard}"


def take_over_lapsed(platform: str) -> list[int]:
    """Ask for delivery of the shards that no live sender holds nor waits on and that keep due rows older than a
    lease."""
    settings = get_settings()
    sessions = get_sessions()
    free = [
        n
        for n in range(settings.delivery_shards)
        if sessions.locks.lease_holder(shard_lease(platform, n)) is None
        and not sessions.marks.is_set(waiting_mark(platform, n))
    ]
    if not free:
        return []
    before = utcnow() - timedelta(seconds=settings.lease_seconds)
    with session_scope() as s:
        shards = sorted(outbox.shards_with_pending(s, platform, free, before))
    for shard in shards:
        enqueue("deliver", platform=platform, shard=shard)
    if shards:
        log.info("deliveries.taken_over", platform=platform, shards=shards)
    return shards


class ShardWatch:
    """`take_over_lapsed` every half lease in a thread of the gateway, until `stop()`."""

    def __init__(self, platform: str) -> None:
        self.platform = platform
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"shard-watch-{platform}", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()

    def _run(self) -> None:
        while not self._stop.wait(get_settings().lease_seconds / 2):
            try:
                take_over_lapsed(self.platform)
            except Exception as exc:  # the database or Redis away a moment: look again next time
                log.warning("deliveries.watch_failed", platform=self.platform, error=str(exc))
