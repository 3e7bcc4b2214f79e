"""Games, seats, the action log and processed updates."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cache
from typing import Any

from sqlalchemy import JSON, LargeBinary, TextClause, bindparam, select, text
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from service.store.models import ActionRow, Chat, GameRow, ProcessedUpdate, Seat, User, utcnow

OPEN = ("lobby", "active")
UPDATE_ID_MAX = ProcessedUpdate.update_id.type.length


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


def lock_with_table(s: Session, game_id: int, detach: bool = False) -> tuple[GameRow, Table] | None:
    """`lock_game` in the same round trip as its table: the game row locked, with its chat, seats and users.
    `detach`: the game row is not tracked by the session (a move writes it with `save_move`)."""
    stmt = (
        select(GameRow, Chat, Seat, User)
        .outerjoin(Chat, Chat.id == GameRow.chat_id)
        .outerjoin(Seat, Seat.game_id == GameRow.id)
        .outerjoin(User, User.id == Seat.user_id)
        .where(GameRow.id == game_id)
        .order_by(Seat.seat)
    )
    if s.get_bind().dialect.name == "postgresql":
        stmt = stmt.with_for_update(of=GameRow)
    rows = s.execute(stmt.execution_options(populate_existing=True)).all()
    if not rows:
        return None
    game, chat = rows[0][0], rows[0][1]
    if detach:
        s.expunge(game)
    seats = [seat for _, _, seat, _ in rows if seat is not None]
    users = {seat.seat: user for _, _, seat, user in rows if seat is not None and user is not None}
    return game, Table(chat, seats, users)


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


def save_move(s: Session, game: GameRow, seat: int, code: str, by: str, rows: list[dict[str, Any]]) -> None:
    """Write a move: its log entry (at `game.seq`), the game row's new fields and its outbox rows, in the caller's
    transaction. On PostgreSQL one statement (the writes as CTEs): through the ORM's flush the same writes cost twice
    the CPU and two more round trips, on every move. `game` comes detached from `lock_with_table`."""
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
    for n, row in enumerate(rows):
        params.update({f"{column}{n}": row[column] for column in _OUTBOX_COLUMNS})
    if s.get_bind().dialect.name == "postgresql":
        s.execute(_move_statement(len(rows)), params)
        return
    s.execute(_typed(text(_GAME_SQL), range(0), game=True), params)
    s.execute(text(_ACTION_SQL), params)
    for n in range(len(rows)):
        s.execute(_typed(text(_OUTBOX_SQL + _outbox_values(n)), range(n, n + 1), game=False), params)


@cache
def _move_statement(rows: int) -> TextClause:
    """UPDATE games, INSERT actions and INSERT outbox (`rows` rows) as one PostgreSQL statement."""
    sql = f"WITH g AS ({_GAME_SQL}), a AS ({_ACTION_SQL}) "
    sql += _OUTBOX_SQL + ", ".join(_outbox_values(n) for n in range(rows)) if rows else "SELECT 1"
    return _typed(text(sql), range(rows), game=True)


def _outbox_values(n: int) -> str:
    return "(" + ", ".join(f":{column}{n}" for column in _OUTBOX_COLUMNS) + ", 'pending', 0, :now)"


def _typed(statement: TextClause, rows: range, game: bool) -> TextClause:
    """The game's result (if `game`) and outbox rows' payloads (JSON) and photos (binary) bound with their types."""
    binds = [bindparam("result", type_=JSON)] if game else []
    binds += [bindparam(f"payload{n}", type_=JSON) for n in rows]
    binds += [bindparam(f"photo{n}", type_=LargeBinary) for n in rows]
    return statement.bindparams(*binds)


def claim_update(s: Session, platform: str, update_id: str) -> bool:
    """Record an update as processed in the caller's transaction; False if it already was (a duplicate).
    On PostgreSQL a concurrent claimer waits for the first transaction and then sees the conflict. An id longer
    than the column (a Matrix event id may reach 255) is kept as its SHA-256."""
    if len(update_id) > UPDATE_ID_MAX:
        update_id = "sha256:" + hashlib.sha256(update_id.encode()).hexdigest()
    try:
        with s.begin_nested():
            s.add(ProcessedUpdate(platform=platform, update_id=update_id))
    except IntegrityError:
        return False
    return True
