"""A round's deadline, and the beat's recovery of game ends the tournament did not hear of.

**The autopilot.** At a round's deadline (`round_hours` after it opened) every table still running is handed to
the autopilot: each person's seat there gets the heuristic bot that fills empty seats (`Seat.bot`), the table is
told, and the `tournament_autopilot` job plays the game to its end at once through the same bot move as any
(`bot_move.play_bot`), so the board and the panels follow as in any game, and the end is rated and recorded as
any. Every person's seat is handed over, not only those who have not acted: the round is over for everyone, and a
person still playing would hold up the next round. The heuristic bot rather than the timeout default: the default
is the safest answer to one prompt (pass, draw, keep), not a way to play a game to its end; played by it alone, a
game drifts for many more moves and its result says little. A person may still tap meanwhile (a move is valid
only at its seq, so the bot and the person never both move). No adjudication is needed: both games always end (the
card game at its turn cap at the latest). An autopilot run that stops (a worker killed) is handed on again once the
game has stood still for `AUTOPILOT_RETRY` seconds.

**Recovery.** The beat's pass (`scan`) also records a finished game whose `tournament_game` job was lost (after
`MISSED_AFTER` seconds, so that the job's normal path comes first) and an aborted one at once (a void table).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy.orm import Session

from engine import get_game
from service.play import spectators
from service.play.bot_move import play_bot
from service.play.queue import enqueue
from service.play.state import load_state
from service.play.tournament_rounds import Opened, record_if_over
from service.render import tournaments as texts
from service.store import games as game_rows
from service.store import session_scope, table_epochs
from service.store.models import Chat, GameRow, Tournament, TournamentRound, TournamentTable, utcnow
from service.tournaments import rows

AUTOPILOT = "heuristic"
AUTOPILOT_RETRY = 60.0
MISSED_AFTER = 60.0
MAX_MOVES = 5000  # one autopilot run's moves at most: games end long before (a board game takes about 150)


def scan(now: datetime | None = None) -> dict[str, int]:
    """One pass over the running tournaments: record ends that were missed, and hand the tables still running at
    their round's deadline to the autopilot. Returns how many tables were recorded and handed on."""
    now = now or utcnow()
    counts = {"recorded": 0, "autopilot": 0}
    with session_scope() as s:
        running = rows.running(s)
    for tournament_id in running:
        opened, pilots = Opened(), []
        with session_scope() as s:
            tournament = rows.lock(s, tournament_id)
            if tournament is None or tournament.status != "running":
                continue
            round_row = rows.current_round(s, tournament)
            for table in rows.tables_of(s, round_row.id):
                game = s.get(GameRow, table.game_id)
                if table.recorded is not None or game is None:
                    continue
                missed = game.status == "finished" and game.updated <= now - timedelta(seconds=MISSED_AFTER)
                if game.status == "aborted" or missed:
                    counts["recorded"] += record_if_over(s, tournament, table, now, opened) == "recorded"
                elif game.status == "active" and round_row.deadline <= now:
                    idle = game.updated <= now - timedelta(seconds=AUTOPILOT_RETRY)
                    if _hand_over(s, tournament, round_row, table, game, now) or idle:
                        pilots.append(game.id)
        opened.hand_on()
        for game_id in pilots:
            enqueue("tournament_autopilot", game_id=game_id)
        counts["autopilot"] += len(pilots)
    return counts


def _hand_over(
    s: Session, tournament: Tournament, round_row: TournamentRound, table: TournamentTable, game: GameRow,
    now: datetime,
) -> bool:
    """Give every person's seat at the table to the autopilot and tell the table; False if it was done already."""
    seats = [seat for seat in game_rows.seats_of(s, game.id) if seat.user_id is not None and seat.bot is None]
    if not seats:
        return False
    for seat in seats:
        seat.bot = AUTOPILOT
    round_row.autopilot = round_row.autopilot or now
    table_epochs.stale_for_chat(s, game.chat_id)  # a bot move on a cached table would not see the new bots
    chat = s.get(Chat, game.chat_id)
    # its followers' copy goes out with the autopilot's first move (its copies of the board ask for their delivery)
    spectators.tell(s, game, chat, texts.autopilot_text(game.language, round_row.number, rows.seat_names(s, table.id)))
    return True


def autopilot(game_id: int) -> str:
    """Play a handed-over game to its end (the `tournament_autopilot` job), seat by seat: "over", "not_handed_over"
    (a person's prompt that is not the autopilot's: nothing to do), or "unfinished" after `MAX_MOVES`."""
    for _ in range(MAX_MOVES):
        with session_scope() as s:
            game = s.get(GameRow, game_id)
            if game is None or game.status != "active":
                return "over"
            state = load_state(s, game)
            bots = {seat.seat for seat in game_rows.seats_of(s, game_id) if seat.bot is not None}
        piloted = [prompt.seat for prompt in get_game(game.kind).pending(state) if prompt.seat in bots]
        if not piloted:
            return "not_handed_over"
        play_bot(game_id, piloted[0], game.seq, by="bot")
    return "unfinished"
