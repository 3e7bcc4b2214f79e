"""The one Celery app. With `CELERY_BROKER_URL` unset nothing uses Celery: `workers.queue` runs jobs in-process.

Only idempotent tasks set `acks_late` + `reject_on_worker_lost` (see `workers.tasks`): a worker killed mid-task
gets its message redelivered, and the task's own dedupe (processed updates, seq checks) makes the retry safe.
"""

from __future__ import annotations

from celery import Celery
from celery.signals import worker_process_init

from service.settings import get_settings

settings = get_settings()
app = Celery("camelot", broker=settings.celery_broker_url or "memory://", backend=settings.celery_result_backend)
app.conf.update(
    task_serializer="json",
    accept_content=["json"],
    result_serializer="json",
    task_ignore_result=True,
    worker_prefetch_multiplier=4,
    broker_transport_options={"visibility_timeout": 300},
    broker_connection_retry_on_startup=True,
    task_always_eager=not settings.celery_broker_url,
    beat_schedule={
        "deadlines": {"task": "workers.tasks.scan_deadlines", "schedule": settings.deadline_scan_interval},
        "outbox": {"task": "workers.tasks.sweep_outbox", "schedule": settings.deadline_scan_interval},
    },
    imports=("workers.tasks",),
)


@worker_process_init.connect
def _fresh_connections(**_: object) -> None:
    """A forked pool process must not share the parent's database or Redis connections."""
    from service.sessions import reset_sessions
    from service.store import dispose_all

    dispose_all()
    reset_sessions()
