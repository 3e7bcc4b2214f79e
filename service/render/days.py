"""Texts of games that last days (`service.play.autopilot`, `days_commands`, `pause`, `away`, `quiet`): the marks
beside a seat's name, the paused board, and the buttons of a substitute call and of the confirmations."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from babel.dates import format_date

from service.callback import pack_lobby
from service.chat.base import Button, Keyboard
from service.render import i18n


def t(lang: str | None, msgid: str, **kwargs: Any) -> str:
    return i18n.t(lang, msgid, **kwargs)


def mark(lang: str | None, pilot: str | None, away_until: datetime | None, now: datetime) -> str:
    """"🤖 (left)" when the autopilot plays the seat, "🏖 until Friday" while its owner is away, else ""."""
    if pilot:
        return t(lang, f"days.mark.{pilot}")
    if away_until is not None and away_until > now:
        return t(lang, "days.mark.vacation", until=until(lang, away_until, now))
    return ""


def until(lang: str | None, when: datetime, now: datetime) -> str:
    """A day in words: its weekday within the coming week, else its date."""
    locale = i18n.normalize(lang)
    if when - now < timedelta(days=6):
        return format_date(when, "EEEE", locale=locale)
    return format_date(when, "medium", locale=locale)


def paused_board(lang: str | None, board: str) -> str:
    return f"{t(lang, 'days.paused_mark')}\n{board}"


def substitute_call(lang: str | None, game_id: int, seat: int, name: str) -> tuple[str, Keyboard]:
    """The group's call for a substitute, with the button that offers to take the seat."""
    button = Button(t(lang, "days.button.sub"), pack_lobby(game_id, "sub", str(seat)))
    return t(lang, "days.sub_wanted", name=name, game_id=game_id), [[button]]


def confirm(
    lang: str | None, game_id: int, verb: str, index: int, user_id: int, msgid: str, **kw: Any
) -> tuple[str, Keyboard]:
    """A question in a person's direct chat with one button that confirms it; the button names the seat and the
    person, so it does nothing in anyone else's hands (`service.play.days_commands`)."""
    button = Button(t(lang, f"days.button.{verb}"), pack_lobby(game_id, verb, f"{index}_{user_id}"))
    return t(lang, msgid, game_id=game_id, **kw), [[button]]


def buttons(keyboard: Keyboard) -> list[list[list[str]]]:
    return [[[b.label, b.data] for b in row] for row in keyboard]
