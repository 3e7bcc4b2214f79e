"""Telegram updates → normalized `Inbound` commands, and deep-link payloads. Pure: no bot, no I/O.

A Join button is a deep link `t.me/<bot>?start=join<lobby>`: tapping it opens the bot's direct chat (a bot may not
write first) and sends `/start join<lobby>`, which becomes the same Inbound as a tap on `L<lobby>:join`.
"""

from __future__ import annotations

import re

from telegram import Update

from service.callback import Choice, LobbyTap, pack_lobby, unpack
from service.chat.base import Inbound

PLATFORM = "telegram"
COMMANDS = frozenset({"newgame", "join", "leave", "start", "abort", "status", "rules", "help", "set"})
_JOIN_PAYLOAD = re.compile(r"^join(\d{1,12})$")


def join_link(bot_username: str, lobby_id: int) -> str:
    """The deep link that opens the bot's direct chat and joins lobby `lobby_id`."""
    return f"https://t.me/{bot_username}?start=join{lobby_id}"


def joined_lobby(payload: str) -> int | None:
    m = _JOIN_PAYLOAD.match(payload)
    return int(m.group(1)) if m else None


def _origin(update: Update) -> dict[str, object]:
    chat, user = update.effective_chat, update.effective_user
    assert chat is not None and user is not None
    return {
        "platform": PLATFORM,
        "chat": str(chat.id),
        "user": str(user.id),
        "update_id": str(update.update_id),
        "user_name": user.full_name,
        "language": user.language_code,
        "is_group": chat.type in ("group", "supergroup"),
    }


def command(update: Update, name: str, args: tuple[str, ...], *, admin: bool = False) -> Inbound:
    """A `/command`; a group admin's commands carry text "admin" (as on Matrix) so Abort may be theirs."""
    return Inbound(kind="command", command=name, args=args, text="admin" if admin else None, **_origin(update))  # type: ignore[arg-type]


def choice(update: Update, data: str, *, admin: bool = False) -> Inbound | None:
    """The Inbound for a tapped button's data (a game choice or a lobby tap); None when the data is malformed."""
    parsed = unpack(data)
    origin = _origin(update)
    if isinstance(parsed, Choice):
        return Inbound(kind="action", game_id=parsed.game_id, prompt_seq=parsed.seq, code=parsed.code, **origin)  # type: ignore[arg-type]
    if isinstance(parsed, LobbyTap):
        return Inbound(kind="action", code=data, text="admin" if admin else None, **origin)  # type: ignore[arg-type]
    return None


def deep_link_join(update: Update, lobby_id: int) -> Inbound:
    """`/start join<lobby>` in the direct chat: the same as tapping Join in the group."""
    return Inbound(kind="action", code=pack_lobby(lobby_id, "join"), **_origin(update))  # type: ignore[arg-type]


def lobby_of(data: str) -> LobbyTap | None:
    parsed = unpack(data)
    return parsed if isinstance(parsed, LobbyTap) else None
