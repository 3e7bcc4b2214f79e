"""Commands in one round trip (`service.sessions.round_trip`), against the real Redis."""

from __future__ import annotations

import pytest
import redis
from redis.exceptions import ResponseError

from service.sessions import round_trip


@pytest.fixture
def client(redis_url):
    c = redis.Redis.from_url(redis_url)
    c.delete("rt:list", "rt:text", "rt:set")
    yield c
    c.delete("rt:list", "rt:text", "rt:set")


def test_replies_come_back_in_order(client):
    replies = round_trip.send(
        client,
        [("RPUSH", "rt:list", "a"), ("RPUSH", "rt:list", b"b\x00"), ("SET", "rt:text", 7, "EX", 60), ("GET", "rt:text"),
         ("LRANGE", "rt:list", 0, -1), ("GET", "rt:missing")],
    )
    assert replies == [1, 2, True, b"7", [b"a", b"b\x00"], None]
    assert round_trip.send(client, []) == []


def test_an_error_reply_is_raised_after_every_reply_is_read(client):
    client.set("rt:text", "not a list")
    with pytest.raises(ResponseError, match="WRONGTYPE"):
        round_trip.send(client, [("RPUSH", "rt:text", "x"), ("SADD", "rt:set", "m"), ("GET", "rt:text")])
    assert client.smembers("rt:set") == {b"m"}  # the commands after the error ran
    # the pooled connection was left with nothing unread: the next batch gets its own replies
    assert round_trip.send(client, [("GET", "rt:text"), ("SCARD", "rt:set")]) == [b"not a list", 1]


def test_a_dropped_connection_is_reconnected_and_the_batch_sent(client, redis_url):
    """The server closed the pooled connection (a restart, a timeout): the batch goes out on a new one, once."""
    round_trip.send(client, [("CLIENT", "SETNAME", "rt-victim")])
    admin = redis.Redis.from_url(redis_url)
    victims = [c["addr"] for c in admin.client_list() if c.get("name") == "rt-victim"]
    assert len(victims) == 1
    admin.client_kill(victims[0])
    assert round_trip.send(client, [("RPUSH", "rt:list", "after"), ("LLEN", "rt:list")]) == [1, 1]
    assert [c for c in admin.client_list() if c.get("name") == "rt-victim"] == []
