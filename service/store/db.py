"""Engines and sessions, one engine per database URL per process.

SQLite: WAL and `BEGIN IMMEDIATE`, so writers serialize (the row lock's stand-in). PostgreSQL: plain URLs are
mapped to the psycopg 3 driver; the game row is locked with `SELECT … FOR UPDATE` (see `store.games.lock_game`).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.orm import Session, sessionmaker

from service.settings import get_settings

_engines: dict[str, Engine] = {}
_makers: dict[str, sessionmaker[Session]] = {}


def normalize_url(url: str) -> str:
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def get_engine(url: str | None = None) -> Engine:
    url = normalize_url(url or get_settings().database_url)
    if url not in _engines:
        _engines[url] = _make_engine(url)
    return _engines[url]


def _make_engine(url: str) -> Engine:
    if not url.startswith("sqlite"):
        return create_engine(url, pool_size=5, max_overflow=10, pool_pre_ping=True)
    path = url.split("///", 1)[-1]
    if path and path != ":memory:":
        Path(path).parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

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


def is_postgres(url: str | None = None) -> bool:
    return get_engine(url).dialect.name == "postgresql"


def session_factory(url: str | None = None) -> sessionmaker[Session]:
    url = normalize_url(url or get_settings().database_url)
    if url not in _makers:
        _makers[url] = sessionmaker(get_engine(url), expire_on_commit=False)
    return _makers[url]


@contextmanager
def session_scope(url: str | None = None) -> Iterator[Session]:
    """One transaction: commit on success, roll back on any exception."""
    session = session_factory(url)()
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
