"""One small async handler per command and for button taps: each turns an update into an `Inbound` for the backbone.

Nothing here knows the rules. Replies (help, rules, the lobby, the board) come back through the backbone's outbox;
the only thing sent from here is the answer to a tap, which Telegram wants at once and does not rate-limit.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from telegram import Update
from telegram.constants import ChatMemberStatus
from telegram.error import TelegramError
from telegram.ext import ContextTypes

from service.chat.base import Inbound
from service.play import dispatch
from service.render import i18n
from service.sessions import get_sessions
from service.telegram import inbound, migration, notices
from service.telegram.adapter import user_key

log = logging.getLogger(__name__)
ADMIN_STATUSES = (ChatMemberStatus.OWNER, ChatMemberStatus.ADMINISTRATOR)
NOTICES = {
    "expired": "notice.expired",
    "not_seated": "notice.not_seated",
    "over": "notice.game_over",
    "malformed": "notice.malformed",
}  # precheck's reasons → catalog ids


@dataclass(frozen=True)
class Backbone:
    """Where commands go: `submit` hands one on; `precheck` is the cheap check of a tap (seated? current
    prompt?) giving a reason to refuse it, or None; `joined_in_group` follows a typed /join (the player may not
    have opened the direct chat); `chat_migrated(old, new)` follows a group that became a supergroup. Tests give
    their own; `service.play.dispatch`, the outbox and `migration` otherwise."""

    submit: Callable[[Inbound], Awaitable[None]]
    precheck: Callable[[Inbound], Awaitable[str | None]]
    joined_in_group: Callable[[Inbound, str], Awaitable[None]]
    chat_migrated: Callable[[str, str], Awaitable[None]]


def dispatch_backbone() -> Backbone:
    """The backbone's dispatch, called off the event loop (the in-process mode runs the move right there)."""
    async def submit(command: Inbound) -> None:
        await asyncio.to_thread(dispatch.submit, command)

    async def precheck(command: Inbound) -> str | None:
        return await asyncio.to_thread(dispatch.precheck, command)

    async def joined_in_group(command: Inbound, bot_username: str) -> None:
        """A typed /join: if the bot may not write to the player yet, tell them in the group how to fix it."""
        if not await asyncio.to_thread(notices.direct_chat_open, command.user):
            await asyncio.to_thread(
                notices.ask_to_open_direct_chat,
                command.chat,
                command.user,
                command.user_name or command.user,
                command.language,
                bot_username,
            )

    async def chat_migrated(old: str, new: str) -> None:
        await asyncio.to_thread(migration.follow, old, new)

    return Backbone(submit, precheck, joined_in_group, chat_migrated)


def backbone(context: ContextTypes.DEFAULT_TYPE) -> Backbone:
    return context.bot_data["backbone"]


def remember_direct_chat(update: Update) -> None:
    """The user wrote to the bot privately, so the bot may now write to them (see TelegramAdapter.direct_chat)."""
    user = update.effective_user
    if user is not None:
        get_sessions().set_ui("user", user_key(str(user.id)), {"dm": True})


async def is_admin(update: Update, context: ContextTypes.DEFAULT_TYPE) -> bool:
    chat, user = update.effective_chat, update.effective_user
    if chat is None or user is None or chat.type not in ("group", "supergroup"):
        return False
    try:
        member = await context.bot.get_chat_member(chat.id, user.id)
    except TelegramError:
        log.warning("could not read a member's status in chat %s", chat.id)
        return False
    return member.status in ADMIN_STATUSES


async def on_start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """`/start [payload]` in the direct chat: the user opened the bot; a `join<lobby>` payload joins that table,
    a bare /start gets the help. In a group, /start starts the lobby's game."""
    chat = update.effective_chat
    if chat is None or chat.type != "private":
        await on_command(update, context)
        return
    remember_direct_chat(update)
    lobby = inbound.joined_lobby(context.args[0] if context.args else "")
    if lobby is not None:
        await backbone(context).submit(inbound.deep_link_join(update, lobby))
    else:
        await backbone(context).submit(inbound.command(update, "help", ()))


async def on_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/newgame, /join, /leave, /start, /abort, /status, /rules, /help, /set: passed on with their arguments."""
    message = update.effective_message
    if message is None or not message.text:
        return
    name = message.text.split()[0].lstrip("/").split("@")[0].lower()
    if name not in inbound.COMMANDS:
        return
    if update.effective_chat and update.effective_chat.type == "private":
        remember_direct_chat(update)
    admin = name in ("abort", "start", "tournament") and await is_admin(update, context)
    command = inbound.command(update, name, tuple(context.args or ()), admin=admin)
    await backbone(context).submit(command)
    if name == "join" and command.is_group:
        await backbone(context).joined_in_group(command, context.bot.username)


async def on_tap(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A button: answered at once (a stale, foreign or forged one with the reason), then handed to the backbone."""
    query = update.callback_query
    if query is None:
        return
    data = query.data or ""
    command = inbound.tap(update, data)
    reason = await backbone(context).precheck(command)
    if reason:
        await query.answer(i18n.t(query.from_user.language_code, NOTICES.get(reason, "notice.malformed")))
        return
    await query.answer()
    if update.effective_chat and update.effective_chat.type == "private":
        remember_direct_chat(update)
    if inbound.needs_admin_check(data) and await is_admin(update, context):
        command = inbound.admin_tap(update, data) or command
    await backbone(context).submit(command)


async def on_migrate(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A group became a supergroup (a new chat id): Telegram says so in both chats; the first one moves the chat,
    so its games go on there."""
    message = update.effective_message
    if message is None:
        return
    if message.migrate_to_chat_id:
        old, new = message.chat_id, message.migrate_to_chat_id
    elif message.migrate_from_chat_id:
        old, new = message.migrate_from_chat_id, message.chat_id
    else:
        return
    log.info("chat %s became supergroup %s", old, new)
    await backbone(context).chat_migrated(str(old), str(new))
