"""Vacations: `/away 3d` (or `12h`, or until a date `2026-12-24`) and `/back`, in the person's direct chat.

While a person is away (`User.away_until`) every game they sit in shows "🏖 until Friday" beside their name, no
reminder is sent to them, and a deadline of theirs that falls due is moved on, up to the date they gave, but by no
more than the game's limit in all (lobby option "away", `pilots.away_limit`; kept per deadline in
`Deadline.extended`). A deadline that falls due with the limit spent while they are still away hands their seat to
the autopilot (reason "away") until they come back; `/back` (or a tap of theirs) takes it back. A deadline that
falls due after the vacation ended is a timeout as any.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from service.play import autopilot, pilots
from service.play.move_messages import direct_chat_of
from service.play.queue import request_delivery
from service.render import days as texts
from service.store import outbox, session_scope, table_epochs
from service.store.models import Chat, Deadline, GameRow, Seat, User, utcnow
from service.store.users import user_for

MAX_DAYS = 60
_SPAN = re.compile(r"([0-9]{1,3})([dhw])")
_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_UNIT = {"h": 3600, "d": 86400, "w": 7 * 86400}


def until_of(text: str, now: datetime) -> datetime | None:
    """When a vacation given as `3d`, `12h`, `2w` or a date (`2026-12-24`, to its end) ends; None if it is not one
    of these or lies beyond MAX_DAYS."""
    text = text.strip().lower()
    if m := _SPAN.fullmatch(text):
        until = now + timedelta(seconds=int(m.group(1)) * _UNIT[m.group(2)])
    elif _DATE.fullmatch(text):
        try:
            until = datetime.fromisoformat(text).replace(tzinfo=UTC) + timedelta(days=1)
        except ValueError:
            return None
    else:
        return None
    return until if now < until <= now + timedelta(days=MAX_DAYS) else None


def run(verb: str, args: list[str], cmd: dict[str, Any]) -> str:
    """`/away <when>` or `/back`: a status word; the person is answered in their direct chat."""
    now = utcnow()
    until = until_of(args[0], now) if verb == "away" and args else None
    if verb == "away" and until is None:
        return "bad_value"
    with session_scope() as s:
        me = user_for(s, cmd["platform"], cmd["user"], cmd.get("user_name"), cmd.get("language"))
        me.away_until = until
        table_epochs.stale_for_user(s, me.id)
        games = [game_id for (game_id,) in s.execute(_active_games(me.id))]
        lang, dm = me.language, (cmd["platform"], direct_chat_of(me))
        text = (
            texts.t(lang, "days.away_set", until=texts.until(lang, until, now), games=len(games))
            if until is not None
            else texts.t(lang, "days.back_set", games=len(games))
        )
        outbox.add(s, *dm, "send", {"text": text})
        user_id = me.id
    request_delivery(*dm)
    for game_id in games:
        autopilot.change_seats(game_id, _told(user_id, verb, until))
    return "ok"


def _active_games(user_id: int) -> Any:
    return (
        select(GameRow.id)
        .join(Seat, Seat.game_id == GameRow.id)
        .where(Seat.user_id == user_id, GameRow.status == "active")
        .order_by(GameRow.id)
    )


def _told(user_id: int, verb: str, until: datetime | None) -> autopilot.Edit:
    """The change of one of their games: logged and told; on `/back` their seat is theirs again."""

    def edit(s: Session, game: GameRow, seats: list[Seat], chat: Chat) -> str:
        me = s.get(User, user_id)
        seat = autopilot.seat_of(seats, me)
        if seat is None:
            return "not_seated"
        name = me.name or me.platform_id
        autopilot.log(s, game, verb, seat.seat, me, None, until=until.isoformat() if until else None)
        if verb == "back" and seat.pilot in pilots.RECLAIMABLE:
            autopilot.take_back(s, game, seat, chat, me)
        elif until is not None:
            autopilot.tell(s, game, chat, texts.t(game.language, "days.away_group", name=name, until=texts.until(
                game.language, until, utcnow())))
        return "ok"

    return edit


def at_deadline(s: Session, game: GameRow, row: Deadline, away_until: datetime | None, now: datetime) -> str:
    """What a deadline that fell due means for a seat whose person is away until `away_until`: "extended" (moved
    on, within the game's limit), "autopilot" (the limit is spent and they are still away), or "timeout"."""
    if away_until is None or away_until <= now:
        return "timeout"
    room = pilots.away_limit(game.options) - row.extended
    if room <= 0:
        return "autopilot"
    add = min(room, (away_until - row.due_at).total_seconds())
    row.due_at += timedelta(seconds=add)
    row.extended += add
    row.next_at = row.due_at
    return "extended"
