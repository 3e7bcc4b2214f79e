"""Storage: migrations, the refusal to run unmigrated, the action log's uniqueness, aware datetimes."""

from __future__ import annotations

import os
from datetime import UTC, datetime

import pytest
from sqlalchemy.exc import IntegrityError

from service.store import NotMigrated, dispose_all, ensure_migrated, migrate, session_scope
from service.store.models import ActionRow, Deadline, GameRow, OutboxRow


def test_unmigrated_database_is_refused_then_migrate_fixes_it(tmp_path, monkeypatch):
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'fresh.sqlite3'}")
    from service.settings import get_settings

    get_settings.cache_clear()
    try:
        with pytest.raises(NotMigrated, match="camelot migrate"):
            ensure_migrated()
        migrate()
        ensure_migrated()
    finally:
        get_settings.cache_clear()
        dispose_all()


@pytest.mark.parametrize("fixture", ["backbone_local", "backbone_pg"])
def test_action_log_rejects_a_second_action_with_the_same_seq(fixture, request):
    request.getfixturevalue(fixture)
    with session_scope() as s:
        game = GameRow(kind="toy", config={}, seed=1, status="active")
        s.add(game)
        s.flush()
        s.add(ActionRow(game_id=game.id, seq=1, seat=0, code="add:1"))
        game_id = game.id
    with pytest.raises(IntegrityError), session_scope() as s:
        s.add(ActionRow(game_id=game_id, seq=1, seat=1, code="add:2"))
    with session_scope() as s:
        assert [a.code for a in s.query(ActionRow).filter_by(game_id=game_id)] == ["add:1"]


@pytest.mark.parametrize("fixture", ["backbone_local", "backbone_pg"])
def test_datetimes_come_back_aware_utc(fixture, request):
    request.getfixturevalue(fixture)
    due = datetime(2030, 1, 2, 3, 4, 5, tzinfo=UTC)
    with session_scope() as s:
        game = GameRow(kind="toy", config={}, seed=1)
        s.add(game)
        s.flush()
        s.add(Deadline(game_id=game.id, seat=0, seq=0, timing="turn", started_at=due, due_at=due, next_at=due))
    with session_scope() as s:
        row = s.query(Deadline).one()
        assert row.due_at == due and row.due_at.tzinfo is not None


def test_commands_are_refused_on_an_unmigrated_database(tmp_path, monkeypatch):
    from service.chat.base import Inbound
    from service.play.dispatch import submit
    from service.settings import get_settings

    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'never-migrated.sqlite3'}")
    get_settings.cache_clear()
    try:
        with pytest.raises(NotMigrated):
            submit(Inbound("rec", "g", "u", "1", "command", command="help", is_group=True))
    finally:
        get_settings.cache_clear()
        dispose_all()


@pytest.mark.parametrize("backbone", ["backbone_local", "backbone_pg"])
def test_outbox_rows_buffered_for_a_move_and_never_written_fail_the_commit(backbone, request):
    """A move's outbox rows are kept for `save_move`; forgetting to write them must not lose them silently."""
    from service.store import outbox

    request.getfixturevalue(backbone)
    with pytest.raises(RuntimeError, match="buffered"), session_scope() as s:
        outbox.buffer(s)
        outbox.add(s, "rec", "c1", "send", {"text": "lost?"})
    with session_scope() as s:
        outbox.buffer(s)
        outbox.add(s, "rec", "c1", "send", {"text": "kept"})
        assert [r["payload"] for r in outbox.take_buffered(s)] == [{"text": "kept"}]
        outbox.add(s, "rec", "c1", "send", {"text": "plain"})  # no longer buffering: an ordinary row
    with session_scope() as s:
        assert [r.payload["text"] for r in s.query(OutboxRow).all()] == ["plain"]


@pytest.mark.parametrize("fixture", ["backbone_local", "backbone_pg"])
def test_a_games_table_loads_in_a_fresh_process_before_any_other_orm_use(fixture, request):
    """`lock_with_table` makes its objects without the ORM's constructor; in a fresh process (a worker's pool
    process) nothing else may have set the mappers up before it (a move failed there with an AttributeError)."""
    import subprocess
    import sys

    from service.play import lobby

    settings = request.getfixturevalue(fixture)
    game_id = lobby.create_and_start("rec", "group-1", "cards", {}, ["alice", "bob"], 1, seed=3)
    script = (
        "from service.store import session_scope; from service.store.games import lock_with_table\n"
        f"with session_scope() as s: game, table = lock_with_table(s, {game_id})\n"
        "print(game.kind, game.status, table.chat.platform_id, [(seat.seat, seat.bot) for seat in table.seats],"
        " sorted(user.platform_id for user in table.users.values()))\n"
        "print(game.config, game.options['players'], game.options['bot_seats'], game.result)"
    )
    env = {**os.environ, "DATABASE_URL": settings.database_url}
    out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split("\n")[:2] == [
        "cards active group-1 [(0, None), (1, None), (2, 'heuristic')] ['alice', 'bob']",
        "{'players': 3} 3 [2] None",  # JSON columns decoded (on PostgreSQL the driver reads them as text)
    ]


