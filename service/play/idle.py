"""Idle seats escalate: a seat that timed out the game's `idle_limit` times in a row (lobby option "idle", default
`pilots.IDLE_LIMIT`) goes to the autopilot for the rest of the game, and a substitute is asked for, so the game never
waits a full deadline again on a seat that has shown it is gone. Any tap by its owner takes it back
(`person_move`), and their own move starts the count again."""

from __future__ import annotations

from sqlalchemy import update
from sqlalchemy.orm import Session

from service.play import pilots
from service.play.autopilot import hand_over
from service.store import games as game_rows
from service.store import table_epochs
from service.store.models import GameRow, Seat


def count_timeout(s: Session, game: GameRow, table: game_rows.Table, seat: Seat) -> str | None:
    """In a timeout's move, before it is recorded (its messages then show the autopilot's seat): one more timeout
    in a row; at the limit the seat is handed over, and the name to `announce` after the move is returned. The
    seat and game rows of `table` are not tracked by `s` (`games.lock_with_table`): their changes are written
    here."""
    seat.timeouts += 1
    name = None
    if seat.timeouts >= pilots.idle_limit(game.options) and seat.user_id is not None:
        name = hand_over(s, game, seat, table.chat, pilots.IDLE, tell=False)
        game.roster += 1
        game.options = {**game.options, "piloted": sorted({*game.options.get("piloted", ()), seat.seat})}
        s.execute(update(GameRow).where(GameRow.id == game.id).values(options=game.options, roster=game.roster))
        table_epochs.stale_for_chat(s, game.chat_id)
    s.execute(
        update(Seat).where(Seat.id == seat.id).values(timeouts=seat.timeouts, bot=seat.bot, pilot=seat.pilot)
    )
    return name


def reset(s: Session, seat: Seat) -> None:
    """The owner moved: the run of timeouts is broken."""
    if seat.timeouts:
        seat.timeouts = 0
        s.execute(update(Seat).where(Seat.id == seat.id).values(timeouts=0))
