"""A game's end in its group: every seat's loyalty, the final swords (and siege engines), the play that decided it
and each seat's quests won and cards played (`narration.final_summary`), on the picture of the final position when
the game shows pictures.

All of it is public once the game is over: the engine's result lists every loyalty, the numbers count public
events only, and the picture is drawn from the public view.
"""

from __future__ import annotations

from contextlib import nullcontext
from typing import Any

from sqlalchemy.orm import Session

from engine import get_game
from engine.core.events import Event
from service.play import board_post, presenting
from service.render import board_image, narration
from service.store import games as game_rows
from service.store import session_scope
from service.store.models import Chat, GameRow


def closing_text(kind: str, state: Any, log: list[narration.Move], lang: str, names: dict[int, str]) -> str:
    """The closing message of a finished game, from its moves (`narration.moves`, the last one included)."""
    engine = get_game(kind)
    result = engine.result(state)
    if kind not in presenting.RENDERED:
        return presenting.t(lang, "notice.game_end", outcome=presenting.outcome(kind, result, lang, names))
    stats = narration.game_stats(kind, log)
    return narration.final_summary(kind, result, engine.view(state, None), names, stats, lang)


def announce(
    s: Session, game: GameRow, chat: Chat, state: Any, seat: int, events: list[Event], names: dict[int, str]
) -> None:
    """Queue the closing message of the game the move (`seat`'s, with `events`) has just ended: on the final
    picture (its caption) when the game shows pictures and the text fits a caption, else as a text of its own."""
    # the move's own session, or one of its own when the move has no connection (a bot's move on a cached table,
    # `bot_move`); not always its own: on SQLite a second session would wait on the move's write lock
    with nullcontext(s) if s.bind is not None else session_scope() as read:
        codes = game_rows.action_log(read, game.id)
    log = narration.moves(game.kind, game.config, game.seed, codes)
    log.append((game.seq, seat, list(events)))  # this move: not in the log until it commits
    text = closing_text(game.kind, state, log, game.language, names)
    picture = None
    if (game.options or {}).get("picture") and game.kind in presenting.RENDERED:
        view = get_game(game.kind).view(state, None)
        picture = board_image.render(game.kind, view, game.language, names)
    board_post.tell_pictured(s, chat, text, picture)
