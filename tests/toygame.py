"""A tiny game implementing `engine.core.Game`, for testing the backbone without the real engines.

Seats take turns adding 1-3 to a total; a drawn secret card goes privately to the adder. Each time the total
crosses a multiple of 5, a response window asks every seat to "ack" or "pass". Silence is on while
(total // 5) is odd. The game ends when the total reaches `target`.
"""

from __future__ import annotations

import copy
import random
from typing import Any

from engine.core import RESPONSE, TURN, Action, Game, IllegalAction, Prompt
from engine.core.events import Event, private, public


class ToyGame(Game):
    name = "toy"
    rule_prefix = "T"
    min_players = 2
    max_players = 4

    def new_game(self, config: dict[str, Any], seed: int) -> dict[str, Any]:
        n = config["players"]
        if not (self.min_players <= n <= self.max_players):
            raise ValueError("players")
        rng = random.Random(seed)
        return {
            "n": n,
            "target": config.get("target", 12),
            "total": 0,
            "turn": 0,
            "window": [],
            "secret": [rng.randint(1, 9) for _ in range(n)],
            "silence": False,
            "rng": rng,
        }

    def pending(self, state: dict[str, Any]) -> list[Prompt]:
        if self.result(state) is not None:
            return []
        if state["window"]:
            return [Prompt(s, "ack", RESPONSE) for s in state["window"]]
        return [Prompt(state["turn"], "add", TURN)]

    def legal_actions(self, state: dict[str, Any], seat: int) -> list[Action]:
        if self.result(state) is not None:
            return []
        if state["window"]:
            return [Action("ack"), Action("pass")] if seat in state["window"] else []
        return [Action("add", (n,)) for n in (1, 2, 3)] if seat == state["turn"] else []

    def apply(self, state: dict[str, Any], seat: int, action: Action) -> tuple[dict[str, Any], list[Event]]:
        if action not in self.legal_actions(state, seat):
            raise IllegalAction("T-TURN", "not a legal action for this seat now")
        if action.kind in ("ack", "pass"):
            state["window"].remove(seat)
            return state, [public("answered", seat=seat)]
        before = state["total"]
        state["total"] += action.args[0]
        card = state["rng"].randint(1, 9)
        state["secret"][seat] = card
        events = [public("added", seat=seat, n=action.args[0], total=state["total"]), private("drew", seat, card=card)]
        if before // 5 != state["total"] // 5 and state["total"] < state["target"]:
            state["window"] = list(range(state["n"]))
        state["silence"] = (state["total"] // 5) % 2 == 1
        state["turn"] = (state["turn"] + 1) % state["n"]
        return state, events

    def view(self, state: dict[str, Any], seat: int | None) -> dict[str, Any]:
        v = {
            "total": state["total"],
            "turn": state["turn"],
            "silence": state["silence"],
            "seats": list(range(state["n"])),
        }
        if seat is None:
            v["waiting"] = len(state["window"])
        else:
            v["secret"] = state["secret"][seat]
        return v

    def result(self, state: dict[str, Any]) -> dict[str, Any] | None:
        if state["total"] >= state["target"] and not state["window"]:
            return {"winner": "loyal", "total": state["total"]}
        return None

    def snapshot(self, state: dict[str, Any]) -> dict[str, Any]:
        snap = {k: v for k, v in state.items() if k != "rng"}
        snap["rng"] = repr(state["rng"].getstate())
        return snap

    def resample_hidden(self, state: dict[str, Any], seat: int | None, rng: random.Random) -> dict[str, Any]:
        return copy.deepcopy(state)

    def timeout_action(self, state: dict[str, Any], seat: int) -> Action:
        return Action("pass") if state["window"] else Action("add", (1,))


def register() -> None:
    """Make `engine.get_game("toy")` return this game (idempotent)."""
    import engine

    engine.GAMES["toy"] = "toygame:ToyGame"
    engine._loaded.pop("toy", None)
