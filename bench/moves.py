"""`camelot bench moves`: the worker's move alone (`service.play.bot_move.play_bot`), in this process, against
PostgreSQL and Redis, without Celery.

The pipeline benchmark measures the whole path, where Celery's share and the host's noise are large; this one
measures what a move itself costs (locking the game, loading its state, the engine, rendering, the write, handing
on), so a change to that path can be weighed on its own. Bench games get a pace of an hour, so their bot moves wait
in Redis; each round takes every game's waiting move and plays it here, then the games are deleted. Round 0 warms
up (prepared statements, caches) and is not counted. CPU is this process's, PostgreSQL's and Redis's (read from
/proc); the CPU time of the engine benchmark's reference workload, in the same run, gives a ratio to compare across
machines and days.
"""

from __future__ import annotations

import argparse
import time

from bench import harness
from service import compose

PACE = 3600.0  # seconds: the bench games' bots never move on their own during the run


def _parse(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="camelot bench moves")
    harness.add_game_arguments(p)
    p.add_argument("--games", type=int, default=300, help="games, each playing one move per round")
    p.add_argument("--rounds", type=int, default=3, help="measured rounds (after one warm-up round)")
    return p.parse_args(argv)


def moves(argv: list[str] | None = None) -> dict[str, float]:
    """Run the benchmark, print the figures, and return them."""
    args = _parse(argv or [])
    harness.configure(args)
    from bench.engine import reference_cpu_seconds
    from service.play import bot_move, lobby
    from service.play.queue import take_scheduled, unschedule_moves
    from service.store import migrate

    migrate()
    harness.vacuum()
    run = str(int(time.time()))
    ids = {
        lobby.create_and_start(
            "bench", f"bench-{run}-moves-{n}", args.game, {}, [], args.players, seed=n, bot_kind=args.bot,
            bot_delay=PACE,
        )
        for n in range(args.games)
    }
    harness.analyze()
    played = 0
    cpu = wall = 0.0
    used = {"postgres": 0.0, "redis": 0.0}
    try:
        for round_ in range(args.rounds + 1):
            waiting = take_scheduled(lambda task, kw: task == "play_bot" and kw["game_id"] in ids)
            before, started, cpu_before = harness.cpu_seconds(), time.perf_counter(), time.process_time()
            statuses = [bot_move.play_bot(**kwargs).status for kwargs in waiting]
            if round_ == 0:
                continue
            wall += time.perf_counter() - started
            cpu += time.process_time() - cpu_before
            after = harness.cpu_seconds()
            for key in used:
                used[key] += after[key] - before[key]
            played += statuses.count("applied")
    finally:
        # their moves, and the deliveries they asked for (no sender runs here: the outbox rows go with the games)
        unschedule_moves(ids)
        take_scheduled(lambda task, kw: task == "deliver" and kw.get("platform") == "bench")
        harness.cleanup(run)
    reference = reference_cpu_seconds()
    per = 1000 / max(1, played)
    f = {
        "moves": played,
        "move_cpu_process_ms": cpu * per,
        "move_cpu_postgres_ms": used["postgres"] * per,
        "move_cpu_redis_ms": used["redis"] * per,
        "move_wall_ms": wall * per,
        "reference_ms": reference * 1000,
    }
    f["move_cpu_ms"] = f["move_cpu_process_ms"] + f["move_cpu_postgres_ms"] + f["move_cpu_redis_ms"]
    f["reference_ratio"] = f["move_cpu_ms"] / f["reference_ms"]
    print(
        f"moves: {args.game} games of {args.players} bots, {args.games} games x {args.rounds} rounds "
        f"({played} moves) played in this process against PostgreSQL and Redis, without Celery"
    )
    print(
        f"  CPU per move: this process {f['move_cpu_process_ms']:.2f} ms + "
        f"PostgreSQL {f['move_cpu_postgres_ms']:.2f} ms + Redis {f['move_cpu_redis_ms']:.2f} ms = "
        f"{f['move_cpu_ms']:.2f} ms; wall {f['move_wall_ms']:.2f} ms"
    )
    print(
        f"  reference workload (same run) {f['reference_ms']:.1f} ms of CPU; "
        f"move CPU / reference = {f['reference_ratio']:.3f}"
    )
    return f


if __name__ == "__main__":
    import sys

    compose.wire()
    moves(sys.argv[1:])
