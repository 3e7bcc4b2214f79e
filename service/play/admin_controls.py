"""An admin's levers on a running game (the game's creator, or a group admin as the gateway marks them):

- `/set turn <hours>` or `/set response <minutes>`: the deadlines from now on, and the open ones measured anew from
  when their prompt opened (one already past falls due at the next scan); `/set idle <n>` and `/set away <hours>`:
  the idle and vacation limits;
- `/autopilot <seat>`: the autopilot plays that seat (its owner keeps it and is told; `/autopilot <seat> off` gives
  it back); `/replace <seat>`: its person loses it, and a substitute is asked for;
- `/abort <reason>`: the game ends, with the reason told.

Each is a change under the game's lock (`autopilot.change_seats`), logged (`GameEvent`, the admin as its actor) and
told in the group. Seats are named by their number as shown (1-based).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from service.play import autopilot, lobby, pilots, spectators
from service.play.queue import request_delivery
from service.render import days as texts
from service.settings import get_settings
from service.store import deadlines as deadline_rows
from service.store import session_scope
from service.store.models import Chat, Deadline, GameRow, Seat, User, utcnow
from service.store.users import user_for


def run(verb: str, args: list[str], cmd: dict[str, Any], game_id: int, admin: bool) -> str:
    """`/set`, `/autopilot`, `/replace` or `/abort` on the running game `game_id`; a status word."""
    if verb == "abort":
        return _abort(cmd, game_id, args, admin)

    def edit(s: Session, game: GameRow, seats: list[Seat], chat: Chat) -> str:
        me = user_for(s, cmd["platform"], cmd["user"], cmd.get("user_name"))
        if not (admin or (game.creator_id is not None and game.creator_id == me.id)):
            return "not_creator"
        if verb == "set":
            return _set(s, game, chat, me, args)
        seat = autopilot.seat_numbered(seats, args[0]) if args else None
        if seat is None:
            return "bad_value"
        if verb == "autopilot" and args[1:] == ["off"]:
            if seat.pilot != pilots.FORCED or seat.user_id is None:
                return "not_seated"
            autopilot.take_back(s, game, seat, chat, s.get(User, seat.user_id), me)
            return "ok"
        if seat.user_id is None or seat.pilot is not None:
            return "not_seated"
        reason = pilots.FORCED if verb == "autopilot" else pilots.REPLACED
        autopilot.hand_over(s, game, seat, chat, reason, me)
        return "ok"

    return autopilot.change_seats(game_id, edit)


def _set(s: Session, game: GameRow, chat: Chat, me: User, args: list[str]) -> str:
    if len(args) < 2 or args[0] not in pilots.LIMITS:
        return "bad_value"
    value = pilots.parse_limit(args[0], args[1])
    if value is None:
        return "bad_value"
    key = pilots.LIMITS[args[0]][0]
    game.options = {**game.options, key: value}
    if args[0] in ("turn", "response"):
        _remeasure(s, game, args[0], value)
    autopilot.log(s, game, "set", None, None, me, option=args[0], value=args[1])
    autopilot.tell(s, game, chat, texts.t(game.language, "days.set", name=me.name or me.platform_id, option=args[0],
                                          value=args[1]))
    return "ok"


def _remeasure(s: Session, game: GameRow, timing: str, seconds: float) -> None:
    """The open deadlines of this timing measured anew from when their prompt opened."""
    fractions = tuple(get_settings().reminder_fractions)
    now = utcnow()
    for row in s.scalars(select(Deadline).where(Deadline.game_id == game.id, Deadline.timing == timing)):
        row.due_at = max(now, row.started_at + timedelta(seconds=seconds + row.extended))
        row.next_at = min(row.due_at, max(now, deadline_rows.next_time(row.started_at, row.due_at, row.reminders,
                                                                       fractions)))


def _abort(cmd: dict[str, Any], game_id: int, args: list[str], admin: bool) -> str:
    """The lobby's abort, and the reason told in the group and logged."""
    status = lobby.abort(game_id, cmd["platform"], cmd["user"], is_admin=admin)
    if status != "ok":
        return status
    reason = " ".join(args)[:200]
    with session_scope() as s:
        game = s.get(GameRow, game_id)
        chat = s.get(Chat, game.chat_id)
        me = user_for(s, cmd["platform"], cmd["user"])
        autopilot.log(s, game, "abort", None, None, me, reason=reason)
        msgid = "days.aborted_why" if reason else "days.aborted"
        text = texts.t(game.language, msgid, name=me.name or me.platform_id, reason=reason)
        targets = {(chat.platform, chat.platform_id), *spectators.tell(s, game, chat, text)}
    for target in sorted(targets):
        request_delivery(*target)
    return "ok"
