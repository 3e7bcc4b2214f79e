"""Excalibur (digest §6, B-QUEST): a track pushed towards the knights by discarding any white card there, and back
towards the lake by the Excalibur black card; won at the far end (the relic to the pusher), lost at the near one."""

from __future__ import annotations

from engine.board import catalogue as cat
from engine.board import ops
from engine.board.frames import Events
from engine.board.quests import rewards
from engine.board.state import BoardState
from engine.core.actions import Action
from engine.core.events import public


def actions(s: BoardState, seat: int) -> list[Action]:
    return [Action("excal", (c,)) for c in sorted(set(s.hands[seat]))]


def act(s: BoardState, seat: int, action: Action, ev: Events) -> None:
    ops.discard_card(s, seat, action.args[0], ())  # which card pushed Excalibur is not shown
    ev.append(public("excalibur_push", seat=seat))
    move(s, 1, seat, ev)


def move(s: BoardState, delta: int, by: int | None, ev: Events) -> None:
    s.excalibur_position += delta
    ev.append(public("excalibur_moved", position=s.excalibur_position, delta=delta))
    if s.excalibur_position >= cat.EXCALIBUR_WIN:
        rewards.end_quest(s, "excalibur", True, by, ev)
    elif s.excalibur_position <= 0:
        rewards.end_quest(s, "excalibur", False, None, ev)


def black_card(s: BoardState, ev: Events) -> None:
    """The Excalibur black card moves the sword one step back towards the lake."""
    s.black_discard.append("excalibur")
    move(s, -1, None, ev)


def clear(s: BoardState, quest: str) -> None:
    s.excalibur_done = True
