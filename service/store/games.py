"""Games, seats, the action log and processed updates."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from psycopg.types.json import Json
from sqlalchemy import JSON, LargeBinary, Select, Text, TextClause, bindparam, cast, select, text
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, configure_mappers

from service.store import inbox
from service.store.driver import autocommit_cursor, compiled, driver_of, scrubbed
from service.store.models import ActionRow, Chat, GameRow, ProcessedUpdate, Seat, User, utcnow

OPEN = ("lobby", "active")


def lock_game(s: Session, game_id: int) -> GameRow | None:
    """The game row, locked until the transaction ends (`FOR UPDATE` on PostgreSQL; SQLite's writer lock
    is already held since the transaction began with BEGIN IMMEDIATE)."""
    stmt = select(GameRow, Chat).outerjoin(Chat, Chat.id == GameRow.chat_id).where(GameRow.id == game_id)
    if s.get_bind().dialect.name == "postgresql":
        stmt = stmt.with_for_update(of=GameRow)
    row = s.execute(stmt.execution_options(populate_existing=True)).first()
    return row[0] if row is not None else None  # its chat is now in the session's identity map


def open_game_in_chat(s: Session, chat: Chat) -> GameRow | None:
    """The chat's lobby or running game (one at a time per chat)."""
    return s.scalar(
        select(GameRow).where(GameRow.chat_id == chat.id, GameRow.status.in_(OPEN)).order_by(GameRow.id.desc())
    )


def seats_of(s: Session, game_id: int) -> list[Seat]:
    return list(s.scalars(select(Seat).where(Seat.game_id == game_id).order_by(Seat.seat)))


def seat_users(s: Session, game_id: int) -> dict[int, User]:
    rows = s.execute(select(Seat.seat, User).join(User, Seat.user_id == User.id).where(Seat.game_id == game_id))
    return {seat: user for seat, user in rows}


@dataclass
class Table:
    """A game's chat, seats (in order) and the users in them (by seat), loaded together."""

    chat: Chat
    seats: list[Seat]
    users: dict[int, User]
    prompts: dict[int, tuple[int | None, str | None]] = field(default_factory=dict)  # as loaded, for `save_move`


def lock_with_table(s: Session, game_id: int) -> tuple[GameRow, Table] | None:
    """The game row locked until the transaction ends (as `lock_game`), with its chat, seats and users, in one
    round trip. They come as plain rows made into objects the session does not track: a move changes only the game
    row and its seats' prompts, and `save_move` writes those (the ORM's loading and flush cost more than the move)."""
    driver = driver_of(s)
    if driver is not None:
        with scrubbed(), driver.cursor() as cur:
            rows = cur.execute(compiled(_table_statement(True)), {"id": game_id}, prepare=True).fetchall()
    else:
        rows = s.connection().execute(_table_statement(False), {"id": game_id}).all()
    if not rows:
        return None
    configure_mappers()  # a no-op once done (7 µs); `new_instance` alone would leave a new process's attributes unset
    game, chat = _made(GameRow, rows[0]), _made(Chat, rows[0])
    if driver is not None:  # its JSON came as text (`_table_statement`): decoded once, not once per seat's row
        game.__dict__.update((key, _json_or_none(game.__dict__[key])) for key in _GAME_JSON)
    seats: list[Seat] = []
    users: dict[int, User] = {}
    for row in rows:
        seat = _made(Seat, row)
        if seat is not None:
            seats.append(seat)
            user = _made(User, row)
            if user is not None:
                users[seat.seat] = user
    prompts = {seat.seat: (seat.prompt_seq, seat.prompt_sig) for seat in seats}
    return game, Table(chat, seats, users, prompts)


_LOADED = (GameRow, Chat, Seat, User)
_KEYS = {model: [c.key for c in model.__table__.c if c.key not in ("created", "updated")] for model in _LOADED}
_AT = {  # where each model's columns start in a row of `_table_statement`
    model: sum(len(_KEYS[m]) for m in _LOADED[: _LOADED.index(model)]) for model in _LOADED
}


def _made(model: type[Any], row: Any) -> Any:
    """The `model` object in a row of `_table_statement`, or None where the outer join found none (its id NULL).
    The mappers must be configured (`lock_with_table` does)."""
    at = _AT[model]
    if row[at] is None:  # the id, first of the columns
        return None
    return _from_values(model, row[at : at + len(_KEYS[model])])


