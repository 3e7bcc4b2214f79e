"""`camelot bench pipeline --groups 1,2`: does capacity grow with worker hosts? Each worker group is a process tree
of its own (a parent and its `--processes` workers, as one host's `camelot worker` processes would be), pinned to
one core of its own when the machine has enough (`--pin`, the default: a one-core host each, so that a second group
brings a core of its own instead of contending with the first for both), against the one PostgreSQL, Redis and
broker; one deliveries process, as a gateway. For each layout in turn, in the same run: bot games back to back
(capacity) and no-op chains back to back (the broker's own capacity), with CPU per move.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import threading

from bench import harness, pipeline


def serve_group(processes: int, concurrency: int, pool: str, cpu: int) -> None:
    """A worker group: pinned to `cpu` (-1: not pinned), its workers as children in this process group, until
    SIGTERM."""
    if cpu >= 0 and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {cpu})  # the workers inherit it
    children = [
        subprocess.Popen([sys.executable, "-m", "bench.pipeline", "--serve-worker", str(concurrency), pool])
        for _ in range(processes)
    ]
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    stop.wait()
    for child in children:
        child.terminate()
    for child in children:
        child.wait(30)


def scaling(args: argparse.Namespace, layouts: list[int], pin: bool) -> dict[str, float]:
    """Capacity with each number of groups in `layouts`, in this order; prints and returns the figures."""
    from bench.engine import reference_cpu_seconds
    from service.store import migrate

    harness.configure(args)
    migrate()
    harness.vacuum()
    run = f"{pipeline.run_id()}-scaling"
    cpus = os.cpu_count() or 1
    reference_start = reference_cpu_seconds() * 1000
    f: dict[str, float] = {"reference_start_ms": reference_start}
    phases: list[dict[str, float]] = []
    deliveries = pipeline.start_role("--serve-deliveries", str(args.send_latency))
    try:
        for groups in layouts:
            pipeline.purge()
            trees = [
                pipeline.start_role(
                    "--serve-group", str(args.processes), str(args.concurrency), args.pool,
                    str(n % cpus if pin and groups <= cpus else -1),
                )
                for n in range(groups)
            ]
            try:
                pipeline.await_answers(trees + [deliveries], expected=groups * args.processes + 1)
                noop, _, _ = pipeline.noop_phase(args, 0.0, args.capacity_games)
                moves, _, cpu = pipeline.game_phase(args, run, args.capacity_games, 0.0)
            finally:
                for tree in trees:
                    os.killpg(tree.pid, signal.SIGTERM)
                for tree in trees:
                    tree.wait(60)
                    harness.worker_groups.discard(tree.pid)
            phase = {"groups": groups, "moves_per_s": moves, "noop_per_s": noop, "busy": cpu["machine_busy"]}
            phase.update({f"cpu_{k}_ms": cpu[k] for k in ("worker", "postgres", "redis")})
            phases.append(phase)
    finally:
        os.killpg(deliveries.pid, signal.SIGTERM)
        deliveries.wait(30)
        harness.cleanup(run)
    f["reference_ms"] = reference_cpu_seconds() * 1000
    for groups in sorted(set(layouts)):  # a layout run several times (alternated: 1,2,1,2): the mean of its runs
        mine = [p for p in phases if p["groups"] == groups]
        for key in mine[0]:
            f[f"groups{groups}_{key}"] = sum(p[key] for p in mine) / len(mine)
    _print(args, phases, pin and max(layouts) <= cpus, f)
    return f


def _print(args: argparse.Namespace, phases: list[dict[str, float]], pinned: bool, f: dict[str, float]) -> None:
    where = "each pinned to a core of its own" if pinned else "not pinned"
    print(
        f"pipeline scaling: worker groups of {args.processes} {args.pool} worker(s), each group a process tree of its "
        f"own ({where}), one PostgreSQL, Redis and broker, one deliveries process; {args.capacity_games} {args.game} "
        f"games back to back, {args.seconds:.0f} s windows; reference workload {f['reference_ms']:.0f} ms "
        f"({f['reference_start_ms']:.0f} ms at the start)"
    )
    for p in phases:
        cpu = sum(p[f"cpu_{k}_ms"] for k in ("worker", "postgres", "redis"))
        print(
            f"  {p['groups']:.0f} group(s): {p['moves_per_s']:.0f} moves/s back to back "
            f"(no-op chains {p['noop_per_s']:.0f} tasks/s); CPU a move {cpu:.2f} ms (workers "
            f"{p['cpu_worker_ms']:.2f} + PostgreSQL {p['cpu_postgres_ms']:.2f} + Redis {p['cpu_redis_ms']:.2f}); "
            f"machine busy {p['busy']:.0%}"
        )
    first = int(phases[0]["groups"])
    for groups in sorted({int(p["groups"]) for p in phases} - {first}):
        base = f[f"groups{first}_moves_per_s"]
        ratio = f[f"groups{groups}_moves_per_s"] / base if base else float("nan")
        f[f"groups{groups}_ratio"] = ratio
        print(f"  capacity with {groups} groups: {ratio:.2f}x that with {first} (means of their runs)")
