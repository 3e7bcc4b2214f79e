"""The registry of frame kinds: decisions (someone must choose) and automatic steps.

A decision kind registers `who` (seats asked now; the current player when it names none), `legal` (their actions)
and `act` (apply one answer); `timeout` gives the safe default for response windows. An automatic kind registers
one function that runs when its frame reaches the top of the stack. Rule modules fill these tables at import time.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.board.state import BoardState
from engine.core.actions import Action
from engine.core.events import Event

Frame = dict[str, Any]
Events = list[Event]


@dataclass(frozen=True)
class Decision:
    who: Callable[[BoardState, Frame], list[int]]
    legal: Callable[[BoardState, Frame, int], list[Action]]
    act: Callable[[BoardState, Frame, int, Action, Events], None]
    rule: str  # rule id cited when an answer is illegal
    turn: bool = False  # the current player's own decision (TURN timing) rather than a response window
    timeout: Callable[[BoardState, Frame, int], Action] | None = None


DECISIONS: dict[str, Decision] = {}
AUTO: dict[str, Callable[[BoardState, Frame, Events], None]] = {}


def current_player(s: BoardState, frame: Frame) -> list[int]:
    return [s.current]


def decision(kind: str, **kw: Any) -> Callable[[Any], Any]:
    """Register a decision kind from a namespace class with `legal`, `act` (and optional `who`, `timeout`)."""

    def register(ns: Any) -> Any:
        DECISIONS[kind] = Decision(
            who=getattr(ns, "who", current_player), legal=ns.legal, act=ns.act, timeout=getattr(ns, "timeout", None),
            **kw,
        )
        return ns

    return register


def auto(kind: str) -> Callable[[Any], Any]:
    def register(fn: Any) -> Any:
        AUTO[kind] = fn
        return fn

    return register
