"""A bot's move, or a timed-out seat's default: the heart of the `play_bot` job, usable without Celery."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from functools import cache
from typing import Any

from sqlalchemy.orm import Session

from engine import get_game
from engine.bots import RandomBot, heuristic_bot
from service.play import asking, autopilot, idle, no_idle, presenting, spectators
from service.play.hand_on import after_commit
from service.play.move_messages import Published, direct_chat_of, record_move, seat_name
from service.play.pilots import AUTOPILOT, IDLE
from service.play.state import Cached, Outcome, load_state
from service.settings import get_settings
from service.store import deadlines as deadline_rows
from service.store import games as game_rows
from service.store import outbox, session_scope
from service.store.db import is_postgres
from service.store.models import GameRow, utcnow


def play_bot(game_id: int, seat: int, seq: int, by: str = "bot") -> Outcome:
    """A bot seat's move (`by="bot"`, valid only at game seq `seq`) or a timed-out seat's default (`by="timeout"`,
    valid only while the seat's open prompt began at `seq`): a redelivered or overtaken task does nothing.

    On PostgreSQL, with the game's table cached at its seq, the move is computed from the cache and written only if
    the game is still there (`game_rows.save_move_if_current`), without locking; else (nothing cached, or the game
    moved on meanwhile) under the game's row lock, as a person's move is."""
    cached = Cached.read(game_id)
    on_cache = cached.table() if is_postgres() and by == "bot" else None  # a timeout counts, under the lock
    if on_cache is not None:
        state, game, table = on_cache
        outcome = _bot_move(Session(), game, table, state, seat, seq, by)
        if isinstance(outcome, Outcome):
            if by == "bot" and game.seq >= seq:  # the game is at (or past) the move's seq: the database agrees
                return outcome
        elif game_rows.save_move_if_current(game, table, seat, *outcome.written, outcome.deadlines()):
            return after_commit(game, outcome.state, outcome.published, committed_at=time.time(), table=(table, cached))
    with session_scope() as s:
        locked = game_rows.lock_with_table(s, game_id)
        if locked is None or locked[0].status != "active":
            return Outcome("stale")
        game, table = locked
        outcome = _bot_move(s, game, table, load_state(s, game, cached), seat, seq, by, write_deadlines=True)
        if isinstance(outcome, Outcome):
            return outcome
        game_rows.save_move(s, game, table, seat, *outcome.written)
    return after_commit(game, outcome.state, outcome.published, committed_at=time.time(), table=(table, cached))


@dataclass
class _BotMove:
    """A bot's (or timeout's) move applied and rendered, to be written: its code, who made it, its outbox rows."""

    state: Any
    published: Published
    written: tuple[str, str, list[dict[str, Any]]]

    def deadlines(self) -> list[dict[str, Any]] | None:
        if self.published.prompts is None:
            return None
        fractions = tuple(get_settings().reminder_fractions)
        return deadline_rows.rows_for(self.published.prompts, self.published.durations, fractions, utcnow())


def _bot_move(
    s: Session,
    game: GameRow,
    table: game_rows.Table,
    state: Any,
    seat: int,
    seq: int,
    by: str,
    write_deadlines: bool = False,
) -> _BotMove | Outcome:
    """Decide and apply the seat's move on `state` and render it (outbox rows buffered in `s`), or say why not."""
    seat_row = table.seats[seat]
    if game.status != "active" or (seat_row.prompt_seq if by == "timeout" else game.seq) != seq:
        return Outcome("stale")
    if by == "bot" and seat_row.bot is None:
        return Outcome("stale")  # its owner took the seat back from the autopilot
    if by == "timeout" and (game.paused_at is not None or seat_row.pilot is not None):
        return Outcome("stale")  # paused meanwhile (its clocks are frozen), or the autopilot's already
    engine_game = get_game(game.kind)
    prompt = next((p for p in engine_game.pending(state) if p.seat == seat), None)
    if prompt is None:
        return Outcome("stale")
    # a secret-keeping window's short deadline passes by design: not a sign the person is gone
    counted = by == "timeout" and no_idle.timing(game.kind, prompt) != no_idle.WINDOW
    if by == "timeout" or seat_row.bot == AUTOPILOT:
        action = engine_game.timeout_action(state, seat)
    else:
        rng = random.Random(f"{game.seed}:{seq}:{seat}")
        action = _bot(game.kind, seat_row.bot or "random").choose(engine_game, state, seat, rng)
    code = engine_game.encode(action)
    before = state
    state, events = engine_game.apply(state, seat, action)
    name = seat_name(seat_row, table.users)
    # the person is told what was played for them, in their own chat: first, before an idle seat's offer to take it back
    told = _tell_timeout(s, game, table, seat, before, action) if counted and seat in table.users else None
    idle_name = idle.count_timeout(s, game, table, seat_row) if counted else None  # before its messages are written
    published = record_move(s, game, table, state, events, seat, write_deadlines)
    if counted:  # a window's pass is no lapse: nobody is told of it
        chat = table.chat
        published.chats |= spectators.tell(s, game, chat, presenting.t(game.language, "notice.timeout", name=name))
        if idle_name is not None:
            published.chats |= autopilot.announce(s, game, seat, chat, IDLE, idle_name)
        published.chats.add((chat.platform, chat.platform_id))
        if told is not None:
            published.chats.add(told)
    return _BotMove(state, published, (code, by, outbox.take_buffered(s)))


def _tell_timeout(
    s: Session, game: GameRow, table: game_rows.Table, seat: int, before: Any, action: Any
) -> tuple[str, str]:
    """Tell the person whose time ran out which choice was played for them (`before`: the state it was chosen in,
    their own view of it), in their direct chat; returns that chat."""
    user = table.users[seat]
    lang = table.seats[seat].language or user.language or game.language
    names = {row.seat: seat_name(row, table.users) for row in table.seats}
    choice = presenting.action_label(game.kind, before, seat, action, lang, names)
    dm = (table.chat.platform, direct_chat_of(user))
    outbox.add(
        s, *dm, "send", {"text": presenting.t(lang, "ask.timeout", where=asking.where(game, lang), choice=choice)}
    )
    return dm


@cache
def _bot(kind: str, name: str) -> Any:
    if name == "heuristic":
        try:
            return heuristic_bot(kind)
        except (ImportError, KeyError):  # no heuristic bot for this game (yet): play uniformly at random
            pass
    return RandomBot()
