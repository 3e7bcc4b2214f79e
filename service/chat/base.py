"""The one interface every chat platform implements, and the normalized inbound command.

Gateways (Telegram, Matrix, console) turn platform updates into `Inbound` values and hand them to the
backbone; the outbox turns rendered `Outgoing` messages into adapter calls. Neither side knows the rules.
"""

from __future__ import annotations

from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Protocol

# The outbox row an adapter call performs ("outbox:<id>"), set by the outbox around the call. A platform that
# deduplicates requests by a client-chosen id (Matrix transaction ids) derives it from this, so a send repeated
# after a crash (sent, not yet booked as sent) is stored once.
delivering: ContextVar[str | None] = ContextVar("delivering", default=None)


@dataclass(frozen=True, slots=True)
class Button:
    """A choice. `data` is opaque to the platform (Telegram callback data, ≤ 64 bytes; Matrix: numbered line)."""

    label: str
    data: str


Keyboard = list[list[Button]]


@dataclass(frozen=True, slots=True)
class Inbound:
    """One normalized update from a chat: a tapped choice, a command, or a plain text (e.g. a number on Matrix).

    `update_id` is the platform's unique id of the update; the backbone uses `(platform, update_id)` as the
    idempotency key, so a duplicate delivery is dropped.
    """

    platform: str  # "telegram" | "matrix" | "console"
    chat: str  # where it came from (a group/room or a direct chat), platform id as text
    user: str  # platform user id as text
    update_id: str
    kind: str  # "action" (a choice), "command" (/newgame, !join …), "text"
    game_id: int | None = None
    prompt_seq: int | None = None
    code: str | None = None  # action code, for kind == "action"
    command: str | None = None  # e.g. "newgame", for kind == "command"
    args: tuple[str, ...] = ()
    text: str | None = None
    user_name: str | None = None
    language: str | None = None  # the user's client language, if the platform tells it
    is_group: bool = False
    forum: bool = False  # a community of many tables (a Telegram forum supergroup): /newgame opens a table of its own
    chat_title: str | None = None  # a group's name, told in the players' direct chats ("your decision in «…»")


@dataclass(frozen=True, slots=True)
class Outgoing:
    """A rendered message for one chat; `buttons` become an inline keyboard or numbered lines."""

    chat: str
    text: str
    buttons: Keyboard | None = None
    photo: bytes | None = None
    mention_users: tuple[str, ...] = field(default_factory=tuple)


class RateLimited(Exception):
    """The platform answered 429; retry after `retry_after` seconds."""

    def __init__(self, retry_after: float) -> None:
        super().__init__(f"rate limited, retry after {retry_after}s")
        self.retry_after = retry_after


class TransientError(Exception):
    """A network or server error worth retrying with backoff."""


class PermanentError(Exception):
    """The platform refused for good (e.g. the user blocked the bot, message too old to edit)."""


class ChatAdapter(Protocol):
    """Outbound side of a platform. Async, because both PTB and matrix-nio are; message ids are text."""

    platform: str

    async def send_text(self, chat: str, text: str, buttons: Keyboard | None = None) -> str: ...

    async def edit_text(self, chat: str, message_id: str, text: str, buttons: Keyboard | None = None) -> None: ...

    async def send_photo(self, chat: str, photo: bytes, caption: str = "", buttons: Keyboard | None = None) -> str: ...

    async def edit_photo(
        self, chat: str, message_id: str, photo: bytes, caption: str = "", buttons: Keyboard | None = None
    ) -> None: ...

    async def send_document(self, chat: str, data: bytes, filename: str, caption: str = "") -> str:
        """A file attachment (a finished game's whole log as text)."""
        ...

    async def delete(self, chat: str, message_id: str) -> None: ...

    async def pin(self, chat: str, message_id: str) -> bool:
        """Pin if allowed; False when the bot lacks the right (not an error)."""
        ...

    async def set_silence(self, chat: str, on: bool) -> bool:
        """Restrict (on) or restore (off) members' right to send; False when the bot lacks the right."""
        ...

    async def direct_chat(self, user: str) -> str | None:
        """The id of the bot's direct chat with `user`, or None if the bot cannot write to them yet."""
        ...
