"""The composition root: puts in place what runs the application's jobs. Every process calls `wire()` once before
it plays (the `camelot` command for each of its subcommands; the tests' conftest; the benchmark's processes).

The application owns the queue interface (`service.play.queue`); this installs its jobs (`service.jobs`) for the
in-process mode and, for the mode with a broker, the Celery implementation (`workers.celery_queue`). The settings
choose between them at each call, as they always did. It also installs how the readiness checks and the queue
gauges read the broker (`service.observability.checks`, through `workers.observed`).
"""

from __future__ import annotations

from service.jobs import JOBS
from service.observability import checks
from service.play import queue


def _celery() -> queue.Broker:
    # Imported when first used: a process that never uses a broker (`camelot play`) never loads Celery.
    from workers.celery_queue import CeleryQueue

    return CeleryQueue()


def _queue_lengths() -> dict[str, int]:
    # As `_celery`: Celery and kombu are loaded when the broker is first read, by a process that has one.
    from workers.observed import queue_lengths

    return queue_lengths()


def wire() -> None:
    queue.install(JOBS, broker=_celery)
    checks.install_queue_reader(_queue_lengths)
