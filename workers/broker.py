"""kombu's Redis transport, with one redis-py client per channel for its synchronous commands.

kombu builds a new `redis.Redis` client (on the channel's shared connection pool) for each publish, each delivered
message's bookkeeping and each ack: about three per task, and building one costs about 85 µs on the 2-core
machine (redis-py 8 copies its tables of reply handlers each time), so a move spent about a quarter of a
millisecond building clients. A client on a connection pool is safe to share between threads (each command takes a
connection from the pool), so the channel keeps one, and builds a new one only when its pool was replaced
(after a reconnection). The asynchronous client (BRPOP) is kombu's own, untouched. Its bookkeeping of delivered,
unacknowledged messages goes through that client too, with `round_trip.send` (`QoS`).

Used when the broker URL is a Redis one (`workers.app.configure`); selected by its module path, kombu's supported
way to name a transport.
"""

from __future__ import annotations

from time import time
from typing import Any

from kombu.transport import redis as kombu_redis
from kombu.transport import virtual
from kombu.utils.json import dumps

from service.sessions import round_trip

NAME = "workers.broker:Transport"


def is_redis(url: str | None) -> bool:
    """Whether a broker URL is a Redis one: this transport's, and messages built by `workers.messages`."""
    return (url or "").startswith(("redis://", "rediss://"))


class QoS(kombu_redis.QoS):
    """kombu's bookkeeping of delivered, unacknowledged messages (what its restore puts back after a lost worker),
    written with `round_trip.send`: the same keys and values in the same MULTI/EXEC transactions, without redis-py's
    `Pipeline` (two per task, about a quarter of the worker's main process under py-spy). With a global key prefix
    (whose client rewrites keys) kombu's own code runs."""

    def append(self, message: Any, delivery_tag: str) -> None:
        if self.channel.global_keyprefix:
            super().append(message, delivery_tag)
            return
        delivery = message.delivery_info
        entry = dumps([message._raw, delivery["exchange"], delivery["routing_key"]])
        self._transaction(
            ("ZADD", self.unacked_index_key, time(), delivery_tag), ("HSET", self.unacked_key, delivery_tag, entry)
        )
        virtual.QoS.append(self, message, delivery_tag)

    def ack(self, delivery_tag: str) -> None:
        if self.channel.global_keyprefix:
            super().ack(delivery_tag)
            return
        self._transaction(("ZREM", self.unacked_index_key, delivery_tag), ("HDEL", self.unacked_key, delivery_tag))
        virtual.QoS.ack(self, delivery_tag)

    def _transaction(self, *commands: round_trip.Command) -> None:
        round_trip.send(self.channel._create_client(), [("MULTI",), *commands, ("EXEC",)])


class Channel(kombu_redis.Channel):
    QoS = QoS
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
