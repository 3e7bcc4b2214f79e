"""Outbound Telegram: `service.chat.base.ChatAdapter` over python-telegram-bot's `Bot`.

The outbox calls these methods; Telegram's answers become the backbone's three failure kinds: 429 →
`RateLimited(retry_after)`, network trouble → `TransientError`, a refusal for good (blocked, chat gone, message too
old) → `PermanentError`. A group upgraded to a supergroup (a new chat id) is followed: `ChatMoved`, see
`migration`. Retrying an edit or delete that already happened is not an error ("message is not modified",
"message to delete not found"), so a redelivered outbox row is harmless.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import warnings
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from datetime import timedelta
from typing import Any, Concatenate, ParamSpec, TypeVar

from telegram import Bot, ChatPermissions, InlineKeyboardButton, InlineKeyboardMarkup, InputFile, InputMediaPhoto
from telegram.error import BadRequest, ChatMigrated, Forbidden, InvalidToken, NetworkError, RetryAfter, TelegramError
from telegram.warnings import PTBDeprecationWarning

from service.chat.base import Button, Keyboard, PermanentError, RateLimited, TransientError
from service.render import i18n
from service.sessions import Sessions, get_sessions
from service.settings import get_settings
from service.telegram import table_silence
from service.telegram.inbound import join_link, lobby_of
from service.telegram.mentions import display_names, mention_entities
from service.telegram.migration import follow, permissions_key
from service.telegram.topics import address, split

PLATFORM = "telegram"
# Records that would carry secrets are kept out whatever the process's level: httpx and httpcore name each request's
# URL, which holds the bot token (httpx at INFO, a Celery worker's level); PTB logs each call's parameters, the
# texts of direct messages with hands and loyalties (DEBUG).
QUIET_LOGGERS = {"httpx": logging.WARNING, "httpcore": logging.WARNING, "telegram": logging.INFO}
for _name, _level in QUIET_LOGGERS.items():
    logging.getLogger(_name).setLevel(_level)
CAPTION_LIMIT = 1024
TEXT_LIMIT = 4096
_SEND_RIGHTS = (
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
)
_OPEN_DEFAULT = {**dict.fromkeys(_SEND_RIGHTS, True), "can_invite_users": True, "can_react_to_messages": True}
NO_RIGHTS_NOTICE = "notice.silence_no_rights"
NO_RIGHTS_DEFAULT = (
    "I cannot enforce Morgan's silence in this group: an admin should make me an administrator with the right to "
    "ban users (restrict members). The game goes on; please keep the silence yourselves until it is lifted."
)
_ALREADY_DONE = ("message is not modified", "message to delete not found", "chat_not_modified")
_NO_RIGHTS = ("not enough rights", "chat_admin_required", "have no rights", "need administrator rights")
T = TypeVar("T")
P = ParamSpec("P")


class ChatMoved(RateLimited):
    """The group became a supergroup with id `new_chat`, and its pending rows moved there (`migration.follow`).
    To the outbox it is "not now, not here": it reloads this chat's rows and finds none left; the new chat's
    delivery sends them, this one too, and records the new message ids there."""

    def __init__(self, new_chat: str) -> None:
        super().__init__(0.0)
        self.new_chat = new_chat


def keyboard_markup(buttons: Keyboard | None, bot_username: str) -> InlineKeyboardMarkup | None:
    """Inline keyboard from our buttons. A lobby's Join becomes a deep link into the bot's direct chat (a bot may
    not write first, so every player opens it once); an https:// link stays a link."""
    if not buttons:
        return None

    def button(b: Button) -> InlineKeyboardButton:
        if b.data.startswith("https://"):
            return InlineKeyboardButton(b.label, url=b.data)
        tap = lobby_of(b.data)
        if tap is not None and tap.verb == "join":
            return InlineKeyboardButton(b.label, url=join_link(bot_username, tap.lobby_id))
        return InlineKeyboardButton(b.label, callback_data=b.data)

    return InlineKeyboardMarkup([[button(b) for b in row] for row in buttons])


def _retry_after(exc: RetryAfter) -> float:
    """Seconds to wait, whether PTB gives them as int or (PTB_TIMEDELTA, future default) as timedelta."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PTBDeprecationWarning)
        value = exc.retry_after
    return value.total_seconds() if isinstance(value, timedelta) else float(value)


def user_key(user: str) -> str:
    """The sessions key under which the gateway notes that a user opened the bot's direct chat."""
    return f"{PLATFORM}:{user}"


