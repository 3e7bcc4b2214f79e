"""Lobby commands and lobby taps (the `command` task): translate them to `service.play.lobby` calls and answer.
`/tournament` with its buttons, `/ratings` and `/me` are answered by their own modules (`ROUTED`).

Successes show in the lobby message itself; what was asked for (help, rules, the board, ratings) is answered in the
chat it was asked in. A refusal is told to the person alone: in the direct chat it came from, or, from a group, in
their direct chat if the bot knows it, else not at all (a group never hears of a forged tap or a wrong command).
A command naming its game must come from that game's chat (`service.play.admission`).
"""

from __future__ import annotations

from typing import Any

import engine
from service.play import (
    days_commands,
    follow_commands,
    lobby,
    quiet,
    ratings_commands,
    story_commands,
    tables,
    tournament_commands,
)
from service.play.admission import lobby_verb, named_refusal
from service.play.board_now import board_now
from service.play.dispatch import ADMIN_FLAG, notice_id
from service.play.queue import request_delivery
from service.render.lobby import lobby_message, tr
from service.store import games as game_rows
from service.store import outbox, session_scope
from service.store.claims import DuplicateUpdate, claiming
from service.store.models import GameRow
from service.store.users import chat_for, learn_direct_chat, user_for

# Commands another module answers (its own replies; a refusal's status as here): `run(verb, args, cmd, admin)`
ROUTED = {
    "tournament": tournament_commands.run,
    "tournament_tap": tournament_commands.run,
    "ratings": ratings_commands.run,
    "me": ratings_commands.run,
    "follow": follow_commands.run,
    "unfollow": follow_commands.run,
    "sub": days_commands.run,
    "pause": days_commands.run,
    "away": days_commands.run,
    "back": days_commands.run,
    "quiet": days_commands.run,
    "autopilot": days_commands.run,
    "replace": days_commands.run,
    "resume": days_commands.run,
    "days_tap": days_commands.run,
}

STORY = ("log", "card", "rules")  # answered by `story_commands`, as `/status` in a direct chat


def handle(cmd: dict[str, Any]) -> str:
    """Run one command or lobby tap; returns the status word (for tests and logs)."""
    platform, chat, user, verb = cmd["platform"], cmd["chat"], cmd["user"], cmd["command"]
    with session_scope() as s:
        if game_rows.is_claimed(s, platform, str(cmd["update_id"])):
            return "duplicate"
        me = user_for(s, platform, user, cmd.get("user_name"), cmd.get("language"))
        lang, direct = me.language, me.direct_chat
        if not cmd.get("is_group") and me.direct_chat is None:
            learn_direct_chat(s, me, chat)
        game_id = cmd.get("game_id")
        wrong_chat = None
        if game_id is not None:
            wrong_chat = named_refusal(s, s.get(GameRow, game_id), (platform, chat), bool(cmd.get("is_group")), verb)
        if game_id is None and cmd.get("is_group"):
            current = game_rows.open_game_in_chat(s, chat_for(s, platform, chat, True))
            game_id = current.id if current is not None else None
    args = [a for a in cmd.get("args") or [] if a != ADMIN_FLAG]
    admin = ADMIN_FLAG in (cmd.get("args") or [])
    if verb == "tap":
        verb, value = lobby_verb(args[0]), args[1] if len(args) > 1 else ""
        args = [args[0], value] if verb == "set" else []
    try:  # claimed with its effect (a redelivery after a worker died runs it once)
        with claiming(platform, str(cmd["update_id"])):
            status = wrong_chat or _run(verb, args, cmd, game_id, admin)
            if status not in ("ok", "shown"):
                _refuse(cmd, direct, lang, status, game_id)
    except DuplicateUpdate:
        return "duplicate"
    return status


