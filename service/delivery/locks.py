"""The delivery locks a gateway's killed predecessor left behind (`service.delivery.senders` takes them)."""

from __future__ import annotations

import redis
import structlog

from service.sessions.redis_backend import P
from service.settings import get_settings

log = structlog.get_logger(__name__)


def release_stale_locks(platform: str) -> int:
    """Drop the platform's delivery locks a killed predecessor of this gateway left behind: SIGKILL runs no
    `finally`, and they would hold up its messages until they expire (two minutes). Safe at start-up because this
    gateway is the platform's only sender (`workers.deliveries`). Returns how many there were."""
    url = get_settings().redis_url
    if not url:
        return 0  # in-memory sessions: the locks died with the process
    client = redis.Redis.from_url(url)
    keys = list(client.scan_iter(f"{P}lock:deliver:{platform}:*"))
    if keys:
        client.delete(*keys)
        log.info("deliveries.stale_locks_released", platform=platform, count=len(keys))
    return len(keys)
