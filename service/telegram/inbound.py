"""Telegram updates → normalized `Inbound` commands, and deep-link payloads. Pure: no bot, no I/O.

A Join button is a deep link `t.me/<bot>?start=join<token>` (`service.callback.link_token`: the lobby's id and a MAC,
so a lobby's link cannot be guessed): tapping it opens the bot's direct chat (a bot may not write first) and sends
`/start join<token>`, which becomes the command `join` naming that lobby, once the gateway has checked that the user
is a member of the lobby's group.
"""

from __future__ import annotations

from telegram import Message, Update

from service.callback import LobbyTap, link_token, linked_lobby, unpack
from service.chat.base import Inbound
from service.play.dispatch import ADMIN_FLAG
from service.play.dispatch import COMMANDS as BACKBONE_COMMANDS
from service.telegram import topics

PLATFORM = "telegram"
COMMANDS = frozenset(BACKBONE_COMMANDS)
JOIN = "join"


def join_link(bot_username: str, lobby_id: int) -> str:
    """The deep link that opens the bot's direct chat and joins lobby `lobby_id`."""
    return f"https://t.me/{bot_username}?start={JOIN}{link_token(lobby_id)}"


def is_join(payload: str) -> bool:
    """Whether a /start payload asks to join a lobby (valid or not)."""
    return payload.startswith(JOIN)


def joined_lobby(payload: str) -> int | None:
    """The lobby a join payload names, if the service made its link."""
    return linked_lobby(payload.removeprefix(JOIN)) if is_join(payload) else None


def _origin(update: Update) -> dict[str, object]:
    chat, user, message = update.effective_chat, update.effective_user, update.effective_message
    assert chat is not None and user is not None
    thread = message.message_thread_id if isinstance(message, Message) and message.is_topic_message else None
    return {
        "platform": PLATFORM,
        "chat": topics.address(chat.id, thread),
        "user": str(user.id),
        "update_id": str(update.update_id),
        "user_name": user.full_name,
        "language": user.language_code,
        "is_group": chat.type in ("group", "supergroup"),
        "forum": bool(chat.is_forum),
        "chat_title": chat.title,
    }


def command(
    update: Update, name: str, args: tuple[str, ...], *, admin: bool = False, game_id: int | None = None
) -> Inbound:
    """A `/command`; a group admin's carries ADMIN_FLAG in its args (Abort and Start may be theirs), and only
    theirs: the flag typed by anyone is dropped."""
    args = tuple(a for a in args if a != ADMIN_FLAG)
    args = (*args, ADMIN_FLAG) if admin else args
    return Inbound(kind="command", command=name, args=args, game_id=game_id, **_origin(update))  # type: ignore[arg-type]


def tap(update: Update, data: str) -> Inbound:
    """A tapped button: its raw data goes to the backbone, which unpacks it (and refuses what is malformed)."""
    return Inbound(kind="tap", text=data, **_origin(update))  # type: ignore[arg-type]


def admin_tap(update: Update, data: str) -> Inbound | None:
    """A group admin's Abort or Start on a lobby: sent as the command with the admin flag, since a plain tap
    cannot carry it. None for any other button."""
    tapped = lobby_of(data)
    if tapped is not None and tapped.verb in ("abort", "start"):
        return command(update, tapped.verb, (), admin=True, game_id=tapped.lobby_id)
    return None


def deep_link_join(update: Update, lobby_id: int) -> Inbound:
    """`/start join<token>` in the direct chat: the join of that lobby (the one command a direct chat may name a
    game in, see `service.play.admission`)."""
    return command(update, "join", (), game_id=lobby_id)


def needs_admin_check(data: str) -> bool:
    tapped = lobby_of(data)
    return tapped is not None and tapped.verb in ("abort", "start")


def lobby_of(data: str) -> LobbyTap | None:
    parsed = unpack(data)
    return parsed if isinstance(parsed, LobbyTap) else None
