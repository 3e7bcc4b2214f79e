"""Camelot (digest §6, B-CAMELOT): the quest actions of a knight at the Round Table — draw two white cards (Gawain
three) below twelve in hand, or fight a siege engine: any number of fight cards, then the d8; the sum (+1 with
Excalibur, + Sir Kay's card) must beat the roll to remove an engine, else the knight loses a life."""

from __future__ import annotations

from engine.board import catalogue as cat
from engine.board import ops
from engine.board.frames import Events, Frame, auto, decision
from engine.board.quests.fight import fight_values
from engine.board.state import BoardState
from engine.core.actions import Action
from engine.core.events import public

_DRAW, _SIEGE = Action("draw"), Action("siege")


def actions(s: BoardState, seat: int) -> list[Action]:
    if len(s.hands[seat]) < cat.ROUND_TABLE_HAND_LIMIT and (s.white_deck or s.white_discard):
        return [_DRAW, _SIEGE]
    return [_SIEGE]


def act(s: BoardState, seat: int, action: Action, ev: Events) -> None:
    if action.kind == "draw":
        k = cat.GAWAIN_DRAW if s.knight[seat] == "gawain" else cat.ROUND_TABLE_DRAW
        ops.deal_white(s, seat, k, ev, "round_table")
    else:
        ops.push(s, {"kind": "siege", "cards": []})


@decision("siege", rule="B-CAMELOT", turn=True)
class _Siege:
    """Play any number of fight cards, then roll the d8: the sum (+1 with Excalibur) must beat the roll."""

    @staticmethod
    def who(s: BoardState, frame: Frame) -> list[int]:
        return [s.current]

    @staticmethod
    def legal(s: BoardState, frame: Frame, seat: int) -> list[Action]:
        return [Action("roll")] + [Action("add", (v,)) for v in fight_values(s.hands[seat])]

    @staticmethod
    def act(s: BoardState, frame: Frame, seat: int, action: Action, ev: Events) -> None:
        if action.kind == "add":
            frame["cards"].append(ops.play_white(s, seat, cat.FIGHT[action.args[0]], "siege", ev))
            return
        s.frames.pop()
        roll = ops.roll_die(s)
        ev.append(public("siege_roll", seat=seat, roll=roll, cards=list(frame["cards"])))
        result = {"kind": "siege_result", "cards": frame["cards"], "roll": roll, "bonus": 0}
        if s.knight[seat] == "kay" and fight_values(s.hands[seat]) and seat not in s.doomed:
            ops.push(s, {"kind": "kay", "seat": seat}, result)
        else:
            ops.push(s, result)


@auto("siege_result")
def _siege_result(s: BoardState, frame: Frame, ev: Events) -> None:
    seat = s.current
    total = sum(cat.FIGHT_VALUE[c] for c in frame["cards"]) + frame["bonus"]
    total += 1 if ops.relic_holder(s, "excalibur") == seat else 0
    s.white_discard.extend(frame["cards"])
    won = total > frame["roll"]
    ev.append(public("siege_fight", seat=seat, total=total, roll=frame["roll"], won=won))
    if won:
        if s.engines:
            s.engines -= 1
            ev.append(public("siege_engines", count=-1, total=s.engines, why="siege"))
    else:
        ops.change_life(s, seat, -1, ev, "siege")
