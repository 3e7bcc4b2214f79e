"""Telegram's sending limits as sliding windows, so a test sees a 429 wherever the real server would answer one."""

from __future__ import annotations

from collections import deque


class RateLimits:
    """Telegram's documented limits: 1 message/s per chat, 20/min per group, 30/s overall; edits count.

    Sliding windows; `slack` forgives clock jitter between the sender's buckets and ours (a fraction of a window).
    """

    def __init__(
        self,
        per_chat: tuple[int, float] = (1, 1.0),
        per_group: tuple[int, float] = (20, 60.0),
        overall: tuple[int, float] = (30, 1.0),
        slack: float = 0.05,
    ) -> None:
        self.per_chat, self.per_group, self.overall, self.slack = per_chat, per_group, overall, slack
        self._chat: dict[int, deque[float]] = {}
        self._all: deque[float] = deque()

    @classmethod
    def lifted(cls) -> RateLimits:
        """Limits no test of behaviour other than rates will reach (100 a second everywhere)."""
        return cls(per_chat=(100, 1.0), per_group=(100, 60.0), overall=(100, 1.0))

    def take(self, chat_id: int, is_group: bool, now: float) -> int | None:
        """Record a send and return None, or return retry_after (whole seconds) without recording."""
        checks = [(self._chat.setdefault(chat_id, deque()), self.per_chat), (self._all, self.overall)]
        if is_group:
            checks.append((self._chat[chat_id], self.per_group))
        wait = 0.0
        for stamps, (limit, window) in checks:
            horizon = now - window * (1 - self.slack)
            recent = [t for t in stamps if t > horizon]
            if len(recent) >= limit:
                wait = max(wait, recent[-limit] - horizon)
        if wait > 0:
            return max(1, int(wait + 0.999))
        for stamps, _ in checks[:2]:
            stamps.append(now)
            while stamps and stamps[0] < now - 120:
                stamps.popleft()
        return None
