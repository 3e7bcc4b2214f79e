"""Quiet hours of a group: `/set quiet 23-08 Europe/Prague` (`/set quiet off` ends them), by a group admin or the
creator of its open game. Kept as the chat's `quiet` ("23-08 Europe/Prague"), the zone by its IANA name
(`zoneinfo`, so summer time is the zone's own).

Inside them the beat sends no reminder (in the group, nor in a direct chat) and applies no timeout: each waits,
and a deadline that falls inside them falls at their end (`scans.scan` moves the row there). A person may have their
direct-chat reminder come anyway: `/quiet off` in their direct chat (`User.remind_in_quiet`), `/quiet on` again to
have it wait; the group's reminders and the timeout wait all the same.
"""

from __future__ import annotations

from datetime import datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from service.play.queue import request_delivery
from service.render import days as texts
from service.store import games as game_rows
from service.store import outbox, session_scope
from service.store.models import Deadline, User
from service.store.users import chat_for, user_for

MAX_SPEC = 64


def parse(hours: str, zone: str) -> str | None:
    """The stored form of quiet hours "HH-HH" in `zone`, or None if either is not valid."""
    start, _, end = hours.partition("-")
    if not (start.isdigit() and end.isdigit() and len(start) <= 2 and len(end) <= 2):
        return None
    if not (0 <= int(start) <= 23 and 0 <= int(end) <= 23 and start != end):
        return None
    if _zone(zone) is None:
        return None
    spec = f"{int(start):02d}-{int(end):02d} {zone}"
    return spec if len(spec) <= MAX_SPEC else None


def _zone(name: str) -> ZoneInfo | None:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return None


def end_of_quiet(spec: str | None, when: datetime) -> datetime | None:
    """If `when` falls inside the quiet hours `spec`, the moment they end (aware, UTC-comparable); else None."""
    if not spec:
        return None
    hours, _, name = spec.partition(" ")
    zone = _zone(name)
    if zone is None:
        return None
    start, end = (int(part) for part in hours.split("-"))
    local = when.astimezone(zone)
    hour = local.hour
    inside = start <= hour or hour < end if start > end else start <= hour < end
    if not inside:
        return None
    day = local.date() if hour < end else local.date() + timedelta(days=1)
    return datetime.combine(day, time(end), tzinfo=zone)


def run(cmd: dict[str, Any], args: list[str], admin: bool) -> str:
    """`/set quiet <HH-HH> <zone>` or `/set quiet off` in a group."""
    if not cmd.get("is_group"):
        return "group_only"
    if args[:1] == ["off"]:
        spec = None
    elif len(args) == 2 and (spec := parse(args[0], args[1])) is not None:
        pass
    else:
        return "bad_value"
    with session_scope() as s:
        chat = chat_for(s, cmd["platform"], cmd["chat"], True)
        game = game_rows.open_game_in_chat(s, chat)
        me = user_for(s, cmd["platform"], cmd["user"], cmd.get("user_name"))
        if not (admin or (game is not None and game.creator_id == me.id)):
            return "not_creator"
        chat.quiet = spec
        lang = game.language if game is not None else chat.language
        text = texts.t(lang, "days.quiet_set", hours=spec) if spec else texts.t(lang, "days.quiet_off")
        outbox.tell(s, chat, text)
        target = (chat.platform, chat.platform_id)
    request_delivery(*target)
    return "ok"


def personal(cmd: dict[str, Any], args: list[str]) -> str:
    """`/quiet on|off` in a person's direct chat: whether their direct-chat reminders wait for the end of a group's
    quiet hours (on, the default) or come anyway (off)."""
    if cmd.get("is_group"):
        return "quiet_direct_only"
    if args[:1] not in (["on"], ["off"]) or len(args) != 1:
        return "bad_value"
    with session_scope() as s:
        me = user_for(s, cmd["platform"], cmd["user"], cmd.get("user_name"), cmd.get("language"))
        me.remind_in_quiet = args[0] == "off"
        outbox.add(s, cmd["platform"], cmd["chat"], "send", {"text": texts.t(me.language, f"days.quiet_dm_{args[0]}")})
    request_delivery(cmd["platform"], cmd["chat"])
    return "ok"


def reminds_anyway(user: User | None, row: Deadline) -> bool:
    """Whether the deadline's first reminder (the one in the person's direct chat) goes out inside a group's quiet
    hours: the person asked for it (`/quiet off`) and it is still to come."""
    return user is not None and user.remind_in_quiet and row.reminders == 0
