"""Room events → normalized `Inbound` commands. Pure: no client, no I/O.

Commands start with `!` (`!newgame cards`, `!join` …). A choice is answered with its number: a plain
message in a direct room, a reply to the message that offered it (any room), or a keycap reaction on it.
"""

from __future__ import annotations

from typing import NamedTuple

from service.chat.base import Inbound
from service.matrix import numbered
from service.play.dispatch import ADMIN_FLAG, COMMANDS

PLATFORM = "matrix"
PREFIX = numbered.COMMAND_PREFIX


class Origin(NamedTuple):
    """Who said it where: the parts of every Inbound that come from the event itself."""

    room: str
    user: str
    event_id: str
    user_name: str | None
    is_group: bool
    title: str | None = None  # the room's name


class NumberAnswer(NamedTuple):
    number: int
    menu_event: str | None  # the message answered (reply or reaction), None for a plain number


def parse_command(body: str) -> tuple[str, tuple[str, ...]] | None:
    """`!join` → ("join", ()); `!newgame cards 5` → ("newgame", ("cards", "5")); anything else None."""
    words = body.strip().split()
    if not words or not words[0].startswith(PREFIX):
        return None
    name = words[0][len(PREFIX):].lower()
    return (name, tuple(words[1:])) if name in COMMANDS else None


def reply_target(content: dict) -> str | None:
    relates = content.get("m.relates_to") or {}
    return (relates.get("m.in_reply_to") or {}).get("event_id")


def number_in_message(body: str, content: dict, *, direct: bool) -> NumberAnswer | None:
    """A number typed as an answer: plain in a direct room, or as a reply anywhere."""
    number = numbered.parse_number(body)
    if number is None:
        return None
    target = reply_target(content)
    if target is None and not direct:
        return None  # a bare number in a group is conversation, not a choice
    return NumberAnswer(number, target)


def number_in_reaction(key: str, reacts_to: str) -> NumberAnswer | None:
    number = numbered.reaction_number(key)
    return NumberAnswer(number, reacts_to) if number is not None else None


def command(origin: Origin, name: str, args: tuple[str, ...], *, admin: bool) -> Inbound:
    """A `!command`; a room moderator (power level ≥ 50) is marked with the backbone's admin flag, and only they: the
    flag typed by anyone is dropped."""
    args = tuple(a for a in args if a != ADMIN_FLAG)
    return Inbound(
        PLATFORM, origin.room, origin.user, origin.event_id, "command",
        command=name, args=(*args, ADMIN_FLAG) if admin else args,
        user_name=origin.user_name, is_group=origin.is_group, chat_title=origin.title,
    )


def choice(origin: Origin, data: str) -> Inbound:
    """The chosen button's data as a tap; the backbone tells game choices from lobby taps (and rejects garbage)."""
    return Inbound(
        PLATFORM, origin.room, origin.user, origin.event_id, "tap",
        text=data, user_name=origin.user_name, is_group=origin.is_group,
    )
