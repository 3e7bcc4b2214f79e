"""`/follow <table>` and `/unfollow [<table>]` in the bot's direct chat (run by the `command` job through
`service.play.commands`): anyone may follow a game of their platform by its number (as its board and its tournament
list it, `#57`, or a link that ends in it) and gets its public board and story from then on (`spectators`), with
the board as it stands now to begin with; after the end, the full reveal. From a group they are answered privately.
"""

from __future__ import annotations

import re
from typing import Any

from service.play import spectators
from service.play.board_now import board_now
from service.play.queue import request_delivery
from service.render.lobby import tr
from service.store import outbox, session_scope
from service.store.models import Chat, GameRow
from service.store.users import user_for

NUMBER = re.compile(r"(\d{1,12})\D*$")  # the number a table is named by: the last in the argument


def table_named(args: list[str]) -> int | None:
    """The game id an argument names: `57`, `#57`, `table 57`, or a link ending in it."""
    found = NUMBER.search(" ".join(args))
    return int(found.group(1)) if found else None


def run(verb: str, args: list[str], cmd: dict[str, Any], admin: bool) -> str:
    if cmd.get("is_group"):
        return "direct_only"
    game_id = table_named(args)
    platform = cmd["platform"]
    with session_scope() as s:
        me = user_for(s, platform, cmd["user"], cmd.get("user_name"), cmd.get("language"))
        lang = me.language or cmd.get("language")
        if verb == "unfollow":
            changed = spectators.unfollow(s, me, game_id)
            if not changed:
                return "not_followed"
            text = tr(lang, "lobby.reply.unfollowed", id=game_id) if game_id else tr(lang, "lobby.reply.unfollowed_all")
        else:
            game = s.get(GameRow, game_id) if game_id is not None else None
            chat = s.get(Chat, game.chat_id) if game is not None else None
            if game is None or chat is None or chat.platform != platform or game.status in ("lobby", "aborted"):
                return "no_table"
            if game.status == "finished":
                return "over"
            if not spectators.follow(s, game, me):
                return "already_following"
            changed = [game.id]
            text = f"{tr(lang, 'lobby.reply.followed', id=game.id)}\n\n{board_now(s, game)[0]}"
        outbox.add(s, platform, cmd["chat"], "send", {"text": text})
    for followed in changed:  # after the commit: a move reads the new list
        spectators.forget(followed)
    request_delivery(platform, cmd["chat"])
    return "shown"
