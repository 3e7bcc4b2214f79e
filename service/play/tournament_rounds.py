"""A tournament's rounds as games (the application): the start, each round's tables opened as games, a game's end
recorded into the tournament, and once a round's last table is recorded its standings posted and the next round
opened, or the podium.

**Durable and idempotent.** Every change takes the tournament's row lock first (`rows.lock`), reads what is done,
and does the rest in that transaction: a round is created with its tables, seats and games at once, and a table's
result with the round's end, its standings and the next round at once. A redelivered job, or two beat processes
at once, find the work done and do nothing; the rounds' unique (tournament, number) is the last guard. What a
transaction opened is handed on after its commit (each game's cached state, first bot move and deliveries).

**A game's end** reaches the tournament through the `tournament_game` job, which the rating task hands on for a
game of a tournament (`service.play.rating.rate`); the beat's scan (`tournament_deadlines.scan`) records a game
whose job was lost, and an aborted game (a void table: ½ point each, `service.tournaments.scoring`).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy.orm import Session

from service import ratings
from service.play import lobby, tournament_options, tournament_places
from service.play.hand_on import after_commit
from service.play.move_messages import Published
from service.play.queue import request_delivery
from service.play.tournament_show import ranked, show, tell
from service.render import standings_image
from service.render import tournaments as texts
from service.store import session_scope
from service.store.models import GameRow, Tournament, TournamentRound, TournamentTable, utcnow
from service.tournaments import course, rows
from service.tournaments.pairing import meetings
from service.tournaments.scoring import score_table

FINISHED = ("finished", "aborted")


@dataclass
class Opened:
    """What a transaction leaves to hand on after its commit: games started, chats with messages queued."""

    games: list[tuple[GameRow, Any, Published]] = field(default_factory=list)
    chats: set[tuple[str, str]] = field(default_factory=set)

    def hand_on(self) -> None:
        for game, state, published in self.games:
            after_commit(game, state, published)
        for platform, chat in sorted(self.chats):
            request_delivery(platform, chat)


def start(tournament_id: int, user_id: int, is_admin: bool) -> str:
    """Close registration and open round 1: "ok", or why not ("no_tournament", "started", "tournament_admin",
    "no_split" when the registered players cannot be seated, "bad_config" when the engine refuses the variants)."""
    opened = Opened()
    with session_scope() as s:
        tournament = rows.lock(s, tournament_id)
        if tournament is None or tournament.status not in ("registration", "running"):
            return "no_tournament"
        if tournament.status != "registration":
            return "started"
        if not (is_admin or tournament.creator_id == user_id):
            return "tournament_admin"
        if not tournament_options.playable(tournament):
            return "bad_config"
        if open_round(s, tournament, 1, utcnow(), opened) is None:
            return "no_split"
        tournament.status = "running"
        opened.chats.add(show(s, tournament))
    opened.hand_on()
    return "ok"


def game_ended(game_id: int) -> str:
    """Record a tournament game that ended (the `tournament_game` job): "recorded", or "not_in_tournament",
    "playing" (not over yet), "done" (recorded already: a redelivery)."""
    opened = Opened()
    with session_scope() as s:
        table = rows.table_of_game(s, game_id)
        if table is None:
            return "not_in_tournament"
        tournament = rows.lock(s, rows.round_of(s, table).tournament_id)
        status = record_if_over(s, tournament, table, utcnow(), opened)
    opened.hand_on()
    return status


def record_if_over(s: Session, tournament: Tournament, table: TournamentTable, now: datetime, opened: Opened) -> str:
    """Under the tournament's lock: record the table if its game is over, and if that ends the round, advance."""
    s.refresh(table)
    if table.recorded is not None:
        return "done"
    game = s.get(GameRow, table.game_id)
    if game.status not in FINISHED:
        return "playing"
    people = {seat.seat: seat.user_id for seat in rows.seats_of(s, table.id)}
    void = game.status == "aborted"
    rate = 0.5 if void else ratings.side_rate(s, game.kind, int(game.config.get("players", 0)), game.config)
    rows.record(s, table, score_table(game.result, people, rate, void), "void" if void else "played", now)
    advance(s, tournament, rows.round_of(s, table), now, opened)
    return "recorded"


