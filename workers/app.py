"""The one Celery app. With `CELERY_BROKER_URL` unset nothing uses Celery: `service.play.queue` runs jobs in-process.

Only idempotent tasks set `acks_late` + `reject_on_worker_lost` (see `workers.tasks`): a worker killed mid-task
gets its message redelivered, and the task's own dedupe (processed updates, seq checks) makes the retry safe.
The configuration follows the settings (`configure()`), so a process whose settings change (tests) re-points it.
"""

from __future__ import annotations

import gc

from celery import Celery
from celery.signals import worker_process_init, worker_ready

from service.sessions import reset_sessions
from service.settings import get_settings
from service.store import dispose_all
from workers import celery_compat, kombu_compat

app = Celery("camelot")
_configured_for: tuple[str | None, str | None, float] | None = None


def is_redis(url: str | None) -> bool:
    """Whether a broker URL is a Redis one (its transport options here; its messages built by `workers.messages`)."""
    return (url or "").startswith(("redis://", "rediss://"))


def configure() -> Celery:
    """Apply the current settings to the app (again only if they changed since the last call)."""
    global _configured_for
    settings = get_settings()
    key = (settings.celery_broker_url, settings.celery_result_backend, settings.celery_visibility_timeout)
    if key == _configured_for:
        return app
    if _configured_for is not None:  # settings changed: drop connections made with the old ones
        celery_compat.drop_broker_connections(app)
    broker_url = settings.celery_broker_url or "memory://"
    on_redis = is_redis(broker_url)
    restore_every = max(1.0, min(10.0, settings.celery_visibility_timeout / 3))
    app.conf.update(
        broker_url=broker_url,
        broker_transport=kombu_compat.NAME if on_redis else None,
        result_backend=settings.celery_result_backend,
        task_serializer="json",
        accept_content=["json"],
        result_serializer="json",
        task_ignore_result=True,
        worker_prefetch_multiplier=settings.worker_prefetch_multiplier,
        # Redis: a killed worker's messages come back after the visibility timeout (RabbitMQ requeues them as soon
        # as the worker's connection closes); sweep for them every few seconds, not every 100 s (kombu's default),
        # and a worker killed during a sweep holds the sweeps' mutex that long, not 5 minutes
        broker_transport_options={
            "visibility_timeout": settings.celery_visibility_timeout,
            "unacked_restore_interval": restore_every,
            "unacked_restore_throttle": 1,
            "unacked_mutex_expire": restore_every,
        }
        if on_redis
        else {},
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


@worker_process_init.connect
def _fresh_connections(**_: object) -> None:
    """A forked pool process must not share the parent's database or Redis connections; what it inherited is
    frozen, as in the main process (`_freeze_startup_heap`)."""
    dispose_all()
    reset_sessions()
    gc.freeze()


@worker_ready.connect
def _freeze_startup_heap(**_: object) -> None:
    """Keep the collector off what start-up built (modules, catalogues, Celery's machinery): a full collection
    walks every tracked object, and over a worker's start-up heap it took 65–150 ms on the 2-core machine (timed
    with `gc.callbacks` during `camelot bench pipeline`), a stall of every move the process had in hand. Frozen
    objects are never walked; pool processes freeze theirs when they start (`_fresh_connections`)."""
    gc.freeze()


configure()
