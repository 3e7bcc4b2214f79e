"""Time left in words, for a person's question, reminders and the board ("⏳ 21 h left")."""

from __future__ import annotations

import math

from service.render.i18n import t, tn

MINUTE = 60.0
HOUR = 3600.0
DAY = 24 * HOUR
# The board's figure: whole hours down to this, then tens of minutes down to the last ten, then minutes.
BOARD_HOURS_FROM = 50 * MINUTE
BOARD_MINUTE_STEP = 10


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


def board_left(lang: str | None, seconds: float) -> str:
    """The pinned board's clock line, coarser than `time_left` because the board is edited in place each time it
    changes: whole days past two days, whole hours past 50 minutes, then tens of minutes (rounded up), then whole
    minutes in the last ten (rounded up). A 24-hour turn is edited about 25 times, a 2-minute window once."""
    if seconds > BOARD_HOURS_FROM:
        return time_left(lang, max(seconds, HOUR))
    minutes = max(1, math.ceil(seconds / MINUTE))
    if minutes > BOARD_MINUTE_STEP:
        minutes = math.ceil(minutes / BOARD_MINUTE_STEP) * BOARD_MINUTE_STEP
    return t(lang, "clock.left", left=tn(lang, "clock.minutes", minutes))
