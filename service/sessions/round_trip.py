"""Redis commands sent together, in one round trip, through redis-py's `Pipeline` (no transaction).

A move hands on its cached state, delivery requests and next bot move in one round trip, and the due loop, the
metrics and the built task messages send theirs. An error reply is raised once every reply has been read; a
connection error is retried as the client's own commands are (its retry policy), so the commands sent this way
must be safe to repeat.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

import redis

Command = Sequence[Any]


@cache
def client_for(url: str) -> redis.Redis:
    """One client per Redis URL for the process (the metrics', the built task messages'). Its pool makes new
    connections after a fork and replaces one found closed at checkout; a client from a URL has no retry policy."""
    return redis.Redis.from_url(url)


def send(client: redis.Redis, commands: Sequence[Command]) -> list[Any]:
    """Send `commands` together and return their replies, in order (as the client's own commands return them)."""
    if not commands:
        return []
    pipe = client.pipeline(transaction=False)
    for command in commands:
        pipe.execute_command(*command)
    return pipe.execute()
