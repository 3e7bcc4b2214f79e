"""Each test run claims a Redis db of its own (1-15) with an owner key (the `redis_url` fixture in conftest.py);
whatever empties a db in a test must keep that claim, or a concurrent run could take the db and lose its data."""

from __future__ import annotations

import redis

OWNER_KEY = "camelot:test-owner"


def flush_redis(url: str) -> None:
    """Flush our claimed db, keeping the claim."""
    client = redis.Redis.from_url(url)
    me = client.get(OWNER_KEY)
    client.flushdb()
    if me is not None:
        client.set(OWNER_KEY, me, ex=3600)
