"""Playing one move: the heart of the `play` task, usable without Celery.

Order inside one transaction: drop a duplicate update, lock the game row, load the state (cache if its seq is
current, else replay the log), check seat ownership and the prompt seq, apply, append to the log, write the
outbox and deadlines. After commit: refresh the cache and hand on delivery and the next bot move.
Every refusal (not seated, not your turn, expired, illegal) is answered and changes nothing.
"""

from __future__ import annotations

import os
import pickle
import random
import time
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from sqlalchemy.orm import Session

from engine import get_game
from engine.bots import RandomBot, heuristic_bot
from engine.core.errors import IllegalAction
from engine.core.events import Event
from service.play import presenting
from service.play.publish import Published, direct_chat_of, publish, seat_name
from service.play.queue import enqueue, handing_on, paced, request_delivery
from service.play.rating import has_people
from service.sessions import get_sessions
from service.settings import get_settings
from service.store import deadlines as deadline_rows
from service.store import games as game_rows
from service.store import outbox, session_scope
from service.store.db import is_postgres
from service.store.models import GameRow, utcnow
from service.store.users import learn_direct_chat, user_for

# Test hook: seconds to sleep after applying a move and before committing (where a SIGKILL must lose nothing).
_PAUSE_ENV = "CAMELOT_TEST_PAUSE_IN_PLAY"


@dataclass
class Outcome:
    status: str  # applied | duplicate | stale | expired | not_seated | not_your_turn | illegal | no_game | …
    chats: set[tuple[str, str]] = field(default_factory=set)
    game: Any = None
    state: Any = None
    published: Any = None
    committed_at: float | None = None  # when the move's transaction committed (time.time()): its round trip's end


@dataclass
class Cached:
    """What the sessions hold for a game, read once, before any database read: its state as of a seq, pickled with
    the game row and table of that seq (`game_rows.snapshot`; None where the move that cached it did not have
    them), and the game's table epoch (`service.store.table_epochs`) as read. Cached states are pickles in our
    own Redis; only the service writes them. Each call unpickles anew: the engine and `publish` change what they
    are given."""

    entry: tuple[int, bytes] | None
    epoch: int

    @classmethod
    def read(cls, game_id: int) -> Cached:
        return cls(*get_sessions().get_state_and_epoch(game_id))

    def state_at(self, seq: int) -> Any | None:
        if self.entry is None or self.entry[0] != seq:
            return None
        return pickle.loads(self.entry[1])[0]

    def table(self) -> tuple[Any, GameRow, game_rows.Table] | None:
        """(state, game row, table) at the cached seq, if cached with a table of the current epoch."""
        if self.entry is None:
            return None
        state, snapshot = pickle.loads(self.entry[1])
        if snapshot is None or snapshot[1] != self.epoch:
            return None
        return state, *game_rows.restore(snapshot[0])


def load_state(s: Session, game: GameRow, cached: Cached | None = None) -> Any:
    """The current state: the cached one when its seq matches the database's, else rebuilt from the log."""
    state = (cached or Cached.read(game.id)).state_at(game.seq)
    if state is not None:
        return state
    return get_game(game.kind).replay(game.config, game.seed, game_rows.action_log(s, game.id))


def play_action(cmd: dict[str, Any]) -> Outcome:
    """A player's tap (`Inbound` as a dict with game_id, prompt_seq, code)."""
    if not (
        _is_count(cmd.get("game_id"))
        and _is_count(cmd.get("prompt_seq"))
        and isinstance(cmd.get("code"), str)
        and cmd["code"]
    ):
        return _refuse_only(cmd, "notice.malformed", "malformed")
    if str(cmd["code"]).startswith("@"):
        return navigate(cmd)
    with session_scope() as s:
        outcome = _play_action_tx(s, cmd)
    if outcome.status == "applied":
        return after_commit(outcome.game, outcome.state, outcome.published, committed_at=time.time())
    _deliver(outcome.chats)
    return outcome


def _is_count(value: Any) -> bool:
    """A non-negative id or seq that fits the database's 32-bit integers (ASCII digits only, if text)."""
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 10:
        value = int(value)
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 2**31


