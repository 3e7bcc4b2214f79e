"""A table in a forum supergroup is one topic: its address is `<chat id>/<message_thread_id>`.

The rest of the service treats that address as a chat of its own (its games, its outbox rows, its board); only
this gateway knows that it is a topic, and passes `message_thread_id` with everything it sends there. A plain
group (or the General topic) is its chat id alone.
"""

from __future__ import annotations

SEPARATOR = "/"


def address(chat_id: int | str, thread_id: int | None) -> str:
    """The address of a chat, or of one topic of it."""
    return f"{chat_id}{SEPARATOR}{thread_id}" if thread_id else str(chat_id)


def split(chat: str) -> tuple[int, int | None]:
    """(chat id, thread id or None) of an address."""
    group, _, thread = chat.partition(SEPARATOR)
    return int(group), int(thread) if thread else None


def group_of(chat: str) -> str:
    """The chat that holds the address (itself when it is no topic): permissions and members are the chat's."""
    return chat.partition(SEPARATOR)[0]
