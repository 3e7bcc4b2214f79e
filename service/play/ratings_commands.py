"""`/ratings` and `/me` (run by the `command` job through `service.play.commands`), answered where they were asked.

- `/ratings [board|cards]`: in a group, the standings of the people who played rated games there (of one kind if
  named); in the bot's direct chat, the asker's own ratings.
- `/ratings top [board|cards]`: the global leaderboard (people past their provisional games).
- `/ratings help`: what a rating is, which games are rated, and for how long a rating is provisional.
- `/me`: the asker's own ratings and their last rated games.
"""

from __future__ import annotations

from typing import Any

import engine
from service import ratings
from service.play.queue import request_delivery
from service.render.ratings import help_text, history_text, leaderboard_text, own_text, standings_text
from service.store import outbox, session_scope
from service.store.users import chat_for, user_for


def run(verb: str, args: list[str], cmd: dict[str, Any], admin: bool) -> str:
    kinds = [a for a in args if a in engine.GAMES] or sorted(engine.GAMES)
    platform = cmd["platform"]
    with session_scope() as s:
        me = user_for(s, platform, cmd["user"])
        lang = me.language or cmd.get("language")
        if cmd.get("is_group"):
            lang = chat_for(s, platform, cmd["chat"], True).language or lang
        if verb == "me":
            mine = ratings.of_user(s, me.id)
            played = history_text(lang, ratings.history(s, me.id))
            text = f"{own_text(lang, mine)}\n\n{played}" if mine else played
        elif "help" in args:
            text = help_text(lang, ratings.PROVISIONAL_GAMES)
        elif "top" in args:
            text = "\n\n".join(
                leaderboard_text(lang, kind, ratings.leaderboard(s, kind), ratings.PROVISIONAL_GAMES) for kind in kinds
            )
        elif cmd.get("is_group"):
            chat = chat_for(s, platform, cmd["chat"], True)
            text = standings_text(lang, {kind: ratings.standings(s, chat.id, kind) for kind in kinds})
        else:
            text = own_text(lang, ratings.of_user(s, me.id))
        outbox.add(s, platform, cmd["chat"], "send", {"text": text}, is_group=bool(cmd.get("is_group")))
    request_delivery(platform, cmd["chat"])
    return "shown"
