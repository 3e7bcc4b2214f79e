"""A group that became a supergroup: Telegram gives it a new chat id, and the old id refuses everything since.

Two things tell us: the service messages of the upgrade (the gateway's `on_migrate`), and the 400 answer
"group chat was upgraded to a supergroup chat" with the new id (the adapter). Either calls `follow`, whichever
comes first; the second finds nothing left to move.
"""

from __future__ import annotations

from service.play.queue import request_delivery
from service.sessions import Sessions, get_sessions
from service.store import session_scope
from service.store.chats import move_chat
from service.telegram.inbound import PLATFORM


def permissions_key(chat: str) -> str:
    """The sessions key (scope "chat") of a group's own permissions, saved while Morgan's silence holds."""
    return f"{PLATFORM}:{chat}:permissions"


def follow(old: str, new: str, sessions: Sessions | None = None) -> int:
    """Move the chat to its new id: its row (games go on there), its pending outbox rows, the permissions saved
    for the silence. Then ask for the new chat's delivery. Returns how many outbox rows moved."""
    with session_scope() as s:
        moved = move_chat(s, PLATFORM, old, new)
    sessions = sessions or get_sessions()
    saved = sessions.ui.get("chat", permissions_key(old))
    if saved is not None:
        if sessions.ui.get("chat", permissions_key(new)) is None:
            sessions.ui.set("chat", permissions_key(new), saved)
        sessions.ui.clear("chat", permissions_key(old))
    request_delivery(PLATFORM, new)
    return moved
