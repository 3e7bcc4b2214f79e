"""What the end-to-end tests of games that last days (issue 24) read from the database, the same on Telegram and
Matrix: the open deadlines, the pause, the moves with who made them and when, who plays a seat, whose it is and
the private panel it shows now."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select

from service.play import presenting
from service.play.state import load_state
from service.store import games as game_rows
from service.store import session_scope
from service.store.models import ActionRow, Deadline, GameRow, Seat

Move = tuple[int, int, str, datetime]  # seq, seat, by (user, bot, timeout), when


def deadlines(game_id: int) -> dict[int, datetime]:
    """The open deadlines: seat → when it falls due."""
    with session_scope() as s:
        return dict(s.execute(select(Deadline.seat, Deadline.due_at).where(Deadline.game_id == game_id)).all())


def paused_at(game_id: int) -> datetime | None:
    with session_scope() as s:
        return s.get(GameRow, game_id).paused_at


def moves(game_id: int) -> list[Move]:
    with session_scope() as s:
        stmt = select(ActionRow.seq, ActionRow.seat, ActionRow.by, ActionRow.created).where(
            ActionRow.game_id == game_id
        )
        return [(seq, seat, by, when) for seq, seat, by, when in s.execute(stmt.order_by(ActionRow.seq))]


def pilot(game_id: int, number: int) -> str | None:
    """Why the autopilot plays the seat (None: its person does)."""
    with session_scope() as s:
        return s.scalar(select(Seat.pilot).where(Seat.game_id == game_id, Seat.seat == number))


def piloted_after(game_id: int, seq: int, number: int) -> list[tuple[Move, Move]]:
    """Each move of seat `number` after `seq`, with the move before it (when its decision opened, at the latest)."""
    played = moves(game_id)
    pairs = zip(played, played[1:], strict=False)
    return [(before, move) for before, move in pairs if move[0] > seq and move[1] == number]


def played_by_hand(game_id: int, seq: int, number: int) -> bool:
    """Whether the seat's person made a move after `seq`."""
    return any(seat == number and by == "user" for s, seat, by, _ in moves(game_id) if s > seq)


def owner(game_id: int, seat: int) -> str | None:
    """The platform id of the person whose seat it is (None: the autopilot's, after a leave)."""
    with session_scope() as s:
        user = game_rows.seat_users(s, game_id).get(seat)
        return user.platform_id if user is not None else None


def panel_now(game_id: int, seat: int) -> str:
    """The board game seat's private panel (hand, loyalty, what it knows) as the service renders it now."""
    with session_scope() as s:
        game = s.get(GameRow, game_id)
        names = {n: u.name or u.platform_id for n, u in game_rows.seat_users(s, game_id).items()}
        return presenting.panel(
            "board", load_state(s, game), seat, game_id=game_id, seq=game.seq, lang="en", level=None, seat_names=names
        ).text
