"""Redis sessions, shared by every gateway and worker. Keys live under `camelot:`; all have TTLs except
message ids (also in the database) so an abandoned game's cache ages out."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterable, Iterator
from contextlib import AbstractContextManager, contextmanager, suppress
from typing import Any

import redis

from service.sessions import round_trip
from service.sessions.base import (
    CACHE_FORMAT,
    GameCache,
    Locks,
    Marks,
    MessageIds,
    RateBuckets,
    Scheduler,
    Sessions,
    UiState,
)

P = "camelot:"
STATE_TTL = 7 * 86400
STATE, META, UI = (f"{P}{kind}:v{CACHE_FORMAT}:" for kind in ("state", "meta", "ui"))  # + game id, or scope:key

# Generic cell rate: one send per `interval` per bucket, all buckets or none. Time is the server's (shared clock).
# Times are stored to the microsecond: Lua's tostring keeps 14 digits, which rounds the epoch's microseconds up
# by as much as 50 µs, so a bucket of interval 0 (tests, an unlimited platform) sometimes asked for a wait.
_TAKE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local wait = 0
for i, key in ipairs(KEYS) do
  local tat = tonumber(redis.call('GET', key) or '0')
  if tat - now > wait then wait = tat - now end
end
if wait > 0 then return tostring(wait) end
for i, key in ipairs(KEYS) do
  local tat = tonumber(redis.call('GET', key) or '0')
  if tat < now then tat = now end
  local interval = tonumber(ARGV[i])
  redis.call('SET', key, string.format('%.6f', tat + interval), 'PX', math.ceil((tat + interval - now) * 1000) + 1000)
end
return '0'
"""

_PENALIZE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local tat = tonumber(redis.call('GET', KEYS[1]) or '0')
local until_ = now + tonumber(ARGV[1])
if until_ > tat then
  redis.call('SET', KEYS[1], string.format('%.6f', until_), 'PX', math.ceil(tonumber(ARGV[1]) * 1000) + 1000)
end
return 1
"""

# Work due later: a sorted set scored by due time. A claim re-scores what it takes to the end of its lease.
_CLAIM = """
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[3]))
for _, member in ipairs(due) do redis.call('ZADD', KEYS[1], 'XX', ARGV[2], member) end
return due
"""

_RELEASE = """
local lease = tonumber(ARGV[1])
for i = 2, #ARGV do
  local score = redis.call('ZSCORE', KEYS[1], ARGV[i])
  if score and tonumber(score) == lease then redis.call('ZREM', KEYS[1], ARGV[i]) end
end
return 1
"""
DUE_KEY = P + "due"
MARK = P + "mark:"

_SCHEDULE_UNLESS_MARKED = """
if redis.call('SET', KEYS[1], '1', 'NX', 'PX', ARGV[1]) then redis.call('ZADD', KEYS[2], ARGV[3], ARGV[2]) end
return 1
"""


# A lease: taken when free (or lapsed: its key expired), renewed by its holder, never taken from a live holder.
_LEASE = """
local holder = redis.call('GET', KEYS[1])
if holder and holder ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
"""

_DROP_LEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1
"""


class _Link:
    """The client the parts share, and this thread's open `pipelined` block, whose writes go together."""

    def __init__(self, url: str) -> None:
        self.client = redis.Redis.from_url(url)
        self._local = threading.local()  # .batch: the commands of the open `pipelined` block

    def write(self, *commands: round_trip.Command) -> None:
        """Writes join the open `pipelined` block's round trip, else go to Redis in one of their own."""
        batch: list[round_trip.Command] | None = getattr(self._local, "batch", None)
        if batch is None:
            round_trip.send(self.client, commands)
        else:
            batch.extend(commands)

    @contextmanager
    def pipelined(self) -> Iterator[None]:
        if getattr(self._local, "batch", None) is not None:  # nested: the outer block sends
            yield
            return
        self._local.batch = batch = []
        try:
            yield
        finally:
            self._local.batch = None
        round_trip.send(self.client, batch)


