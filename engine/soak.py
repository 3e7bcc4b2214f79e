"""Soak: many random complete games, checking the invariants that matter; prints every failing seed.

    python -m engine.soak --game board --games 1000000 [--start 0] [--every 1000] [--bot random|heuristic|mixed]

Not part of CI (it runs for hours). A failure names the game, bots, config and seed, so
`play_game(get_game(name), config, seed, bots_for(name, bot, config, seed))` reproduces it exactly. Random bots
reach every legal action; heuristic ones (the seats' bots and the timeout policy) play the games' long lines
(quests finished, accusations, the last rounds), and "mixed" seats both kinds at one table.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import traceback
from typing import Any

from engine import get_game
from engine.bots import RandomBot, heuristic_bot
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
BOTS = ("random", "heuristic", "mixed")


def config_for(game: str, seed: int) -> dict:
    rng = random.Random(seed)
    players = rng.choice(list(PLAYERS[game]))
    config = {"players": players, **rng.choice(VARIANTS[game])}
    if game == "board" and players == 3 and rng.random() < 0.5:
        config.setdefault("variant", {})
        trigger = rng.choice(("swords_or_engines", "swords"))
        config["variant"] = {**config["variant"], "three_player_rule": True, "three_player_trigger": trigger}
    return config


def bots_for(game_name: str, bot: str, config: dict, seed: int) -> Any:
    """The table's bots: one kind for every seat, or ("mixed") each seat's kind drawn from the seed."""
    if bot == "random":
        return RandomBot()
    if bot == "heuristic":
        return heuristic_bot(game_name)
    rng = random.Random(f"bots:{seed}")
    return {seat: heuristic_bot(game_name) if rng.random() < 0.5 else RandomBot() for seat in range(config["players"])}


def check(game_name: str, seed: int, bot: str = "random") -> str | None:
    """Play one game and check it ends and replays to the same digest; return an error text or None."""
    game = get_game(game_name)
    config = config_for(game_name, seed)
    where = f"bot={bot} seed={seed} config={config}"
    try:
        played = play_game(game, config, seed, bots_for(game_name, bot, config, seed))
        if played.capped:
            return f"{where}: did not end within the action cap"
        if game.digest(game.replay(config, seed, played.log)) != game.digest(played.state):
            return f"{where}: replay digest differs"
    except Exception:  # noqa: BLE001 - the soak reports every failure with its seed
        return f"{where}:\n{traceback.format_exc()}"
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", choices=["board", "cards"], default="board")
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--every", type=int, default=1000, help="progress line every N games")
    parser.add_argument("--bot", choices=BOTS, default="random", help="the seats' bots")
    args = parser.parse_args(argv)
    failures = 0
    started = time.perf_counter()
    for i, seed in enumerate(range(args.start, args.start + args.games), 1):
        error = check(args.game, seed, args.bot)
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
