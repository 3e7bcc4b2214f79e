"""A message posted at a silenced table by one of its seated people whom the platform could not restrict (an
administrator, on Telegram): deleted, with a notice at the table (at most one a minute per person)."""

from __future__ import annotations

from service.play.queue import request_delivery
from service.render.i18n import t
from service.sessions import get_sessions
from service.store import outbox, session_scope
from service.store.chats import latest_game

NOTICE_EVERY = 60.0  # seconds between two notices to the same person at the same table


def silenced_key(platform: str, chat: str) -> str:
    """The sessions key (scope "chat") of the people silenced at a table: {"users": [platform ids]}."""
    return f"{platform}:{chat}:silenced"


def is_silenced(platform: str, chat: str, user: str) -> bool:
    """Whether `user` is seated at the table `chat` while Morgan's silence holds there."""
    found = get_sessions().ui.get("chat", silenced_key(platform, chat))
    return bool(found) and user in found.get("users", ())


def breach(platform: str, chat: str, user: str, name: str, message_id: str) -> None:
    """Delete the message; tell the table why."""
    with session_scope() as s:
        game = latest_game(s, platform, chat)
        outbox.add(s, platform, chat, "delete", {"message_id": message_id}, is_group=True)
        if get_sessions().marks.set(f"silence-notice:{platform}:{chat}:{user}", ttl=NOTICE_EVERY):
            text = t(game.language if game else None, "notice.silence_breach", name=name)
            outbox.add(s, platform, chat, "send", {"text": text}, is_group=True)
    request_delivery(platform, chat)
