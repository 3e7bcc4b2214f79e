"""Reading the ratings: a community's standings, the global leaderboard, a person's ratings and history.

Ratings are a person's across every chat; a community's standings list the people who played rated games in
its chats. Each rating is shown among everyone who plays the kind (`service.ratings.shown`), so reading one
reads the kind's ratings. People with fewer than `PROVISIONAL_GAMES` rated games of the kind are listed after
the others (their rating says little yet) and are left off the global leaderboard.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Select, select
from sqlalchemy.orm import Session

from service.ratings.model import PROVISIONAL_GAMES, Belief
from service.ratings.shown import Population, shown
from service.ratings.store import everyone
from service.store.models import GameRow, Rating, RatingChange, User


@dataclass(frozen=True)
class Standing:
    """A person's rating at one kind as shown: its mean and uncertainty (one standard deviation), and their
    record."""

    user_id: int
    name: str
    rating: float
    spread: float
    games: int
    wins: int

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES


@dataclass(frozen=True)
class Played:
    """One rated game in a person's history: their side, whether it won, and their rating shown before and after."""

    game_id: int
    kind: str
    ended: datetime
    side: str
    won: bool
    before: float
    after: float


def standings(s: Session, chat_ids: int | Collection[int], kind: str, limit: int = 10) -> list[Standing]:
    """The community's standings at `kind`: the people who played rated games in its chats (one chat id, or a
    community's several), those past their provisional games first, each group best first; at most `limit`."""
    chats = [chat_ids] if isinstance(chat_ids, int) else list(chat_ids)
    players = (
        select(RatingChange.user_id)
        .join(GameRow, GameRow.id == RatingChange.game_id)
        .where(GameRow.chat_id.in_(chats), RatingChange.kind == kind)
    )
    table = _read(s, kind, _rated(kind).where(User.id.in_(players)))
    return sorted(table, key=lambda row: (row.provisional, -row.rating, row.name))[:limit]


def leaderboard(s: Session, kind: str, limit: int = 10) -> list[Standing]:
    """The best `limit` people at `kind` across every community, among those past their provisional games."""
    table = _read(s, kind, _rated(kind).where(Rating.games >= PROVISIONAL_GAMES))
    return sorted(table, key=lambda row: (-row.rating, row.user_id))[:limit]


def of_user(s: Session, user_id: int) -> dict[str, Standing]:
    """A person's ratings, by game kind."""
    rows = s.execute(select(User, Rating).join(Rating, Rating.user_id == User.id).where(User.id == user_id)).all()
    return {rating.kind: _standing(user, rating, everyone(s, rating.kind).population()) for user, rating in rows}


def history(s: Session, user_id: int, limit: int = 10, kind: str | None = None) -> list[Played]:
    """A person's last `limit` rated games (of one kind if given), the latest first."""
    query = select(RatingChange).where(RatingChange.user_id == user_id)
    if kind is not None:
        query = query.where(RatingChange.kind == kind)
    rows = s.scalars(query.order_by(RatingChange.created.desc(), RatingChange.game_id.desc()).limit(limit))
    return [Played(r.game_id, r.kind, r.created, r.side, r.won, r.before, r.after) for r in rows]


def _rated(kind: str) -> Select:
    return select(User, Rating).join(Rating, Rating.user_id == User.id).where(Rating.kind == kind)


def _read(s: Session, kind: str, query: Select) -> list[Standing]:
    people = everyone(s, kind).population()
    return [_standing(user, rating, people) for user, rating in s.execute(query)]


def _standing(user: User, rating: Rating, people: Population) -> Standing:
    seen = shown(Belief(rating.mu, rating.sigma), people)
    return Standing(user.id, user.name or user.platform_id, seen.mu, seen.sigma, rating.games, rating.wins)
