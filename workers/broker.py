"""kombu's Redis transport, with one redis-py client per channel for its synchronous commands.

kombu builds a new `redis.Redis` client (on the channel's shared connection pool) for each publish, each delivered
message's bookkeeping and each ack: about three per task, and building one costs about 85 µs on the 2-core
machine (redis-py 8 copies its tables of reply handlers each time), so a move spent about a quarter of a
millisecond building clients. A client on a connection pool is safe to share between threads (each command takes a
connection from the pool), so the channel keeps one, and builds a new one only when its pool was replaced
(after a reconnection). The asynchronous client (BRPOP) is kombu's own, untouched.

Used when the broker URL is a Redis one (`workers.app.configure`); selected by its module path, kombu's supported
way to name a transport.
"""

from __future__ import annotations

from typing import Any

from kombu.transport import redis as kombu_redis

NAME = "workers.broker:Transport"


def is_redis(url: str | None) -> bool:
    """Whether a broker URL is a Redis one: this transport's, and messages built by `workers.messages`."""
    return (url or "").startswith(("redis://", "rediss://"))


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