def _play_action_tx(s: Session, cmd: dict[str, Any]) -> Outcome:
    if not game_rows.claim_update(s, cmd["platform"], str(cmd["update_id"])):
        return Outcome("duplicate")
    user = user_for(s, cmd["platform"], cmd["user"], cmd.get("user_name"), cmd.get("language"))
    if not cmd.get("is_group") and user.direct_chat is None:
        learn_direct_chat(s, user, cmd["chat"])
    locked = game_rows.lock_with_table(s, int(cmd["game_id"]))
    game, table = locked if locked is not None else (None, None)
    if table is not None:  # the tapper as this transaction sees them (their direct chat may be new)
        table.users = {seat: user if row.id == user.id else row for seat, row in table.users.items()}
    lang = user.language or (game.language if game else None)
    if game is None or table is None or game.status not in ("active", "finished"):
        return _notice(s, cmd, lang, "notice.no_game", "no_game")
    if game.status == "finished":
        return _notice(s, cmd, lang, "notice.game_over", "game_over")
    mine = next((seat for seat in table.seats if seat.user_id == user.id), None)
    if mine is None:
        return _notice(s, cmd, lang, "notice.not_seated", "not_seated")
    state = load_state(s, game)
    engine_game = get_game(game.kind)
    seq = int(cmd["prompt_seq"])
    prompted = any(p.seat == mine.seat for p in engine_game.pending(state))
    current = prompted and mine.prompt_seq is not None and mine.prompt_seq <= seq <= game.seq
    if not current and not (seq <= game.seq and _standing(engine_game, state, mine.seat, str(cmd["code"]))):
        if seq == game.seq and not prompted:  # a current button, but someone else's decision
            return _notice(s, cmd, lang, "notice.not_your_turn", "not_your_turn")
        return _notice(s, cmd, lang, "notice.expired", "expired")
    try:
        state, events = engine_game.apply_code(state, mine.seat, str(cmd["code"]))
    except IllegalAction as exc:
        return _notice(s, cmd, lang, "notice.illegal", "illegal", rule=exc.rule)
    get_sessions().clear_ui("panel", f"{game.id}:{mine.seat}")
    published = _record(s, game, table, state, events, mine.seat)
    game_rows.save_move(s, game, table, mine.seat, str(cmd["code"]), "user", outbox.take_buffered(s))
    return Outcome("applied", published.chats, game=game, state=state, published=published)


def _standing(engine_game: Any, state: Any, seat: int, code: str) -> bool:
    """Whether `code` is one of the seat's standing actions now (taken whatever is pending, from any of its panels:
    it means the same whenever it is tapped)."""
    try:
        return engine_game.decode(code) in engine_game.standing_actions(state, seat)
    except IllegalAction:
        return False


def play_bot(game_id: int, seat: int, seq: int, by: str = "bot") -> Outcome:
    """A bot seat's move (`by="bot"`, valid only at game seq `seq`) or a timed-out seat's default (`by="timeout"`,
    valid only while the seat's open prompt began at `seq`): a redelivered or overtaken task does nothing.

    On PostgreSQL, with the game's table cached at its seq, the move is computed from the cache and written only if
    the game is still there (`game_rows.save_move_if_current`), without locking; else (nothing cached, or the game
    moved on meanwhile) under the game's row lock, as a person's move is."""
    cached = Cached.read(game_id)
    on_cache = cached.table() if is_postgres() else None
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
    engine_game = get_game(game.kind)
    if not any(p.seat == seat for p in engine_game.pending(state)):
        return Outcome("stale")
    if by == "timeout":
        action = engine_game.timeout_action(state, seat)
    else:
        rng = random.Random(f"{game.seed}:{seq}:{seat}")
        action = _bot(game.kind, seat_row.bot or "random").choose(engine_game, state, seat, rng)
    code = engine_game.encode(action)
    state, events = engine_game.apply(state, seat, action)
    published = _record(s, game, table, state, events, seat, write_deadlines)
    if by == "timeout":
        chat = table.chat
        outbox.tell(s, chat, presenting.t(game.language, "notice.timeout", name=seat_name(seat_row, table.users)))
        published.chats.add((chat.platform, chat.platform_id))
    return _BotMove(state, published, (code, by, outbox.take_buffered(s)))


def navigate(cmd: dict[str, Any]) -> Outcome:
    """ "@kind" / "@" taps: re-render the tapper's panel at that menu level; no move, no log entry."""
    with session_scope() as s:
        outcome = _navigate_tx(s, cmd)
    _deliver(outcome.chats)  # the panel, or the refusal
    return outcome


