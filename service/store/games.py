"""Games, seats, the action log and processed updates."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from service.store.models import ActionRow, Chat, GameRow, ProcessedUpdate, Seat, User

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


def lock_with_table(s: Session, game_id: int) -> tuple[GameRow, Table] | None:
    """`lock_game` in the same round trip as its table: the game row locked, with its chat, seats and users."""
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
    seats = [seat for _, _, seat, _ in rows if seat is not None]
    users = {seat.seat: user for _, _, seat, user in rows if seat is not None and user is not None}
    return game, Table(chat, seats, users)


def action_log(s: Session, game_id: int) -> list[tuple[int, str]]:
    rows = s.execute(select(ActionRow.seat, ActionRow.code).where(ActionRow.game_id == game_id).order_by(ActionRow.seq))
    return [(seat, code) for seat, code in rows]


def append_action(s: Session, game: GameRow, seat: int, code: str, by: str) -> int:
    """Append to the log and advance the game's seq, in the caller's transaction; returns the new seq."""
    game.seq += 1
    s.add(ActionRow(game_id=game.id, seq=game.seq, seat=seat, code=code, by=by))
    return game.seq


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
