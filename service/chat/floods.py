"""Per-user flood limits, applied by the gateways before anything is queued: one person's hundred taps or typed
commands must not fill the queue nor delay everyone's game.

Moving windows per (platform, kind, user), kinds "tap" (buttons, numbered answers, reactions) and "command", at the
rates `TAP_RATE_LIMIT` and `COMMAND_RATE_LIMIT`. Counted in Redis when `REDIS_URL` is set (every gateway process
shares them), else in this process's memory. A counter that cannot be reached lets the input through: a flood
limit is not worth a lost move.
"""

from __future__ import annotations

import logging
from functools import lru_cache

from limits import RateLimitItem, parse
from limits.storage import MemoryStorage, Storage, storage_from_string
from limits.strategies import MovingWindowRateLimiter

from service.settings import get_settings

log = logging.getLogger(__name__)


class Floods:
    """The gateways' limiter: `allow(kind, platform, user)` counts one input and says whether it may go on."""

    def __init__(self, storage: Storage, rates: dict[str, RateLimitItem]) -> None:
        self.limiter = MovingWindowRateLimiter(storage)
        self.rates = rates

    def allow(self, kind: str, platform: str, user: str) -> bool:
        try:
            return self.limiter.hit(self.rates[kind], platform, kind, user)
        except Exception as exc:  # the store's errors vary with its driver (redis.ConnectionError, OSError …)
            log.warning("flood limit not counted (%s): letting the input through", type(exc).__name__)
            return True


def allow(kind: str, platform: str, user: str) -> bool:
    """Count one input of `kind` by `user` under the settings in force."""
    settings = get_settings()
    return _floods(settings.redis_url, settings.tap_rate_limit, settings.command_rate_limit).allow(kind, platform, user)


@lru_cache(maxsize=4)
def _floods(redis_url: str | None, taps: str, commands: str) -> Floods:
    storage = storage_from_string(redis_url) if redis_url else MemoryStorage()
    return Floods(storage, {"tap": parse(taps), "command": parse(commands)})


def reset() -> None:
    """Forget every limiter of this process (tests that change the settings)."""
    _floods.cache_clear()
