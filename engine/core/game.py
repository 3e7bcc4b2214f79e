"""The protocol both games implement, with the parts that are truly the same written once.

Speed note: `apply` may mutate the state it is given and return it (the engines validate fully before
changing anything, so an `IllegalAction` leaves the state untouched). Callers that need the old state
keep a `copy` first.
"""

from __future__ import annotations

import copy as _copy
import hashlib
import json
import random
from abc import ABC, abstractmethod
from collections.abc import Iterable
from typing import Any

from engine.core import actions as _actions
from engine.core.actions import Action
from engine.core.errors import IllegalAction
from engine.core.events import Event
from engine.core.prompts import Prompt


class Game(ABC):
    name: str  # "board" or "cards"
    rule_prefix: str  # "B" or "C"
    min_players: int
    max_players: int

    # --- rules, per game -------------------------------------------------------------------------
    @abstractmethod
    def new_game(self, config: dict[str, Any], seed: int) -> Any: ...

    @abstractmethod
    def pending(self, state: Any) -> list[Prompt]: ...

    @abstractmethod
    def legal_actions(self, state: Any, seat: int) -> list[Action]: ...

    def standing_actions(self, state: Any, seat: int) -> list[Action]:
        """Actions `seat` may take now although it is not (necessarily) asked — e.g. the board game's Traitor
        unmasking himself with Fate at any moment of his turn. `apply` accepts them from that seat whatever is
        pending. They are never part of `legal_actions` of a seat that is not pending, so bots that play only when
        prompted and the pending/turn logic are unaffected; a game without such actions keeps this default."""
        return []

    @abstractmethod
    def apply(self, state: Any, seat: int, action: Action) -> tuple[Any, list[Event]]: ...

    @abstractmethod
    def view(self, state: Any, seat: int | None) -> dict[str, Any]: ...

    @abstractmethod
    def result(self, state: Any) -> dict[str, Any] | None: ...

    @abstractmethod
    def snapshot(self, state: Any) -> dict[str, Any]:
        """The whole state (secrets and RNG included) as JSON-able data; the digest is taken from it."""

    @abstractmethod
    def resample_hidden(self, state: Any, seat: int | None, rng: random.Random) -> Any:
        """A copy of `state` where everything `seat` may not know is re-dealt consistently."""

    @abstractmethod
    def timeout_action(self, state: Any, seat: int) -> Action:
        """What the service plays when `seat` misses its deadline: the safe default in response windows,
        otherwise the heuristic bot's choice as if the seat were loyal (a timeout reveals nothing)."""

    # --- shared machinery ------------------------------------------------------------------------
    def encode(self, action: Action) -> str:
        return _actions.encode(action)

    def decode(self, code: str) -> Action:
        return _actions.decode(code, f"{self.rule_prefix}-CODE")

    def label(self, action: Action) -> str:
        """Gettext key of the menu label for this action's kind; arguments are rendered by the service."""
        return f"{self.name}.action.{action.kind}"

    def copy(self, state: Any) -> Any:
        return _copy.deepcopy(state)

    def digest(self, state: Any) -> str:
        blob = json.dumps(self.snapshot(state), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(blob.encode()).hexdigest()

    def apply_code(self, state: Any, seat: int, code: str) -> tuple[Any, list[Event]]:
        """Decode and apply; a code that is not among the seat's legal actions raises IllegalAction."""
        return self.apply(state, seat, self.decode(code))

    def replay(self, config: dict[str, Any], seed: int, codes: Iterable[tuple[int, str]]) -> Any:
        """Rebuild a state from its record: config, seed and the ordered `(seat, code)` log."""
        state = self.new_game(config, seed)
        for seat, code in codes:
            state, _ = self.apply_code(state, seat, code)
        return state

    def is_over(self, state: Any) -> bool:
        return self.result(state) is not None

    def check_seat(self, state: Any, seat: int, action: Action) -> None:
        """Generic legality check usable by engines: the action must be among the seat's legal actions."""
        if action not in self.legal_actions(state, seat):
            raise IllegalAction(f"{self.rule_prefix}-TURN", "not a legal action for this seat now")
