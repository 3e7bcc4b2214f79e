"""Cached tables made stale by changes outside a game's moves.

A bot's move may use the game's table (its row, chat, seats and players) cached with its state at the same seq
(`service.play.bot_move`): the move's conditional write checks the seq and status, which every move and an abort change.
A player's name, language or direct chat and the chat's id change without a move, so such a change bumps the
table epoch of the active games it touches, once its transaction has committed; a table cached under an older
epoch is not used. (Bumped before the commit, a move could read the old rows and cache them under the new epoch.)
"""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import event, select
from sqlalchemy.orm import Session

from service.sessions import get_sessions
from service.store.models import GameRow, Seat

_PENDING = "stale_tables"


def stale_for_user(s: Session, user_id: int | None) -> None:
    """The user's active games' tables are stale once this transaction commits."""
    if user_id is not None:
        _mark(s, s.scalars(_active(Seat.user_id == user_id, joined=True)))


def stale_for_chat(s: Session, chat_id: int) -> None:
    """The chat's active games' tables are stale once this transaction commits."""
    _mark(s, s.scalars(_active(GameRow.chat_id == chat_id, joined=False)))


def _active(condition: object, joined: bool) -> object:
    stmt = select(GameRow.id).where(GameRow.status == "active", condition)
    return stmt.join(Seat, Seat.game_id == GameRow.id) if joined else stmt


def _mark(s: Session, game_ids: Iterable[int]) -> None:
    s.info.setdefault(_PENDING, set()).update(game_ids)


@event.listens_for(Session, "after_commit")
def _bump(s: Session) -> None:
    game_ids = s.info.pop(_PENDING, None)
    if game_ids:
        get_sessions().games.bump_table_epochs(sorted(game_ids))


@event.listens_for(Session, "after_rollback")
def _forget(s: Session) -> None:
    s.info.pop(_PENDING, None)
