"""Process entry points the CLI calls: `worker()` (Celery worker) and `beat()` (the deadline/outbox scans).

Both refuse to start on an unmigrated database, and need `CELERY_BROKER_URL` (without a broker the tasks run
inside the process that submits them, so there is nothing to start).
"""

from __future__ import annotations

import os

from service.settings import get_settings
from service.store import ensure_migrated


def _check() -> None:
    if not get_settings().celery_broker_url:
        raise SystemExit("CELERY_BROKER_URL is not set: tasks run in-process, no worker is needed")
    ensure_migrated()


def worker(argv: list[str] | None = None) -> None:
    """Run a Celery worker (extra Celery arguments in `argv`, e.g. ["--pool", "prefork", "--concurrency", "4"])."""
    _check()
    from workers import observed
    from workers.app import app, configure

    configure()
    observed.serve("worker")
    app.worker_main(worker_args(argv or [], app.conf.task_default_queue))


def worker_args(argv: list[str], default_queue: str) -> list[str]:
    """The worker's command line (`camelot worker`'s, and the benchmark's workers'): the log level INFO, the pool and
    its size from the settings (`WORKER_POOL`, `WORKER_CONCURRENCY`), the default queue only and a node name with
    the process id, unless `argv` names its own. The default, one solo-pool worker (run one per core), runs each
    task in the process that received it: no hand-off to a pool process (see the README's "Running the service" for
    the figures)."""
    settings = get_settings()
    args = ["worker"]
    if not any(a.startswith(("-l", "--loglevel")) for a in argv):
        args += ["--loglevel", "INFO"]
    # No gossip or mingle: nothing here uses their elections or revoked-task sync, and with a worker per core each
    # would receive every other's events.
    args += ["--without-gossip", "--without-mingle"]
    if not any(a.startswith(("-P", "--pool")) for a in argv):
        args += ["--pool", settings.worker_pool]
    if not any(a.startswith(("-c", "--concurrency")) for a in argv):
        args += ["--concurrency", str(settings.worker_concurrency)]
    if not any(a.startswith(("-Q", "--queues")) for a in argv):
        # The default queue only: each platform's deliveries are its gateway's (`workers.deliveries`).
        args += ["--queues", default_queue]
    if not any(a.startswith(("-n", "--hostname")) for a in argv):
        # A node name of its own: the workers of one host (one per core) would all be "celery@<host>", and on
        # RabbitMQ a node's remote-control queue is exclusive to one connection (the second worker failed to start).
        args += ["--hostname", f"worker{os.getpid()}@%h"]
    return [*args, *argv]


def solo_workers() -> int:
    """How many solo-pool workers to run on a machine: one per core, plus one. A move waits on PostgreSQL and Redis
    for about half of its time in a worker, and the extra worker uses a core meanwhile; more than one extra only
    contend (the README's "Running the service" has the figures)."""
    return (os.cpu_count() or 1) + 1


def beat(argv: list[str] | None = None) -> None:
    """Run Celery beat: scans deadlines and the outbox every `DEADLINE_SCAN_INTERVAL` seconds."""
    _check()
    from workers import observed
    from workers.app import app, configure

    configure()
    observed.serve("beat")
    app.start(["beat", "--loglevel", "INFO", *(argv or [])])
