"""Morgan's silence at one table of a forum supergroup (a topic, `service.telegram.topics`).

Telegram's permissions are per chat, not per topic: muting the group would mute every other table. So only the
people seated at the silenced table are restricted (`restrictChatMember`, which mutes them in the whole group while
the silence lasts: Telegram has nothing narrower), and the other tables' players keep their voice. Someone the bot
cannot restrict (an administrator) may still post: the gateway deletes such a message in the table's topic and says
why (`service.play.table_silence`). The set of silenced people is kept in the sessions for the gateway to read.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable

from telegram import Bot, ChatPermissions
from telegram.error import BadRequest

from service.play.table_silence import silenced_key
from service.sessions import Sessions
from service.store import session_scope
from service.store.chats import latest_game, seated_people
from service.telegram.topics import split

log = logging.getLogger(__name__)
PLATFORM = "telegram"
_NO_RIGHTS = ("not enough rights", "chat_admin_required", "have no rights", "need administrator rights")


def _people(chat: str) -> list[str]:
    with session_scope() as s:
        game = latest_game(s, PLATFORM, chat)
        return seated_people(s, game.id) if game is not None else []


async def apply(bot: Bot, sessions: Sessions, chat: str, on: bool, send_rights: Iterable[str]) -> None:
    """Restrict (on) or restore (off) the table's seated people; BadRequest for want of the right to restrict."""
    group, _ = split(chat)
    key = silenced_key(PLATFORM, chat)
    saved = sessions.ui.get("chat", key)
    people = saved["users"] if saved and not on else await asyncio.to_thread(_people, chat)
    info = await bot.get_chat(group)
    defaults = info.permissions.to_dict() if info.permissions else dict.fromkeys(send_rights, True)
    rights = {**defaults, **dict.fromkeys(send_rights, False)} if on else defaults
    if on:
        sessions.ui.set("chat", key, {"users": people})
    for user in people:
        try:
            await bot.restrict_chat_member(
                group, int(user), ChatPermissions(**rights), use_independent_chat_permissions=True
            )
        except BadRequest as exc:
            if any(marker in str(exc).lower() for marker in _NO_RIGHTS):
                raise
            log.info("table silence: member %s not %s: %s", user, "restricted" if on else "restored", exc)
    if not on:
        sessions.ui.clear("chat", key)
