"""The Black Knight (digest §6, B-QUEST): a perpetual solo fight of two pairs of fight cards against four black
cards; its fight mechanics are `fight`'s."""

from __future__ import annotations

from engine.board import catalogue as cat
from engine.board.state import BoardState

QUEST = "black_knight"


def rows(s: BoardState) -> tuple[list[str], list[list]]:
    """The white cards played and the black cards placed ([card, face_down, drawer])."""
    return s.black_knight_white, s.black_knight_black


def black_value(card: str) -> int:
    return cat.BLACK_KNIGHT_VALUE[card]


def cleared(s: BoardState) -> None:
    """It stays open after its end: a new fight starts on an empty quest."""
