"""`camelot bench pipeline`: many concurrent bot games through a real Celery worker, Redis and PostgreSQL.

Prints moves/s, the move round trip (enqueue → state committed with its outbox rows) p50/p99, and, in the same
run, a bare Celery no-op task's round trip and throughput, with the ratios. The no-op runs in chains shaped like
the games (each task enqueues the next), as many chains as games, so both see the same queue depth.
Needs PostgreSQL and Redis: `--database-url`/`--redis-url` or the settings (DATABASE_URL, REDIS_URL).
Bench games live in chats named `bench-<run>-<n>` on the null platform "bench" and are deleted afterwards. Their
messages are sent by a process of their own, as a gateway's are (`workers.deliveries`), through a null adapter
(`--send-latency`: how long each send takes); its CPU time counts as the worker's.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

from sqlalchemy import select, update

from bench import harness
from service import compose


def _parse(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="camelot bench pipeline")
    harness.add_game_arguments(p)
    p.add_argument("--games", type=int, default=1000, help="concurrent bot games")
    p.add_argument("--rate", type=float, default=300.0, help="offered moves/s over all games (sets the bots' pace)")
    p.add_argument("--seconds", type=float, default=20.0, help="measuring window of each phase")
    p.add_argument("--warmup", type=float, default=5.0)
    p.add_argument(
        "--capacity-games", type=int, default=1000, help="games played back to back for the maximum rate (0: skip)"
    )
    p.add_argument("--pool", default=None, help="Celery pool: solo, prefork or threads (default: WORKER_POOL)")
    p.add_argument(
        "--concurrency", type=int, default=None, help="processes (or threads) of the pool (default: WORKER_CONCURRENCY)"
    )
    p.add_argument(
        "--processes", type=int, default=None, help="worker processes, each with its pool (default for a solo pool: "
        "one per core plus one, as `camelot worker` is run; else one)"
    )
    p.add_argument(
        "--send-latency", type=float, default=0.0, help="seconds each send to the chat platform takes (its API's)"
    )
    p.add_argument("--groups", default=None, help="worker groups (hosts) to compare, e.g. 1,2: capacity with each "
                   "(`bench.scaling`); --processes is then per group (default 2, a one-core host's)")
    p.add_argument("--no-pin", dest="pin", action="store_false", help="with --groups: leave the groups unpinned")
    args = p.parse_args(argv)
    if args.groups and args.processes is None and args.pin:
        args.processes = 2
    return _worker_layout(args)


def _worker_layout(args: argparse.Namespace) -> argparse.Namespace:
    """The workers as the service runs them unless the options say otherwise: the settings' pool and size, and for
    a solo pool as many workers as `run.solo_workers` advises."""
    from service.settings import get_settings
    from workers.run import solo_workers

    settings = get_settings()
    args.pool = args.pool or settings.worker_pool
    args.concurrency = args.concurrency or settings.worker_concurrency
    args.processes = args.processes or (solo_workers() if args.pool == "solo" else 1)
    return args



def start_role(*role: str) -> subprocess.Popen:
    """Start one of the benchmark's processes (`--serve-worker …` or `--serve-deliveries …`) in its own process
    group, whose CPU time counts as the worker's."""
    cmd = [sys.executable, "-m", "bench.pipeline", *role]
    proc = subprocess.Popen(cmd, start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    harness.worker_groups.add(proc.pid)
    return proc


def await_answers(procs: list[subprocess.Popen], expected: int | None = None) -> None:
    """Wait until each of the processes' Celery workers answers a ping (`expected` workers, if processes hold
    several)."""
    from workers.app import configure

    app = configure()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if any(proc.poll() is not None for proc in procs):
            raise SystemExit("a benchmark worker exited at start")
        if len(app.control.ping(timeout=0.5)) >= (expected or len(procs)):
            return
    raise SystemExit("the benchmark's workers did not answer")


def _serve_worker(concurrency: int, pool: str) -> None:
    """A worker process: as `camelot worker` runs one (`run.worker_args`: the default queue, where the moves are),
    with the benchmark's pool and quieter logs."""
    from workers.app import configure
    from workers.run import worker_args

    app = configure()
    argv = ["--loglevel", "WARNING", "--pool", pool, "--concurrency", str(concurrency)]
    app.worker_main(worker_args(argv, app.conf.task_default_queue))


def _serve_deliveries(latency: float) -> None:
    """The deliveries process, as a gateway's (`workers.deliveries`): a null adapter for platform "bench"
    whose sends take `latency` seconds each, consuming that platform's delivery queue until SIGTERM."""
    import asyncio
    import threading

    from service.chat import registry
    from service.chat.recording import RecordingAdapter
    from workers.deliveries import DeliveryConsumer

    class NullAdapter(RecordingAdapter):
        def _record(self, method: str, chat: str, **kw: object) -> str:
            return "1"

    registry.register("bench", lambda: NullAdapter("bench", latency=latency))
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    consumer = DeliveryConsumer("bench")
    consumer.start()
    stop.wait()
    asyncio.run(consumer.stop())


def run_id() -> str:
    """The run's part of its chats' names (`bench-<run>-…`)."""
    return str(int(time.time()))


def _pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] * 1000



