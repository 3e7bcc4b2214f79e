"""Shared fixtures for tests that need the backbone's services (opt-in; nothing here is autouse).

- `pg_url`: a fresh PostgreSQL database `camelot_test_<pid>` on 127.0.0.1 (dropped at the end), migrated.
- `redis_url`: a Redis database number 1-15 on 127.0.0.1 claimed for this run (flushed, never db 0).
- `rabbitmq_url`: a RabbitMQ virtual host of this run's own on 127.0.0.1 (the tests that need it skip without it).
- `backbone_pg`: settings pointed at both (tables truncated, Redis flushed), sessions and engines reset.
- `backbone_local`: the embedded defaults: a fresh SQLite file and in-memory sessions, in-process tasks.
Both backbone fixtures yield the `Settings` in force; adapters registered in a test are unregistered after it.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
from collections.abc import Iterator

import psycopg
import pytest
import redis

from service import compose
from tests.redis_dbs import OWNER_KEY, flush_redis

# Every process of a test (the test itself, its gateways and workers) signs buttons with the same secret.
os.environ.setdefault("CALLBACK_SECRET", "tests-only-callback-secret")
# Bots play at once unless a test paces them (CHAT_BOT_DELAY, issue 23: a chat game's default is a readable pace).
os.environ.setdefault("CHAT_BOT_DELAY", "0")
# Pictures cost 30-50 ms a move: on only in the tests that look at them (BOARD_PICTURES, issue 23 item 10).
os.environ.setdefault("BOARD_PICTURES", "false")
compose.wire()  # as the `camelot` command does: the tests play in this process, or publish to their workers

PG_ADMIN = "postgresql://postgres@127.0.0.1:5432/test"
REDIS_BASE = "redis://127.0.0.1:6379"


@pytest.fixture(scope="session")
def pg_url() -> Iterator[str]:
    name = f"camelot_test_{os.getpid()}"
    with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name}")
        conn.execute(f"CREATE DATABASE {name}")
    url = f"postgresql://postgres@127.0.0.1:5432/{name}"
    from service.store import dispose_all, migrate

    migrate(url)
    yield url
    dispose_all()
    with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """Claim a free Redis db (1-15) by an owner key, so parallel test runs never flush each other's data.
    A db whose owner process is gone (a run that was killed) is reclaimed; a db with data but no owner is not ours."""
    me = f"pytest-{os.getpid()}"
    for db in range(1, 16):
        client = redis.Redis.from_url(f"{REDIS_BASE}/{db}")
        owner = client.get(OWNER_KEY)
        if owner is not None and owner.decode() != me and _alive(owner.decode()):
            continue
        if owner is None and client.dbsize():
            continue  # someone else's data
        if owner is not None and owner.decode() != me:
            client.flushdb()  # left by a killed run
        if client.set(OWNER_KEY, me, nx=True, ex=3600) or client.get(OWNER_KEY) == me.encode():
            break
    else:
        pytest.skip("no free Redis database 1-15")
    yield f"{REDIS_BASE}/{db}"
    client.flushdb()


RABBITMQ_BASE = "amqp://guest:guest@127.0.0.1:5672"
VHOST_PREFIX = "camelot_test_"


@pytest.fixture(scope="session")
def rabbitmq_url() -> Iterator[str]:
    """A virtual host of this run's own (made with rabbitmqctl, deleted at the end), so parallel runs never share a
    queue; those left by killed runs go first. Skips where RabbitMQ or rabbitmqctl is missing."""
    try:
        socket.create_connection(("127.0.0.1", 5672), timeout=2).close()
    except OSError:
        pytest.skip("RabbitMQ is not running on 127.0.0.1:5672")
    if shutil.which("rabbitmqctl") is None:
        pytest.skip("rabbitmqctl is not installed")
    for vhost in _rabbitmqctl("list_vhosts", "--no-table-headers").split():
        if vhost.startswith(VHOST_PREFIX) and not _alive(f"pytest-{vhost.removeprefix(VHOST_PREFIX)}"):
            _rabbitmqctl("delete_vhost", vhost)
    vhost = f"{VHOST_PREFIX}{os.getpid()}"
    _rabbitmqctl("add_vhost", vhost)
    _rabbitmqctl("set_permissions", "-p", vhost, "guest", ".*", ".*", ".*")
    yield f"{RABBITMQ_BASE}/{vhost}"
    _rabbitmqctl("delete_vhost", vhost)


def _rabbitmqctl(*args: str) -> str:
    return subprocess.run(["rabbitmqctl", "-q", *args], check=True, capture_output=True, text=True, timeout=60).stdout


def _alive(owner: str) -> bool:
    """Whether the test process named in an owner key ("pytest-<pid>") still runs on this machine."""
    pid = owner.removeprefix("pytest-")
    if not pid.isdigit():
        return True
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _reset_process_state() -> None:
    from service.chat import floods
    from service.sessions import reset_sessions
    from service.settings import get_settings
    from service.store import dispose_all

    get_settings.cache_clear()
    reset_sessions()
    floods.reset()
    dispose_all()


@pytest.fixture
def backbone_pg(pg_url: str, redis_url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[object]:
    monkeypatch.setenv("DATABASE_URL", pg_url)
    monkeypatch.setenv("REDIS_URL", redis_url)
    monkeypatch.delenv("CELERY_BROKER_URL", raising=False)
    flush_redis(redis_url)
    _reset_process_state()
    from sqlalchemy import text

    from service.store import get_engine
    from service.store.models import Base

    with get_engine().begin() as conn:
        names = ", ".join(t.name for t in Base.metadata.sorted_tables)
        conn.execute(text(f"TRUNCATE {names} RESTART IDENTITY CASCADE"))
    yield from _with_settings()


@pytest.fixture
def backbone_local(tmp_path, monkeypatch: pytest.MonkeyPatch) -> Iterator[object]:
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'camelot.sqlite3'}")
    for var in ("REDIS_URL", "CELERY_BROKER_URL"):
        monkeypatch.delenv(var, raising=False)
    _reset_process_state()
    from service.store import migrate

    migrate()
    yield from _with_settings()


def _with_settings() -> Iterator[object]:
    from service.chat import registry
    from service.settings import get_settings

    before = set(registry._factories)
    yield get_settings()
    for platform in set(registry._factories) - before:
        registry.unregister(platform)
    _reset_process_state()


FAST_RATES = {
    "TELEGRAM_CHAT_INTERVAL": "0",
    "TELEGRAM_GROUP_INTERVAL": "0",
    "TELEGRAM_GLOBAL_INTERVAL": "0",
    "MATRIX_ROOM_INTERVAL": "0",
    "MATRIX_GLOBAL_INTERVAL": "0",
}


@pytest.fixture
def toy_game() -> Iterator[str]:
    """Register the toy game as "toy" (see tests/toygame.py); yields its name."""
    import toygame

    import engine

    toygame.register()
    yield "toy"
    engine.GAMES.pop("toy", None)
    engine._loaded.pop("toy", None)


@pytest.fixture
def recording(monkeypatch: pytest.MonkeyPatch):
    """A RecordingAdapter registered for platform "rec", with rate limits off unless a test sets them."""
    from service.chat import registry
    from service.chat.recording import RecordingAdapter

    for var, value in FAST_RATES.items():
        monkeypatch.setenv(var, value)
    from service.settings import get_settings

    get_settings.cache_clear()
    adapter = RecordingAdapter("rec")
    registry.register("rec", lambda: adapter)
    yield adapter
    registry.unregister("rec")
    get_settings.cache_clear()
