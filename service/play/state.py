"""A game's state for a move: its copy cached in the sessions, or its log replayed; and what a move came to."""

from __future__ import annotations

import pickle
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.orm import Session

from engine import get_game
from service.sessions import get_sessions
from service.store import games as game_rows
from service.store.models import GameRow


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
    own Redis; only the service writes them. Each call unpickles anew: the engine and `publish` change what they
    are given."""

    entry: tuple[int, bytes] | None
    epoch: int

    @classmethod
    def read(cls, game_id: int) -> Cached:
        return cls(*get_sessions().get_state_and_epoch(game_id))

    def state_at(self, seq: int) -> Any | None:
        if self.entry is None or self.entry[0] != seq:
            return None
        return pickle.loads(self.entry[1])[0]

    def table(self) -> tuple[Any, GameRow, game_rows.Table] | None:
        """(state, game row, table) at the cached seq, if cached with a table of the current epoch."""
        if self.entry is None:
            return None
        state, snapshot = pickle.loads(self.entry[1])
        if snapshot is None or snapshot[1] != self.epoch:
            return None
        return state, *game_rows.restore(snapshot[0])


def load_state(s: Session, game: GameRow, cached: Cached | None = None) -> Any:
    """The current state: the cached one when its seq matches the database's, else rebuilt from the log."""
    state = (cached or Cached.read(game.id)).state_at(game.seq)
    if state is not None:
        return state
    return get_game(game.kind).replay(game.config, game.seed, game_rows.action_log(s, game.id))
