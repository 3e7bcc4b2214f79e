"""The Redis broker's channel keeps one client for its synchronous commands (kombu built one per command)."""

from __future__ import annotations

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
