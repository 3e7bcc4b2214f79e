"""What a move hands on once it is committed: the cached state, the delivery requests, the next bot move and, at a
game's end, its rating, in one Redis round trip (`handing_on`); and the beat's recovery of a bot move that was lost.
"""

from __future__ import annotations

import pickle
from typing import Any

from engine import get_game
from service.observability import metrics
from service.play.move_messages import Published
from service.play.pilots import moving_seats
from service.play.queue import enqueue, handing_on, paced, request_delivery
from service.play.rating import has_people
from service.play.state import Cached, Outcome, load_state
from service.sessions import get_sessions
from service.store import games as game_rows
from service.store import session_scope
from service.store.models import GameRow


def after_commit(
    game: GameRow,
    state: Any,
    published: Published,
    bot_delay: float | None = None,
    committed_at: float | None = None,
    table: tuple[game_rows.Table, Cached] | None = None,
) -> Outcome:
    """Cache the state, ask for delivery and hand on the next bot move (or, once a game with people is over, its
    rating): one Redis round trip (`handing_on`).
    `committed_at`: when the move committed, kept in the outcome for `service.play.metrics`. `table`: the game's table
    as the move wrote it and the cache read before the move's database reads, whose epoch the table is cached
    under (`Cached.table`)."""
    snapshot = None if table is None else (game_rows.snapshot(game, table[0]), table[1].epoch)
    blob = pickle.dumps((state, snapshot), protocol=pickle.HIGHEST_PROTOCOL)
    metrics.game_moved(game)
    with handing_on():
        get_sessions().games.put(game.id, game.seq, blob, published.meta)
        request_deliveries(published.chats)
        schedule_bot(game, state, bot_delay)
        if game.status == "finished" and has_people(game.options):
            enqueue("rate_game", game_id=game.id)
    return Outcome("applied", published.chats, committed_at=committed_at)


def resume_bots(game_id: int) -> None:
    """Hand on a bot's move again (the beat's recovery when a scheduled one was lost, e.g. Redis flushed): a bot
    whose move is still due gets it enqueued now; a duplicate is harmless, a bot move is valid only at its seq."""
    with session_scope() as s:
        game = s.get(GameRow, game_id)
        if game is None or game.status != "active":
            return
        state = load_state(s, game)
    bots = moving_seats(game.options)
    if not any(p.seat in bots for p in get_game(game.kind).pending(state)):  # a person's turn: not again at this seq
        get_sessions().marks.set(resume_checked(game.id, game.seq), ttl=7 * 86400)
    schedule_bot(game, state, delay=0.0)


def resume_checked(game_id: int, seq: int) -> str:
    return f"resume-checked:{game_id}:{seq}"


def schedule_bot(game: GameRow, state: Any, delay: float | None = None) -> None:
    """If a bot seat (or the autopilot's) must decide now, enqueue its move (the lowest such seat; the rest follow
    move by move), after about the game's `bot_delay` seconds if set (a pace people in the chat can follow, see
    `paced`), or after `delay`."""
    if game.status != "active":
        return
    bots = moving_seats(game.options)
    for prompt in get_game(game.kind).pending(state):
        if prompt.seat in bots:
            wait = (paced(game.options.get("bot_delay") or 0.0) if delay is None else delay) or None
            enqueue("play_bot", countdown=wait, game_id=game.id, seat=prompt.seat, seq=game.seq)
            return


def request_deliveries(chats: set[tuple[str, str]]) -> None:
    """Ask for each chat's delivery (in a fixed order)."""
    for platform, chat in sorted(chats):
        request_delivery(platform, chat)
