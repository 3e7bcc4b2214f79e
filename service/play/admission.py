"""Whether a tap or a command that names its game may act on it, checked where it comes in and again where it runs.

Typed commands act on their own chat's game; buttons, an admin's tap and a lobby's deep link carry a game id. A game
named from a group must be that group's own (else an admin of one group could abort or start another's game by
tapping a button whose data names it). From a direct chat only the deep link's join may name a lobby: the gateway
that built it has checked that the user is a member of the lobby's group. `precheck` gives a gateway the reason to
refuse a lobby tap at once and privately (a toast), before anything is queued; the `command` job decides again.
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from service.chat.base import Inbound
from service.play import lobby
from service.render.lobby import LOBBY_VARIANTS
from service.store import games as game_rows
from service.store import session_scope
from service.store.models import Chat, GameRow, User

SET_VERBS = (
    "players", "bots", "game", "lang", "turn", "response", "idle", "away", "pausevote", "leaving", *LOBBY_VARIANTS
)
TAP_VERBS = ("join", "leave", "start", "abort", *SET_VERBS)  # all that lobby buttons carry (service.render.lobby)
NAMED = ("tap", "join", "start", "abort")  # the commands that may carry a game id (a button, a deep link, an admin)
# service.play.lobby's refusals, answered with their `lobby.reply.*` text (the others read "not a valid button")
LOBBY_REASONS = ("no_lobby", "no_game", "not_creator", "full", "already", "not_seated")


def lobby_verb(verb: str) -> str:
    """What a lobby button's verb asks of `service.play.lobby`: join, leave, start, abort, set, or "forged" for a
    verb no lobby button carries (e.g. "status", to have another chat's board posted here)."""
    if verb in SET_VERBS:
        return "set"
    return verb if verb in TAP_VERBS else "forged"


def named_refusal(
    s: Session, game: GameRow | None, cmd_chat: tuple[str, str], is_group: bool, command: str
) -> str | None:
    """"wrong_chat" when a command naming `game` came from a chat that may not act on it; None otherwise (a game
    that does not exist is left to the command's own answer)."""
    if game is None:
        return None
    if command not in NAMED:
        return "wrong_chat"
    if not is_group:
        return None if command == "join" else "wrong_chat"
    platform, chat = cmd_chat
    own = s.scalar(select(Chat.id).where(Chat.platform == platform, Chat.platform_id == chat))
    return None if own is not None and own == game.chat_id else "wrong_chat"


def precheck(cmd: Inbound, game_id: int, verb: str, is_admin: bool) -> str | None:
    """Why a lobby tap (`cmd.kind` "tap", `verb` its button's) or a command naming game `game_id` would be refused,
    from a read of the database that changes nothing; None = hand it on."""
    command = "tap" if cmd.kind == "tap" else cmd.command or ""
    verb = lobby_verb(verb) if command == "tap" else verb
    if verb == "forged":
        return "malformed"
    with session_scope() as s:
        game = s.get(GameRow, game_id)
        if named_refusal(s, game, (cmd.platform, cmd.chat), cmd.is_group, command) is not None:
            return "malformed"  # to the tapper, a button that does not belong here is no valid button
        me = s.scalar(select(User.id).where(User.platform == cmd.platform, User.platform_id == cmd.user))
        seats = game_rows.seats_of(s, game_id) if game is not None else []
        return lobby.refusal(game, seats, verb, me, is_admin)


def lobby_group(platform: str, lobby_id: int) -> str | None:
    """The group of lobby `lobby_id` while it is open to joins (its platform id), else None."""
    with session_scope() as s:
        game = s.get(GameRow, lobby_id)
        if game is None or game.status != "lobby":
            return None
        chat = s.get(Chat, game.chat_id)
        return chat.platform_id if chat is not None and chat.platform == platform and chat.is_group else None
