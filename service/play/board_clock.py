"""The beat's pass that keeps the pinned board's clock true ("⏳ 21 h left", `board_post.with_clock`).

The board is one message edited in place, and the outbox collapses edits of one message: a board that changed every
minute would spend the group's edits on a clock. So the board shows a coarse figure (`clock.board_left`: hours,
tens of minutes, minutes only in the last ten) and is edited only when its text changes (`board_post`'s digest).
The pass keeps no state: it renders again only the games whose figure changed since its previous run (a scan
interval ago) and those that moved since then. (A move shows a decision that goes on at its full time: a bot's move
has no database connection to read that decision's deadline row; the pass shows its true time within a scan.)
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import func, select

from service.play import board_post
from service.play.board_now import board_now, clock_due
from service.play.queue import request_delivery
from service.render.clock import board_left
from service.settings import get_settings
from service.store import games as game_rows
from service.store import session_scope
from service.store.models import Chat, Deadline, GameRow


def refresh(now: datetime) -> int:
    """Queue the board edits whose clock shows another figure at `now` and deliver them; returns how many."""
    interval = timedelta(seconds=get_settings().deadline_scan_interval)
    since = now - interval
    with session_scope() as s:
        rows = s.execute(
            select(GameRow.id, GameRow.language, GameRow.updated, func.min(Deadline.due_at))
            .join(Deadline, Deadline.game_id == GameRow.id)
            .where(GameRow.status == "active", GameRow.paused_at.is_(None))
            .group_by(GameRow.id, GameRow.language, GameRow.updated)
        ).all()
    chats = set()
    for game_id, lang, updated, due in rows:
        moved = updated >= since - interval  # two intervals: a move during the previous pass is seen
        if moved or board_left(lang, (due - now).total_seconds()) != board_left(lang, (due - since).total_seconds()):
            chat = _redraw(game_id, now)
            if chat is not None:
                chats.add(chat)
    for platform, chat in sorted(chats):
        request_delivery(platform, chat)
    return len(chats)


def _redraw(game_id: int, now: datetime) -> tuple[str, str] | None:
    """Render the game's board again under its lock with its clock at `now`; its chat if an edit was queued."""
    with session_scope() as s:
        game = game_rows.lock_game(s, game_id)
        if game is None or game.status != "active" or game.paused_at:
            return None
        if clock_due(s, game_id) is None:
            return None
        text, image = board_now(s, game, now)
        chat = s.get(Chat, game.chat_id)
        if not board_post.post(s, game, chat, text, image):
            return None
        return chat.platform, chat.platform_id
