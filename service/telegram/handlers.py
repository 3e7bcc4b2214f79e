"""One small async handler per command and for button taps: each turns an update into an `Inbound` for the backbone.

Nothing here knows the rules. Replies (help, rules, the lobby, the board) come back through the backbone's outbox;
the only thing sent from here is the answer to a tap, which Telegram wants at once and does not rate-limit. Before
anything is queued: one person's flood is dropped (`service.chat.floods`), and a tap the backbone's precheck refuses
(a button this service did not sign, a stale one, another chat's game, someone else's lobby decision) is answered
with its reason in a toast only the tapper sees. A good tap is handed on first and answered after, best-effort: a
query too old to answer (after an outage) still plays its move.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from telegram import CallbackQuery, Update
from telegram.constants import ChatMemberStatus
from telegram.error import TelegramError
from telegram.ext import ContextTypes

from service.chat import floods
from service.chat.base import Inbound
from service.play import admission, dispatch, table_silence, tables
from service.render import i18n
from service.sessions import get_sessions
from service.telegram import inbound, migration, notices, topics
from service.telegram.adapter import PLATFORM, user_key

log = logging.getLogger(__name__)
ADMIN_STATUSES = (ChatMemberStatus.OWNER, ChatMemberStatus.ADMINISTRATOR)
MEMBER_STATUSES = (*ADMIN_STATUSES, ChatMemberStatus.MEMBER)


@dataclass(frozen=True)
class Backbone:
    """Where commands go: `submit` hands one on; `precheck` is the cheap check of a tap or a command naming its
    game, giving a reason to refuse it, or None; `refuse(command, reason)` tells a direct chat why; `lobby_group`
    is the group of an open lobby (a deep link's joiner must be its member); `joined_in_group` follows a typed /join
    (the player may not have opened the direct chat); `chat_migrated(old, new)` follows a group that became a
    supergroup. Tests give their own; `service.play.dispatch`, the outbox and `migration` otherwise."""

    submit: Callable[[Inbound], Awaitable[None]]
    precheck: Callable[[Inbound], Awaitable[str | None]]
    refuse: Callable[[Inbound, str], Awaitable[None]]
    lobby_group: Callable[[int], Awaitable[str | None]]
    joined_in_group: Callable[[Inbound, str], Awaitable[None]]
    chat_migrated: Callable[[str, str], Awaitable[None]]


def dispatch_backbone() -> Backbone:
    """The backbone's dispatch, called off the event loop (the in-process mode runs the move right there)."""
    async def submit(command: Inbound) -> None:
        await asyncio.to_thread(dispatch.submit, command)

    async def precheck(command: Inbound) -> str | None:
        return await asyncio.to_thread(dispatch.precheck, command)

    async def refuse(command: Inbound, reason: str) -> None:
        await asyncio.to_thread(dispatch.refuse, command, reason)

    async def lobby_group(lobby_id: int) -> str | None:
        return await asyncio.to_thread(admission.lobby_group, PLATFORM, lobby_id)

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

    return Backbone(submit, precheck, refuse, lobby_group, joined_in_group, chat_migrated)


def backbone(context: ContextTypes.DEFAULT_TYPE) -> Backbone:
    return context.bot_data["backbone"]


def remember_direct_chat(update: Update) -> None:
    """The user wrote to the bot privately, so the bot may now write to them (see TelegramAdapter.direct_chat)."""
    user = update.effective_user
    if user is not None:
        get_sessions().ui.set("user", user_key(str(user.id)), {"dm": True})


async def allowed(kind: str, update: Update) -> bool:
    """Within the user's flood limit for `kind` ("tap" or "command")? Counts this one."""
    user = update.effective_user
    return user is None or await asyncio.to_thread(floods.allow, kind, PLATFORM, str(user.id))


async def is_admin(update: Update, context: ContextTypes.DEFAULT_TYPE) -> bool:
    chat, user = update.effective_chat, update.effective_user
    if chat is None or user is None or chat.type not in ("group", "supergroup"):
        return False
    return await _status(context, chat.id, user.id) in ADMIN_STATUSES


async def _status(context: ContextTypes.DEFAULT_TYPE, chat: int | str, user: int) -> str | None:
    """The user's status in a chat (a restricted member counts as a member), None when Telegram will not say."""
    try:
        member = await context.bot.get_chat_member(chat, user)
    except TelegramError:
        log.warning("could not read a member's status in chat %s", chat)
        return None
    if member.status == ChatMemberStatus.RESTRICTED:
        return ChatMemberStatus.MEMBER if getattr(member, "is_member", False) else None
    return member.status


async def on_start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """`/start [payload]` in the direct chat: the user opened the bot; a lobby's join link joins that table if the
    service made the link and the user is a member of its group (else they are told why, privately); a bare
    /start gets a welcome and the help. In a group, /start starts the lobby's game."""
    chat = update.effective_chat
    if chat is None or chat.type != "private":
        await on_command(update, context)
        return
    remember_direct_chat(update)
    if not await allowed("command", update):
        return
    payload = context.args[0] if context.args else ""
    if not inbound.is_join(payload):  # a bare /start: the person opened the bot, welcome them
        await backbone(context).submit(inbound.command(update, "welcome", ()))
        return
    lobby = inbound.joined_lobby(payload)
    if lobby is None:
        await backbone(context).refuse(inbound.command(update, "join", ()), "malformed")
        return
    join = inbound.deep_link_join(update, lobby)
    reason = await _stranger(update, context, lobby) or await backbone(context).precheck(join)
    if reason:
        await backbone(context).refuse(join, reason)
        return
    await backbone(context).submit(join)


async def _stranger(update: Update, context: ContextTypes.DEFAULT_TYPE, lobby: int) -> str | None:
    """"not_member" when the user following a lobby's link is not a member of its group, "no_lobby" when the lobby
    is no longer open."""
    group = await backbone(context).lobby_group(lobby)
    if group is None:
        return "no_lobby"
    assert update.effective_user is not None
    group = topics.group_of(tables.community_of(group))  # a table's members are its community's
    return None if await _status(context, group, update.effective_user.id) in MEMBER_STATUSES else "not_member"


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
    if not await allowed("command", update):
        return
    admin = name in dispatch.ADMIN_COMMANDS and await is_admin(update, context)
    command = inbound.command(update, name, tuple(context.args or ()), admin=admin)
    await backbone(context).submit(command)
    if name == "join" and command.is_group:
        await backbone(context).joined_in_group(command, context.bot.username)


async def on_tap(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A button: refused at once with the reason (a toast), or handed to the backbone and then answered."""
    query = update.callback_query
    if query is None:
        return
    if update.effective_chat is None:  # a button of an inline message: no chat and no game of ours
        await _answer(query)
        return
    lang = query.from_user.language_code
    if not await allowed("tap", update):
        await _answer(query, i18n.t(lang, dispatch.notice_id("too_fast")))
        return
    data = query.data or ""
    command = inbound.tap(update, data)
    if inbound.needs_admin_check(data) and await is_admin(update, context):
        command = inbound.admin_tap(update, data) or command
    reason = await backbone(context).precheck(command)
    if reason:
        await _answer(query, i18n.t(lang, dispatch.notice_id(reason)))
        return
    if update.effective_chat.type == "private":
        remember_direct_chat(update)
    await backbone(context).submit(command)
    await _answer(query)


async def _answer(query: CallbackQuery, text: str | None = None) -> None:
    """Answer a tap if Telegram still takes it; a refused answer (too old, network) is logged by its kind only."""
    try:
        await query.answer(text)
    except TelegramError as exc:
        log.warning("could not answer a tap: %s", type(exc).__name__)


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


async def on_table_message(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Any message in a forum topic: one that a person silenced at that table still posted (the bot could not
    restrict them) is deleted, with a notice (`service.play.table_silence`)."""
    message, user, chat = update.effective_message, update.effective_user, update.effective_chat
    if message is None or user is None or chat is None or not message.is_topic_message:
        return
    table = topics.address(chat.id, message.message_thread_id)
    if await asyncio.to_thread(table_silence.is_silenced, PLATFORM, table, str(user.id)):
        await asyncio.to_thread(
            table_silence.breach, PLATFORM, table, str(user.id), user.full_name, str(message.message_id)
        )
