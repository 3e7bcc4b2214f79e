"""The one place that reaches into Celery's private attributes: dropping the app's broker connection and producer
pools when its broker changes (a process whose settings change, as the tests' do). Celery offers no public way:
`app.pool` and `app.amqp.producer_pool` are made once and kept in `_pool` and `_producer_pool`.
tests/compat/test_celery_contract.py fails if a release changes this.
"""

from __future__ import annotations

from celery import Celery
from kombu import pools


def drop_broker_connections(app: Celery) -> None:
    """Close the app's pooled broker connections and forget its pools, so the next use makes them anew from the
    current configuration."""
    if app._pool is not None:
        app._pool.force_close_all()
        app._pool = None
    app.amqp._producer_pool = None
    pools.reset()  # kombu's registry would hand back a closed producer pool for a broker used before
