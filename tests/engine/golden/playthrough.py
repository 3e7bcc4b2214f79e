"""Golden playthroughs: a complete game written as readable text, and its replay against today's engine.

A file holds a header (the game, its config and seed, the bots and the scripted opening that produced it) and then
one block per step: the seat and the action code it played, every event with its audience (`public`, or `to 0,2`),
and after it the public view's digest and who is asked what now. The last line is the result. `record` plays a spec
with its bots and writes that text; `replay` plays the file's own actions again and rewrites each block, so the
first block that differs is the first behaviour that changed (an action refused counts as a difference too).
"""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import dataclass, field
from typing import Any

from engine import get_game, soak
from engine.bots import heuristic_bot
from engine.core.errors import IllegalAction
from engine.core.events import Event
from engine.core.game import Game

MAX_STEPS = 5_000  # a spec whose game runs longer is a broken spec, not a golden


@dataclass(frozen=True)
class Spec:
    """How a golden was produced: `bots` is "heuristic", "random", "mixed" (each seat drawn from the seed) or
    "loyal" (heuristic bots playing as if loyal); `opening` is (seat, code) moves played before the bots take over,
    to reach a situation that bots meet rarely."""

    game: str
    name: str
    about: str
    config: dict[str, Any]
    seed: int
    bots: str = "heuristic"
    opening: tuple[tuple[int, str], ...] = field(default_factory=tuple)


def _json(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def view_digest(game: Game, state: Any) -> str:
    """A short digest of everything the public view shows (16 hex digits are plenty to see a change)."""
    return hashlib.sha256(_json(game.view(state, None)).encode()).hexdigest()[:16]


def _event_line(event: Event) -> str:
    audience = "public" if event.to is None else "to " + ",".join(str(s) for s in sorted(event.to))
    return f"  {audience:<8} {event.kind} {_json(event.data)}"


def _after(game: Game, state: Any) -> str:
    asked = " ".join(f"{p.seat}:{p.kind}" for p in game.pending(state)) or "-"
    return f"  view {view_digest(game, state)}  asked {asked}"


def block(game: Game, state: Any, step: int, move: tuple[int, str] | None, events: list[Event]) -> list[str]:
    """The lines of one step (`move` None: the deal)."""
    head = f"{step} start" if move is None else f"{step} seat {move[0]}  {move[1]}"
    return [head, *(_event_line(e) for e in events), _after(game, state)]


def header(spec: Spec) -> list[str]:
    return [
        "# Golden playthrough (tests/engine/golden). Do not edit by hand: regenerate deliberately with",
        f"#   PYTHONPATH=$PWD python3 -m tests.engine.golden --regenerate {spec.game}",
        f"game: {spec.game}",
        f"name: {spec.name}",
        f"about: {spec.about}",
        f"config: {_json(spec.config)}",
        f"seed: {spec.seed}",
        f"bots: {spec.bots}",
        f"opening: {_json([list(m) for m in spec.opening])}",
        "",
    ]


def _start(game: Game, config: dict[str, Any], seed: int) -> tuple[Any, list[Event]]:
    start = getattr(game, "start", None)  # the board game reports its deal's events; the card game has none
    return start(config, seed) if start else (game.new_game(config, seed), [])


def _bots(spec: Spec) -> dict[int, Any]:
    """The seats' bots, as the soak seats them (`mixed`: each seat's kind drawn from the seed)."""
    if spec.bots == "loyal":
        bots: Any = heuristic_bot(spec.game, as_loyal=True)
    else:
        bots = soak.bots_for(spec.game, spec.bots, spec.config, spec.seed)
    return bots if isinstance(bots, dict) else {seat: bots for seat in range(spec.config["players"])}


def record(spec: Spec) -> str:
    """Play `spec` (its opening, then its bots from fixed seeds) on today's engine and write the playthrough."""
    game = get_game(spec.game)
    bots = _bots(spec)
    rng = random.Random(spec.seed ^ 0x5EED)
    state, events = _start(game, spec.config, spec.seed)
    lines = header(spec) + block(game, state, 0, None, events)
    opening = list(spec.opening)
    for step in range(1, MAX_STEPS + 1):
        if game.result(state) is not None:
            break
        if opening:
            seat, code = opening.pop(0)
        else:
            seat = game.pending(state)[0].seat
            code = game.encode(bots[seat].choose(game, state, seat, rng))
        state, events = game.apply_code(state, seat, code)
        lines += block(game, state, step, (seat, code), events)
    else:
        raise RuntimeError(f"{spec.game}/{spec.name}: no result after {MAX_STEPS} steps")
    lines.append(f"result: {_json(game.result(state))}")
    return "\n".join(lines) + "\n"


@dataclass
class Difference:
    step: int
    expected: list[str]
    got: list[str]

    def __str__(self) -> str:
        return (
            f"first difference at step {self.step}\n--- recorded\n" + "\n".join(self.expected)
            + "\n+++ today's engine\n" + "\n".join(self.got)
        )


def parse(text: str) -> tuple[dict[str, str], list[list[str]], str]:
    """(header fields, step blocks, result line) of a playthrough file."""
    head: dict[str, str] = {}
    blocks: list[list[str]] = []
    result = ""
    for line in text.splitlines():
        if line.startswith("#") or not line:
            continue
        if line.startswith("result: "):
            result = line
        elif line.startswith("  "):
            blocks[-1].append(line)
        elif line[0].isdigit():
            blocks.append([line])
        else:
            key, _, value = line.partition(": ")
            head[key] = value
    return head, blocks, result


def replay(text: str) -> Difference | None:
    """Play the file's recorded actions on today's engine; the first step that comes out differently, or None."""
    head, blocks, result = parse(text)
    game = get_game(head["game"])
    state, events = _start(game, json.loads(head["config"]), int(head["seed"]))
    got = block(game, state, 0, None, events)
    if got != blocks[0]:
        return Difference(0, blocks[0], got)
    for recorded in blocks[1:]:
        step, _, seat, code = recorded[0].split(maxsplit=3)
        move = (int(seat), code.strip())
        try:
            state, events = game.apply_code(state, *move)
        except IllegalAction as err:
            return Difference(int(step), recorded, [recorded[0], f"  refused: {err}"])
        got = block(game, state, int(step), move, events)
        if got != recorded:
            return Difference(int(step), recorded, got)
    final = f"result: {_json(game.result(state))}"
    if final != result:
        return Difference(len(blocks), [result], [final])
    return None
