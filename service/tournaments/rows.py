"""A tournament's rows, read and written in the caller's transaction: the tournament (locked while its state
changes), its registrations, rounds, tables and seats, and the pure domain's views of them (entrants, results,
meetings)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from service.store.models import (
    Tournament,
    TournamentPlayer,
    TournamentRound,
    TournamentSeat,
    TournamentTable,
    User,
)
from service.tournaments.course import Entrant
from service.tournaments.scoring import SeatScore
from service.tournaments.standings import Result

OPEN = ("registration", "running")


@dataclass(frozen=True)
class Registered:
    """A registration with the person's name, for texts."""

    entrant: Entrant
    name: str
    platform_id: str


def lock(s: Session, tournament_id: int) -> Tournament | None:
    """The tournament's row, locked until the transaction ends: every change of a tournament's state takes it
    first, so two transitions (a redelivered job, two beat processes) run one after the other and the second finds
    the first's work done (SQLite: its writer lock is held from the transaction's start)."""
    stmt = select(Tournament).where(Tournament.id == tournament_id)
    if s.get_bind().dialect.name == "postgresql":
        stmt = stmt.with_for_update()
    return s.scalar(stmt.execution_options(populate_existing=True))


def in_chat(s: Session, chat_id: int, open_only: bool = True) -> Tournament | None:
    """The chat's newest tournament (an open one only, unless `open_only` is False)."""
    stmt = select(Tournament).where(Tournament.chat_id == chat_id)
    if open_only:
        stmt = stmt.where(Tournament.status.in_(OPEN))
    return s.scalar(stmt.order_by(Tournament.id.desc()).limit(1))


def running(s: Session) -> list[int]:
    return list(s.scalars(select(Tournament.id).where(Tournament.status == "running").order_by(Tournament.id)))


def registered(s: Session, tournament_id: int) -> list[Registered]:
    """Every registration, in the order they came."""
    rows = s.execute(
        select(TournamentPlayer, User)
        .join(User, User.id == TournamentPlayer.user_id)
        .where(TournamentPlayer.tournament_id == tournament_id)
        .order_by(TournamentPlayer.created, TournamentPlayer.user_id)
    )
    return [
        Registered(Entrant(p.user_id, p.first_round, p.withdrawn_after), u.name or u.platform_id, u.platform_id)
        for p, u in rows
    ]


def registration(s: Session, tournament_id: int, user_id: int) -> TournamentPlayer | None:
    return s.get(TournamentPlayer, (tournament_id, user_id))


def current_round(s: Session, tournament: Tournament) -> TournamentRound | None:
    return s.scalar(
        select(TournamentRound).where(
            TournamentRound.tournament_id == tournament.id, TournamentRound.number == tournament.round
        )
    )


def tables_of(s: Session, round_id: int) -> list[TournamentTable]:
    return list(s.scalars(select(TournamentTable).where(TournamentTable.round_id == round_id).order_by("number")))


def seats_of(s: Session, table_id: int) -> list[TournamentSeat]:
    return list(s.scalars(select(TournamentSeat).where(TournamentSeat.table_id == table_id).order_by("seat")))


def seat_names(s: Session, table_id: int) -> list[str]:
    """The names of the people at a table, in seat order."""
    names = s.execute(
        select(User.name, User.platform_id)
        .join(TournamentSeat, TournamentSeat.user_id == User.id)
        .where(TournamentSeat.table_id == table_id)
        .order_by(TournamentSeat.seat)
    )
    return [name or platform_id for name, platform_id in names]


def table_of_game(s: Session, game_id: int) -> TournamentTable | None:
    return s.scalar(select(TournamentTable).where(TournamentTable.game_id == game_id))


def round_of(s: Session, table: TournamentTable) -> TournamentRound:
    return s.get(TournamentRound, table.round_id)


def seatings(s: Session, tournament_id: int) -> list[tuple[int, int, int]]:
    """(round number, table id, player) of every seat of every round so far."""
    rows = s.execute(
        select(TournamentRound.number, TournamentSeat.table_id, TournamentSeat.user_id)
        .join(TournamentTable, TournamentTable.round_id == TournamentRound.id)
        .join(TournamentSeat, TournamentSeat.table_id == TournamentTable.id)
        .where(TournamentRound.tournament_id == tournament_id)
        .order_by(TournamentRound.number, TournamentSeat.table_id, TournamentSeat.seat)
    )
    return [(number, table_id, player) for number, table_id, player in rows]


def results(s: Session, tournament_id: int) -> list[Result]:
    """Every recorded seat's result."""
    rows = s.execute(
        select(TournamentSeat)
        .join(TournamentTable, TournamentTable.id == TournamentSeat.table_id)
        .join(TournamentRound, TournamentRound.id == TournamentTable.round_id)
        .where(TournamentRound.tournament_id == tournament_id, TournamentSeat.points.is_not(None))
    )
    return [Result(seat.table_id, seat.user_id, seat.points, seat.merit) for (seat,) in rows]


def add_round(
    s: Session, tournament: Tournament, number: int, deadline: datetime, tables: Sequence[Sequence[int]]
) -> list[TournamentTable]:
    """Round `number` with its tables (each a list of players in seat order) and seats, and the tournament moved to
    it. Unique per tournament and number: a second transition that got this far would fail on the constraint."""
    tournament.round = number
    row = TournamentRound(tournament_id=tournament.id, number=number, deadline=deadline)
    s.add(row)
    s.flush()
    made = []
    for index, players in enumerate(tables, start=1):
        table = TournamentTable(round_id=row.id, number=index)
        s.add(table)
        s.flush()
        s.add_all(TournamentSeat(table_id=table.id, user_id=p, seat=seat) for seat, p in enumerate(players))
        made.append(table)
    s.flush()
    return made


def record(s: Session, table: TournamentTable, scores: Sequence[SeatScore], outcome: str, at: datetime) -> None:
    """A table's result: each person's side, points and merit."""
    by_player = {score.player: score for score in scores}
    for seat in seats_of(s, table.id):
        score = by_player[seat.user_id]
        seat.side, seat.points, seat.merit = score.side, score.points, score.merit
    table.recorded, table.outcome = at, outcome
