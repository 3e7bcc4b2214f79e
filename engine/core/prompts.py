"""Prompts: who must decide what now. Several seats may be prompted at once (response windows)."""

from __future__ import annotations

from typing import NamedTuple

TURN = "turn"
"""Timing class of the current player's own decisions (deadline e.g. 24 h; timeout: a bot plays as if loyal)."""
RESPONSE = "response"
"""Timing class of out-of-turn windows (deadline e.g. 1 h; timeout: the safe default, usually `pass`)."""


class Prompt(NamedTuple):
    seat: int
    kind: str  # decision kind, e.g. "evil", "heroic", "merlin_window", "grail_rescue"
    timing: str = TURN  # TURN or RESPONSE: which deadline and timeout policy applies
