"""Helpers of the days tests: people who type commands and tap what they were sent, through the backbone's front
door (`dispatch.submit`), on the recording adapter ("rec")."""

from __future__ import annotations

import itertools
from typing import Any

from service.callback import LobbyTap, unpack
from service.chat.base import Inbound
from service.chat.recording import Call
from service.play.dispatch import submit
from service.store import games as game_rows
from service.store import session_scope
from service.store.models import GameRow, Seat

_ids = itertools.count(1)


def command(user: str, name: str, *args: str, group: bool = False, chat: str = "grp") -> None:
    where = chat if group else f"dm-{user}"
    submit(Inbound("rec", where, user, f"c{next(_ids)}", "command", command=name, args=args, is_group=group))


def tap(user: str, data: str, group: bool = False, chat: str = "grp") -> None:
    where = chat if group else f"dm-{user}"
    submit(Inbound("rec", where, user, f"t{next(_ids)}", "tap", text=data, is_group=group))


def buttons(calls: list[Call], verb: str | None = None) -> list[str]:
    """The data of every button in `calls` (a lobby verb's only, if given), newest last."""
    found = [b.data for c in calls for row in c.buttons or [] for b in row]
    if verb is None:
        return found
    return [d for d in found if isinstance(tapped := unpack(d), LobbyTap) and tapped.verb == verb]


def seat(game_id: int, number: int) -> Seat:
    with session_scope() as s:
        return next(row for row in game_rows.seats_of(s, game_id) if row.seat == number)


def game(game_id: int) -> GameRow:
    with session_scope() as s:
        return s.get(GameRow, game_id)


def texts(calls: list[Call]) -> list[str]:
    return [c.text for c in calls]


def options(game_id: int) -> dict[str, Any]:
    return dict(game(game_id).options)