@asynccontextmanager
async def translated_errors() -> AsyncIterator[None]:
    """Telegram's errors as the backbone's: RateLimited, TransientError, PermanentError."""
    try:
        yield
    except RetryAfter as exc:
        raise RateLimited(_retry_after(exc)) from exc
    except ChatMigrated as exc:
        raise ChatMoved(str(exc.new_chat_id)) from exc
    except (Forbidden, InvalidToken) as exc:
        raise PermanentError(str(exc)) from exc
    except BadRequest as exc:  # a subclass of NetworkError: test it first
        raise PermanentError(str(exc)) from exc
    except (NetworkError, TelegramError) as exc:
        raise TransientError(str(exc)) from exc


def _already_done(exc: PermanentError) -> bool:
    return any(marker in str(exc).lower() for marker in _ALREADY_DONE)


@asynccontextmanager
async def idempotent() -> AsyncIterator[None]:
    """`translated_errors`, where "already so" (not modified, already deleted) counts as done: a redelivered
    outbox row is harmless."""
    try:
        async with translated_errors():
            yield
    except PermanentError as exc:
        if not _already_done(exc):
            raise


def _no_rights(exc: PermanentError) -> bool:
    return any(marker in str(exc).lower() for marker in _NO_RIGHTS)


def following_upgrades(
    method: Callable[Concatenate[TelegramAdapter, str, P], Awaitable[T]],
) -> Callable[Concatenate[TelegramAdapter, str, P], Awaitable[T]]:
    """For a method whose first argument is the chat: when Telegram says the group was upgraded, move the chat to
    its new id before the outbox hears of it (`ChatMoved`)."""

    @functools.wraps(method)
    async def call(self: TelegramAdapter, chat: str, *args: P.args, **kwargs: P.kwargs) -> T:
        try:
            return await method(self, chat, *args, **kwargs)
        except ChatMoved as exc:
            await asyncio.to_thread(follow, chat, exc.new_chat, self.sessions)
            raise

    return call


