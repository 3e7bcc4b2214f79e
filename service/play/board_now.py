"""The game's board as it stands now, read from the database: what the board clock redraws (`board_clock`), what
`/status` posts anew at the bottom of the chat and what a new follower gets (`follow_commands`). One rendering for
the three, so none shows the table otherwise than its pinned board: the seats named as the table sees them (a seat's
🤖 or 🏖 mark), the time left for the current decision or ⏸ while paused."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from service.play import board_post, presenting
from service.play.move_messages import table_names
from service.play.state import load_state
from service.store import games as game_rows
from service.store.models import Deadline, GameRow, utcnow


def clock_due(s: Session, game_id: int) -> datetime | None:
    """When the game's earliest open decision of a person times out (None: no person is asked)."""
    return s.scalar(select(func.min(Deadline.due_at)).where(Deadline.game_id == game_id))


def board_now(s: Session, game: GameRow, now: datetime | None = None) -> tuple[str, bytes | None]:
    """The board's text as the group sees it at `now` (default: now), and its picture if the game shows pictures."""
    seats = game_rows.seats_of(s, game.id)
    names, langs = table_names(game, seats, game_rows.seat_users(s, game.id))
    pres = presenting.presentation(
        game.kind,
        load_state(s, game),
        [],
        game_id=game.id,
        seq=game.seq,
        group_lang=game.language,
        seat_langs=langs,
        seat_names=names,
        people=set(),  # the board only: no panels
        with_image=bool((game.options or {}).get("picture")),
    )
    due = clock_due(s, game.id) if game.status == "active" else None
    seconds = None if due is None else (due - (now or utcnow())).total_seconds()
    return board_post.with_clock(game, pres.board, seconds), pres.board_image
