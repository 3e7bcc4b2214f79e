"""The one Celery app. With `CELERY_BROKER_URL` unset nothing uses Celery: `workers.queue` runs jobs in-process.

Only idempotent tasks set `acks_late` + `reject_on_worker_lost` (see `workers.tasks`): a worker killed mid-task
gets its message redelivered, and the task's own dedupe (processed updates, seq checks) makes the retry safe.
The configuration follows the settings (`configure()`), so a process whose settings change (tests) re-points it.
"""

from __future__ import annotations

import importlib

from celery import Celery
from celery.signals import worker_process_init
from kombu import pools

from service.settings import get_settings

app = Celery("camelot")
_configured_for: tuple[str | None, str | None, float] | None = None


def configure() -> Celery:
    """Apply the current settings to the app (again only if they changed since the last call)."""
    global _configured_for
    settings = get_settings()
    key = (settings.celery_broker_url, settings.celery_result_backend, settings.celery_visibility_timeout)
    if key == _configured_for:
        return app
    if _configured_for is not None:  # settings changed: drop connections made with the old ones
        if app._pool is not None:
            app._pool.force_close_all()
            app._pool = None
        app.amqp._producer_pool = None
        pools.reset()  # kombu's registry would hand back a closed producer pool for a broker used before
    app.conf.update(
        broker_url=settings.celery_broker_url or "memory://",
        result_backend=settings.celery_result_backend,
        task_serializer="json",
        accept_content=["json"],
        result_serializer="json",
        task_ignore_result=True,
        worker_prefetch_multiplier=settings.worker_prefetch_multiplier,
        broker_transport_options={
            "visibility_timeout": settings.celery_visibility_timeout,
            # sweep for messages of killed workers every few seconds, not every 100 s (kombu's default)
            "unacked_restore_interval": max(1.0, min(10.0, settings.celery_visibility_timeout / 3)),
            "unacked_restore_throttle": 1,
        },
        broker_connection_retry_on_startup=True,
        task_always_eager=not settings.celery_broker_url,
        beat_schedule={
            "deadlines": {"task": "workers.tasks.scan_deadlines", "schedule": settings.deadline_scan_interval},
            "outbox": {"task": "workers.tasks.sweep_outbox", "schedule": settings.deadline_scan_interval},
            "prune": {"task": "workers.tasks.prune", "schedule": 3600.0},
        },
        imports=("workers.tasks",),
    )
    _configured_for = key
    return app


def load_adapters() -> None:
    """Import the gateways whose credentials are configured: each registers its adapter for the outbox. (Not
    Matrix: its deliveries run in the Matrix gateway process, see `workers.queue.GATEWAY_QUEUES`.)"""
    settings = get_settings()
    if settings.telegram_token:
        importlib.import_module("service.telegram")


@worker_process_init.connect
def _fresh_connections(**_: object) -> None:
    """A forked pool process must not share the parent's database or Redis connections."""
    from service.sessions import reset_sessions
    from service.store import dispose_all

    dispose_all()
    reset_sessions()
    load_adapters()


configure()
