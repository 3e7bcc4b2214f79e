"""Ratings: each person's skill at each game kind, from their finished games, rated as teams (the loyal side
against the Traitor's side).

openskill's Plackett-Luce model rates the two sides, the winning side first; everyone on a side moves together,
by their own uncertainty. A game is rated once (`rating_changes` holds what it did) and only when it has two sides
(a Traitor was dealt), a winner (a card game stopped at its turn cap has none) and at least one person. Bots keep no
rating: they count at the model's starting one, so beating them is worth what beating a newcomer is. The rating
shown is openskill's ordinal, mu - 3 sigma: 0 for a newcomer, growing as results and certainty accumulate.
Ratings are the person's across every chat; a chat's standings list the people who played rated games there.
"""

from __future__ import annotations

from dataclasses import dataclass

from openskill.models import PlackettLuce, PlackettLuceRating
from sqlalchemy import select
from sqlalchemy.orm import Session

from service.store.db import insert_for
from service.store.games import seats_of
from service.store.models import GameRow, Rating, RatingChange, User, utcnow

MODEL = PlackettLuce()
SIDES = ("loyal", "evil")  # the engines' `result["winner"]`; a seat is "evil" when its loyalty is "traitor"


@dataclass(frozen=True)
class Change:
    """One person's result in a rated game: their side won or not, the shown rating before and after."""

    user_id: int
    name: str
    won: bool
    before: float
    after: float


@dataclass(frozen=True)
class Standing:
    user_id: int
    name: str
    rating: float
    games: int
    wins: int


def shown(mu: float, sigma: float) -> float:
    """The rating players see (openskill's ordinal)."""
    return MODEL.rating(mu=mu, sigma=sigma).ordinal()


def sides_of(result: dict | None) -> tuple[str, dict[int, str]] | None:
    """(winning side, side of each seat) of a finished game's result, or None if it has no winner or one side."""
    result = result or {}
    winner, loyalty = result.get("winner"), result.get("loyalty") or []
    side = {seat: "evil" if card == "traitor" else "loyal" for seat, card in enumerate(loyalty)}
    if winner not in SIDES or set(side.values()) != set(SIDES):
        return None
    return winner, side


def rate_game(s: Session, game: GameRow) -> list[Change] | None:
    """Rate a finished game, in the caller's transaction; the changes, or None where it is not rated (not
    finished, rated already, no two sides or winner, no person, a person in two seats). The caller holds the game's
    row lock, so two deliveries of the same request do not both rate it; the ratings' rows are locked in user
    order."""
    sides = sides_of(game.result) if game.status == "finished" else None
    if sides is None or s.scalar(select(RatingChange.game_id).where(RatingChange.game_id == game.id).limit(1)):
        return None
    winner, side = sides
    people = {row.seat: row.user_id for row in seats_of(s, game.id) if row.user_id is not None and row.seat in side}
    if not people or len(set(people.values())) < len(people):  # nobody, or one account in two seats (hot seat)
        return None
    ratings = _locked(s, sorted(set(people.values())), game.kind)
    order = [winner, next(x for x in SIDES if x != winner)]
    seats_of_team = [[seat for seat in sorted(side) if side[seat] == team] for team in order]
    teams = [
        [_model_rating(ratings[people[seat]] if seat in people else None) for seat in seats] for seats in seats_of_team
    ]
    rated = MODEL.rate(teams, ranks=[0, 1])
    users = s.execute(select(User.id, User.name, User.platform_id).where(User.id.in_(set(people.values()))))
    names = {user_id: name or platform_id for user_id, name, platform_id in users}
    changes: list[Change] = []
    for team, seats, team_ratings in zip(order, seats_of_team, rated, strict=True):
        for seat, new in zip(seats, team_ratings, strict=True):
            if seat not in people:
                continue
            row = ratings[people[seat]]
            before = shown(row.mu, row.sigma)
            row.mu, row.sigma = new.mu, new.sigma
            row.games += 1
            row.wins += int(team == winner)
            after = shown(new.mu, new.sigma)
            changes.append(Change(row.user_id, names[row.user_id], team == winner, before, after))
            s.add(RatingChange(game_id=game.id, user_id=row.user_id, kind=game.kind, won=team == winner,
                               before=before, after=after))
    return changes


def _model_rating(row: Rating | None) -> PlackettLuceRating:
    """A person's rating in the model, or the starting one (a bot's)."""
    return MODEL.rating() if row is None else MODEL.rating(mu=row.mu, sigma=row.sigma)


def _locked(s: Session, user_ids: list[int], kind: str) -> dict[int, Rating]:
    """The people's ratings for `kind`, created at the model's start where new, locked until the transaction ends
    (on SQLite the writer lock is held already)."""
    start = MODEL.rating()
    new = {"kind": kind, "mu": start.mu, "sigma": start.sigma, "games": 0, "wins": 0, "updated": utcnow()}
    insert = insert_for(s.get_bind().dialect.name, Rating)
    s.execute(insert.values([{**new, "user_id": u} for u in user_ids]).on_conflict_do_nothing())
    rows = s.scalars(
        select(Rating)
        .where(Rating.kind == kind, Rating.user_id.in_(user_ids))
        .order_by(Rating.user_id)
        .with_for_update()
        .execution_options(populate_existing=True)
    )
    return {row.user_id: row for row in rows}


def standings(s: Session, chat_id: int, kind: str, limit: int = 10) -> list[Standing]:
    """The best `limit` ratings at `kind` of the people who played rated games in the chat, best first."""
    players = (
        select(RatingChange.user_id)
        .join(GameRow, GameRow.id == RatingChange.game_id)
        .where(GameRow.chat_id == chat_id, RatingChange.kind == kind)
    )
    rows = s.execute(
        select(User, Rating).join(Rating, Rating.user_id == User.id).where(Rating.kind == kind, User.id.in_(players))
    ).all()
    table = [_standing(user, rating) for user, rating in rows]
    return sorted(table, key=lambda row: (-row.rating, row.name))[:limit]


def of_user(s: Session, user_id: int) -> dict[str, Standing]:
    """A person's ratings, by game kind."""
    rows = s.execute(select(User, Rating).join(Rating, Rating.user_id == User.id).where(User.id == user_id)).all()
    return {rating.kind: _standing(user, rating) for user, rating in rows}


def _standing(user: User, rating: Rating) -> Standing:
    name = user.name or user.platform_id
    return Standing(user.id, name, shown(rating.mu, rating.sigma), rating.games, rating.wins)
