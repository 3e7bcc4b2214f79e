"""The gateways' per-user flood limits: a moving window per user and kind, in memory or shared through Redis."""

from __future__ import annotations

import logging

from limits import parse
from limits.storage import MemoryStorage, storage_from_string

from service.chat import floods
from service.settings import get_settings
from tests.redis_dbs import flush_redis


def test_one_users_flood_is_cut_and_nobody_elses(monkeypatch):
    monkeypatch.delenv("REDIS_URL", raising=False)
    monkeypatch.setenv("TAP_RATE_LIMIT", "5 per minute")
    get_settings.cache_clear()
    floods.reset()
    try:
        assert [floods.allow("tap", "telegram", "mallory") for _ in range(8)] == [True] * 5 + [False] * 3
        assert floods.allow("tap", "telegram", "ann")  # someone else
        assert floods.allow("tap", "matrix", "mallory")  # the same id on another platform
        assert floods.allow("command", "telegram", "mallory")  # commands have their own window
    finally:
        get_settings.cache_clear()
        floods.reset()


def test_gateway_processes_share_the_count_through_redis(redis_url):
    flush_redis(redis_url)
    rate = {"tap": parse("3 per minute"), "command": parse("3 per minute")}
    first, second = (floods.Floods(storage_from_string(redis_url), rate) for _ in range(2))
    assert [first.allow("tap", "telegram", "u"), second.allow("tap", "telegram", "u")] == [True, True]
    assert [first.allow("tap", "telegram", "u"), second.allow("tap", "telegram", "u")] == [True, False]


def test_an_unreachable_counter_lets_inputs_through(caplog):
    limiter = floods.Floods(storage_from_string("redis://127.0.0.1:1/0"), {"tap": parse("1 per minute")})
    logger = logging.getLogger("service.chat.floods")
    logger.addHandler(caplog.handler)  # directly: a process's logging set up by an earlier test may not propagate
    try:
        with caplog.at_level(logging.WARNING, logger="service.chat.floods"):
            assert limiter.allow("tap", "telegram", "u") and limiter.allow("tap", "telegram", "u")
    finally:
        logger.removeHandler(caplog.handler)
    assert "letting the input through" in caplog.text


def test_memory_is_the_embedded_default():
    limiter = floods.Floods(MemoryStorage(), {"tap": parse("1 per minute")})
    assert [limiter.allow("tap", "console", "u") for _ in range(2)] == [True, False]
