"""Time left in words, for a person's question, reminders and the board ("⏳ 21 h left")."""

from __future__ import annotations

from service.render.i18n import t, tn

HOUR = 3600.0
DAY = 24 * HOUR


def left_words(lang: str | None, seconds: float) -> str:
    """A duration as a phone shows it: whole days past two days, whole hours past an hour, else minutes (≥ 1)."""
    if seconds >= 2 * DAY:
        return tn(lang, "clock.days", round(seconds / DAY))
    if seconds >= HOUR:
        return tn(lang, "clock.hours", round(seconds / HOUR))
    return tn(lang, "clock.minutes", max(1, round(seconds / 60)))


def time_left(lang: str | None, seconds: float) -> str:
    """The clock line: "⏳ 21 h left"."""
    return t(lang, "clock.left", left=left_words(lang, seconds))
