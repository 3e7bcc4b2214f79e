"""Process entry points the CLI calls: `worker()` (Celery worker) and `beat()` (the deadline/outbox scans).

Both refuse to start on an unmigrated database, and need `CELERY_BROKER_URL` (without a broker the tasks run
inside the process that submits them, so there is nothing to start).
"""

from __future__ import annotations

from service.settings import get_settings
from service.store import ensure_migrated


def _check() -> None:
    if not get_settings().celery_broker_url:
        raise SystemExit("CELERY_BROKER_URL is not set: tasks run in-process, no worker is needed")
    ensure_migrated()


def worker(argv: list[str] | None = None) -> None:
    """Run a Celery worker (extra Celery arguments in `argv`, e.g. ["--concurrency", "4"])."""
    _check()
    from workers.app import app, configure

    configure()
    args = ["worker", "--loglevel", "INFO"]
    if not any(a.startswith(("-c", "--concurrency")) for a in argv or []):
        args += ["--concurrency", str(get_settings().worker_concurrency)]
    if not any(a.startswith(("-Q", "--queues")) for a in argv or []):
        # The default queue only: each platform's deliveries are its gateway's (`service.chat.deliveries`).
        args += ["--queues", app.conf.task_default_queue]
    app.worker_main([*args, *(argv or [])])


def beat(argv: list[str] | None = None) -> None:
    """Run Celery beat: scans deadlines and the outbox every `DEADLINE_SCAN_INTERVAL` seconds."""
    _check()
    from workers.app import app, configure

    configure()
    app.start(["beat", "--loglevel", "INFO", *(argv or [])])
