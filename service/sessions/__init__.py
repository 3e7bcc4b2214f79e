"""Sessions: `get_sessions()` gives Redis-backed sessions when `REDIS_URL` is set, else in-memory ones.

Both implement `service.sessions.base.Sessions`: cached game states with their seq, gateway-visible game meta,
per-chat/per-user UI state, ids of messages edited in place, locks, idempotency keys and rate-limit buckets.
Losing them loses nothing: the database is the truth. Tests call `reset_sessions()` after changing settings.
"""

from __future__ import annotations

from service.sessions.base import Sessions
from service.sessions.memory import MemorySessions
from service.settings import get_settings

_current: Sessions | None = None


def get_sessions() -> Sessions:
    global _current
    if _current is None:
        url = get_settings().redis_url
        if url:
            from service.sessions.redis_backend import RedisSessions

            _current = RedisSessions(url)
        else:
            _current = MemorySessions()
    return _current


def reset_sessions() -> None:
    """Forget the process's sessions object (settings changed, or a forked worker needs its own connections)."""
    global _current
    _current = None


__all__ = ["MemorySessions", "Sessions", "get_sessions", "reset_sessions"]
