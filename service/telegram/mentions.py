"""Mentions that notify: a `text_mention` entity over a player's name in the text.

A `text_mention` carries the user's id, so it reaches players without a @username and needs no markup (no HTML to
escape in names). Telegram counts offsets and lengths in UTF-16 code units: a character outside the Basic
Multilingual Plane (most emoji) counts two.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from sqlalchemy import select
from telegram import MessageEntity, User

from service.store import session_scope
from service.store.models import User as UserRow
from service.telegram.inbound import PLATFORM


def utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def mention_entities(text: str, names: Mapping[str, str]) -> list[MessageEntity]:
    """One entity per user (id → name as written in `text`) over the first occurrence of the name not already
    taken. A name that is not in the text gets none: the message still reads right, it only does not notify."""
    taken: list[tuple[int, int]] = []
    found = []
    for user_id, name in names.items():
        if not name or not user_id.isdigit():
            continue
        start = text.find(name)
        while start >= 0 and any(start < end and start + len(name) > begin for begin, end in taken):
            start = text.find(name, start + 1)
        if start < 0:
            continue
        taken.append((start, start + len(name)))
        found.append(
            MessageEntity(
                MessageEntity.TEXT_MENTION,
                offset=utf16_len(text[:start]),
                length=utf16_len(name),
                user=User(int(user_id), name, is_bot=False),
            )
        )
    return sorted(found, key=lambda e: e.offset)


def display_names(user_ids: Sequence[str]) -> dict[str, str]:
    """The names the backbone writes for these users: the stored name, else the platform id (as
    `service.play.move_messages.seat_name` does)."""
    with session_scope() as s:
        rows = s.execute(
            select(UserRow.platform_id, UserRow.name).where(
                UserRow.platform == PLATFORM, UserRow.platform_id.in_(list(user_ids))
            )
        )
        known = {platform_id: name or platform_id for platform_id, name in rows}
    return {user_id: known.get(user_id, user_id) for user_id in user_ids}