def advance(s: Session, tournament: Tournament, round_row: TournamentRound, now: datetime, opened: Opened) -> None:
    """Under the tournament's lock: once every table of its current round is recorded, end the round, post the
    standings, and open the next round or post the podium."""
    if tournament.status != "running" or round_row.number != tournament.round or round_row.finished is not None:
        return
    if any(table.recorded is None for table in rows.tables_of(s, round_row.id)):
        return
    round_row.finished = now
    standing = ranked(s, tournament)
    lang = tournament.language
    text = texts.standings_text(lang, tournament.id, round_row.number, standing)
    picture = standings_image.standings(lang, tournament.id, round_row.number, standing)  # once a round: cheap
    opened.chats.add(tell(s, tournament, text, picture))
    playing = course.active([r.entrant for r in rows.registered(s, tournament.id)], round_row.number + 1)
    met = meetings(_tables(s, tournament.id))
    reason = course.over(tournament_options.format_of(tournament), round_row.number, standing, playing, met)
    if reason is None and open_round(s, tournament, round_row.number + 1, now, opened) is None:
        reason = "too_few"
    if reason is not None:
        tournament.status = "finished"
        podium = standings_image.podium(lang, tournament.id, reason, standing)
        opened.chats.add(tell(s, tournament, texts.podium_text(lang, tournament.id, reason, standing), podium))
    opened.chats.add(show(s, tournament))


def open_round(s: Session, tournament: Tournament, number: int, now: datetime, opened: Opened) -> list[int] | None:
    """Under the tournament's lock: seat round `number` (Swiss or round-robin, from the standings, the meetings so
    far and the seed), create its rows and its tables' games, and post its tables. The games' ids, or None (and
    nothing written) when the players cannot be split into tables of the allowed sizes."""
    registered = rows.registered(s, tournament.id)
    playing = set(course.active([r.entrant for r in registered], number))
    standing = [row for row in ranked(s, tournament) if row.player in playing]
    fmt = tournament_options.format_of(tournament)
    seating = course.seat_round(fmt, number, [row.player for row in standing],
                                {row.player: row.points for row in standing}, meetings(_tables(s, tournament.id)),
                                tournament.seed)
    if seating is None:
        return None
    opts = tournament.options
    deadline = now + timedelta(hours=float(opts["round_hours"]))
    place = tournament_places.place_of(tournament)
    names = {r.entrant.player: r.name for r in registered}
    posted = []
    for table, players in zip(rows.add_round(s, tournament, number, deadline, seating), seating, strict=True):
        chat = place.chat(s, tournament, number, table.number)
        seed = _table_seed(tournament.seed, number, table.number)
        game, state, published = lobby.start_table(
            s, chat, tournament.kind, opts["variants"], players, opts["bots"], seed, tournament.language,
            tournament_options.game_options(tournament),
        )
        table.game_id = game.id
        opened.games.append((game, state, published))
        posted.append((game.id, [names[p] for p in players]))
    text = texts.round_text(tournament.language, tournament.id, number, posted, deadline)
    opened.chats.add(tell(s, tournament, text))
    return [game for game, _ in posted]


def _tables(s: Session, tournament_id: int) -> list[list[int]]:
    """Every table so far as its players (for the meetings)."""
    tables: dict[int, list[int]] = {}
    for _, table_id, player in rows.seatings(s, tournament_id):
        tables.setdefault(table_id, []).append(player)
    return list(tables.values())


def _table_seed(seed: int, number: int, table: int) -> int:
    """A table's game seed, drawn from the tournament's (31 bits: the games' seed column and the engines' range)."""
    digest = hashlib.sha256(f"{seed}:{number}:{table}".encode()).digest()
    return int.from_bytes(digest[:4], "big") & 0x7FFFFFFF
