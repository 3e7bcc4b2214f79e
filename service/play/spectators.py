"""Spectators (issue 25 item 4): a person who follows a table gets, in the bot's direct chat, a copy of what the
table's own chat gets — its public board (edited in place, under a ref of its own) and the narrated story of each
move, the table's public notices told outside a move's messages (`tell`: a timeout, the autopilot taking a seat, a
pause, the rating changes at the end), and at the end the full reveal — and nothing else.

What is copied is decided by address, not by content: only the rows a move queues for the table's chat (the public
chat every player and onlooker there reads), never a seat's direct chat, so no hand, loyalty or peek can reach a
follower. Buttons are dropped (a follower plays nothing) and so are mentions and group operations (silence,
deletions). The followers of a game are kept in the database and cached in the sessions for the move's path.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from service.sessions import get_sessions
from service.store import outbox, session_scope
from service.store.models import Chat, Follower, GameRow, User

COPIED = ("send", "upsert")
CACHE_SECONDS = 300.0


def _key(game_id: int) -> str:
    return f"followers:{game_id}"


def followers(game_id: int, s: Session | None = None) -> list[str]:
    """The direct chats of the game's followers (cached; read from the database on a miss: in the caller's
    transaction if it has one, which may hold SQLite's write lock; else in one of its own, as a bot's move on a
    cached table has no connection)."""
    sessions = get_sessions()
    cached = sessions.ui.get("game", _key(game_id))
    if cached is not None:
        return list(cached["chats"])
    query = (
        select(User.direct_chat)
        .join(Follower, Follower.user_id == User.id)
        .where(Follower.game_id == game_id, User.direct_chat.is_not(None))
        .order_by(User.id)
    )
    if s is not None and s.in_transaction():
        chats = list(s.scalars(query))
    else:
        with session_scope() as read:
            chats = list(read.scalars(query))
    sessions.ui.set("game", _key(game_id), {"chats": chats}, ttl=CACHE_SECONDS)
    return chats


def forget(game_id: int) -> None:
    get_sessions().ui.clear("game", _key(game_id))


UNCOPIED = ("buttons", "mention_users", "run", "within")  # what a follower's copy of a group row leaves out


def mirror(s: Session, game: GameRow, chat: Chat, rows: list[dict[str, Any]]) -> set[tuple[str, str]]:
    """Queue for each follower a copy of the rows among `rows` (this move's, in order) that go to the table's chat;
    returns the chats to deliver to."""
    public = [r for r in rows if r["chat"] == chat.platform_id and r["platform"] == chat.platform and r["op"] in COPIED]
    if not public:
        return set()
    chats = followers(game.id, s)
    for direct in chats:
        for row in public:
            # (a seat's turn is gathered in the group only: a direct chat gets each move as it comes)
            payload = {k: v for k, v in (row.get("payload") or {}).items() if k not in UNCOPIED}
            ref = f"watch:{row['ref']}" if row.get("ref") else None
            outbox.add(s, chat.platform, direct, row["op"], payload, ref=ref, photo=row.get("photo"))
    return {(chat.platform, direct) for direct in chats}


def tell(s: Session, game: GameRow, chat: Chat, text: str) -> set[tuple[str, str]]:
    """Queue a public notice for the table's chat and a copy for each of the game's followers; returns the
    followers' chats, for the caller to have delivered with the table's once it commits."""
    outbox.tell(s, chat, text)
    chats = followers(game.id, s)
    for direct in chats:
        outbox.add(s, chat.platform, direct, "send", {"text": text})
    return {(chat.platform, direct) for direct in chats}


def follow(s: Session, game: GameRow, user: User) -> bool:
    """Start following; False if already following. The caller `forget`s the cache once it has committed."""
    if s.get(Follower, (game.id, user.id)) is not None:
        return False
    s.add(Follower(game_id=game.id, user_id=user.id))
    return True


def unfollow(s: Session, user: User, game_id: int | None) -> list[int]:
    """Stop following one game (or all): the games no longer followed."""
    query = select(Follower.game_id).where(Follower.user_id == user.id)
    if game_id is not None:
        query = query.where(Follower.game_id == game_id)
    games = list(s.scalars(query))
    if games:
        s.execute(delete(Follower).where(Follower.user_id == user.id, Follower.game_id.in_(games)))
    return games