def _navigate_tx(s: Session, cmd: dict[str, Any]) -> Outcome:
    user = user_for(s, cmd["platform"], cmd["user"], cmd.get("user_name"), cmd.get("language"))
    game = s.get(GameRow, int(cmd["game_id"]))
    if game is None or game.status != "active":
        return _notice(s, cmd, user.language, "notice.no_game", "no_game")
    mine = next((r for r in game_rows.seats_of(s, game.id) if r.user_id == user.id), None)
    if mine is None:
        return _notice(s, cmd, user.language, "notice.not_seated", "not_seated")
    if mine.prompt_seq is None or not (mine.prompt_seq <= int(cmd["prompt_seq"]) <= game.seq):
        return _notice(s, cmd, user.language, "notice.expired", "expired")
    level = str(cmd["code"])[1:] or None
    get_sessions().set_ui("panel", f"{game.id}:{mine.seat}", {"level": level})
    state = load_state(s, game)
    users = game_rows.seat_users(s, game.id)
    p = presenting.panel(
        game.kind,
        state,
        mine.seat,
        game_id=game.id,
        seq=mine.prompt_seq,
        lang=user.language or game.language,
        level=level,
        seat_names={seat: u.name or u.platform_id for seat, u in users.items()},
    )
    dm = (cmd["platform"], direct_chat_of(user))
    payload = {"text": p.text, "buttons": [[[b.label, b.data] for b in row] for row in p.buttons or []]}
    outbox.upsert_if_changed(s, *dm, f"panel:{game.id}:{mine.seat}", payload)
    return Outcome("navigated", {dm})


def _record(
    s: Session,
    game: GameRow,
    table: game_rows.Table,
    state: Any,
    events: list[Event],
    seat: int,
    write_deadlines: bool = True,
) -> Published:
    """Advance the game and queue what the move shows; the caller writes it all with `save_move` (or, with
    `write_deadlines` False, the deadlines too, with `save_move_if_current`)."""
    outbox.buffer(s)
    game.seq += 1
    result = get_game(game.kind).result(state)
    if result is not None:
        game.status = "finished"
        game.result = result
    pause = os.environ.get(_PAUSE_ENV)
    if pause:
        time.sleep(float(pause))
    chat = table.chat
    published = publish(s, game, chat, state, events, table.seats, table.users, seat, write_deadlines)
    if result is not None:
        names = {row.seat: seat_name(row, table.users) for row in table.seats}
        outcome = presenting.outcome(game.kind, result, game.language, names)
        outbox.tell(s, chat, presenting.t(game.language, "notice.game_end", outcome=outcome))
    return published


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
    with handing_on():
        get_sessions().put_game(game.id, game.seq, blob, published.meta)
        _deliver(published.chats)
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
    bots = set(game.options.get("bot_seats", []))
    if not any(p.seat in bots for p in get_game(game.kind).pending(state)):  # a person's turn: not again at this seq
        get_sessions().mark(resume_checked(game.id, game.seq), ttl=7 * 86400)
    schedule_bot(game, state, delay=0.0)


def resume_checked(game_id: int, seq: int) -> str:
    return f"resume-checked:{game_id}:{seq}"


def schedule_bot(game: GameRow, state: Any, delay: float | None = None) -> None:
    """If a bot seat must decide now, enqueue its move (the lowest such seat; the rest follow move by move),
    after about the game's `bot_delay` seconds if set (a pace people in the chat can follow, see `paced`), or
    after `delay`."""
    if game.status != "active":
        return
    bots = game.options.get("bot_seats", [])
    for prompt in get_game(game.kind).pending(state):
        if prompt.seat in bots:
            wait = (paced(game.options.get("bot_delay") or 0.0) if delay is None else delay) or None
            enqueue("play_bot", countdown=wait, game_id=game.id, seat=prompt.seat, seq=game.seq)
            return


def _deliver(chats: set[tuple[str, str]]) -> None:
    for platform, chat in sorted(chats):
        request_delivery(platform, chat)


def _notice(s: Session, cmd: dict[str, Any], lang: str | None, msgid: str, status: str, **kw: Any) -> Outcome:
    """Answer a refused choice where it came from; never in a group. Choices are offered only in direct chats, so
    one from a group is forged or replayed: the group learns nothing of it (the gateway's tap answer, a toast
    only the tapper sees, already said no)."""
    if cmd.get("is_group"):
        s.flush()
        return Outcome(status)
    outbox.enqueue(
        s,
        cmd["platform"],
        cmd["chat"],
        "send",
        {"text": presenting.t(lang, msgid, **kw)},
        is_group=bool(cmd.get("is_group")),
    )
    target = (cmd["platform"], cmd["chat"])
    s.flush()
    return Outcome(status, {target})


def _refuse_only(cmd: dict[str, Any], msgid: str, status: str) -> Outcome:
    with session_scope() as s:
        if not game_rows.claim_update(s, cmd["platform"], str(cmd["update_id"])):
            return Outcome("duplicate")
        out = _notice(s, cmd, cmd.get("language"), msgid, status)
    _deliver(out.chats)
    return out


@cache
def _bot(kind: str, name: str) -> Any:
    if name == "heuristic":
        try:
            return heuristic_bot(kind)
        except (ImportError, KeyError):  # no heuristic bot for this game (yet): play uniformly at random
            pass
    return RandomBot()
