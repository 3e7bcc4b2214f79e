"""A chat that changes its platform id (Telegram: a group upgraded to a supergroup) and everything that follows it."""

from __future__ import annotations

from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session

from service.store import table_epochs
from service.store.models import Chat, GameRow, OutboxRow, Seat, SentMessage, User
from service.store.outbox import shard_of


def move_chat(s: Session, platform: str, old: str, new: str) -> int:
    """Point the chat at its new id; returns how many pending outbox rows moved there.

    Games keep their chat row, so they go on in the new chat. If the new id has a row already (a command there was
    seen before the move), the old row's games join it and the old row goes. Messages edited in place are sent
    anew (their ids belonged to the old chat), so their records go. Moving twice is harmless."""
    row = s.scalar(select(Chat).where(Chat.platform == platform, Chat.platform_id == old))
    if row is not None:
        table_epochs.stale_for_chat(s, row.id)
        there = s.scalar(select(Chat).where(Chat.platform == platform, Chat.platform_id == new))
        if there is None:
            row.platform_id = new
        else:
            s.execute(update(GameRow).where(GameRow.chat_id == row.id).values(chat_id=there.id))
            there.language = there.language or row.language
            s.delete(row)
    s.execute(delete(SentMessage).where(SentMessage.platform == platform, SentMessage.chat == old))
    moved = s.execute(
        update(OutboxRow)
        .where(OutboxRow.platform == platform, OutboxRow.chat == old, OutboxRow.status == "pending")
        .values(chat=new, shard=shard_of(new))
    )
    return moved.rowcount


def latest_game(s: Session, platform: str, address: str) -> GameRow | None:
    """The newest game (or lobby) played at a chat address: a table's game."""
    return s.scalar(
        select(GameRow)
        .join(Chat, GameRow.chat_id == Chat.id)
        .where(Chat.platform == platform, Chat.platform_id == address)
        .order_by(GameRow.id.desc())
    )


def seated_people(s: Session, game_id: int) -> list[str]:
    """The platform ids of the people (not bots) seated at a game, in seat order."""
    return list(
        s.scalars(
            select(User.platform_id)
            .join(Seat, Seat.user_id == User.id)
            .where(Seat.game_id == game_id, Seat.bot.is_(None))
            .order_by(Seat.seat)
        )
    )
