"""Round-trip timings of tasks (enqueue → done), kept in Redis lists capped at `KEEP` (in memory without Redis).

`service.play.queue` stamps play, play_bot and noop tasks with `enqueued_at`; a move records the time from then until
its transaction committed (`Outcome.committed_at`), a no-op until it runs. The benchmark reads these lists;
operators can too.
"""

from __future__ import annotations

import time

from service.sessions import round_trip
from service.settings import get_settings

KEEP = 200_000
PREFIX = "camelot:metrics:"
_memory: dict[str, list[float]] = {}


def observe(name: str, enqueued_at: float | None, at: float | None = None) -> None:
    """Record a round trip: from `enqueued_at` until `at` (default: now), both `time.time()`."""
    if enqueued_at is None:
        return
    seconds = (time.time() if at is None else at) - enqueued_at
    url = get_settings().redis_url
    if not url:
        _memory.setdefault(name, []).append(seconds)
        return
    key = PREFIX + name
    round_trip.send(round_trip.client_for(url), [("RPUSH", key, f"{seconds:.6f}"), ("LTRIM", key, -KEEP, -1)])


def read(name: str) -> list[float]:
    url = get_settings().redis_url
    if not url:
        return list(_memory.get(name, []))
    return [float(v) for v in round_trip.client_for(url).lrange(PREFIX + name, 0, -1)]


def count(name: str) -> int:
    url = get_settings().redis_url
    return round_trip.client_for(url).llen(PREFIX + name) if url else len(_memory.get(name, []))


def reset(name: str) -> None:
    url = get_settings().redis_url
    if url:
        round_trip.client_for(url).delete(PREFIX + name)
    _memory.pop(name, None)
