"""What the fake Bot API server knows: the bot, users, chats with members, permissions and topics, messages, updates.

Plain data guarded by one lock; the server (in its own thread) and the test (acting as users) both change it.
"""

from __future__ import annotations

import itertools
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from .limits import RateLimits
from .permissions import ALL_PERMISSIONS, Restriction

CALLBACK_TTL = 15.0  # seconds a callback query can be answered; the Bot API documents no figure (see README)
MEMBER_STATUSES = ("creator", "administrator", "member")


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
    photo_id: str | None = None  # the file_id the photo answers to
    document: tuple[str, bytes] | None = None  # an attached file: its name and content
    reply_markup: dict[str, Any] | None = None
    edit_date: int | None = None
    entities: list[dict[str, Any]] | None = None
    thread_id: int | None = None  # the forum topic it is in; None: the General topic or a chat without topics
    service: dict[str, Any] | None = None  # a service message's fields (forum_topic_created, left_chat_member, …)
    edits: int = 0  # how many times it was edited: the "edited" mark a phone shows
    revision: int = 0  # bumped by every send and edit; not in the API (edit_date is whole seconds): for test players

    def callback_data(self) -> list[str]:
        """The data of its inline buttons that answer with a callback query, in order."""
        rows = (self.reply_markup or {}).get("inline_keyboard", [])
        return [b["callback_data"] for row in rows for b in row if "callback_data" in b]


@dataclass
class Topic:
    """A forum topic; its id is the id of the service message that created it."""

    thread_id: int
    name: str
    icon_color: int
    creator: int
    icon_custom_emoji_id: str | None = None
    closed: bool = False

    def as_api(self) -> dict[str, Any]:
        out: dict[str, Any] = {"message_thread_id": self.thread_id, "name": self.name, "icon_color": self.icon_color}
        if self.icon_custom_emoji_id:
            out["icon_custom_emoji_id"] = self.icon_custom_emoji_id
        return out


@dataclass
class Chat:
    id: int
    type: str  # "private" | "group" (a basic group, which may be upgraded) | "supergroup"
    title: str | None = None
    user: User | None = None  # the other side of a private chat
    members: dict[int, str] = field(default_factory=dict)  # user id → creator | administrator | member
    permissions: dict[str, bool] = field(default_factory=lambda: dict.fromkeys(ALL_PERMISSIONS, True))
    restrictions: dict[int, Restriction] = field(default_factory=dict)  # restrictChatMember, per user
    bot_rights: dict[str, bool] | None = None  # None: the bot is a plain member
    is_forum: bool = False
    topics: dict[int, Topic] = field(default_factory=dict)  # open and closed ones; a deleted one is gone
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
        out = {"id": self.id, "type": self.type, "title": self.title or ""}
        if self.is_forum:
            out["is_forum"] = True
        return out

    def is_admin(self, user_id: int) -> bool:
        return self.members.get(user_id) in ("creator", "administrator")

    def restriction(self, user_id: int, now: float) -> Restriction | None:
        """The user's restriction in force (an expired one is lifted as Telegram does)."""
        found = self.restrictions.get(user_id)
        if found is not None and not found.active(now):
            del self.restrictions[user_id]
            return None
        return found

    def may(self, user_id: int, right: str, now: float) -> bool:
        """A member's right: admins always; others by the group's defaults and their own restriction."""
        if self.is_admin(user_id):
            return True
        own = self.restriction(user_id, now)
        return self.permissions.get(right, False) and (own is None or own.permissions.get(right, False))

    def refusal(self, user_id: int, now: float, thread_id: int | None = None) -> str | None:
        """Why the user's app would not let them send a text here, or None."""
        if self.members.get(user_id) not in MEMBER_STATUSES:
            return "not a member"
        if not self.may(user_id, "can_send_messages", now):
            return "restricted: may not send messages"
        if thread_id is not None:
            topic = self.topics.get(thread_id) if self.is_forum else None
            if topic is None:
                return "no such topic"
            if topic.closed:
                return "the topic is closed"
        return None


@dataclass(frozen=True)
class Record:
    """One thing the bot did to a chat, for tests: send, edit, delete, pin, permissions, restrict, topic."""

    action: str
    method: str
    chat_id: int
    message_id: int | None
    text: str  # what a reader sees (entities parsed), caption for photos
    markup: dict[str, Any] | None
    at: float
    thread_id: int | None = None  # the forum topic of the message


class World:
    """Everything the fake Telegram holds for one bot."""

    def __init__(self, token: str, bot_username: str, limits: RateLimits, first_id: int = 0) -> None:
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
        self.callback_ttl = CALLBACK_TTL  # a setting: tests of expiry make it short
        self.privacy_mode = True  # BotFather's default; an admin bot sees every group message regardless
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
        self.commands: dict[tuple[tuple[Any, ...], str], list[dict[str, str]]] = {}  # (scope, language) → list
        self.files: dict[str, bytes] = {}  # file_id → the photo uploaded under it
        self.clock_offset = 0.0
        self._update_ids = itertools.count(1 + first_id)  # the service keeps update ids a week
        self._user_ids = itertools.count(1001 + first_id)  # first_id: runs that share a database never meet
        self._group_ids = itertools.count(1 + first_id)
        self._basic_group_ids = itertools.count(4_000_000_001)
        self._callback_ids = itertools.count(1 + first_id)
        self._file_ids = itertools.count(1)

    @property
    def bot_id(self) -> int:
        return self.bot["id"]

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

    def store_file(self, data: bytes) -> str:
        file_id = f"AgACAgIAAx{next(self._file_ids):06d}"
        self.files[file_id] = data
        return file_id

    def sees_all_messages(self, chat: Chat) -> bool:
        """Privacy mode shows a bot only commands, mentions and replies in groups, unless it is an admin there."""
        return not chat.is_group or not self.privacy_mode or chat.bot_rights is not None

    def message_api(self, chat: Chat, msg: Message) -> dict[str, Any]:
        sender = self.bot if msg.from_id == self.bot_id else self.users[msg.from_id].as_api()
        sender = {k: v for k, v in sender.items() if k in ("id", "is_bot", "first_name", "username", "language_code")}
        out: dict[str, Any] = {"message_id": msg.message_id}
        if msg.thread_id is not None:
            out.update(message_thread_id=msg.thread_id, is_topic_message=True)
        out.update({"from": sender, "chat": chat.as_api(), "date": msg.date})
        if msg.text is not None:
            out["text"] = msg.text
        if msg.entities:
            out["entities"] = msg.entities
        if msg.photo is not None:
            out["photo"] = [
                {
                    "file_id": msg.photo_id or "",
                    "file_unique_id": f"u{msg.photo_id}",
                    "width": 800,
                    "height": 600,
                    "file_size": len(msg.photo),
                }
            ]
        if msg.document is not None:
            name, data = msg.document
            out["document"] = {"file_id": f"d{msg.chat_id}_{msg.message_id}", "file_unique_id": f"ud{msg.message_id}",
                               "file_name": name, "mime_type": "text/plain", "file_size": len(data)}
        if msg.caption:
            out["caption"] = msg.caption
        if msg.reply_markup:
            out["reply_markup"] = msg.reply_markup
        if msg.edit_date:
            out["edit_date"] = msg.edit_date
        out.update(msg.service or {})
        return out
