"""Readiness checks, each answering in words: the database (reachable, schema migrated), Redis, the broker, and what
each process adds for itself (a gateway: connected to its platform; a worker: consuming). `/readyz` runs them
(`service.observability.http`), and `camelot doctor` the shared ones (`service.doctor`).

A check is a function that returns what it found (ok) or raises (not ok: the exception's message says what is
wrong). Each runs with its own short timeout, so an unreachable host answers "no answer within 5 s" instead of
holding the probe. The broker is read through a reader the composition root installs (`service.compose`): Celery
and kombu are the workers' to load, not this package's.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass
from functools import cache
from urllib.parse import urlsplit, urlunsplit

import redis
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, create_engine, make_url
from sqlalchemy.exc import DBAPIError

from service.settings import get_settings
from service.store.db import normalize_url
from service.store.migrate import alembic_config

TIMEOUT = 5.0  # seconds a check may take before it counts as failed
CONNECT_TIMEOUT = 3  # seconds to open a connection to PostgreSQL, Redis or the broker

Check = Callable[[], str]
QueueReader = Callable[[], dict[str, int]]  # the broker's queues → messages waiting in each


class Problem(Exception):
    """What a check found wrong, in words."""


@dataclass(frozen=True)
class Result:
    name: str
    ok: bool
    detail: str


_own: dict[str, Check] = {}
_queue_reader: QueueReader | None = None
_beats: dict[str, float] = {}


def register(name: str, check: Check) -> None:
    """Add a process's own readiness check (a gateway's platform connection, a worker's consumer)."""
    _own[name] = check


def unregister(name: str) -> None:
    _own.pop(name, None)


def install_queue_reader(reader: QueueReader) -> None:
    """How this process reads the broker (`service.compose.wire` installs Celery's)."""
    global _queue_reader
    _queue_reader = reader


def heartbeat(name: str) -> None:
    """Something that should happen regularly just did (a Matrix sync): see `recent`."""
    _beats[name] = time.monotonic()


def recent(name: str, within: float, what: str) -> Check:
    """A check that `heartbeat(name)` was called within the last `within` seconds; `what` names it in words."""

    def check() -> str:
        at = _beats.get(name)
        if at is None:
            raise Problem(f"no {what} yet")
        age = time.monotonic() - at
        if age > within:
            raise Problem(f"the last {what} was {age:.0f} s ago (more than {within:.0f} s)")
        return f"last {what} {age:.0f} s ago"

    return check


def shown(url: str) -> str:
    """A URL as it may be printed: without its password."""
    try:
        if url.startswith(("postgres", "sqlite")):
            return make_url(url).render_as_string(hide_password=True)
        parts = urlsplit(url)
        if parts.password:
            netloc = f"{parts.username or ''}:***@{parts.hostname}" + (f":{parts.port}" if parts.port else "")
            return urlunsplit(parts._replace(netloc=netloc))
    except ValueError:
        return "(a malformed URL)"
    return url


def database() -> str:
    """The database answers and its schema is at the newest revision."""
    url = get_settings().database_url
    try:
        with engine().connect() as conn:
            current = MigrationContext.configure(conn).get_current_revision()
    except DBAPIError as exc:
        raise Problem(f"cannot reach the database at {shown(url)}: {_first_line(exc.orig)}") from None
    head = _head()
    if current != head:
        raise Problem(
            f"the database schema at {shown(url)} is at revision {current or 'none'}, the code needs {head}: "
            "run `camelot migrate`"
        )
    return f"{shown(url)}, schema at {head}"


def sessions_redis() -> str:
    """Redis answers, when the sessions use it."""
    url = get_settings().redis_url
    if not url:
        return "not used: sessions in memory (one process only)"
    try:
        _redis(url).ping()
    except redis.RedisError as exc:
        raise Problem(f"cannot reach Redis at {shown(url)}: {_first_line(exc)}") from None
    return shown(url)


def broker() -> str:
    """The broker answers (its queues are read), when there is one."""
    url = get_settings().celery_broker_url
    if not url:
        return "none: tasks run in the process that submits them"
    lengths = read_queues()
    return f"{shown(url)}, {sum(lengths.values())} messages waiting in {len(lengths)} queues"


def read_queues() -> dict[str, int]:
    """Messages waiting in each of the broker's queues (raises `Problem` when the broker does not answer)."""
    if _queue_reader is None:
        raise Problem("no broker reader installed (service.compose.wire() was not called)")
    try:
        return _queue_reader()
    except Problem:
        raise
    except Exception as exc:  # the transport's own errors (kombu's, redis-py's, amqp's, socket errors)
        raise Problem(f"cannot reach the broker at {shown(get_settings().celery_broker_url or '')}: {exc}") from None


SHARED: dict[str, Check] = {"database": database, "redis": sessions_redis, "broker": broker}


def readiness() -> list[Result]:
    """The shared checks and this process's own."""
    return run({**SHARED, **_own})


def run(checks: dict[str, Check], timeout: float = TIMEOUT) -> list[Result]:
    """Run the checks at once, each within `timeout` seconds; results in the order given."""
    pool = ThreadPoolExecutor(max_workers=max(1, len(checks)), thread_name_prefix="check")
    futures = {name: pool.submit(check) for name, check in checks.items()}
    deadline = time.monotonic() + timeout
    results = []
    for name, future in futures.items():
        try:
            results.append(Result(name, True, future.result(max(0.0, deadline - time.monotonic()))))
        except FutureTimeout:
            results.append(Result(name, False, f"no answer within {timeout:.0f} s"))
        except Exception as exc:
            results.append(Result(name, False, str(exc) or type(exc).__name__))
    pool.shutdown(wait=False, cancel_futures=True)
    return results


@cache
def _head() -> str | None:
    return ScriptDirectory.from_config(alembic_config()).get_current_head()


def engine() -> Engine:
    """The engine of checks and scrapes: apart from the application's (whose connections wait as long as the
    network does), a connection opened within CONNECT_TIMEOUT seconds and tested before each use."""
    return _engine(get_settings().database_url, os.getpid())


@cache
def _engine(url: str, pid: int) -> Engine:
    """One per URL and process: a forked pool process must not use its parent's connection."""
    url = normalize_url(url)
    args = {} if url.startswith("sqlite") else {"connect_timeout": CONNECT_TIMEOUT}
    return create_engine(url, pool_size=1, max_overflow=2, pool_pre_ping=True, connect_args=args, hide_parameters=True)


def _redis(url: str) -> redis.Redis:
    return _redis_client(url, os.getpid())


@cache
def _redis_client(url: str, pid: int) -> redis.Redis:
    return redis.Redis.from_url(url, socket_connect_timeout=CONNECT_TIMEOUT, socket_timeout=CONNECT_TIMEOUT)


def _first_line(exc: BaseException | None) -> str:
    message = str(exc or "").strip()
    return message.splitlines()[0] if message else type(exc).__name__
