"""The Dragon (digest §6, B-QUEST): Lancelot's quest turned over once it ended, a shared fight of three triples
against five Lancelot/Dragon cards (at their Dragon values); played once, then closed."""

from __future__ import annotations

from engine.board import catalogue as cat
from engine.board.state import BoardState

QUEST = "dragon"


def rows(s: BoardState) -> tuple[list[str], list[list]]:
    return s.lancelot_white, s.lancelot_black  # the same spots as Lancelot's, on the quest's other side


def black_value(card: str) -> int:
    return cat.LANCELOT_VALUE[card][1]


def cleared(s: BoardState) -> None:
    s.lancelot_stage = "done"
