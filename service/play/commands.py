"""Lobby commands and lobby taps (the `command` task): translate them to `service.play.lobby` calls and answer.
`/tournament` with its buttons, `/ratings` and `/me` are answered by their own modules (`ROUTED`).

Failures are answered in the chat the command came from; successes show in the lobby message itself.
"""

from __future__ import annotations

from typing import Any

import engine
from service.play import lobby, presenting, ratings_commands, tournament_commands
from service.play.dispatch import ADMIN_FLAG
from service.play.queue import request_delivery
from service.play.state import load_state
from service.render.lobby import LOBBY_VARIANTS, lobby_message, tr
from service.store import games as game_rows
from service.store import outbox, session_scope
from service.store.models import GameRow
from service.store.users import chat_for, learn_direct_chat, user_for

SET_VERBS = ("players", "bots", "game", "lang", "turn", "response", *LOBBY_VARIANTS)
TAP_VERBS = ("join", "leave", "start", "abort", *SET_VERBS)  # all that lobby buttons carry (service.render.lobby)
# Commands another module answers (its own replies; a refusal's status as here): `run(verb, args, cmd, admin)`
ROUTED = {
    "tournament": tournament_commands.run,
    "tournament_tap": tournament_commands.run,
    "ratings": ratings_commands.run,
    "me": ratings_commands.run,
}


def handle(cmd: dict[str, Any]) -> str:
    """Run one command or lobby tap; returns the status word (for tests and logs)."""
    platform, chat, user = cmd["platform"], cmd["chat"], cmd["user"]
    with session_scope() as s:
        if not game_rows.claim_update(s, platform, str(cmd["update_id"])):
            return "duplicate"
        me = user_for(s, platform, user, cmd.get("user_name"), cmd.get("language"))
        lang = me.language
        if not cmd.get("is_group") and me.direct_chat is None:
            learn_direct_chat(s, me, chat)
        game_id = cmd.get("game_id")
        if game_id is None and cmd.get("is_group"):
            current = game_rows.open_game_in_chat(s, chat_for(s, platform, chat, True))
            game_id = current.id if current is not None else None
    args = [a for a in cmd.get("args") or [] if a != ADMIN_FLAG]
    admin = ADMIN_FLAG in (cmd.get("args") or [])
    verb = cmd["command"]
    if verb == "tap":
        verb, value = args[0], args[1] if len(args) > 1 else ""
        args = [verb, value] if verb in SET_VERBS else []
        if verb in SET_VERBS:
            verb = "set"
        elif verb not in TAP_VERBS:  # forged, e.g. "status" to have another chat's board posted here
            verb = "forged"
    status = _run(verb, args, cmd, game_id, admin)
    if status not in ("ok", "shown"):
        _reply(platform, chat, bool(cmd.get("is_group")), tr(lang, f"lobby.reply.{status}", id=game_id))
    return status


def _run(verb: str, args: list[str], cmd: dict[str, Any], game_id: int | None, admin: bool) -> str:
    platform, user = cmd["platform"], cmd["user"]
    if verb in ROUTED:
        return ROUTED[verb](verb, args, cmd, admin)
    if verb == "newgame":
        if not cmd.get("is_group"):
            return "group_only"
        kind = next((a for a in args if a in engine.GAMES), "board")
        players = next((int(a) for a in args if a.isascii() and a.isdigit() and len(a) <= 3), None)
        status, _ = lobby.create(
            platform,
            cmd["chat"],
            user,
            kind=kind,
            players=players,
            language=cmd.get("language"),
            user_name=cmd.get("user_name"),
        )
        return status
    if verb in ("help", "rules"):
        return _explain(verb, cmd, game_id)
    if game_id is None:
        return "no_lobby" if verb in ("join", "leave", "start", "set") else "no_game"
    if verb == "join":
        return lobby.join(game_id, platform, user, cmd.get("user_name"))
    if verb == "leave":
        return lobby.leave(game_id, platform, user)
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


def _explain(verb: str, cmd: dict[str, Any], game_id: int | None) -> str:
    with session_scope() as s:
        game = s.get(GameRow, game_id) if game_id is not None else None
        lang = game.language if game is not None else cmd.get("language")
        text = tr(lang, "lobby.help") if verb == "help" else tr(lang, f"lobby.rules.{game.kind if game else 'board'}")
    _reply(cmd["platform"], cmd["chat"], bool(cmd.get("is_group")), text)
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
            users = game_rows.seat_users(s, game.id)
            names = {seat: u.name or u.platform_id for seat, u in users.items()}
            pres = presenting.present(
                game.kind,
                load_state(s, game),
                [],
                game_id=game.id,
                seq=game.seq,
                group_lang=game.language,
                seat_langs={},
                seat_names=names,
            )
            text = pres.board
    _reply(cmd["platform"], cmd["chat"], bool(cmd.get("is_group")), text)
    return "shown"


def _reply(platform: str, chat: str, is_group: bool, text: str) -> None:
    with session_scope() as s:
        outbox.enqueue(s, platform, chat, "send", {"text": text}, is_group=is_group)
    request_delivery(platform, chat)