def _run(verb: str, args: list[str], cmd: dict[str, Any], game_id: int | None, admin: bool) -> str:
    platform, user = cmd["platform"], cmd["user"]
    if verb == "forged":
        return verb
    if verb in ROUTED:
        return ROUTED[verb](verb, args, cmd, admin)
    if verb == "newgame":
        if not cmd.get("is_group"):
            return "group_only"
        kind = next((a for a in args if a in engine.GAMES), "board")
        players = next((int(a) for a in args if a.isascii() and a.isdigit() and len(a) <= 3), None)
        status, _ = lobby.create(
            platform,
            tables.new_address(cmd["chat"]) if cmd.get("forum") else cmd["chat"],
            user,
            kind=kind,
            players=players,
            language=cmd.get("language"),
            user_name=cmd.get("user_name"),
            title=cmd.get("chat_title"),
        )
        return status
    if verb in STORY or (verb == "status" and not cmd.get("is_group")):
        return story_commands.run(verb, args, cmd, admin)
    if verb in ("help", "welcome"):
        return _help(cmd, game_id, welcome=verb == "welcome")
    if verb == "set" and args[:1] == ["quiet"]:  # the group's, whatever it plays
        return quiet.run(cmd, args[1:], admin)
    if verb == "leave":  # a lobby's seat, or a running game's (confirmed in the direct chat)
        return days_commands.leave(cmd, game_id)
    if verb in ("set", "abort") and days_commands.running(game_id):  # an admin's levers on a running game
        return days_commands.run(verb, args, {**cmd, "game_id": game_id}, admin)
    if game_id is None:
        return "no_lobby" if verb in ("join", "leave", "start", "set") else "no_game"
    if verb == "join":
        return lobby.join(game_id, platform, user, cmd.get("user_name"))
    if verb == "start":
        return lobby.start(game_id, platform, user, is_admin=admin)
    if verb == "abort":
        return lobby.abort(game_id, platform, user, is_admin=admin)
    if verb == "set":
        if len(args) < 2:
            return "bad_value"
        return lobby.set_option(game_id, platform, user, args[0], args[1], is_admin=admin)
    if verb == "status":
        return _status(cmd, game_id)
    return "bad_value"


def _help(cmd: dict[str, Any], game_id: int | None, welcome: bool = False) -> str:
    """The commands (and, on Matrix, how to answer with a number); `welcome`: a bare /start, answered short (what
    this is, how a game starts, /help for the rest): a newcomer's first message is not the whole manual."""
    with session_scope() as s:
        game = s.get(GameRow, game_id) if game_id is not None else None
        lang = game.language if game is not None else cmd.get("language")
    if welcome:
        parts = [tr(lang, "lobby.welcome"), tr(lang, "lobby.welcome.more")]
    else:
        parts = [tr(lang, "lobby.help"), tr(lang, "lobby.help.story"), tr(lang, "days.help")]
    if cmd["platform"] == "matrix":
        parts.append(tr(lang, "lobby.help.numbers"))
    _reply(cmd["platform"], cmd["chat"], bool(cmd.get("is_group")), "\n\n".join(parts))
    return "shown"


def _status(cmd: dict[str, Any], game_id: int) -> str:
    """Post the board (or the lobby) again as a fresh message at the bottom of the chat."""
    with session_scope() as s:
        game = s.get(GameRow, game_id)
        if game is None:
            return "no_game"
        if game.status == "lobby":
            text, _ = lobby_message(lobby.lobby_view(s, game), game.language)
        else:
            text, _ = board_now(s, game)
    _reply(cmd["platform"], cmd["chat"], bool(cmd.get("is_group")), text)
    return "shown"


def _refuse(cmd: dict[str, Any], direct: str | None, lang: str | None, status: str, game_id: int | None) -> None:
    """A refusal for the person alone: in the direct chat it came from, or their known direct chat, or nowhere."""
    msgid = notice_id(status) if status in ("forged", "wrong_chat") else f"lobby.reply.{status}"
    chat = direct if cmd.get("is_group") else cmd["chat"]
    if chat is not None:
        _reply(cmd["platform"], chat, False, tr(lang, msgid, id=game_id))


def _reply(platform: str, chat: str, is_group: bool, text: str) -> None:
    with session_scope() as s:
        outbox.add(s, platform, chat, "send", {"text": text}, is_group=is_group)
    request_delivery(platform, chat)
