"""A game's state for a move: its copy cached in the sessions, or its log replayed; and what a move came to."""

from __future__ import annotations

import pickle
from dataclasses import dataclass, field
from typing import Any

import structlog
from sqlalchemy.orm import Session

from engine import get_game
from service.sessions import get_sessions
from service.store import games as game_rows
from service.store.models import GameRow

log = structlog.get_logger(__name__)


@dataclass
class Outcome:
    status: str  # applied | duplicate | stale | expired | not_seated | not_your_turn | illegal | no_game | …
    chats: set[tuple[str, str]] = field(default_factory=set)
    game: Any = None
    state: Any = None
    published: Any = None
    committed_at: float | None = None  # when the move's transaction committed (time.time()): its round trip's end


@dataclass
class Cached:
    """What the sessions hold for a game, read once, before any database read: its state as of a seq, pickled with
    the game row and table of that seq (`game_rows.snapshot`; None where the move that cached it did not have
    them), and the game's table epoch (`service.store.table_epochs`) as read. Cached states are pickles in our
    own Redis; only the service writes them, under the key of the sessions' `CACHE_FORMAT`. One that cannot be
    read as this code's state and table (a format changed without its bump) counts as absent: the move replays
    the log under the row lock. Each call unpickles anew: the engine and `write_messages` change what they are given."""

    entry: tuple[int, bytes] | None
    epoch: int

    @classmethod
    def read(cls, game_id: int) -> Cached:
        return cls(*get_sessions().games.get_state_and_epoch(game_id))

    def state_at(self, seq: int) -> Any | None:
        if self.entry is None or self.entry[0] != seq:
            return None
        unpickled = _unpickled(self.entry[1])
        return None if unpickled is None else unpickled[0]

    def table(self) -> tuple[Any, GameRow, game_rows.Table] | None:
        """(state, game row, table) at the cached seq, if cached with a table of the current epoch."""
        unpickled = None if self.entry is None else _unpickled(self.entry[1])
        if unpickled is None:
            return None
        state, snapshot = unpickled
        if snapshot is None or snapshot[1] != self.epoch:
            return None
        try:
            return state, *game_rows.restore(snapshot[0])
        except (TypeError, ValueError, KeyError, IndexError):  # a table of other columns
            log.warning("cached table unreadable", error_type="table")
            return None


def _unpickled(blob: bytes) -> tuple[Any, Any] | None:
    """(state, table snapshot) of a cached blob, or None if it is not one, or its state lacks a field of this
    code's (a state class changed)."""
    try:
        state, snapshot = pickle.loads(blob)
    except Exception as exc:  # noqa: BLE001 (any unpickling error: the cache is only a cache)
        log.warning("cached state unreadable", error_type=type(exc).__name__)
        return None
    if not all(hasattr(state, name) for name in getattr(type(state), "__slots__", ())):
        log.warning("cached state unreadable", error_type="missing field")
        return None
    return state, snapshot


def load_state(s: Session, game: GameRow, cached: Cached | None = None) -> Any:
    """The current state: the cached one when its seq matches the database's, else rebuilt from the log."""
    state = (cached or Cached.read(game.id)).state_at(game.seq)
    if state is not None:
        return state
    return get_game(game.kind).replay(game.config, game.seed, game_rows.action_log(s, game.id))
