"""Soak: many random complete games, checking the invariants that matter; prints every failing seed.

    python -m engine.soak --game board --games 1000000 [--start 0] [--every 1000]

Not part of CI (it runs for hours). A failure names the game, config and seed, so
`play_game(get_game(name), config, seed, RandomBot())` reproduces it exactly.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import traceback

from engine import get_game
from engine.bots.random_bot import RandomBot
from engine.core.simulate import play_game

VARIANTS = {
    "board": [
        {},
        {"variant": {"traitor": "none"}},
        {"variant": {"traitor": "among_us"}},
        {"variant": {"squires": True}},
        {"variant": {"war_any_order": True}},
    ],
    "cards": [{}, {"expert": True}],
}
PLAYERS = {"board": range(3, 8), "cards": range(1, 8)}


def config_for(game: str, seed: int) -> dict:
    rng = random.Random(seed)
    players = rng.choice(list(PLAYERS[game]))
    config = {"players": players, **rng.choice(VARIANTS[game])}
    if game == "board" and players == 3 and rng.random() < 0.5:
        config.setdefault("variant", {})
        config["variant"] = {**config["variant"], "three_player_rule": True}
    return config


def check(game_name: str, seed: int) -> str | None:
    """Play one game and check it ends and replays to the same digest; return an error text or None."""
    game = get_game(game_name)
    config = config_for(game_name, seed)
    try:
        played = play_game(game, config, seed, RandomBot())
        if played.capped:
            return f"seed={seed} config={config}: did not end within the action cap"
        if game.digest(game.replay(config, seed, played.log)) != game.digest(played.state):
            return f"seed={seed} config={config}: replay digest differs"
    except Exception:  # noqa: BLE001 - the soak reports every failure with its seed
        return f"seed={seed} config={config}:\n{traceback.format_exc()}"
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", choices=["board", "cards"], default="board")
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--every", type=int, default=1000, help="progress line every N games")
    args = parser.parse_args(argv)
    failures = 0
    started = time.perf_counter()
    for i, seed in enumerate(range(args.start, args.start + args.games), 1):
        error = check(args.game, seed)
        if error:
            failures += 1
            print(f"FAIL {args.game} {error}", flush=True)
        if i % args.every == 0:
            rate = i / (time.perf_counter() - started)
            print(f"{i} games, {failures} failures, {rate:.0f} games/s", file=sys.stderr, flush=True)
    print(f"{args.games} games, {failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
