"""Rating finished games in the database: once each (`rating_changes` holds what a game did, in ratings as shown:
`service.ratings.shown`), the side advantage learned from the rated games before it (`rating_sides`), and every
rating recomputed from the finished games in order (the migration to this model; `recompute`)."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from engine.board.setup import DEFAULTS as BOARD_DEFAULTS
from service.ratings.model import MU, SIGMA, Belief, is_rated, loyal_rate, rate, sides_of
from service.ratings.shown import Tally, shown
from service.store.db import insert_for
from service.store.models import GameRow, Rating, RatingChange, RatingSide, Seat, User, utcnow

# Config keys that are not variants (the table size is its own level; the rest pick seats, order or a rigged
# deal), and each kind's variant defaults: a variant set at its default is the same setting as one left unset.
NOT_VARIANTS = frozenset({"players", "first", "knights", "stack", "variant"})
VARIANT_DEFAULTS: dict[str, dict[str, Any]] = {"board": BOARD_DEFAULTS, "cards": {"expert": False}}


@dataclass(frozen=True)
class Change:
    """One person's result in a rated game: their side won or not, the rating shown before and after."""

    user_id: int
    name: str
    won: bool
    before: float
    after: float


@dataclass(frozen=True)
class _Game:
    """What rating a game reads of it."""

    id: int
    kind: str
    config: dict[str, Any]
    result: dict[str, Any] | None
    ended: datetime
    people: dict[int, int]  # seat -> user id


def variant_key(kind: str, config: dict[str, Any]) -> str:
    """The game's variant set as a stable text: the variants not at their defaults, sorted."""
    defaults = VARIANT_DEFAULTS.get(kind, {})
    chosen = {k: v for k, v in config.items() if k not in NOT_VARIANTS and v != defaults.get(k)}
    return ",".join(f"{k}={json.dumps(v, sort_keys=True)}" for k, v in sorted(chosen.items()))[:255]


def rate_game(s: Session, game: GameRow) -> list[Change] | None:
    """Rate a finished game, in the caller's transaction; the changes, or None where it is not rated (not
    finished, rated already, no two sides or winner, not a person on each side, a person in two seats). The caller
    holds the game's row lock, so two deliveries of the same request do not both rate it; the setting's side row
    is locked next, then the ratings' rows in user order."""
    if game.status != "finished":
        return None
    if s.scalar(select(RatingChange.game_id).where(RatingChange.game_id == game.id).limit(1)) is not None:
        return None
    seated = select(Seat.seat, Seat.user_id).where(Seat.game_id == game.id, Seat.user_id.is_not(None))
    people = {seat: user_id for seat, user_id in s.execute(seated)}
    played = _Game(game.id, game.kind, game.config or {}, game.result, game.updated, people)
    return _rate(s, played, everyone(s, game.kind))


def everyone(s: Session, kind: str) -> Tally:
    """What everyone's ratings at `kind` say of how far people differ (what a rating shown is weighed against)."""
    rows = s.execute(select(Rating.mu, Rating.sigma).where(Rating.kind == kind))
    return Tally(Belief(mu, sigma) for mu, sigma in rows)


def side_rate(s: Session, kind: str, players: int, config: dict[str, Any]) -> float:
    """The loyal side's learned win rate in a game's setting (kind, player count, variant set), read without
    changing anything: what a tournament's merit weighs a result against (`service.tournaments.scoring`)."""
    key = {"kind": kind, "players": players, "variants": variant_key(kind, config)}
    cell = s.scalars(select(RatingSide).filter_by(**key)).one_or_none()
    return loyal_rate(_levels(s, cell or RatingSide(**key, games=0, loyal_wins=0)))


def recompute(s: Session) -> int:
    """Forget every rating and rate the finished games again, in the order they ended (with the side advantage
    learned as it would have been); how many were rated. For a change of the model: run by the migration that
    brings it in."""
    for table in (RatingChange, Rating, RatingSide):
        s.execute(delete(table))
    games = s.execute(
        select(GameRow.id, GameRow.kind, GameRow.config, GameRow.result, GameRow.updated)
        .where(GameRow.status == "finished")
        .order_by(GameRow.updated, GameRow.id)
    ).all()
    people: dict[int, dict[int, int]] = {}
    for game_id, seat, user_id in s.execute(
        select(Seat.game_id, Seat.seat, Seat.user_id).join(GameRow, GameRow.id == Seat.game_id)
        .where(GameRow.status == "finished", Seat.user_id.is_not(None))
    ):
        people.setdefault(game_id, {})[seat] = user_id
    rated = 0
    tallies: dict[str, Tally] = {}
    for game_id, kind, config, result, ended in games:
        game = _Game(game_id, kind, config or {}, result, ended, people.get(game_id, {}))
        rated += _rate(s, game, tallies.setdefault(kind, Tally())) is not None
        s.flush()
    return rated