def test_a_connection_lost_during_a_move_leaves_the_pool(backbone_pg):
    """The move's statements run on the psycopg connection itself (`driver.driver_of`); a backend that dies under them
    (a PostgreSQL restart) must not come back from the pool to fail the next move too."""
    from sqlalchemy import text
    from sqlalchemy.exc import DBAPIError

    from service.play import lobby
    from service.store import get_engine
    from service.store.games import lock_with_table

    game_id = lobby.create_and_start("rec", "group-1", "cards", {}, ["alice", "bob", "carol"], 0, seed=3)
    with pytest.raises((DBAPIError, OSError)), session_scope() as s:
        pid = s.connection().execute(text("SELECT pg_backend_pid()")).scalar()
        with get_engine().connect() as other:
            other.execute(text(f"SELECT pg_terminate_backend({pid})"))
        lock_with_table(s, game_id)
    for _ in range(get_engine().pool.size() + 1):  # every pooled connection works
        with session_scope() as s:
            game, table = lock_with_table(s, game_id)
            assert game.id == game_id and len(table.seats) == 3


def test_an_autocommit_cursor_commits_each_statement_and_drops_a_lost_connection(backbone_pg):
    """`driver.autocommit_cursor` (a bot move's write on a cached table): a statement is committed without a COMMIT,
    and a connection whose backend died is not handed out again (nothing resets an autocommit connection on its
    return to the pool, as a transaction's rollback does for the others)."""
    import psycopg
    from sqlalchemy import text

    from service.store import get_engine
    from service.store.driver import autocommit_cursor

    with autocommit_cursor() as cur:
        cur.execute("INSERT INTO processed_updates (platform, update_id, created) VALUES ('rec', 'auto-1', now())")
        pid = cur.execute("SELECT pg_backend_pid()").fetchone()[0]
    with get_engine().connect() as other:  # another connection sees the row: it was committed
        assert other.execute(text("SELECT count(*) FROM processed_updates WHERE update_id = 'auto-1'")).scalar() == 1
        other.execute(text(f"SELECT pg_terminate_backend({pid})"))
    with pytest.raises((psycopg.OperationalError, OSError)), autocommit_cursor() as cur:
        cur.execute("SELECT 1")  # the pool's one idle connection: the one whose backend is gone
    for _ in range(get_engine(autocommit=True).pool.size() + 1):  # every pooled connection works
        with autocommit_cursor() as cur:
            assert cur.execute("SELECT 1").fetchone()[0] == 1


def test_a_database_error_quotes_no_row_values_in_its_message(backbone_pg):
    """PostgreSQL quotes a failing row in an error's DETAIL ("Failing row contains (…)"); an error's message ends up
    in a worker's log, and the row can be a player's hand. Both through SQLAlchemy and on the driver (a move's
    write)."""
    import traceback

    from service.play import lobby
    from service.store.games import lock_with_table, save_move

    secret = "HAND: Excalibur, Grail, Morgan"
    with pytest.raises(IntegrityError) as orm_error, session_scope() as s:  # the type callers catch is kept
        s.add(OutboxRow(platform="rec", chat="dm-1", op=None, payload={"text": secret}))
    game_id = lobby.create_and_start("rec", "group-1", "cards", {}, ["alice", "bob", "carol"], 0, seed=3)
    row = {"platform": "rec", "chat": "dm-1", "shard": 0, "is_group": False, "op": None, "ref": None,
           "payload": {"text": secret}, "photo": None}
    with pytest.raises(Exception) as driver_error, session_scope() as s:
        game, table = lock_with_table(s, game_id)
        game.seq += 1
        save_move(s, game, table, 0, "x", "bot", [row])
    for error in (orm_error.value, driver_error.value):
        logged = "".join(traceback.format_exception(error))
        assert "not-null constraint" in logged and secret not in logged and "Failing row" not in logged
