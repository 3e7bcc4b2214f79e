"""The one place that reaches into kombu's private parts: its Redis transport, with one redis-py client per channel
for its synchronous commands.

kombu builds a new `redis.Redis` client (on the channel's shared connection pool) in `Channel._create_client` for
each publish, each delivered message's bookkeeping and each ack: about three per task. A client on a connection
pool is safe to share between threads (each command takes a connection from the pool), so the channel keeps one,
and builds a new one only when its pool was replaced (after a reconnection). The asynchronous client (BRPOP) is
kombu's own, untouched. Kept because alternating `camelot bench pipeline` runs without it were slower beyond the
host's noise (docs/performance.md); tests/compat/test_kombu_contract.py fails if a kombu release changes what it
overrides.

Used when the broker URL is a Redis one (`workers.app.configure`); selected by its module path, kombu's supported
way to name a transport.
"""

from __future__ import annotations

from typing import Any

from kombu.transport import redis as kombu_redis

NAME = "workers.kombu_compat:Transport"


class Channel(kombu_redis.Channel):
    _sync_client: Any = None

    def _create_client(self, asynchronous: bool = False) -> Any:
        if asynchronous:
            return super()._create_client(asynchronous=True)
        client = self._sync_client
        if client is None or client.connection_pool is not self.pool:
            client = self._sync_client = super()._create_client()
        return client


class Transport(kombu_redis.Transport):
    Channel = Channel
