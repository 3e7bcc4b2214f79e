"""The sessions: a cache of what the database already knows, plus short-lived coordination, as objects with one job
each (`Sessions` holds them): cached games, UI state, ids of messages edited in place, locks, idempotency marks,
rate buckets and the schedule of work due later.

Everything here may vanish (Redis flushed, process restarted) without losing a game: cached states carry their
seq and are used only when it equals the database's; message ids are also in `sent_messages`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable
from contextlib import AbstractContextManager, nullcontext
from typing import Any

CACHE_FORMAT = 4
"""The shape of the structured values cached here (a game's pickled state and table, its meta, UI state), named in
each one's key: values written in another shape are not found, and age out. Bump it when any of them changes shape;
tests/service/backbone/test_cache_format.py pins the table's columns and the engine states' fields to it."""


class GameCache(ABC):
    """Cached game states, the tables' epochs and what a gateway may check cheaply (see `dispatch.precheck`)."""

    @abstractmethod
    def get_state(self, game_id: int) -> tuple[int, bytes] | None:
        """(seq, serialized state) if cached."""

    @abstractmethod
    def put_state(self, game_id: int, seq: int, blob: bytes) -> None: ...

    @abstractmethod
    def table_epoch(self, game_id: int) -> int:
        """How many times a change outside the game's moves (a player's name or language, their direct chat, the chat's
        id) made its cached table stale: a table cached under an older epoch is not used (`service.play.bot_move`)."""

    @abstractmethod
    def bump_table_epochs(self, game_ids: Iterable[int]) -> None: ...

    def get_state_and_epoch(self, game_id: int) -> tuple[tuple[int, bytes] | None, int]:
        """`get_state` and `table_epoch` together (one round trip where the backend allows)."""
        return self.get_state(game_id), self.table_epoch(game_id)

    @abstractmethod
    def forget(self, game_id: int) -> None:
        """Drop the game's cached state and meta (an aborted game; the benchmark's games)."""

    @abstractmethod
    def get_meta(self, game_id: int) -> dict[str, Any] | None:
        """{"status", "seats": {"<platform>:<user>": seat}, "prompts": {"<seat>": prompt_seq}} as last committed."""

    @abstractmethod
    def put_meta(self, game_id: int, meta: dict[str, Any]) -> None: ...

    def put(self, game_id: int, seq: int, blob: bytes, meta: dict[str, Any]) -> None:
        """`put_state` and `put_meta` together (one round trip where the backend allows; joins `pipelined`)."""
        self.put_state(game_id, seq, blob)
        self.put_meta(game_id, meta)


class UiState(ABC):
    """Per-chat and per-user UI state (open submenu, Matrix number → button data, …)."""

    @abstractmethod
    def get(self, scope: str, key: str) -> dict[str, Any] | None:
        """`scope` is e.g. "chat" or "user"; `key` e.g. "telegram:123"."""

    @abstractmethod
    def set(self, scope: str, key: str, value: dict[str, Any], ttl: float | None = None) -> None: ...

    @abstractmethod
    def clear(self, scope: str, key: str) -> None: ...


class MessageIds(ABC):
    """Ids of messages edited in place (board, panels, lobby)."""

    @abstractmethod
    def get(self, platform: str, chat: str, ref: str) -> str | None: ...

    def get_many(self, platform: str, keys: list[tuple[str, str]]) -> list[str | None]:
        """The ids of several messages, `(chat, ref)` each, in order (None where unknown)."""
        return [self.get(platform, chat, ref) for chat, ref in keys]

    @abstractmethod
    def set(self, platform: str, chat: str, ref: str, message_id: str) -> None: ...

    @abstractmethod
    def forget_platform(self, platform: str) -> None:
        """Drop every message id kept for `platform` (the benchmark's null platform, after a run)."""


class Locks(ABC):
    """Locks held for a block, and leases held by a named holder until they lapse."""

    @abstractmethod
    def hold(self, name: str, timeout: float = 30.0, wait: float = 30.0) -> AbstractContextManager[None]:
        """A lock held at most `timeout` seconds (so a killed holder cannot block forever)."""

    @abstractmethod
    def lease(self, name: str, holder: str, ttl: float) -> bool:
        """Take lease `name` for `holder`, or renew it if `holder` has it, for `ttl` seconds: True if `holder` holds
        it now; False while another holder's lease is live (it lapses `ttl` after its last renewal)."""

    @abstractmethod
    def drop_lease(self, name: str, holder: str) -> None:
        """Give lease `name` up, if `holder` holds it (never another's)."""

    @abstractmethod
    def lease_holder(self, name: str) -> str | None:
        """Who holds lease `name` now (None: nobody)."""


class Marks(ABC):
    """Idempotency keys with a time to live."""

    @abstractmethod
    def set(self, key: str, ttl: float = 86400.0) -> bool:
        """Set the key; True if it was not set before."""

    @abstractmethod
    def is_set(self, key: str) -> bool: ...

    @abstractmethod
    def clear(self, key: str) -> None: ...


class RateBuckets(ABC):
    @abstractmethod
    def take(self, buckets: list[tuple[str, float]]) -> float:
        """Each bucket is (name, minimum interval in seconds). If every bucket allows a send now, consume all and
        return 0; else consume nothing and return the seconds to wait."""

    @abstractmethod
    def penalize(self, bucket: str, seconds: float) -> None:
        """Block a bucket for `seconds` (the platform said 429 retry_after)."""


class Scheduler(ABC):
    """Work due later (a bot's pace, a delivery waiting for its rate)."""

    @abstractmethod
    def schedule(self, member: str, due: float) -> None:
        """Keep `member` (an opaque text, e.g. a task and its arguments) until the time `due` (epoch seconds).
        Scheduling the same member again moves it to the new time. Joins `pipelined`."""

    @abstractmethod
    def schedule_unless_marked(self, key: str, ttl: float, member: str, due: float) -> None:
        """`schedule(member, due)` only if setting the mark `key` (`Marks.set(key, ttl)`) succeeds: requests that
        coalesce (one delivery waiting per shard). Joins `pipelined`."""

    @abstractmethod
    def claim(self, now: float, lease: float, limit: int) -> list[tuple[str, float]]:
        """Members due by `now` (at most `limit`), each leased until `now + lease`: if its claimer dies before
        `release`, it is due again then. Returns (member, lease) pairs."""

    @abstractmethod
    def release(self, members: list[str], lease: float) -> None:
        """Forget claimed members, except those scheduled anew since they were claimed with `lease`."""

    @abstractmethod
    def members(self) -> list[str]:
        """Every member waiting, due or not (for cleaning up, e.g. the moves of stopped games)."""

    @abstractmethod
    def unschedule(self, members: list[str]) -> None:
        """Forget these members, due or not."""


class Sessions:
    """The sessions' parts, made together by `MemorySessions` (embedded default) or `RedisSessions` (shared by all
    workers)."""

    def __init__(
        self,
        games: GameCache,
        ui: UiState,
        messages: MessageIds,
        locks: Locks,
        marks: Marks,
        rates: RateBuckets,
        scheduler: Scheduler,
    ) -> None:
        self.games = games
        self.ui = ui
        self.messages = messages
        self.locks = locks
        self.marks = marks
        self.rates = rates
        self.scheduler = scheduler

    def pipelined(self) -> AbstractContextManager[None]:
        """A block whose writes (`games.put`, `scheduler.schedule`, `scheduler.schedule_unless_marked`) this thread
        sends together when it ends: one round trip for everything a move hands on. Reads are not affected."""
        return nullcontext()
