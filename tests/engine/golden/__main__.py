"""`python3 -m tests.engine.golden --regenerate [game ...]` rewrites golden files; `--check` replays them."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .playthrough import record, replay
from .specs import SPECS

HERE = Path(__file__).resolve().parent


def path_of(game: str, name: str) -> Path:
    return HERE / game / f"{name}.txt"


def regenerate(games: list[str]) -> None:
    """Play every spec of `games` again with its bots and write its file (stale files of a game are removed)."""
    for game in games:
        folder = HERE / game
        folder.mkdir(exist_ok=True)
        keep = set()
        for spec in SPECS[game]:
            path = path_of(game, spec.name)
            text = record(spec)
            changed = not path.exists() or path.read_text() != text
            path.write_text(text)
            keep.add(path.name)
            print(f"{'changed' if changed else 'same   '} {path.relative_to(HERE)} ({text.count(chr(10))} lines)")
        for stale in folder.glob("*.txt"):
            if stale.name not in keep:
                stale.unlink()
                print(f"removed {stale.relative_to(HERE)}")


def check(games: list[str]) -> int:
    failures = 0
    for game in games:
        for spec in SPECS[game]:
            diff = replay(path_of(game, spec.name).read_text())
            if diff is not None:
                failures += 1
                print(f"{game}/{spec.name}: {diff}\n")
    print(f"{failures} golden playthrough(s) differ")
    return 1 if failures else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    action = parser.add_mutually_exclusive_group(required=True)
    action.add_argument("--regenerate", action="store_true", help="rewrite the files from their specs")
    action.add_argument("--check", action="store_true", help="replay the files against today's engine")
    parser.add_argument("games", nargs="*", help=f"some of {', '.join(SPECS)} (default: all)")
    args = parser.parse_args(argv)
    if set(args.games) - set(SPECS):
        parser.error(f"unknown game(s): {', '.join(sorted(set(args.games) - set(SPECS)))}")
    games = args.games or list(SPECS)
    if args.regenerate:
        regenerate(games)
        return 0
    return check(games)


if __name__ == "__main__":
    sys.exit(main())