def _from_values(model: type[Any], values: Any) -> Any:
    """A `model` object of these column values (in `_KEYS` order), untracked by any session, or None for None."""
    if values is None:
        return None
    made = model._sa_class_manager.new_instance()  # as the ORM loads a row: no constructor (a tenth of the CPU)
    made.__dict__.update(zip(_KEYS[model], values, strict=True))
    return made


def _values(row: Any) -> tuple[Any, ...] | None:
    """A loaded object's column values in `_KEYS` order (None for None)."""
    if row is None:
        return None
    loaded = row.__dict__
    return tuple(loaded[key] if key in loaded else getattr(row, key) for key in _KEYS[type(row)])


def snapshot(game: GameRow, table: Table) -> tuple[Any, ...]:
    """The game row and its table as plain column values, cached with the game's state (`restore` makes them
    again): pickled as mapped objects, their instance state cost a tenth of a bot move's CPU."""
    seats = [(_values(seat), _values(table.users.get(seat.seat))) for seat in table.seats]
    return _values(game), _values(table.chat), seats


def restore(values: tuple[Any, ...]) -> tuple[GameRow, Table]:
    """The game row and table of a `snapshot`, as `lock_with_table` would load them."""
    configure_mappers()
    game_values, chat_values, seat_values = values
    seats: list[Seat] = []
    users: dict[int, User] = {}
    for seat_row, user_row in seat_values:
        seat = _from_values(Seat, seat_row)
        seats.append(seat)
        if user_row is not None:
            users[seat.seat] = _from_values(User, user_row)
    prompts = {seat.seat: (seat.prompt_seq, seat.prompt_sig) for seat in seats}
    return _from_values(GameRow, game_values), Table(_from_values(Chat, chat_values), seats, users, prompts)


_GAME_JSON = [c.key for c in GameRow.__table__.c if isinstance(c.type, JSON)]


def _json_or_none(text: str | None) -> Any:
    return None if text is None else json.loads(text)


@cache
def _table_statement(on_pg: bool) -> Select[Any]:
    """Game, chat, seat and user columns, a row per seat. On PostgreSQL (run on the driver, see `lock_with_table`)
    the game's JSON columns come as text: the driver would decode them in every seat's row."""
    games, chats, seats, users = (model.__table__ for model in _LOADED)
    columns = [model.__table__.c[key] for model in _LOADED for key in _KEYS[model]]
    if on_pg:
        columns = [cast(c, Text).label(c.key) if isinstance(c.type, JSON) else c for c in columns]
    stmt = (
        select(*columns)
        .select_from(games)
        .outerjoin(chats, chats.c.id == games.c.chat_id)
        .outerjoin(seats, seats.c.game_id == games.c.id)
        .outerjoin(users, users.c.id == seats.c.user_id)
        .where(games.c.id == bindparam("id"))
        .order_by(seats.c.seat)
    )
    return stmt.with_for_update(of=games) if on_pg else stmt


def action_log(s: Session, game_id: int) -> list[tuple[int, str]]:
    rows = s.execute(select(ActionRow.seat, ActionRow.code).where(ActionRow.game_id == game_id).order_by(ActionRow.seq))
    return [(seat, code) for seat, code in rows]


_GAME_SQL = (
    "UPDATE games SET seq = :seq, status = :status, result = :result, board_digest = :digest, silence = :silence, "
    "updated = :now WHERE id = :id"
)
_ACTION_SQL = "INSERT INTO actions (game_id, seq, seat, code, by, created) VALUES (:id, :seq, :seat, :code, :by, :now)"
_OUTBOX_COLUMNS = ("platform", "chat", "shard", "is_group", "op", "ref", "payload", "photo")
_OUTBOX_SQL = f"INSERT INTO outbox ({', '.join(_OUTBOX_COLUMNS)}, status, attempts, created) VALUES "


