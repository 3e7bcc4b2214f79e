"""Database errors worth trying again, and a short retry for bookkeeping that must not be lost to one of them.

Transient: the connection was lost (a backend terminated, PostgreSQL restarted, the network dropped) or the
transaction lost a race (a serialization failure, a deadlock): psycopg's `OperationalError` family, and SQLAlchemy's
wrappers of it. Every other error is a bug or bad data, and trying again would fail the same way. A task that fails
on one is tried again by Celery (`workers.tasks`); bookkeeping inside a task (a sender's record of what it sent)
tries again on the spot (`retried`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import psycopg
from sqlalchemy import exc
from tenacity import retry, retry_if_exception_type, stop_after_attempt, wait_exponential

DB_ERRORS: tuple[type[BaseException], ...] = (
    exc.OperationalError,
    exc.InterfaceError,
    psycopg.OperationalError,
    psycopg.InterfaceError,
)

F = TypeVar("F", bound=Callable[..., Any])


def retried(fn: F) -> F:
    """`fn` tried up to four times on a transient database error, within about half a second (a terminated
    backend's connection is dropped from the pool by the failed attempt, so the next one gets a fresh one); the
    last error is raised."""
    return retry(  # type: ignore[return-value]
        retry=retry_if_exception_type(DB_ERRORS),
        stop=stop_after_attempt(4),
        wait=wait_exponential(multiplier=0.05, max=0.25),
        reraise=True,
    )(fn)
