"""Rating a finished game (the `rate_game` task, handed on by the move that finished it): `service.ratings`
computes, the chat is told. Safe to run twice: the game's row lock orders two runs, and the second finds the
game's rating changes written. The beat's scan hands on again the ratings a crash lost (`rate_missed`)."""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import exists, select

from service import ratings
from service.play import spectators
from service.play.queue import enqueue, request_delivery
from service.render.ratings import changes_text
from service.sessions import get_sessions
from service.settings import get_settings
from service.store import games as game_rows
from service.store import session_scope
from service.store.models import Chat, GameRow, RatingChange, Seat, utcnow

MISSED_WITHIN = 6 * 3600.0  # how far back: games with people end a few an hour, and those not rated stay found


def rate(game_id: int) -> str:
    """Rate the game and post the changes to its chat; "rated", or why not ("no_game", "not_rated"). A
    tournament's game is then handed on to its tournament (`tournament_game`), rated or not."""
    targets: set[tuple[str, str]] = set()
    with session_scope() as s:
        game = game_rows.lock_game(s, game_id)
        if game is None:
            return "no_game"
        changes = ratings.rate_game(s, game)
        if changes and game.chat_id is not None:  # the group's post, and its followers' copy
            chat = s.get(Chat, game.chat_id)
            targets = {(chat.platform, chat.platform_id)}
            targets |= spectators.tell(s, game, chat, changes_text(game.language, game.kind, changes))
    for target in sorted(targets):
        request_delivery(*target)
    if game.options.get("tournament") is not None:
        enqueue("tournament_game", game_id=game_id)
    return "rated" if changes else "not_rated"


def rate_missed(now: datetime | None = None, limit: int = 1000) -> int:
    """Recovery: a finished game with people and without its rating changes may have lost its `rate_game` (the
    worker died between the final move's commit and its hand-on, or the task was lost): `RECOVERY_GRACE` seconds
    after the game's end, hand it on again, once per game (a mark in the sessions; a game that turns out not to be
    rated is not asked again). Returns how many."""
    now = now or utcnow()
    sessions = get_sessions()
    with session_scope() as s:
        people = exists().where(Seat.game_id == GameRow.id, Seat.user_id.is_not(None))
        rated = exists().where(RatingChange.game_id == GameRow.id)
        rows = s.execute(
            select(GameRow.id, GameRow.result)
            .where(
                GameRow.status == "finished",
                GameRow.updated < now - timedelta(seconds=get_settings().recovery_grace),
                GameRow.updated > now - timedelta(seconds=MISSED_WITHIN),
                people,
                ~rated,
            )
            .order_by(GameRow.updated)
            .limit(limit)
        ).all()
    missed = [
        game_id
        for game_id, result in rows
        if ratings.sides_of(result) is not None and sessions.marks.set(f"rating-asked:{game_id}", ttl=MISSED_WITHIN)
    ]
    for game_id in missed:
        enqueue("rate_game", game_id=game_id)
    return len(missed)


def has_people(options: dict) -> bool:
    """Whether a game's seats include a person (a game of bots only is never rated)."""
    return int(options.get("players") or 0) > len(options.get("bot_seats") or [])
