"""What `workers.celery_compat` assumes of Celery: after `drop_broker_connections`, the app's broker connection
pool and producer pool are made anew, for the broker it is configured with now."""

from __future__ import annotations

from celery import Celery

from workers import celery_compat


def test_dropped_pools_are_made_anew_for_the_new_broker():
    app = Celery("compat-contract", set_as_current=False)
    app.conf.broker_url = "redis://127.0.0.1:6379/1"
    pool, producers = app.pool, app.amqp.producer_pool
    with pool.acquire() as conn:
        assert conn.as_uri().endswith("/1")
    app.conf.broker_url = "redis://127.0.0.1:6379/2"
    assert app.pool is pool  # kept until dropped: what the compat function exists for
    celery_compat.drop_broker_connections(app)
    assert app.pool is not pool and app.amqp.producer_pool is not producers
    with app.pool.acquire() as conn:
        assert conn.as_uri().endswith("/2")
    with app.amqp.producer_pool.acquire() as producer:
        assert producer.connection.as_uri().endswith("/2")
