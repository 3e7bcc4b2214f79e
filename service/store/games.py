"""Games, seats, the action log and processed updates."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from psycopg.types.json import Json
from sqlalchemy import JSON, Select, Text, bindparam, cast, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from service.store import inbox, move_write, sqlalchemy_compat
from service.store.driver import autocommit_cursor, compiled, driver_of, scrubbed
from service.store.models import ActionRow, Chat, GameRow, ProcessedUpdate, Seat, User

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
SNAPSHOT_KEYS = {model: [c.key for c in model.__table__.c if c.key not in ("created", "updated")] for model in _LOADED}
_AT = {  # where each model's columns start in a row of `_table_statement`
    model: sum(len(SNAPSHOT_KEYS[m]) for m in _LOADED[: _LOADED.index(model)]) for model in _LOADED
}


def _made(model: type[Any], row: Any) -> Any:
    """The `model` object in a row of `_table_statement`, or None where the outer join found none (its id NULL)."""
    at = _AT[model]
    if row[at] is None:  # the id, first of the columns
        return None
    return _from_values(model, row[at : at + len(SNAPSHOT_KEYS[model])])


def _from_values(model: type[Any], values: Any) -> Any:
    """A `model` object of these column values (in `SNAPSHOT_KEYS` order), untracked by any session (None: None)."""
    if values is None:
        return None
    return sqlalchemy_compat.loaded(model, SNAPSHOT_KEYS[model], values)


def _values(row: Any) -> tuple[Any, ...] | None:
    """A loaded object's column values in `SNAPSHOT_KEYS` order (None for None)."""
    if row is None:
        return None
    loaded = row.__dict__
    return tuple(loaded[key] if key in loaded else getattr(row, key) for key in SNAPSHOT_KEYS[type(row)])


def snapshot(game: GameRow, table: Table) -> tuple[Any, ...]:
    """The game row and its table as plain column values, cached with the game's state (`restore` makes them
    again): pickled as mapped objects, their instance state cost a tenth of a bot move's CPU."""
    seats = [(_values(seat), _values(table.users.get(seat.seat))) for seat in table.seats]
    return _values(game), _values(table.chat), seats


def restore(values: tuple[Any, ...]) -> tuple[GameRow, Table]:
    """The game row and table of a `snapshot`, as `lock_with_table` would load them."""
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
    columns = [model.__table__.c[key] for model in _LOADED for key in SNAPSHOT_KEYS[model]]
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


def save_move(
    s: Session, game: GameRow, table: Table, seat: int, code: str, by: str, rows: list[dict[str, Any]]
) -> None:
    """Write a move (`move_write`): its log entry (at `game.seq`), the game row's new fields, the seats whose prompt
    changed and the outbox rows, in the caller's transaction; on PostgreSQL as one statement, on the driver.
    `game` and `table` come from `lock_with_table`."""
    changed = _changed_seats(table)
    params = move_write.params(game, changed, {"seat": seat, "code": code, "by": by}, rows)
    driver = driver_of(s)
    if driver is not None:
        _wrap_json(params, len(rows))
        with scrubbed(), driver.cursor() as cur:
            cur.execute(compiled(move_write.statement(len(changed), len(rows), None, False)), params, prepare=True)
    else:
        conn = s.connection()
        for statement in move_write.statements(len(changed), len(rows)):
            conn.execute(statement, params)
    table.prompts = {row.seat: (row.prompt_seq, row.prompt_sig) for row in table.seats}


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
    seq before the move (`game.seq - 1`). Returns whether it was. No lock is taken: a concurrent move waits on the
    row the statement updates, and then finds the seq changed. One round trip instead of four (BEGIN, the lock,
    the write, COMMIT): a quarter less CPU a move, counting PostgreSQL's."""
    changed = _changed_seats(table)
    params = move_write.params(game, changed, {"seat": seat, "code": code, "by": by}, rows, deadlines)
    shape = (len(changed), len(rows), None if deadlines is None else len(deadlines))
    _wrap_json(params, len(rows))
    with autocommit_cursor() as cur:
        applied = cur.execute(compiled(move_write.statement(*shape, True)), params, prepare=True).fetchone()[0] == 1
    if applied:
        table.prompts = {row.seat: (row.prompt_seq, row.prompt_sig) for row in table.seats}
    return applied


def _changed_seats(table: Table) -> list[Seat]:
    """The seats whose prompt changed since `table` was loaded."""
    return [row for row in table.seats if table.prompts.get(row.seat) != (row.prompt_seq, row.prompt_sig)]


def _wrap_json(params: dict[str, Any], rows: int) -> None:
    """The JSON columns' values as psycopg takes them (SQLAlchemy's types do this elsewhere)."""
    for name in move_write.json_params(rows):
        params[name] = Json(params[name])


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