def _window(name: str, args: argparse.Namespace) -> tuple[float, list[float], dict[str, float]]:
    """After the warm-up, the rate and round trips of task `name` over the measuring window, and the CPU
    milliseconds spent per task by the worker, PostgreSQL and Redis; also how busy the whole machine was
    ("machine_busy", "machine_steal": fractions of all its CPUs), to tell saturation and a noisy host apart."""
    from service.play import metrics

    time.sleep(args.warmup)
    metrics.reset(name)
    before, ticks_before = harness.cpu_seconds(), harness.machine_ticks()
    started = time.monotonic()
    time.sleep(args.seconds)
    values = metrics.read(name)
    after, ticks_after = harness.cpu_seconds(), harness.machine_ticks()
    per_task = {k: (after[k] - before[k]) * 1000 / max(1, len(values)) for k in after}
    busy, steal, total = (a - b for a, b in zip(ticks_after, ticks_before, strict=True))
    per_task.update(machine_busy=busy / max(1, total), machine_steal=steal / max(1, total))
    return len(values) / (time.monotonic() - started), values, per_task


def noop_phase(args: argparse.Namespace, delay: float, chains: int) -> tuple[float, list[float], dict[str, float]]:
    from service.play.queue import enqueue

    until = time.time() + args.warmup + args.seconds + 1.0
    with ThreadPoolExecutor(8) as pool:
        list(
            pool.map(
                lambda n: enqueue("noop", countdown=delay * (n / chains) or None, until=until, delay=delay),
                range(chains),
            )
        )
    result = _window("noop", args)
    _drain()
    return result


def game_phase(
    args: argparse.Namespace, run: str, games: int, delay: float
) -> tuple[float, list[float], dict[str, float]]:
    from service.play import lobby

    def create(n: int) -> int:
        return lobby.create_and_start(
            "bench",
            f"bench-{run}-{delay}-{n}",
            args.game,
            {},
            [],
            args.players,
            seed=n,
            bot_kind=args.bot,
            bot_delay=delay,
            first_delay=delay * n / games,  # spread: a steady pace from the start
        )

    with ThreadPoolExecutor(8) as pool:
        ids = list(pool.map(create, range(games)))
    harness.analyze()
    sent_before = _messages("sent")
    result = _window("move", args)
    result[2]["sends_per_s"] = (_messages("sent") - sent_before) / (args.warmup + args.seconds)
    result[2]["outbox_pending"] = _messages("pending")
    _stop_games(ids)
    return result


def _messages(status: str) -> int:
    """How many of the benchmark's messages have this status ("sent", or "pending": deliveries that cannot keep
    up show there)."""
    from sqlalchemy import func

    from service.store import session_scope
    from service.store.models import OutboxRow

    with session_scope() as s:
        return int(s.scalar(select(func.count()).where(OutboxRow.platform == "bench", OutboxRow.status == status)))


def _stop_games(ids: list[int]) -> None:
    from service.play.queue import unschedule_moves
    from service.store import session_scope
    from service.store.models import GameRow

    with session_scope() as s:
        s.execute(update(GameRow).where(GameRow.id.in_(ids), GameRow.status == "active").values(status="aborted"))
    time.sleep(2.0)  # the moves in hand finish; finding their game stopped, they schedule no more
    # the moves still scheduled would run in the next phase (or the next run) and cost it their work
    unschedule_moves(set(ids))
    purge()



