"""What the fake Bot API server knows: the bot, users, chats with members and permissions, messages, updates.

Plain data guarded by one lock; the server (in its own thread) and the test (acting as users) both change it.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any

ALL_PERMISSIONS = (
    "can_send_messages",
    "can_send_audios",
    "can_send_documents",
    "can_send_photos",
    "can_send_videos",
    "can_send_video_notes",
    "can_send_voice_notes",
    "can_send_polls",
    "can_send_other_messages",
    "can_add_web_page_previews",
    "can_react_to_messages",
    "can_edit_tag",
    "can_change_info",
    "can_invite_users",
    "can_pin_messages",
    "can_manage_topics",
)


class ApiError(Exception):
    """An error answer of the Bot API: HTTP status = error_code."""

    def __init__(
        self, code: int, description: str, retry_after: int | None = None, migrate_to_chat_id: int | None = None
    ) -> None:
        super().__init__(description)
        self.code = code
        self.description = description
        self.retry_after = retry_after
        self.migrate_to_chat_id = migrate_to_chat_id


@dataclass
class User:
    id: int
    first_name: str
    username: str | None = None
    language_code: str | None = "en"
    started: bool = False  # opened the bot's direct chat (a bot cannot write first)
    blocked: bool = False

    def as_api(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "is_bot": False, "first_name": self.first_name}
        if self.username:
            out["username"] = self.username
        if self.language_code:
            out["language_code"] = self.language_code
        return out


@dataclass
class Message:
    message_id: int
    chat_id: int
    from_id: int
    date: int
    text: str | None = None
    parse_mode: str | None = None
    caption: str | None = None
    photo: bytes | None = None
    reply_markup: dict[str, Any] | None = None
    edit_date: int | None = None
    entities: list[dict[str, Any]] | None = None
    migrate_to_chat_id: int | None = None  # service messages of a group's upgrade to a supergroup
    migrate_from_chat_id: int | None = None
    revision: int = 0  # bumped by every send and edit; not in the API (edit_date is whole seconds): for test players


@dataclass
class Chat:
    id: int
    type: str  # "private" | "group" (a basic group, which may be upgraded) | "supergroup"
    title: str | None = None
    user: User | None = None  # the other side of a private chat
    members: dict[int, str] = field(default_factory=dict)  # user id → creator | administrator | member
    permissions: dict[str, bool] = field(default_factory=lambda: dict.fromkeys(ALL_PERMISSIONS, True))
    bot_rights: dict[str, bool] | None = None  # None: the bot is a plain member
    messages: dict[int, Message] = field(default_factory=dict)
    pinned: int | None = None
    migrated_to: int | None = None  # a basic group upgraded to this supergroup: the old id is refused since
    _ids: itertools.count = field(default_factory=lambda: itertools.count(1))

    @property
    def is_group(self) -> bool:
        return self.type in ("group", "supergroup")

    def next_id(self) -> int:
        return next(self._ids)

    def as_api(self) -> dict[str, Any]:
        if self.type == "private" and self.user:
            out: dict[str, Any] = {"id": self.id, "type": "private", "first_name": self.user.first_name}
            if self.user.username:
                out["username"] = self.user.username
            return out
        return {"id": self.id, "type": self.type, "title": self.title or ""}

    def may_send(self, user_id: int) -> bool:
        """Admins always may; members only while the group's permissions let them."""
        status = self.members.get(user_id)
        if status is None:
            return False
        return status in ("creator", "administrator") or self.permissions.get("can_send_messages", False)


@dataclass(frozen=True)
class Record:
    """One thing the bot did to a chat, for tests: send, edit, delete, pin, permissions."""

    action: str
    method: str
    chat_id: int
    message_id: int | None
    text: str  # what a reader sees (entities parsed), caption for photos
    markup: dict[str, Any] | None
    at: float


class RateLimits:
    """Telegram's documented limits: 1 message/s per chat, 20/min per group, 30/s overall; edits count.

    Sliding windows; `slack` forgives clock jitter between the sender's buckets and ours (a fraction of a window).
    """

    def __init__(
        self,
        per_chat: tuple[int, float] = (1, 1.0),
        per_group: tuple[int, float] = (20, 60.0),
        overall: tuple[int, float] = (30, 1.0),
        slack: float = 0.05,
    ) -> None:
        self.per_chat, self.per_group, self.overall, self.slack = per_chat, per_group, overall, slack
        self._chat: dict[int, deque[float]] = {}
        self._all: deque[float] = deque()

    def take(self, chat_id: int, is_group: bool, now: float) -> int | None:
        """Record a send and return None, or return retry_after (whole seconds) without recording."""
        checks = [(self._chat.setdefault(chat_id, deque()), self.per_chat), (self._all, self.overall)]
        if is_group:
            checks.append((self._chat[chat_id], self.per_group))
        wait = 0.0
        for stamps, (limit, window) in checks:
            horizon = now - window * (1 - self.slack)
            recent = [t for t in stamps if t > horizon]
            if len(recent) >= limit:
                wait = max(wait, recent[-limit] - horizon)
        if wait > 0:
            return max(1, int(wait + 0.999))
        for stamps, _ in checks[:2]:
            stamps.append(now)
            while stamps and stamps[0] < now - 120:
                stamps.popleft()
        return None


