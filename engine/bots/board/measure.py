"""Measure the board bot: seeded bot-only games per setting, printing the Loyal win rate, swords and causes of loss.

`python -m engine.bots.board.measure --games 100 --players 5` (each seat plays its true loyalty, the Traitor
as a Traitor); `--as-loyal` makes every seat play loyal; `--traitor none|among_us` picks the variant.
"""

from __future__ import annotations

import argparse
import time
from collections import Counter
from typing import Any

from engine import get_game
from engine.bots.board_heuristic import BoardHeuristicBot
from engine.core.simulate import play_game


def measure(
    games: int, players: int, traitor: str = "standard", as_loyal: bool = False, first_seed: int = 0
) -> dict[str, Any]:
    """Play `games` seeded games and sum up their results."""
    game = get_game("board")
    bot = BoardHeuristicBot(as_loyal=as_loyal)
    wins, capped, decisions = 0, 0, 0
    white = black = engines = 0
    reasons: Counter = Counter()
    start = time.perf_counter()
    for seed in range(first_seed, first_seed + games):
        played = play_game(game, {"players": players, "traitor": traitor}, seed, bot, record=False)
        decisions += played.state.turns
        result = played.state.result
        if result is None:
            capped += 1
            continue
        wins += result["winner"] == "loyal"
        reasons[result["winner"] + ":" + result["reason"]] += 1
        white += result["swords"]["white"]
        black += result["swords"]["black"]
        engines += result["siege_engines"]
    return {
        "games": games, "loyal_wins": wins, "rate": wins / games, "capped": capped,
        "white": white / games, "black": black / games, "engines": engines / games,
        "reasons": dict(reasons.most_common()), "turns": decisions / games,
        "seconds": time.perf_counter() - start,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--traitor", default="standard", choices=("standard", "none", "among_us"))
    parser.add_argument("--as-loyal", action="store_true")
    parser.add_argument("--first-seed", type=int, default=0)
    args = parser.parse_args()
    out = measure(args.games, args.players, args.traitor, args.as_loyal, args.first_seed)
    label = f"{args.players}p {args.traitor}{' as-loyal' if args.as_loyal else ''}"
    print(
        f"{label}: loyal {out['loyal_wins']}/{out['games']}"
        f" = {out['rate']:.0%}, swords white {out['white']:.1f} black {out['black']:.1f},"
        f" engines {out['engines']:.1f}, turns {out['turns']:.0f}, capped {out['capped']}, {out['seconds']:.1f}s"
    )
    print("  ", out["reasons"])


if __name__ == "__main__":
    main()
