"""The knights' powers that need a decision of their own (digest §8, B-KNIGHT): Sir Kay's card at a fight's end."""

from __future__ import annotations

from engine.board import catalogue as cat
from engine.board import known, ops
from engine.board.frames import Events, Frame, decision
from engine.board.quests.fight import fight_values
from engine.board.state import BoardState
from engine.core.actions import Action
from engine.core.events import public


@decision("kay", rule="B-KNIGHT")
class _Kay:
    """Sir Kay adds one fight card of any value at a fight's end (even out of turn), or passes."""

    @staticmethod
    def who(s: BoardState, frame: Frame) -> list[int]:
        return [frame["seat"]]

    @staticmethod
    def legal(s: BoardState, frame: Frame, seat: int) -> list[Action]:
        return [Action("pass")] + [Action("kay", (v,)) for v in fight_values(s.hands[seat])]

    @staticmethod
    def act(s: BoardState, frame: Frame, seat: int, action: Action, ev: Events) -> None:
        s.frames.pop()
        if action.kind == "kay":
            card = cat.FIGHT[action.args[0]]
            ops.discard_card(s, seat, card, known.EVERYONE)
            s.frames[-1]["bonus"] += action.args[0]
            ev.append(public("kay_card", seat=seat, card=card))

    @staticmethod
    def timeout(s: BoardState, frame: Frame, seat: int) -> Action:
        return Action("pass")
