"""What `workers.kombu_compat` assumes of kombu's Redis transport: its channel builds its synchronous redis-py clients
in `_create_client` (the one we keep per channel), on the channel's `pool`, and its bookkeeping of delivered,
unacknowledged messages (what its restore puts back after a lost worker) works through the client we hand it."""

from __future__ import annotations

import pytest
import redis
from kombu import Connection

from service.settings import get_settings
from workers import kombu_compat
from workers.app import configure


def test_a_redis_broker_channel_keeps_one_client_until_its_pool_changes(backbone_pg, monkeypatch):
    monkeypatch.setenv("CELERY_BROKER_URL", backbone_pg.redis_url)
    get_settings.cache_clear()
    with configure().connection_for_write() as conn:
        assert conn.transport_cls == kombu_compat.NAME
        channel = conn.default_channel
        client = channel._create_client()
        assert channel._create_client() is client
        with channel.conn_or_acquire() as acquired:  # what kombu's publish, bookkeeping and ack use
            assert acquired is client
        assert channel._create_client(asynchronous=True) is not client  # BRPOP's own connection, kombu's
        channel._pool = None  # as after a reconnection: a new pool, so a new client on it
        fresh = channel._create_client()
        assert fresh is not client and fresh.connection_pool is channel.pool
        assert fresh.ping()


@pytest.mark.parametrize("transport", [kombu_compat.NAME, "redis"])
def test_unacknowledged_messages_are_booked_restored_and_acked_as_kombu_does(backbone_pg, transport):
    """Through our channel as through kombu's own: a message in hand is booked in the unacked hash and index, which
    kombu's restore puts back on its queue; an ack removes both."""
    client = redis.Redis.from_url(backbone_pg.redis_url)
    client.delete("unacked", "unacked_index")
    with Connection(backbone_pg.redis_url, transport=transport) as conn:
        queue = conn.SimpleQueue("qos-test")
        queue.put({"n": 1})
        message = queue.get(timeout=5)
        tag = message.delivery_tag.encode()
        assert client.zrange("unacked_index", 0, -1) == [tag] and set(client.hgetall("unacked")) == {tag}
        queue.channel.qos.restore_unacked()  # as at a lost worker's restore: back on the queue, booked no more
        assert client.hgetall("unacked") == {} and client.zrange("unacked_index", 0, -1) == []
        again = queue.get(timeout=5)
        assert again.payload == {"n": 1} and again.delivery_tag == message.delivery_tag
        again.ack()
        assert client.hgetall("unacked") == {} and client.zrange("unacked_index", 0, -1) == []
        assert client.llen("qos-test") == 0
        queue.close()