def purge() -> None:
    """Drop queued tasks (left by an earlier run, or a stopped phase's: they would find their game stopped)."""
    from workers.app import configure

    configure().control.purge()


def _drain() -> None:
    """Let the phase's last tasks finish before the next phase is measured."""
    time.sleep(2.0)
    purge()



def pipeline(argv: list[str] | None = None) -> dict[str, float]:
    """Run the benchmark, print the figures, and return them.

    Paced phase: `--games` bot games whose bots wait `games / rate` seconds before each move (an open load of
    `--rate` moves/s, as players would make), and the same number of no-op chains at the same pace: round trips.
    Capacity phase: games and no-op chains back to back (no waiting): the most moves/s and tasks/s.
    """
    args = _parse(argv or [])
    if args.groups:
        from bench.scaling import scaling

        return scaling(args, [int(n) for n in args.groups.split(",")], args.pin)
    harness.configure(args)
    from bench.engine import reference_cpu_seconds
    from service.store import migrate

    migrate()
    harness.vacuum()
    run = run_id()
    delay = args.games / args.rate
    reference_start = reference_cpu_seconds() * 1000
    purge()
    workers = [start_role("--serve-worker", str(args.concurrency), args.pool) for _ in range(args.processes)]
    workers.append(start_role("--serve-deliveries", str(args.send_latency)))
    await_answers(workers)
    try:
        noop_rate, noop_rt, noop_cpu = noop_phase(args, delay, args.games)
        move_rate, move_rt, move_cpu = game_phase(args, run, args.games, delay)
        noop_max = move_max = float("nan")
        if args.capacity_games:
            noop_max, _, _ = noop_phase(args, 0.0, args.capacity_games)
            move_max, _, _ = game_phase(args, run, args.capacity_games, 0.0)
    finally:
        for worker in workers:
            os.killpg(worker.pid, signal.SIGTERM)
        for worker in workers:
            worker.wait(30)
        harness.cleanup(run)
    f = {
        "reference_ms": reference_cpu_seconds() * 1000,
        "reference_start_ms": reference_start,
        "games": args.games,
        "offered_per_s": args.rate,
        "moves_per_s": move_rate,
        "move_p50_ms": _pct(move_rt, 0.5),
        "move_p99_ms": _pct(move_rt, 0.99),
        "noop_per_s": noop_rate,
        "noop_p50_ms": _pct(noop_rt, 0.5),
        "noop_p99_ms": _pct(noop_rt, 0.99),
        "max_moves_per_s": move_max,
        "max_noop_per_s": noop_max,
    }
    f["p50_ratio"] = f["move_p50_ms"] / f["noop_p50_ms"]
    f["p99_ratio"] = f["move_p99_ms"] / f["noop_p99_ms"]
    f["max_ratio"] = f["max_moves_per_s"] / f["max_noop_per_s"]
    for k in ("worker", "postgres", "redis"):
        f[f"move_cpu_{k}_ms"] = move_cpu[k]
        f[f"noop_cpu_{k}_ms"] = noop_cpu[k]
    f["move_cpu_ms"] = sum(move_cpu[k] for k in ("worker", "postgres", "redis"))
    f["noop_cpu_ms"] = sum(noop_cpu[k] for k in ("worker", "postgres", "redis"))
    f["move_machine_busy"], f["noop_machine_busy"] = move_cpu["machine_busy"], noop_cpu["machine_busy"]
    f["move_machine_steal"], f["noop_machine_steal"] = move_cpu["machine_steal"], noop_cpu["machine_steal"]
    f["outbox_pending"], f["sends_per_s"] = move_cpu["outbox_pending"], move_cpu["sends_per_s"]
    f["cpu_ratio"] = f["move_cpu_ms"] / f["noop_cpu_ms"] if f["noop_cpu_ms"] else float("nan")
    print(
        f"pipeline: {args.game} games of {args.players} bots, {args.processes} worker process(es), "
        f"Celery pool {args.pool} x {args.concurrency}, sends taking {args.send_latency * 1000:.0f} ms, "
        f"{args.seconds:.0f} s windows; this host's CPU: reference workload {f['reference_ms']:.0f} ms "
        f"({f['reference_start_ms']:.0f} ms at the start)"
    )
    print(
        f"  paced, {args.games} concurrent games offering {args.rate:.0f} moves/s: {move_rate:.0f} moves/s, "
        f"round trip p50 {f['move_p50_ms']:.1f} ms, p99 {f['move_p99_ms']:.1f} ms; "
        f"machine busy {move_cpu['machine_busy']:.0%} (steal {move_cpu['machine_steal']:.0%}); "
        f"{f['sends_per_s']:.0f} messages sent/s, {f['outbox_pending']} not sent yet at the window's end"
    )
    print(
        f"  paced no-op, {args.games} chains at the same pace: {noop_rate:.0f} tasks/s, "
        f"round trip p50 {f['noop_p50_ms']:.1f} ms, p99 {f['noop_p99_ms']:.1f} ms; "
        f"machine busy {noop_cpu['machine_busy']:.0%} (steal {noop_cpu['machine_steal']:.0%})"
    )
    print(
        f"  capacity, {args.capacity_games} games back to back: {move_max:.0f} moves/s; "
        f"no-op chains: {noop_max:.0f} tasks/s"
    )
    print(
        f"  CPU per move (paced): worker {move_cpu['worker']:.2f} ms + PostgreSQL {move_cpu['postgres']:.2f} ms + "
        f"Redis {move_cpu['redis']:.2f} ms = {f['move_cpu_ms']:.2f} ms; per no-op {f['noop_cpu_ms']:.2f} ms "
        f"(machine-wide, so other load on PostgreSQL or Redis counts too)"
    )
    print(
        f"  ratios move/no-op: p50 {f['p50_ratio']:.2f}x, p99 {f['p99_ratio']:.2f}x, capacity {f['max_ratio']:.2f}, "
        f"CPU {f['cpu_ratio']:.2f}x"
    )
    print(f"  {target_verdict(f)}")
    noise = noisy_host(f)
    if noise:
        print(f"  the host was noisy during this run ({noise}): compare these figures with care")
    return f