class World:
    """Everything the fake Telegram holds for one bot."""

    def __init__(self, token: str, bot_username: str, limits: RateLimits) -> None:
        self.lock = threading.RLock()
        self.token = token
        self.bot = {
            "id": int(token.split(":")[0]),
            "is_bot": True,
            "first_name": "Camelot",
            "username": bot_username,
            "can_join_groups": True,
            "can_read_all_group_messages": False,
            "supports_inline_queries": False,
        }
        self.limits = limits
        self.users: dict[int, User] = {}
        self.chats: dict[int, Chat] = {}
        self.updates: list[dict[str, Any]] = []
        self.confirmed = 0  # update ids below this were delivered and confirmed
        self.webhook: dict[str, Any] | None = None
        self.records: list[Record] = []
        self.rejected: list[tuple[str, str]] = []  # (method, description): requests the validation refused
        # 429 answers: (method, chat_id, retry_after, when, the text's start)
        self.throttled: list[tuple[str, int, int, float, str]] = []
        self.callbacks: dict[str, dict[str, Any]] = {}  # callback query id → {"user", "data", "answer", …}
        self.clock_offset = 0.0
        self._update_ids = itertools.count(1)
        self._user_ids = itertools.count(1001)
        self._group_ids = itertools.count(1)
        self._basic_group_ids = itertools.count(4_000_000_001)
        self._callback_ids = itertools.count(1)

    def now(self) -> float:
        return time.time() + self.clock_offset

    def new_user(self, first_name: str, username: str | None, language_code: str | None) -> User:
        user = User(next(self._user_ids), first_name, username, language_code)
        self.users[user.id] = user
        return user

    def new_group(self, title: str, basic: bool = False) -> Chat:
        """A supergroup (id -100…), or a basic group (the kind a new small group is, until it is upgraded)."""
        if basic:
            chat = Chat(-next(self._basic_group_ids), "group", title)
        else:
            chat = Chat(-1_000_000_000_000 - next(self._group_ids), "supergroup", title)
        self.chats[chat.id] = chat
        return chat

    def private_chat(self, user: User) -> Chat:
        chat = self.chats.get(user.id)
        if chat is None:
            chat = self.chats[user.id] = Chat(user.id, "private", user=user)
        return chat

    def push_update(self, kind: str, payload: dict[str, Any]) -> dict[str, Any]:
        update = {"update_id": next(self._update_ids), kind: payload}
        self.updates.append(update)
        return update

    def new_callback_id(self) -> str:
        return f"cq{next(self._callback_ids)}"

    def message_api(self, chat: Chat, msg: Message) -> dict[str, Any]:
        sender = self.bot if msg.from_id == self.bot["id"] else self.users[msg.from_id].as_api()
        sender = {k: v for k, v in sender.items() if k in ("id", "is_bot", "first_name", "username", "language_code")}
        out: dict[str, Any] = {"message_id": msg.message_id, "from": sender, "chat": chat.as_api(), "date": msg.date}
        if msg.text is not None:
            out["text"] = msg.text
        if msg.entities:
            out["entities"] = msg.entities
        if msg.photo is not None:
            out["photo"] = [
                {
                    "file_id": f"photo{chat.id}_{msg.message_id}",
                    "file_unique_id": f"u{msg.message_id}",
                    "width": 800,
                    "height": 600,
                    "file_size": len(msg.photo),
                }
            ]
        if msg.caption:
            out["caption"] = msg.caption
        if msg.reply_markup:
            out["reply_markup"] = msg.reply_markup
        if msg.edit_date:
            out["edit_date"] = msg.edit_date
        if msg.migrate_to_chat_id:
            out["migrate_to_chat_id"] = msg.migrate_to_chat_id
        if msg.migrate_from_chat_id:
            out["migrate_from_chat_id"] = msg.migrate_from_chat_id
        return out
