"""Lancelot (digest §6, B-QUEST): a solo fight of a triple and a pair against five Lancelot/Dragon cards; won or
lost, the quest turns over to the Dragon. Its relic, Lancelot's Armor, lets its holder draw two black cards in his
Evil phase and keep one (B-KNIGHT)."""

from __future__ import annotations

from engine.board import blacks, ops
from engine.board import catalogue as cat
from engine.board.frames import Events, Frame, auto, decision
from engine.board.state import BoardState
from engine.core.actions import Action
from engine.core.events import private, public

QUEST = "lancelot"


def rows(s: BoardState) -> tuple[list[str], list[list]]:
    return s.lancelot_white, s.lancelot_black


def black_value(card: str) -> int:
    return cat.LANCELOT_VALUE[card][0]


def cleared(s: BoardState) -> None:
    s.lancelot_stage = "dragon"


# --- Lancelot's Armor ----------------------------------------------------------------------------


@auto("armor_draw")
def _armor_draw(s: BoardState, frame: Frame, ev: Events) -> None:
    first = ops.draw_black(s)
    second = ops.draw_black(s) if first is not None else None
    if second is None:  # fewer than two black cards left in both piles: a plain draw
        if first is None:
            ops.add_engines(s, 1, ev, "no_black_card")
        else:
            blacks.drawn(s, first, False, ev)
        return
    cards = [first, second]
    ev.append(public("armor_draw", seat=s.current, count=2))
    ev.append(private("black_seen", s.current, cards=list(cards), why="armor"))
    ops.push(s, {"kind": "armor", "cards": cards})


@decision("armor", rule="B-KNIGHT", turn=True)
class _Armor:
    """The Armor's holder keeps one of the two black cards he drew (it is resolved as drawn); the other goes
    under the black deck, unseen by the others."""

    @staticmethod
    def who(s: BoardState, frame: Frame) -> list[int]:
        return [s.current]

    @staticmethod
    def legal(s: BoardState, frame: Frame, seat: int) -> list[Action]:
        return [Action("armor", (i,)) for i in range(len(frame["cards"]))]

    @staticmethod
    def act(s: BoardState, frame: Frame, seat: int, action: Action, ev: Events) -> None:
        s.frames.pop()
        cards = frame["cards"]
        kept = cards.pop(action.args[0])
        s.black_deck[:0] = cards
        ev.append(public("armor_kept", seat=seat))
        blacks.drawn(s, kept, False, ev)
