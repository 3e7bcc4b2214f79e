"""How work is handed on: to Celery when a broker is configured, else run in this process, in order.

The in-process mode drains a FIFO in a loop instead of recursing, so an all-bot game of hundreds of moves
(each move enqueuing the next) runs in constant stack depth.
"""

from __future__ import annotations

import threading
from collections import deque
from typing import Any

from service.settings import get_settings

_local = threading.local()


def enqueue(task: str, countdown: float | None = None, **kwargs: Any) -> None:
    """Run task `task` (a name in `workers.tasks.TASKS`) with `kwargs`, now or after `countdown` seconds."""
    from workers import tasks

    if get_settings().celery_broker_url:
        from workers.app import configure

        configure()
        tasks.TASKS[task].apply_async(kwargs=kwargs, countdown=countdown)
        return
    jobs: deque[tuple[str, float | None, dict[str, Any]]] | None = getattr(_local, "jobs", None)
    if jobs is not None:  # already draining in this thread: append, the loop below picks it up
        jobs.append((task, countdown, kwargs))
        return
    _local.jobs = jobs = deque([(task, countdown, kwargs)])
    try:
        while jobs:
            name, delay, kw = jobs.popleft()
            if delay:
                threading.Event().wait(delay)
            tasks.RUNNERS[name](**kw)
    finally:
        _local.jobs = None
