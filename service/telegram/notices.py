"""The one notice the gateway itself queues: "open our direct chat", with a deep-link button, for a player who
joined by typing /join in the group instead of tapping Join (so the bot may not write to them yet).

It goes through the backbone's outbox like every other message, so the shared rate limits hold.
"""

from __future__ import annotations

from sqlalchemy import select

from service.play.queue import enqueue
from service.render import i18n
from service.sessions import get_sessions
from service.store import outbox, session_scope
from service.store.models import User
from service.telegram.adapter import PLATFORM, user_key

BUTTON = "telegram.open_direct_chat"
BUTTON_DEFAULT = "Open the direct chat"


def direct_chat_open(user: str) -> bool:
    """Has the user ever written to the bot privately (the gateway saw it, or the database knows the chat)?"""
    seen = get_sessions().ui.get("user", user_key(user))
    if seen and seen.get("dm"):
        return True
    with session_scope() as s:
        row = s.scalar(select(User).where(User.platform == PLATFORM, User.platform_id == user))
        return row is not None and row.direct_chat is not None


def ask_to_open_direct_chat(group: str, user: str, name: str, lang: str | None, bot_username: str) -> None:
    """Queue the group notice with a button that opens the bot's direct chat (`/start` there)."""
    label = i18n.t(lang, BUTTON)
    payload = {
        "text": i18n.t(lang, "notice.open_direct_chat", name=name),
        "buttons": [[[BUTTON_DEFAULT if label == BUTTON else label, f"https://t.me/{bot_username}?start=hello"]]],
    }
    with session_scope() as s:
        outbox.add(s, PLATFORM, group, "send", payload, is_group=True)
    enqueue("deliver", platform=PLATFORM, chat=group)
