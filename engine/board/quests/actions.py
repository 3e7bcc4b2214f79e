"""Heroic action type B, the quest action (digest §3, §6, B-QUEST): what a knight may do where he stands, routed to
the rules of that place — the Round Table's draw or the siege at Camelot, a fight card on a fight quest or in a war,
any card to push Excalibur, a Grail card on the Grail."""

from __future__ import annotations

from types import ModuleType

from engine.board import catalogue as cat
from engine.board import siege
from engine.board.frames import Events
from engine.board.quests import excalibur, fight, grail, wars
from engine.board.state import BoardState
from engine.core.actions import Action

AT: dict[str, ModuleType] = {
    cat.CAMELOT: siege, "black_knight": fight, "lancelot": fight, "dragon": fight, "excalibur": excalibur,
    "grail": grail, "picts": wars, "saxons": wars,
}
"""The module whose `actions(state, seat)` and `act(state, seat, action, events)` are a location's quest actions."""


def quest_actions(s: BoardState, seat: int) -> list[Action]:
    return AT[s.loc[seat]].actions(s, seat)


def do_quest_action(s: BoardState, seat: int, action: Action, ev: Events) -> None:
    AT[s.loc[seat]].act(s, seat, action, ev)
