"""Engine benchmark: random complete games on one core, with a same-run reference workload.

    python -m bench.engine --game board --players 5 --seconds 10

Prints games/s, actions/s and µs per action, and the time of a fixed pure-Python reference workload
measured in the same run, so figures can be compared across noisy machines as ratios.
"""

from __future__ import annotations

import argparse
import random
import time
from dataclasses import dataclass

from engine import get_game
from engine.bots.random_bot import RandomBot
from engine.core.simulate import play_game

REFERENCE_UNITS = 20_000


def reference_workload(units: int = REFERENCE_UNITS) -> float:
    """A fixed mix of what engines do (small-list shuffles, dict and list traffic, method calls); returns seconds."""
    rng = random.Random(1234)
    deck = list(range(60))
    start = time.perf_counter()
    acc: dict[int, int] = {}
    for i in range(units):
        rng.shuffle(deck)
        hand = deck[:6]
        acc[i & 255] = acc.get(i & 255, 0) + sum(hand) + len([c for c in hand if c & 1])
    return time.perf_counter() - start


def reference_cpu_seconds(runs: int = 3) -> float:
    """The least CPU time of `runs` reference workloads: unlike wall time, not stretched by other load or by a host
    that lends our CPU out (steal), so it tells how fast this machine's CPU is right now (the pipeline benchmarks
    print it beside their figures)."""
    best = float("inf")
    for _ in range(runs):
        started = time.process_time()
        reference_workload()
        best = min(best, time.process_time() - started)
    return best


@dataclass
class BenchResult:
    games: int
    actions: int
    seconds: float
    capped: int
    reference_s: float

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds

    @property
    def actions_per_s(self) -> float:
        return self.actions / self.seconds

    @property
    def us_per_action(self) -> float:
        return 1e6 * self.seconds / max(self.actions, 1)

    def report(self, game: str, players: int) -> str:
        return "\n".join(
            [
                f"game={game} players={players} games={self.games} actions={self.actions} capped={self.capped}",
                f"games/s      {self.games_per_s:10.1f}",
                f"actions/s    {self.actions_per_s:10.0f}",
                f"us/action    {self.us_per_action:10.2f}",
                f"reference    {self.reference_s * 1e3:10.2f} ms ({REFERENCE_UNITS} units, same run)",
                f"ratio        {self.seconds / self.games / self.reference_s:10.4f} game time / reference time",
            ]
        )


def run(game_name: str, players: int, seconds: float, config: dict | None = None, seed: int = 1) -> BenchResult:
    game = get_game(game_name)
    cfg = {"players": players, **(config or {})}
    bot = RandomBot()
    ref = min(reference_workload() for _ in range(3))
    games = actions = capped = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        played = play_game(game, cfg, seed + games, bot, record=True)
        games += 1
        actions += len(played.log)
        capped += played.capped
    elapsed = time.perf_counter() - start
    ref = min(ref, reference_workload())
    return BenchResult(games, actions, elapsed, capped, ref)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", choices=["board", "cards"], default="board")
    parser.add_argument("--players", type=int, default=None, help="default: 5 for board, 4 for cards")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    players = args.players or (5 if args.game == "board" else 4)
    print(run(args.game, players, args.seconds, seed=args.seed).report(args.game, players))


if __name__ == "__main__":
    main()