def save_move(
    s: Session, game: GameRow, table: Table, seat: int, code: str, by: str, rows: list[dict[str, Any]]
) -> None:
    """Write a move: its log entry (at `game.seq`), the game row's new fields, the seats whose prompt changed and the
    outbox rows, in the caller's transaction. On PostgreSQL one statement (the writes as CTEs): through the ORM's
    flush the same writes cost twice the CPU and two more round trips, on every move. `game` and `table` come from
    `lock_with_table`."""
    changed, params = _move_params(game, table, seat, code, by, rows)
    driver = driver_of(s)
    if driver is not None:
        for n in range(len(rows)):
            params[f"payload{n}"] = Json(params[f"payload{n}"])
        params["result"] = Json(params["result"])
        with scrubbed(), driver.cursor() as cur:
            cur.execute(compiled(_move_statement(len(changed), len(rows))), params, prepare=True)
    else:
        conn = s.connection()
        conn.execute(_typed(text(_GAME_SQL), range(0), game=True), params)
        conn.execute(text(_ACTION_SQL), params)
        for n in range(len(changed)):
            conn.execute(text(_seat_sql(n)), params)
        for n in range(len(rows)):
            conn.execute(_typed(text(_OUTBOX_SQL + _outbox_values(n)), range(n, n + 1), game=False), params)
    table.prompts = {row.seat: (row.prompt_seq, row.prompt_sig) for row in table.seats}


def _move_params(
    game: GameRow, table: Table, seat: int, code: str, by: str, rows: list[dict[str, Any]]
) -> tuple[list[Seat], dict[str, Any]]:
    """The seats whose prompt changed since `table` was loaded, and the parameters of a move's writes."""
    changed = [row for row in table.seats if table.prompts.get(row.seat) != (row.prompt_seq, row.prompt_sig)]
    params: dict[str, Any] = {
        "id": game.id,
        "seq": game.seq,
        "status": game.status,
        "result": game.result,
        "digest": game.board_digest,
        "silence": game.silence,
        "now": utcnow(),
        "seat": seat,
        "code": code,
        "by": by,
    }
    for n, row in enumerate(changed):
        params.update({f"s{n}": row.seat, f"ps{n}": row.prompt_seq, f"sig{n}": row.prompt_sig})
    for n, row in enumerate(rows):
        params.update({f"{column}{n}": row[column] for column in _OUTBOX_COLUMNS})
    return changed, params


@cache
def _move_statement(seats: int, rows: int) -> TextClause:
    """UPDATE games, INSERT actions, UPDATE `seats` seats and INSERT outbox (`rows` rows) as one PostgreSQL
    statement."""
    ctes = [f"g AS ({_GAME_SQL})", f"a AS ({_ACTION_SQL})", *(f"s{n} AS ({_seat_sql(n)})" for n in range(seats))]
    sql = f"WITH {', '.join(ctes)} "
    sql += _OUTBOX_SQL + ", ".join(_outbox_values(n) for n in range(rows)) if rows else "SELECT 1"
    return _typed(text(sql), range(rows), game=True)


def save_move_if_current(
    game: GameRow,
    table: Table,
    seat: int,
    code: str,
    by: str,
    rows: list[dict[str, Any]],
    deadlines: list[dict[str, Any]] | None,
) -> bool:
    """Write a move computed from a cached table (PostgreSQL only), unless the game moved on: the same writes as
    `save_move` plus the move's deadlines (`deadlines`: the rows for the open prompts of a game with people, None
    for one without), as one statement in its own transaction, applied only if the game is still active at the
    seq before the move (`game.seq - 1`) with the roster it was computed for (`GameRow.roster`: no seat changed
    hands meanwhile). Returns whether it was. No lock is taken: a concurrent move waits on the
    row the statement updates, and then finds the seq changed. One round trip instead of four (BEGIN, the lock,
    the write, COMMIT): a quarter less CPU a move, counting PostgreSQL's."""
    changed, params = _move_params(game, table, seat, code, by, rows)
    params.update(before=game.seq - 1, result=Json(game.result), roster=game.roster)
    for n in range(len(rows)):
        params[f"payload{n}"] = Json(params[f"payload{n}"])
    if deadlines is not None:
        params["keep"] = [row["seat"] for row in deadlines]
        for n, row in enumerate(deadlines):
            params.update({f"{column}_d{n}": row[column] for column in _DEADLINE_COLUMNS})
    sql = _current_move_sql(len(changed), len(rows), None if deadlines is None else len(deadlines))
    with autocommit_cursor() as cur:
        applied = cur.execute(sql, params, prepare=True).fetchone()[0] == 1
    if applied:
        table.prompts = {row.seat: (row.prompt_seq, row.prompt_sig) for row in table.seats}
    return applied


_DEADLINE_COLUMNS = ("seat", "seq", "timing", "started_at", "due_at", "next_at")