class RedisGames(GameCache):
    def __init__(self, link: _Link) -> None:
        self.link, self.client = link, link.client

    def get_state(self, game_id: int) -> tuple[int, bytes] | None:
        return _entry(self.client.get(f"{STATE}{game_id}"))

    def get_state_and_epoch(self, game_id: int) -> tuple[tuple[int, bytes] | None, int]:
        raw, epoch = self.client.mget(f"{STATE}{game_id}", f"{P}epoch:{game_id}")
        return _entry(raw), int(epoch or 0)

    def table_epoch(self, game_id: int) -> int:
        return int(self.client.get(f"{P}epoch:{game_id}") or 0)

    def bump_table_epochs(self, game_ids: Iterable[int]) -> None:
        # outlives the tables cached before it (they expire STATE_TTL after their write, which came first)
        commands: list[round_trip.Command] = []
        for game_id in game_ids:
            commands += [("INCR", f"{P}epoch:{game_id}"), ("EXPIRE", f"{P}epoch:{game_id}", STATE_TTL)]
        if commands:
            round_trip.send(self.client, commands)

    def put_state(self, game_id: int, seq: int, blob: bytes) -> None:
        self.client.set(f"{STATE}{game_id}", str(seq).encode() + b":" + blob, ex=STATE_TTL)

    def forget(self, game_id: int) -> None:
        self.client.delete(f"{STATE}{game_id}", f"{META}{game_id}")

    def get_meta(self, game_id: int) -> dict[str, Any] | None:
        return _json_or_none(self.client.get(f"{META}{game_id}"))

    def put_meta(self, game_id: int, meta: dict[str, Any]) -> None:
        self.client.set(f"{META}{game_id}", json.dumps(meta), ex=STATE_TTL)

    def put(self, game_id: int, seq: int, blob: bytes, meta: dict[str, Any]) -> None:
        self.link.write(
            ("SET", f"{STATE}{game_id}", str(seq).encode() + b":" + blob, "EX", STATE_TTL),
            ("SET", f"{META}{game_id}", json.dumps(meta), "EX", STATE_TTL),
        )


class RedisUi(UiState):
    def __init__(self, link: _Link) -> None:
        self.client = link.client

    def get(self, scope: str, key: str) -> dict[str, Any] | None:
        return _json_or_none(self.client.get(f"{UI}{scope}:{key}"))

    def set(self, scope: str, key: str, value: dict[str, Any], ttl: float | None = None) -> None:
        self.client.set(f"{UI}{scope}:{key}", json.dumps(value), px=int(ttl * 1000) if ttl else STATE_TTL * 1000)

    def clear(self, scope: str, key: str) -> None:
        self.client.delete(f"{UI}{scope}:{key}")


class RedisMessageIds(MessageIds):
    def __init__(self, link: _Link) -> None:
        self.client = link.client

    def get(self, platform: str, chat: str, ref: str) -> str | None:
        raw = self.client.get(f"{P}msg:{platform}:{chat}:{ref}")
        return raw.decode() if raw is not None else None

    def get_many(self, platform: str, keys: list[tuple[str, str]]) -> list[str | None]:
        if not keys:
            return []
        raw = self.client.mget([f"{P}msg:{platform}:{chat}:{ref}" for chat, ref in keys])
        return [value.decode() if value is not None else None for value in raw]

    def set(self, platform: str, chat: str, ref: str, message_id: str) -> None:
        self.client.set(f"{P}msg:{platform}:{chat}:{ref}", message_id, ex=STATE_TTL)

    def forget_platform(self, platform: str) -> None:
        batch: list[bytes] = []
        for key in self.client.scan_iter(match=f"{P}msg:{platform}:*", count=1000):
            batch.append(key)
            if len(batch) >= 1000:
                self.client.unlink(*batch)
                batch.clear()
        if batch:
            self.client.unlink(*batch)


