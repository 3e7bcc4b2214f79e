"""Rating a finished game (the `rate_game` task, handed on by the move that finished it): `service.ratings`
computes, the chat is told. Safe to run twice: the game's row lock orders two runs, and the second finds the
game's rating changes written."""

from __future__ import annotations

from service import ratings
from service.render.ratings import changes_text
from service.store import games as game_rows
from service.store import outbox, session_scope
from service.store.models import Chat
from workers.queue import request_delivery


def rate(game_id: int) -> str:
    """Rate the game and post the changes to its chat; "rated", or why not ("no_game", "not_rated")."""
    with session_scope() as s:
        game = game_rows.lock_game(s, game_id)
        if game is None:
            return "no_game"
        changes = ratings.rate_game(s, game)
        chat = s.get(Chat, game.chat_id) if game.chat_id is not None else None
        if not changes:
            return "not_rated"
        if chat is not None:
            text = changes_text(game.language, game.kind, changes)
            outbox.enqueue(s, chat.platform, chat.platform_id, "send", {"text": text}, is_group=chat.is_group)
    if chat is not None:
        request_delivery(chat.platform, chat.platform_id)
    return "rated"


def has_people(options: dict) -> bool:
    """Whether a game's seats include a person (a game of bots only is never rated)."""
    return int(options.get("players") or 0) > len(options.get("bot_seats") or [])
