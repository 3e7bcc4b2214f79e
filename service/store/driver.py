"""Statements run on the psycopg connection itself, past SQLAlchemy's execution layer, on PostgreSQL.

The hottest statements (a move's lock and write, a delivery's read and booking) run this way: SQLAlchemy's
execution (statement building, cache keys, result set-up) cost more CPU than the statements' own work. They are
still SQLAlchemy statements, compiled once for PostgreSQL (`compiled`), or plain SQL, and run inside the
transaction of the session or connection they are given. Elsewhere (SQLite) callers use SQLAlchemy as usual.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from typing import Any

import psycopg
from sqlalchemy.dialects.postgresql import psycopg as postgresql_psycopg
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Session

from service.store.db import get_engine, without_row_values


def driver_of(bind: Session | Connection) -> Any | None:
    """On PostgreSQL, the psycopg connection of the session's (or connection's) transaction; None elsewhere. A
    connection lost meanwhile is still dropped from the pool by the transaction's rollback (checked by terminating
    the backend mid-move)."""
    conn = bind.connection() if isinstance(bind, Session) else bind
    return conn.connection.driver_connection if conn.dialect.name == "postgresql" else None


@contextmanager
def scrubbed() -> Iterator[None]:
    """Driver errors without the row values PostgreSQL quotes, as the engine's errors (`db.without_row_values`)."""
    try:
        yield
    except psycopg.Error as exc:
        without_row_values(exc)
        raise


@contextmanager
def autocommit_cursor() -> Iterator[psycopg.Cursor[Any]]:
    """A cursor on a pooled PostgreSQL connection in autocommit mode (`db.get_engine(autocommit=True)`): each
    statement is its own transaction, with no BEGIN and COMMIT round trips. A connection found broken goes out of
    the pool (nothing resets it on its return, as a transaction's rollback does for the others)."""
    fairy = get_engine(autocommit=True).raw_connection()
    try:
        with scrubbed(), fairy.driver_connection.cursor() as cur:
            yield cur
    except psycopg.Error:
        if fairy.driver_connection.broken:
            fairy.invalidate()
        raise
    finally:
        fairy.close()


@cache
def compiled(statement: Any) -> str:
    """A statement's PostgreSQL text for psycopg (`%(name)s` parameters, JSON binds cast)."""
    return str(statement.compile(dialect=PG_DIALECT))


PG_DIALECT = postgresql_psycopg.dialect()