class RedisLocks(Locks):
    def __init__(self, link: _Link) -> None:
        self.client = link.client
        self._lease = self.client.register_script(_LEASE)
        self._drop_lease = self.client.register_script(_DROP_LEASE)

    @contextmanager
    def hold(self, name: str, timeout: float = 30.0, wait: float = 30.0) -> Iterator[None]:
        # not thread-local: a holder's token stays with its lock object, whichever thread releases it
        lock = self.client.lock(f"{P}lock:{name}", timeout=timeout, blocking_timeout=wait, thread_local=False)
        if not lock.acquire():
            raise TimeoutError(f"lock {name} busy")
        try:
            yield
        finally:
            # held longer than `timeout`: another holder may already have it
            with suppress(redis.exceptions.LockNotOwnedError):
                lock.release()

    def lease(self, name: str, holder: str, ttl: float) -> bool:
        return bool(self._lease(keys=[f"{P}lease:{name}"], args=[holder, max(1, int(ttl * 1000))]))

    def drop_lease(self, name: str, holder: str) -> None:
        self._drop_lease(keys=[f"{P}lease:{name}"], args=[holder])

    def lease_holder(self, name: str) -> str | None:
        raw = self.client.get(f"{P}lease:{name}")
        return raw.decode() if raw is not None else None


class RedisMarks(Marks):
    def __init__(self, link: _Link) -> None:
        self.client = link.client

    def set(self, key: str, ttl: float = 86400.0) -> bool:
        return bool(self.client.set(f"{MARK}{key}", b"1", nx=True, px=int(ttl * 1000)))

    def is_set(self, key: str) -> bool:
        return bool(self.client.exists(f"{MARK}{key}"))

    def clear(self, key: str) -> None:
        self.client.delete(f"{MARK}{key}")


class RedisRates(RateBuckets):
    def __init__(self, link: _Link) -> None:
        self._take = link.client.register_script(_TAKE)
        self._penalize = link.client.register_script(_PENALIZE)

    def take(self, buckets: list[tuple[str, float]]) -> float:
        if not buckets:
            return 0.0
        keys = [f"{P}rate:{name}" for name, _ in buckets]
        return float(self._take(keys=keys, args=[repr(interval) for _, interval in buckets]))

    def penalize(self, bucket: str, seconds: float) -> None:
        self._penalize(keys=[f"{P}rate:{bucket}"], args=[repr(seconds)])


class RedisScheduler(Scheduler):
    def __init__(self, link: _Link) -> None:
        self.link, self.client = link, link.client
        self._claim = self.client.register_script(_CLAIM)
        self._release = self.client.register_script(_RELEASE)

    def schedule(self, member: str, due: float) -> None:
        self.link.write(("ZADD", DUE_KEY, repr(due), member))

    def schedule_unless_marked(self, key: str, ttl: float, member: str, due: float) -> None:
        # EVAL, not a registered script: a batch cannot load a script the server lacks
        self.link.write(
            ("EVAL", _SCHEDULE_UNLESS_MARKED, 2, f"{MARK}{key}", DUE_KEY, int(ttl * 1000), member, repr(due))
        )

    def claim(self, now: float, lease: float, limit: int) -> list[tuple[str, float]]:
        until = now + lease
        members = self._claim(keys=[DUE_KEY], args=[repr(now), repr(until), limit])
        return [(m.decode() if isinstance(m, bytes) else m, until) for m in members]

    def release(self, members: list[str], lease: float) -> None:
        if members:
            self._release(keys=[DUE_KEY], args=[repr(lease), *members])

    def members(self) -> list[str]:
        return [m.decode() if isinstance(m, bytes) else m for m in self.client.zrange(DUE_KEY, 0, -1)]

    def unschedule(self, members: list[str]) -> None:
        if members:
            self.client.zrem(DUE_KEY, *members)


class RedisSessions(Sessions):
    def __init__(self, url: str) -> None:
        self.link = link = _Link(url)
        self.client = link.client
        super().__init__(
            RedisGames(link),
            RedisUi(link),
            RedisMessageIds(link),
            RedisLocks(link),
            RedisMarks(link),
            RedisRates(link),
            RedisScheduler(link),
        )

    def pipelined(self) -> AbstractContextManager[None]:
        return self.link.pipelined()


def _json_or_none(raw: bytes | None) -> Any:
    """A cached JSON value, or None when absent or unreadable (a cache: the caller goes to the database)."""
    if raw is None:
        return None
    try:
        return json.loads(raw)
    except ValueError:
        return None


def _entry(raw: bytes | None) -> tuple[int, bytes] | None:
    """A cached state's (seq, blob), or None when absent or not of that form."""
    if raw is None:
        return None
    seq, _, blob = raw.partition(b":")
    return (int(seq), blob) if seq.isdigit() else None
