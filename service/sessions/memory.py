"""In-process sessions: the embedded default (no Redis); the same parts and semantics as `RedisSessions`."""

from __future__ import annotations

import copy
import threading
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from service.sessions.base import GameCache, Locks, Marks, MessageIds, RateBuckets, Scheduler, Sessions, UiState


class MemoryGames(GameCache):
    def __init__(self) -> None:
        self._states: dict[int, tuple[int, bytes]] = {}
        self._meta: dict[int, dict[str, Any]] = {}
        self._epochs: dict[int, int] = {}

    def get_state(self, game_id: int) -> tuple[int, bytes] | None:
        return self._states.get(game_id)

    def put_state(self, game_id: int, seq: int, blob: bytes) -> None:
        self._states[game_id] = (seq, blob)

    def table_epoch(self, game_id: int) -> int:
        return self._epochs.get(game_id, 0)

    def bump_table_epochs(self, game_ids: Iterable[int]) -> None:
        for game_id in game_ids:
            self._epochs[game_id] = self._epochs.get(game_id, 0) + 1

    def forget(self, game_id: int) -> None:
        self._states.pop(game_id, None)
        self._meta.pop(game_id, None)

    def get_meta(self, game_id: int) -> dict[str, Any] | None:
        meta = self._meta.get(game_id)
        return copy.deepcopy(meta) if meta is not None else None

    def put_meta(self, game_id: int, meta: dict[str, Any]) -> None:
        self._meta[game_id] = copy.deepcopy(meta)


class MemoryUi(UiState):
    def __init__(self) -> None:
        self._ui: dict[tuple[str, str], tuple[dict[str, Any], float | None]] = {}

    def get(self, scope: str, key: str) -> dict[str, Any] | None:
        item = self._ui.get((scope, key))
        if item is None:
            return None
        value, expires = item
        if expires is not None and expires < time.monotonic():
            self._ui.pop((scope, key), None)
            return None
        return copy.deepcopy(value)

    def set(self, scope: str, key: str, value: dict[str, Any], ttl: float | None = None) -> None:
        self._ui[(scope, key)] = (copy.deepcopy(value), time.monotonic() + ttl if ttl else None)

    def clear(self, scope: str, key: str) -> None:
        self._ui.pop((scope, key), None)


class MemoryMessageIds(MessageIds):
    def __init__(self) -> None:
        self._mutex = threading.Lock()
        self._ids: dict[tuple[str, str, str], str] = {}

    def get(self, platform: str, chat: str, ref: str) -> str | None:
        return self._ids.get((platform, chat, ref))

    def set(self, platform: str, chat: str, ref: str, message_id: str) -> None:
        self._ids[(platform, chat, ref)] = message_id

    def forget_platform(self, platform: str) -> None:
        with self._mutex:
            for key in [key for key in self._ids if key[0] == platform]:
                del self._ids[key]


class MemoryLocks(Locks):
    def __init__(self) -> None:
        self._mutex = threading.Lock()
        self._locks: dict[str, threading.Lock] = {}
        self._leases: dict[str, tuple[str, float]] = {}  # name → (holder, expiry on the monotonic clock)

    @contextmanager
    def hold(self, name: str, timeout: float = 30.0, wait: float = 30.0) -> Iterator[None]:
        with self._mutex:
            lock = self._locks.setdefault(name, threading.Lock())
        if not lock.acquire(timeout=wait):
            raise TimeoutError(f"lock {name} busy")
        try:
            yield
        finally:
            lock.release()

    def lease(self, name: str, holder: str, ttl: float) -> bool:
        with self._mutex:
            now = time.monotonic()
            current = self._leases.get(name)
            if current is not None and current[0] != holder and current[1] > now:
                return False
            self._leases[name] = (holder, now + ttl)
            return True

    def drop_lease(self, name: str, holder: str) -> None:
        with self._mutex:
            if name in self._leases and self._leases[name][0] == holder:
                del self._leases[name]

    def lease_holder(self, name: str) -> str | None:
        with self._mutex:
            current = self._leases.get(name)
            return current[0] if current is not None and current[1] > time.monotonic() else None


class MemoryMarks(Marks):
    def __init__(self) -> None:
        self._mutex = threading.Lock()
        self._marks: dict[str, float] = {}

    def set(self, key: str, ttl: float = 86400.0) -> bool:
        now = time.monotonic()
        with self._mutex:
            if self._marks.get(key, 0.0) > now:
                return False
            self._marks[key] = now + ttl
            return True

    def is_set(self, key: str) -> bool:
        return self._marks.get(key, 0.0) > time.monotonic()

    def clear(self, key: str) -> None:
        self._marks.pop(key, None)


class MemoryRates(RateBuckets):
    def __init__(self) -> None:
        self._mutex = threading.Lock()
        self._tat: dict[str, float] = {}

    def take(self, buckets: list[tuple[str, float]]) -> float:
        now = time.monotonic()
        with self._mutex:
            wait = max((self._tat.get(name, now) - now for name, _ in buckets), default=0.0)
            if wait > 0:
                return wait
            for name, interval in buckets:
                self._tat[name] = max(self._tat.get(name, now), now) + interval
            return 0.0

    def penalize(self, bucket: str, seconds: float) -> None:
        now = time.monotonic()
        with self._mutex:
            self._tat[bucket] = max(self._tat.get(bucket, now), now + seconds)


class MemoryScheduler(Scheduler):
    def __init__(self, marks: Marks) -> None:
        self._marks = marks
        self._mutex = threading.Lock()
        self._due: dict[str, float] = {}

    def schedule(self, member: str, due: float) -> None:
        with self._mutex:
            self._due[member] = due

    def schedule_unless_marked(self, key: str, ttl: float, member: str, due: float) -> None:
        if self._marks.set(key, ttl):
            self.schedule(member, due)

    def claim(self, now: float, lease: float, limit: int) -> list[tuple[str, float]]:
        with self._mutex:
            due = sorted((at, member) for member, at in self._due.items() if at <= now)[:limit]
            for _, member in due:
                self._due[member] = now + lease
            return [(member, now + lease) for _, member in due]

    def release(self, members: list[str], lease: float) -> None:
        with self._mutex:
            for member in members:
                if self._due.get(member) == lease:
                    del self._due[member]

    def members(self) -> list[str]:
        with self._mutex:
            return list(self._due)

    def unschedule(self, members: list[str]) -> None:
        with self._mutex:
            for member in members:
                self._due.pop(member, None)


class MemorySessions(Sessions):
    def __init__(self) -> None:
        marks = MemoryMarks()
        super().__init__(
            MemoryGames(), MemoryUi(), MemoryMessageIds(), MemoryLocks(), marks, MemoryRates(), MemoryScheduler(marks)
        )
