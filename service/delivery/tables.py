"""Opening a table's place before its first message (`service.play.tables`): the adapter creates the topic or room,
then the chat and its pending rows move from the placeholder to the real address.

Idempotent: the address opened is remembered before the move, so a sender that died between the two (or rows that
a cached bot move queued to the placeholder after it moved) open nothing twice; they follow the same way.
"""

from __future__ import annotations

import structlog

from service.chat.base import ChatAdapter, PermanentError, RateLimited, TransientError
from service.delivery.loop import run
from service.play import tables
from service.play.queue import enqueue, request_delivery
from service.sessions import get_sessions
from service.store import session_scope
from service.store.chats import move_chat
from service.store.outbox import shard_of

log = structlog.get_logger(__name__)
RETRY = 5.0  # seconds before a table whose opening failed for now is tried again
KEPT = 30 * 86400.0  # how long a placeholder's real address is remembered


def opened(adapter: ChatAdapter, platform: str, chat: str) -> bool:
    """For a placeholder `chat`: open its place (once) and move its rows there; True when its rows are not to be
    sent as they are (moved, or waiting for a retry). False for any other address."""
    if not tables.is_placeholder(chat):
        return False
    sessions = get_sessions()
    key = f"table:{platform}:{chat}"
    known = sessions.ui.get("chat", key)
    address = known["address"] if known else _open(adapter, platform, chat)
    if address is None:
        enqueue("deliver", countdown=RETRY, platform=platform, shard=shard_of(chat))
        return True
    if not known:
        sessions.ui.set("chat", key, {"address": address}, ttl=KEPT)
    with session_scope() as s:
        moved = move_chat(s, platform, chat, address)
    log.info("table.opened", platform=platform, rows=moved)
    request_delivery(platform, address)
    return True


def _open(adapter: ChatAdapter, platform: str, chat: str) -> str | None:
    """The new place's address; the community's own when the platform refuses for good; None to try again."""
    community = tables.community_of(chat)
    with session_scope() as s:
        title, people = tables.opening(s, platform, chat)
    open_table = getattr(adapter, "open_table", None)
    if open_table is None:
        return community
    try:
        return run(open_table(community, title, people))
    except PermanentError as exc:
        log.warning("table.kept_in_community", platform=platform, error=str(exc)[:200])
        return community
    except (TransientError, RateLimited) as exc:
        log.info("table.open_later", platform=platform, error=str(exc)[:200])
        return None