TARGET = {"games": 1000, "offered_per_s": 300.0, "moves_per_s": 300.0, "p50_ratio": 3.0, "move_p99_ms": 25.0}


def target_verdict(f: dict[str, float]) -> str:
    """The issue's first target, judged on these figures: at 1,000 concurrent games offering 300 moves/s, at least
    300 moves/s, the p50 round trip within 3x the no-op's and the p99 under 25 ms."""
    if f["games"] < TARGET["games"] or f["offered_per_s"] < TARGET["offered_per_s"]:
        return "first target: not judged (it is set for 1,000 games offering 300 moves/s)"
    missed = []
    if not f["moves_per_s"] >= 0.98 * TARGET["moves_per_s"]:  # the paced load's own jitter: within 2 %
        missed.append(f"{f['moves_per_s']:.0f} moves/s")
    if not f["p50_ratio"] <= TARGET["p50_ratio"]:
        missed.append(f"p50 {f['p50_ratio']:.1f}x the no-op's")
    if not f["move_p99_ms"] < TARGET["move_p99_ms"]:
        missed.append(f"p99 {f['move_p99_ms']:.0f} ms")
    return f"first target: not met ({', '.join(missed)})" if missed else "first target: met"


def noisy_host(f: dict[str, float]) -> str:
    """What made this run's host noisy, if anything: CPU stolen by the hypervisor (over 5 % in a phase), or a
    reference workload that changed by over a quarter between the start and the end ("" if neither)."""
    found = [
        f"steal {f[key]:.0%} in the {phase} phase"
        for key, phase in (("move_machine_steal", "moves'"), ("noop_machine_steal", "no-op's"))
        if f[key] > 0.05
    ]
    low, high = sorted((f["reference_start_ms"], f["reference_ms"]))
    if high > 1.25 * low:
        found.append(f"reference workload {f['reference_start_ms']:.0f} then {f['reference_ms']:.0f} ms")
    return "; ".join(found)


if __name__ == "__main__":
    compose.wire()
    if len(sys.argv) == 4 and sys.argv[1] == "--serve-worker":
        _serve_worker(int(sys.argv[2]), sys.argv[3])
    elif len(sys.argv) == 6 and sys.argv[1] == "--serve-group":
        from bench.scaling import serve_group

        serve_group(int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], int(sys.argv[5]))
    elif len(sys.argv) == 3 and sys.argv[1] == "--serve-deliveries":
        _serve_deliveries(float(sys.argv[2]))
    else:
        pipeline(sys.argv[1:])