def _rate(s: Session, game: _Game, tally: Tally) -> list[Change] | None:
    """Rate the game; `tally` is everyone's at its kind, and is kept up to date with the people's new beliefs."""
    sides = sides_of(game.result)
    if sides is None:
        return None
    winner, side = sides
    seats = [game.people.get(seat) for seat in range(len(side))]
    if not is_rated(side, seats):
        return None
    cell = _side_row(s, game.kind, len(side), variant_key(game.kind, game.config))
    side_rate = loyal_rate(_levels(s, cell))
    ratings = _locked(s, sorted({p for p in seats if p is not None}), game.kind)
    teams = {team: [seat for seat in range(len(side)) if side[seat] == team] for team in ("loyal", "evil")}

    def beliefs(team: str) -> list[Belief | None]:
        return [None if seats[i] is None else _belief(ratings[seats[i]]) for i in teams[team]]

    outcome = rate(beliefs("loyal"), beliefs("evil"), winner == "loyal", side_rate)
    cell.games += 1
    cell.loyal_wins += int(winner == "loyal")
    names = _names(s, ratings)
    before = tally.population()
    moved: list[tuple[str, Rating, Belief, Belief]] = []  # (side, row, belief before, after)
    for team, new in (("loyal", outcome.loyal), ("evil", outcome.evil)):
        for seat, belief in zip(teams[team], new, strict=True):
            if seats[seat] is not None and belief is not None:
                row, old = ratings[seats[seat]], _belief(ratings[seats[seat]])
                moved.append((team, row, old, belief))
                tally.swap(old, belief)
    after = tally.population()
    changes: list[Change] = []
    for team, row, old, belief in moved:
        expected = outcome.expected if team == "loyal" else 1 - outcome.expected
        was, now = shown(old, before).mu, shown(belief, after).mu
        row.mu, row.sigma = belief.mu, belief.sigma
        row.games += 1
        row.wins += int(team == winner)
        changes.append(Change(row.user_id, names[row.user_id], team == winner, was, now))
        s.add(RatingChange(game_id=game.id, user_id=row.user_id, kind=game.kind, side=team, won=team == winner,
                           expected=expected, before=was, after=now, created=game.ended))
    return changes


def _belief(row: Rating) -> Belief:
    return Belief(row.mu, row.sigma)


def _names(s: Session, ratings: dict[int, Rating]) -> dict[int, str]:
    users = s.execute(select(User.id, User.name, User.platform_id).where(User.id.in_(ratings)))
    return {user_id: name or platform_id for user_id, name, platform_id in users}


def _side_row(s: Session, kind: str, players: int, variants: str) -> RatingSide:
    """The setting's side counts, created where new and locked until the transaction ends."""
    insert = insert_for(s.get_bind().dialect.name, RatingSide)
    key = {"kind": kind, "players": players, "variants": variants}
    s.execute(insert.values(**key, games=0, loyal_wins=0).on_conflict_do_nothing())
    return s.scalars(
        select(RatingSide).filter_by(**key).with_for_update().execution_options(populate_existing=True)
    ).one()


def _levels(s: Session, cell: RatingSide) -> list[tuple[int, int]]:
    """(games, loyal wins) of the kind at other player counts, of this player count with other variants, and of
    this setting (`model.loyal_rate`'s disjoint groups)."""
    counts = {
        players: (int(games), int(wins))
        for players, games, wins in s.execute(
            select(RatingSide.players, func.sum(RatingSide.games), func.sum(RatingSide.loyal_wins))
            .where(RatingSide.kind == cell.kind)
            .group_by(RatingSide.players)
        )
    }
    here = counts.pop(cell.players, (0, 0))
    elsewhere = (sum(g for g, _ in counts.values()), sum(w for _, w in counts.values()))
    return [elsewhere, (here[0] - cell.games, here[1] - cell.loyal_wins), (cell.games, cell.loyal_wins)]


def _locked(s: Session, user_ids: Iterable[int], kind: str) -> dict[int, Rating]:
    """The people's ratings for `kind`, created at the model's start where new, locked until the transaction ends
    (on SQLite the writer lock is held already)."""
    user_ids = list(user_ids)
    new = {"kind": kind, "mu": MU, "sigma": SIGMA, "games": 0, "wins": 0, "updated": utcnow()}
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
