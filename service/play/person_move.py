"""A person's move: the heart of the `play` job, usable without Celery.

Order inside one transaction: drop a duplicate update, lock the game row, load the state (cache if its seq is
current, else replay the log), check seat ownership and the prompt seq, apply, append to the log, write the
outbox and deadlines. After commit: refresh the cache and hand on delivery and the next bot move (`hand_on`).
Every refusal (not seated, not your turn, expired, illegal) is answered and changes nothing.
"""

from __future__ import annotations

import time
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from engine import get_game
from engine.core.errors import IllegalAction
from service.play import asking, autopilot, idle, pilots, presenting
from service.play.hand_on import after_commit, request_deliveries
from service.play.move_messages import direct_chat_of, record_move
from service.play.state import Outcome, load_state
from service.sessions import get_sessions
from service.store import games as game_rows
from service.store import inbox as inbox_rows
from service.store import outbox, session_scope
from service.store.models import Deadline, GameRow, utcnow
from service.store.users import learn_direct_chat, user_for

LEAVE_CODE = "leave"  # the board engine's B-LEAVE action, accepted from any seat but offered on no button


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
    try:
        with session_scope() as s:
            outcome = _play_action_tx(s, cmd)
    except _Reclaim:  # rolled back, the claim too: the seat is taken back first, then the tap is played as any
        autopilot.reclaim(int(cmd["game_id"]), cmd["platform"], cmd["user"])
        with session_scope() as s:
            outcome = _play_action_tx(s, cmd, reclaim=False)
    if outcome.status == "applied":
        return after_commit(outcome.game, outcome.state, outcome.published, committed_at=time.time())
    request_deliveries(outcome.chats)
    return outcome


def _is_count(value: Any) -> bool:
    """A non-negative id or seq that fits the database's 32-bit integers (ASCII digits only, if text)."""
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 10:
        value = int(value)
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 2**31


class _Reclaim(Exception):
    """The tapper's seat is the autopilot's and theirs to take back (`pilots.RECLAIMABLE`)."""


def _play_action_tx(s: Session, cmd: dict[str, Any], reclaim: bool = True) -> Outcome:
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
        if user.platform_id in (game.options or {}).get("former", ()):  # they left, or were replaced
            return _notice(s, cmd, lang, "notice.seat_not_yours", "not_yours")
        return _notice(s, cmd, lang, "notice.not_seated", "not_seated")
    if reclaim and mine.pilot in pilots.RECLAIMABLE:
        raise _Reclaim
    if str(cmd["code"]) == LEAVE_CODE:  # never offered: leaving is `/leave` (`days_commands`), not a button
        return _notice(s, cmd, lang, "notice.malformed", "malformed")
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
    get_sessions().ui.clear("panel", f"{game.id}:{mine.seat}")
    idle.reset(s, mine)
    published = record_move(s, game, table, state, events, mine.seat, chosen=str(cmd["code"]))
    game_rows.save_move(s, game, table, mine.seat, str(cmd["code"]), "user", outbox.take_buffered(s))
    return Outcome("applied", published.chats, game=game, state=state, published=published)


def leave_dying(cmd: dict[str, Any], game_id: int, number: int, user_id: int) -> str:
    """The board game's tabletop rule (lobby option `leaving die`): the confirmed `/leave` of seat `number` is the
    engine's B-LEAVE action, a move of that seat like any other (in the log, narrated, the next decision asked),
    and the knight dies at once. The confirmation named the seat and the person (`user_id`): it does nothing in
    another's hands, nor once the seat is no longer theirs or its knight is dead. A status word."""
    with session_scope() as s:
        me = user_for(s, cmd["platform"], cmd["user"], cmd.get("user_name"), cmd.get("language"))
        if me.id != user_id:
            return "forged"
        locked = game_rows.lock_with_table(s, game_id)
        game, table = locked if locked is not None else (None, None)
        if game is None or table is None or game.status != "active":
            return "no_game"
        mine = next((seat for seat in table.seats if seat.seat == number and seat.user_id == me.id), None)
        if mine is None:
            return "not_seated"
        state = load_state(s, game)
        try:
            state, events = get_game(game.kind).apply_code(state, mine.seat, LEAVE_CODE)
        except IllegalAction:  # already dead
            return "not_seated"
        get_sessions().ui.clear("panel", f"{game.id}:{mine.seat}")
        published = record_move(s, game, table, state, events, mine.seat)
        game_rows.save_move(s, game, table, mine.seat, LEAVE_CODE, "user", outbox.take_buffered(s))
    after_commit(game, state, published, committed_at=time.time())
    return "ok"


def _standing(engine_game: Any, state: Any, seat: int, code: str) -> bool:
    """Whether `code` is one of the seat's standing actions now (taken whatever is pending, from any of its panels:
    it means the same whenever it is tapped)."""
    try:
        return engine_game.decode(code) in engine_game.standing_actions(state, seat)
    except IllegalAction:
        return False


def navigate(cmd: dict[str, Any]) -> Outcome:
    """ "@kind" / "@" taps: re-render the tapper's panel at that menu level; no move, no log entry."""
    with session_scope() as s:
        outcome = _navigate_tx(s, cmd)
    request_deliveries(outcome.chats)  # the panel, or the refusal
    return outcome


def _navigate_tx(s: Session, cmd: dict[str, Any]) -> Outcome:
    inbox_rows.forget(s, cmd["platform"], str(cmd["update_id"]))  # answered (no claim: a repeat only re-renders)
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
    get_sessions().ui.set("panel", f"{game.id}:{mine.seat}", {"level": level})
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
    due = s.scalar(select(Deadline.due_at).where(Deadline.game_id == game.id, Deadline.seat == mine.seat))
    left = (due - utcnow()).total_seconds() if due is not None else None
    asking.ask(s, dm, game, mine.seat, mine.prompt_seq, p, user.language or game.language, left, {})
    return Outcome("navigated", {dm})


def _notice(s: Session, cmd: dict[str, Any], lang: str | None, msgid: str, status: str, **kw: Any) -> Outcome:
    """Answer a refused choice where it came from; never in a group. Choices are offered only in direct chats, so
    one from a group is forged or replayed: the group learns nothing of it (the gateway's tap answer, a toast
    only the tapper sees, already said no)."""
    if cmd.get("is_group"):
        s.flush()
        return Outcome(status)
    outbox.add(
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
    request_deliveries(out.chats)
    return out