@cache
def _current_move_sql(seats: int, rows: int, deadlines: int | None) -> str:
    """`save_move_if_current`'s statement: each write a CTE on `g`, the game row's conditional update, so that
    nothing is written if it updated no row; it returns how many it updated. Deadlines as `deadlines.set_for_game`
    leaves them: the seats without a prompt lose theirs, a changed prompt restarts its clock, an unchanged one
    runs on."""
    ctes = [
        "g AS (UPDATE games SET seq = %(seq)s, status = %(status)s, result = %(result)s, board_digest = %(digest)s, "
        "silence = %(silence)s, updated = %(now)s WHERE id = %(id)s AND seq = %(before)s AND status = 'active' "
        "AND roster = %(roster)s RETURNING id)",
        "a AS (INSERT INTO actions (game_id, seq, seat, code, by, created) "
        "SELECT id, %(seq)s, %(seat)s, %(code)s, %(by)s, %(now)s FROM g)",
    ]
    ctes += [
        f"s{n} AS (UPDATE seats SET prompt_seq = %(ps{n})s, prompt_sig = %(sig{n})s "
        f"WHERE game_id = (SELECT id FROM g) AND seat = %(s{n})s)"
        for n in range(seats)
    ]
    if rows:
        casts = {"payload": "::json", "photo": "::bytea"}
        selects = " UNION ALL ".join(
            "SELECT "
            + ", ".join(f"%({c}{n})s{casts.get(c, '')}" for c in _OUTBOX_COLUMNS)
            + ", 'pending', 0, %(now)s FROM g"
            for n in range(rows)
        )
        ctes.append(f"o AS (INSERT INTO outbox ({', '.join(_OUTBOX_COLUMNS)}, status, attempts, created) {selects})")
    if deadlines is not None:
        ctes.append(
            "dd AS (DELETE FROM deadlines WHERE game_id = (SELECT id FROM g) AND NOT (seat = ANY(%(keep)s::int[])))"
        )
    if deadlines:
        selects = " UNION ALL ".join(
            "SELECT id, " + ", ".join(f"%({c}_d{n})s" for c in _DEADLINE_COLUMNS) + ", 0 FROM g"
            for n in range(deadlines)
        )
        ctes.append(
            f"du AS (INSERT INTO deadlines (game_id, {', '.join(_DEADLINE_COLUMNS)}, reminders) {selects} "
            "ON CONFLICT (game_id, seat) DO UPDATE SET seq = excluded.seq, timing = excluded.timing, "
            "started_at = excluded.started_at, due_at = excluded.due_at, next_at = excluded.next_at, reminders = 0 "
            "WHERE (deadlines.seq, deadlines.timing) IS DISTINCT FROM (excluded.seq, excluded.timing))"
        )
    return f"WITH {', '.join(ctes)} SELECT count(*) FROM g"


def _seat_sql(n: int) -> str:
    return f"UPDATE seats SET prompt_seq = :ps{n}, prompt_sig = :sig{n} WHERE game_id = :id AND seat = :s{n}"


def _outbox_values(n: int) -> str:
    return "(" + ", ".join(f":{column}{n}" for column in _OUTBOX_COLUMNS) + ", 'pending', 0, :now)"


def _typed(statement: TextClause, rows: range, game: bool) -> TextClause:
    """The game's result (if `game`) and outbox rows' payloads (JSON) and photos (binary) bound with their types."""
    binds = [bindparam("result", type_=JSON)] if game else []
    binds += [bindparam(f"payload{n}", type_=JSON) for n in rows]
    binds += [bindparam(f"photo{n}", type_=LargeBinary) for n in rows]
    return statement.bindparams(*binds)


def is_claimed(s: Session, platform: str, update_id: str) -> bool:
    """Whether the update was already processed (a cheap early look; `claim_update` decides); one that was leaves
    the inbox (a platform's second delivery of it)."""
    claimed = s.get(ProcessedUpdate, (platform, inbox.update_key(update_id))) is not None
    if claimed:
        inbox.forget(s, platform, update_id)
    return claimed


def claim_update(s: Session, platform: str, update_id: str) -> bool:
    """Record an update as processed in the caller's transaction, and take it out of the inbox; False if it already
    was processed (a duplicate). On PostgreSQL a concurrent claimer waits for the first transaction and then sees
    the conflict. An id longer than the column is kept as its SHA-256 (`inbox.update_key`)."""
    inbox.forget(s, platform, update_id)
    try:
        with s.begin_nested():
            s.add(ProcessedUpdate(platform=platform, update_id=inbox.update_key(update_id)))
    except IntegrityError:
        return False
    return True
