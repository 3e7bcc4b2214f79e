"""The Redis broker's channel keeps one client for its synchronous commands (kombu built one per command), and
books unacknowledged messages as kombu's own transport does."""

from __future__ import annotations

import json

import pytest
import redis
from kombu import Connection

from service.settings import get_settings
from workers import broker
from workers.app import configure


def test_a_redis_broker_channel_keeps_one_client_until_its_pool_changes(backbone_pg, monkeypatch):
    monkeypatch.setenv("CELERY_BROKER_URL", backbone_pg.redis_url)
    get_settings.cache_clear()
    with configure().connection_for_write() as conn:
        assert conn.transport_cls == broker.NAME
        channel = conn.default_channel
        client = channel._create_client()
        assert channel._create_client() is client
        with channel.conn_or_acquire() as acquired:
            assert acquired is client
        assert channel._create_client(asynchronous=True) is not client  # BRPOP's own connection, kombu's
        channel._pool = None  # as after a reconnection: a new pool, so a new client on it
        fresh = channel._create_client()
        assert fresh is not client and fresh.connection_pool is channel.pool
        assert fresh.ping()


def _unacked(client) -> tuple[dict, list]:
    return client.hgetall("unacked"), client.zrange("unacked_index", 0, -1)


@pytest.mark.parametrize("transport", [broker.NAME, "redis"])
def test_unacknowledged_messages_are_booked_restored_and_acked_as_kombu_does(backbone_pg, transport):
    """Our transport's bookkeeping (round trips of its own) against kombu's stock one: the same entry in the
    unacked hash and index while a message is in hand, which kombu's own restore puts back on its queue; an ack
    removes both."""
    client = redis.Redis.from_url(backbone_pg.redis_url)
    client.delete("unacked", "unacked_index")
    with Connection(backbone_pg.redis_url, transport=transport) as conn:
        queue = conn.SimpleQueue("qos-test")
        queue.put({"n": 1})
        message = queue.get(timeout=5)
        booked, index = _unacked(client)
        tag = message.delivery_tag.encode()
        assert index == [tag] and set(booked) == {tag}
        entry = json.loads(booked[tag])
        delivery = message.delivery_info
        assert entry == [json.loads(json.dumps(message._raw)), delivery["exchange"], delivery["routing_key"]]
        queue.channel.qos.restore_unacked()  # as at a lost worker's restore: back on the queue, booked no more
        assert _unacked(client) == ({}, [])
        again = queue.get(timeout=5)
        assert again.payload == {"n": 1} and again.delivery_tag == message.delivery_tag
        again.ack()
        assert _unacked(client) == ({}, [])
        queue.put({"n": 2})
        queue.get(timeout=5).ack()
        assert _unacked(client) == ({}, []) and client.llen("qos-test") == 0
        queue.close()
