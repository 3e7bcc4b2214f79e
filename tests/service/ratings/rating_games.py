"""Finished games written straight into the database, for the rating tests: the rating reads only the game's
kind, variants, result and seats, so no game needs playing."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from sqlalchemy import select

from service.ratings import rate_game
from service.store import session_scope
from service.store.games import lock_game
from service.store.models import GameRow, Rating, RatingChange, RatingSide, Seat, User, utcnow
from service.store.users import chat_for, user_for

START = utcnow() - timedelta(days=30)


def finished(chat: str, people: list[str | None], loyalty: list[str], winner: str, kind: str = "board",
             variants: dict[str, Any] | None = None) -> int:
    """A finished game in `chat` with these seats (platform ids, None for a bot) and result; its id. Games end
    a minute apart, in the order they are written."""
    with session_scope() as s:
        chat_row = chat_for(s, "rec", chat, True)
        count = len(s.scalars(select(GameRow.id)).all())
        game = GameRow(kind=kind, config={**(variants or {}), "players": len(people)}, options={}, seed=1,
                       status="finished", chat_id=chat_row.id, result={"winner": winner, "loyalty": loyalty},
                       updated=START + timedelta(minutes=count))
        s.add(game)
        s.flush()
        for seat, person in enumerate(people):
            if person is None:
                s.add(Seat(game_id=game.id, seat=seat, bot="heuristic"))
            else:
                s.add(Seat(game_id=game.id, seat=seat, user_id=user_for(s, "rec", person, person.title()).id))
        return game.id


def rate(game_id: int) -> bool:
    """Rate the game as the task does (under its row); whether it was rated."""
    with session_scope() as s:
        return rate_game(s, lock_game(s, game_id)) is not None


def user_id(platform_id: str) -> int:
    with session_scope() as s:
        return s.scalar(select(User.id).where(User.platform_id == platform_id))


def snapshot() -> tuple[dict, dict, dict]:
    """Every rating, rating change and side count, as plain values."""
    with session_scope() as s:
        ratings = {(r.user_id, r.kind): (r.mu, r.sigma, r.games, r.wins) for r in s.scalars(select(Rating))}
        changes = {
            (c.game_id, c.user_id): (c.side, c.won, c.expected, c.before, c.after, c.created)
            for c in s.scalars(select(RatingChange))
        }
        sides = {(r.kind, r.players, r.variants): (r.games, r.loyal_wins) for r in s.scalars(select(RatingSide))}
        return ratings, changes, sides
