"""Engines and sessions, one engine per database URL per process.

SQLite: WAL and `BEGIN IMMEDIATE`, so writers serialize (the row lock's stand-in). PostgreSQL: plain URLs are
mapped to the psycopg 3 driver; the game row is locked with `SELECT … FOR UPDATE` (see `store.games.lock_game`).
Statement parameters are kept out of error messages and SQL logs (`hide_parameters`), and so are the row values
PostgreSQL quotes in an error's DETAIL (`without_row_values`): they carry hands, panels and action codes, and an
error's message ends up in a worker's log.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psycopg
from sqlalchemy import Engine, Table, create_engine, event
from sqlalchemy.dialects.postgresql import Insert as PgInsert
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import Insert as SqliteInsert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session, sessionmaker

from service.settings import get_settings

_engines: dict[str, Engine] = {}
_makers: dict[str, sessionmaker[Session]] = {}
LAZY = "+lazy"  # engine key suffix: PostgreSQL connections with synchronous_commit off
AUTOCOMMIT = "+autocommit"  # engine key suffix: PostgreSQL connections in autocommit mode


def normalize_url(url: str) -> str:
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def get_engine(url: str | None = None, lazy_commit: bool = False, autocommit: bool = False) -> Engine:
    """The engine for `url`. `lazy_commit`: on PostgreSQL, commits that do not wait for the disk (for bookkeeping
    whose loss in a crash is harmless, e.g. marking an outbox row sent); elsewhere the same engine. `autocommit`:
    on PostgreSQL, connections that stay in autocommit mode, each statement its own transaction
    (`driver.autocommit_cursor`); elsewhere the same engine."""
    url = normalize_url(url or get_settings().database_url)
    key = url
    if not url.startswith("sqlite"):
        key += (LAZY if lazy_commit else "") + (AUTOCOMMIT if autocommit else "")
    if key not in _engines:
        _engines[key] = _make_engine(url, lazy_commit, autocommit)
    return _engines[key]


def without_row_values(exc: BaseException) -> bool:
    """Keep only the first line of a PostgreSQL error's message: the lines after it (DETAIL, e.g. "Failing row
    contains (…)", HINT, CONTEXT) quote the values of the rows, which can be a hand, a panel or a secret choice, and
    an error's message ends up in a worker's log. The exception keeps its type (callers catch IntegrityError);
    `exc.diag` still has the whole for code that asks. Returns whether it changed the message."""
    if exc.args and isinstance(exc.args[0], str) and "\n" in exc.args[0]:
        exc.args = (exc.args[0].split("\n", 1)[0], *exc.args[1:])
        return True
    return False


def _make_engine(url: str, lazy_commit: bool = False, autocommit: bool = False) -> Engine:
    if not url.startswith("sqlite"):
        # An autocommit connection has no transaction to reset when it returns to the pool, and switching a pooled
        # connection's isolation level for each statement (and back) cost more CPU than the statement's round trip.
        mode = {"isolation_level": "AUTOCOMMIT", "pool_reset_on_return": None} if autocommit else {}
        engine = create_engine(url, pool_size=5, max_overflow=10, pool_recycle=1800, hide_parameters=True, **mode)

        @event.listens_for(engine, "handle_error")
        def _scrub(context) -> DBAPIError | None:  # pragma: no cover - driver hook
            """SQLAlchemy's error has copied the driver's message already: made again from the scrubbed one."""
            wrapped = context.sqlalchemy_exception
            if not isinstance(wrapped, DBAPIError) or not without_row_values(context.original_exception):
                return None
            return DBAPIError.instance(
                context.statement,
                context.parameters,
                context.original_exception,
                psycopg.Error,
                hide_parameters=True,
                connection_invalidated=wrapped.connection_invalidated,
                dialect=context.dialect,
            )

        if lazy_commit:

            @event.listens_for(engine, "connect")
            def _lazy(dbapi_conn, _record) -> None:  # pragma: no cover - driver hook
                with dbapi_conn.cursor() as cur:
                    cur.execute("SET synchronous_commit TO OFF")
                dbapi_conn.commit()

        return engine
    path = url.split("///", 1)[-1]
    if path and path != ":memory:":
        Path(path).parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30}, hide_parameters=True)

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn, _record) -> None:  # pragma: no cover - driver hook
        dbapi_conn.isolation_level = None  # let SQLAlchemy's begin event issue BEGIN IMMEDIATE
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.execute("PRAGMA busy_timeout=30000")
        cur.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn) -> None:  # pragma: no cover - driver hook
        conn.exec_driver_sql("BEGIN IMMEDIATE")

    return engine


def insert_for(dialect: str, table: Table | type) -> PgInsert | SqliteInsert:
    """An INSERT into `table` (or a model's) that takes ON CONFLICT clauses, in the dialect's own form."""
    return (pg_insert if dialect == "postgresql" else sqlite_insert)(table)


def is_postgres(url: str | None = None) -> bool:
    return get_engine(url).dialect.name == "postgresql"


def session_factory(url: str | None = None, lazy_commit: bool = False) -> sessionmaker[Session]:
    url = normalize_url(url or get_settings().database_url)
    key = url + (LAZY if lazy_commit else "")
    if key not in _makers:
        _makers[key] = sessionmaker(get_engine(url, lazy_commit), expire_on_commit=False)
    return _makers[key]


@contextmanager
def session_scope(url: str | None = None, lazy_commit: bool = False) -> Iterator[Session]:
    """One transaction: commit on success, roll back on any exception (see `get_engine` for `lazy_commit`)."""
    session = session_factory(url, lazy_commit)()
    try:
        yield session
        session.commit()
    except BaseException:
        session.rollback()
        raise
    finally:
        session.close()


def dispose_all() -> None:
    """Forget every engine (tests switch databases; forked workers must not share connections)."""
    for engine in _engines.values():
        engine.dispose()
    _engines.clear()
    _makers.clear()