class TelegramAdapter:
    """One bot token; a PTB `Bot` per event loop (its HTTP client belongs to the loop that opened it)."""

    platform = PLATFORM
    pins_board = True  # the outbox pins each game's board message in the group (when the bot may)
    takes_mentions = True  # the outbox passes a row's `mention_users` to send_text

    def __init__(self, token: str | None = None, base_url: str | None = None, sessions: Sessions | None = None) -> None:
        settings = get_settings()
        token = token or settings.telegram_token
        if not token:
            raise PermanentError("TELEGRAM_TOKEN is not set")
        self.token = token
        self.base_url = base_url or settings.telegram_base_url
        self._sessions = sessions
        self._bots: dict[asyncio.AbstractEventLoop, Bot] = {}

    @property
    def sessions(self) -> Sessions:
        return self._sessions or get_sessions()

    async def bot(self) -> Bot:
        loop = asyncio.get_running_loop()
        bot = self._bots.get(loop)
        if bot is None:
            for old in [o for o in self._bots if o.is_closed()]:
                del self._bots[old]
            kwargs: dict[str, Any] = {"base_url": self.base_url} if self.base_url else {}
            bot = Bot(self.token, **kwargs)
            async with translated_errors():
                await bot.initialize()
            self._bots[loop] = bot
        return bot

    async def close(self) -> None:
        bot = self._bots.pop(asyncio.get_running_loop(), None)
        if bot is not None:
            await bot.shutdown()

    # --- messages -------------------------------------------------------------------------------------------
    @following_upgrades
    async def send_text(
        self, chat: str, text: str, buttons: Keyboard | None = None, mentions: Sequence[str] = ()
    ) -> str:
        """`mentions`: user ids whose names in the text become mentions that notify them."""
        bot = await self.bot()
        text = _text(text)
        entities = mention_entities(text, await asyncio.to_thread(display_names, mentions)) if mentions else None
        group, thread = split(chat)
        async with translated_errors():
            msg = await bot.send_message(
                group,
                text,
                message_thread_id=thread,
                entities=entities or None,
                reply_markup=keyboard_markup(buttons, bot.username),
            )
        return str(msg.message_id)

    @following_upgrades
    async def edit_text(self, chat: str, message_id: str, text: str, buttons: Keyboard | None = None) -> None:
        bot = await self.bot()
        async with idempotent():
            await bot.edit_message_text(
                _text(text),
                chat_id=split(chat)[0],
                message_id=int(message_id),
                reply_markup=keyboard_markup(buttons, bot.username),
            )

    @following_upgrades
    async def send_photo(self, chat: str, photo: bytes, caption: str = "", buttons: Keyboard | None = None) -> str:
        bot = await self.bot()
        async with translated_errors():
            group, thread = split(chat)
            msg = await bot.send_photo(
                group,
                photo,
                message_thread_id=thread,
                caption=_caption(caption),
                reply_markup=keyboard_markup(buttons, bot.username),
            )
        return str(msg.message_id)

    @following_upgrades
    async def send_document(self, chat: str, data: bytes, filename: str, caption: str = "") -> str:
        bot = await self.bot()
        async with translated_errors():
            group, thread = split(chat)
            msg = await bot.send_document(
                group, InputFile(data, filename=filename), message_thread_id=thread, caption=_caption(caption)
            )
        return str(msg.message_id)

    @following_upgrades
    async def edit_photo(
        self, chat: str, message_id: str, photo: bytes, caption: str = "", buttons: Keyboard | None = None
    ) -> None:
        bot = await self.bot()
        async with idempotent():
            await bot.edit_message_media(
                InputMediaPhoto(photo, caption=_caption(caption)),
                chat_id=split(chat)[0],
                message_id=int(message_id),
                reply_markup=keyboard_markup(buttons, bot.username),
            )

    @following_upgrades
    async def delete(self, chat: str, message_id: str) -> None:
        bot = await self.bot()
        async with idempotent():
            await bot.delete_message(split(chat)[0], int(message_id))

    # --- group administration -------------------------------------------------------------------------------
    @following_upgrades
    async def pin(self, chat: str, message_id: str) -> bool:
        bot = await self.bot()
        try:
            async with translated_errors():
                await bot.pin_chat_message(split(chat)[0], int(message_id), disable_notification=True)
        except PermanentError as exc:
            if _no_rights(exc):
                return False
            raise
        return True

    @following_upgrades
    async def set_silence(self, chat: str, on: bool) -> bool:
        """Silence: members lose their sending rights (admins keep theirs); off restores what the group had. At a
        table in a forum topic, only its seated people (`table_silence`)."""
        bot = await self.bot()
        key = permissions_key(chat)
        try:
            async with translated_errors():
                if split(chat)[1] is not None:  # one table of a forum: its seated people only
                    await table_silence.apply(bot, self.sessions, chat, on, _SEND_RIGHTS)
                elif on:
                    info = await bot.get_chat(int(chat))
                    before = info.permissions.to_dict() if info.permissions else dict(_OPEN_DEFAULT)
                    saved = self.sessions.ui.get("chat", key)
                    if saved is None:  # a repeated "on" must not save the silenced permissions as the original
                        self.sessions.ui.set("chat", key, before)
                    muted = {**before, **dict.fromkeys(_SEND_RIGHTS, False)}
                    await bot.set_chat_permissions(
                        int(chat), ChatPermissions(**muted), use_independent_chat_permissions=True
                    )
                else:
                    restored = self.sessions.ui.get("chat", key) or dict(_OPEN_DEFAULT)
                    await bot.set_chat_permissions(
                        int(chat), ChatPermissions(**restored), use_independent_chat_permissions=True
                    )
                    self.sessions.ui.clear("chat", key)
        except PermanentError as exc:
            if _no_rights(exc):
                if on:
                    await self._explain_no_rights(chat)
                return False
            if not _already_done(exc):
                raise
        return True

    async def _explain_no_rights(self, chat: str) -> None:
        """Say once per group why the silence is not enforced and how to grant the right."""
        if not self.sessions.marks.set(f"{PLATFORM}:{chat}:silence_explained", ttl=365 * 86400):
            return
        text = i18n.t(get_settings().default_language, NO_RIGHTS_NOTICE)
        await self.send_text(chat, NO_RIGHTS_DEFAULT if text == NO_RIGHTS_NOTICE else text)

    async def open_table(self, community: str, title: str, people: Sequence[str]) -> str:
        """A table of a forum supergroup: a topic of its own (`createForumTopic`); its address carries the thread.
        A plain group refuses (not a forum): the table stays in the group, one game at a time."""
        bot = await self.bot()
        group, _ = split(community)
        async with translated_errors():
            topic = await bot.create_forum_topic(group, title[:128])
        return address(group, topic.message_thread_id)

    async def direct_chat(self, user: str) -> str | None:
        """In Telegram a user's direct chat has the user's id, usable once they opened the bot (deep link)."""
        seen = self.sessions.ui.get("user", user_key(user))
        return user if seen and seen.get("dm") else None


def _caption(text: str) -> str:
    return text if len(text) <= CAPTION_LIMIT else text[: CAPTION_LIMIT - 1] + "…"


def _text(text: str) -> str:
    """Telegram refuses an empty text and one over 4096 characters; a message must not be lost for that."""
    if not text.strip():
        return "…"
    return text if len(text) <= TEXT_LIMIT else text[: TEXT_LIMIT - 1] + "…"
