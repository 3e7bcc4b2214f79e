"""`camelot bench pipeline`: many concurrent bot games through a real Celery worker, Redis and PostgreSQL.

Prints moves/s, the move round trip (enqueue → state committed with its outbox rows) p50/p99, and, in the same
run, a bare Celery no-op task's round trip and throughput, with the ratios. The no-op runs in chains shaped like
the games (each task enqueues the next), as many chains as games, so both see the same queue depth.
Needs PostgreSQL and Redis: `--database-url`/`--redis-url` or the settings (DATABASE_URL, REDIS_URL).
Bench games live in chats named `bench-<run>-<n>` on the null platform "bench" and are deleted afterwards.
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

from sqlalchemy import delete, func, select

DEFAULT_DB = "postgresql://postgres@127.0.0.1:5432/test"
DEFAULT_REDIS = "redis://127.0.0.1:6379/14"


def _parse(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="camelot bench pipeline")
    p.add_argument("--games", type=int, default=1000, help="concurrent bot games")
    p.add_argument("--game", default="cards", help="cards or board")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--moves", type=int, default=20, help="no-op chain length (the baseline's 'moves' per game)")
    p.add_argument("--concurrency", type=int, default=2, help="worker processes")
    p.add_argument("--timeout", type=float, default=600.0, help="give up after this many seconds")
    p.add_argument("--database-url", default=None, help=f"default: DATABASE_URL if PostgreSQL, else {DEFAULT_DB}")
    p.add_argument("--redis-url", default=None, help=f"default: REDIS_URL, else {DEFAULT_REDIS}")
    p.add_argument("--bot", default="random", help="bot kind of the seats: random or heuristic")
    return p.parse_args(argv)


def _configure(args: argparse.Namespace) -> None:
    """Point this process (and the worker it starts) at PostgreSQL and Redis, with the Redis broker."""
    from service.sessions import reset_sessions
    from service.settings import get_settings
    from service.store import dispose_all

    current = get_settings()
    db = args.database_url or (current.database_url if current.database_url.startswith("postgres") else DEFAULT_DB)
    redis_url = args.redis_url or current.redis_url or DEFAULT_REDIS
    os.environ.update(DATABASE_URL=db, REDIS_URL=redis_url, CELERY_BROKER_URL=redis_url)
    get_settings.cache_clear()
    reset_sessions()
    dispose_all()


def _start_worker(concurrency: int) -> subprocess.Popen:
    cmd = [sys.executable, "-m", "workers.bench", "--serve-worker", str(concurrency)]
    proc = subprocess.Popen(cmd, start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    from workers.app import configure

    app = configure()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit("the benchmark's worker exited at start")
        if app.control.ping(timeout=0.5):
            return proc
    raise SystemExit("the benchmark's worker did not answer")


def _serve_worker(concurrency: int) -> None:
    """The worker process: a null adapter for platform "bench", then a plain Celery worker."""
    from service.chat import registry
    from service.chat.recording import RecordingAdapter
    from workers.app import configure

    class NullAdapter(RecordingAdapter):
        def _record(self, method: str, chat: str, **kw: object) -> str:
            return "1"

    registry.register("bench", lambda: NullAdapter("bench"))
    configure().worker_main(
        ["worker", "--loglevel", "WARNING", "--concurrency", str(concurrency), "--without-gossip", "--without-mingle"]
    )


def _pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def _wait(done, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not done():
        if time.monotonic() > deadline:
            raise SystemExit("benchmark timed out")
        time.sleep(0.2)


def _noop_phase(chains: int, length: int, timeout: float) -> tuple[float, list[float]]:
    from workers import metrics
    from workers.queue import enqueue

    metrics.reset("noop")
    total = chains * length
    started = time.monotonic()
    with ThreadPoolExecutor(8) as pool:
        list(pool.map(lambda _: enqueue("noop", chain=length - 1), range(chains)))
    _wait(lambda: metrics.count("noop") >= total, timeout)
    elapsed = time.monotonic() - started
    return total / elapsed, metrics.read("noop")


def _game_phase(args: argparse.Namespace, run: str) -> tuple[float, int, list[float], int]:
    from service import lobby
    from service.store import session_scope
    from service.store.models import Chat, GameRow
    from workers import metrics

    metrics.reset("move")
    started = time.monotonic()

    def create(n: int) -> int:
        return lobby.create_and_start(
            "bench", f"bench-{run}-{n}", args.game, {}, [], args.players, seed=n, bot_kind=args.bot
        )

    with ThreadPoolExecutor(8) as pool:
        ids = list(pool.map(create, range(args.games)))

    def finished() -> bool:
        with session_scope() as s:
            return s.scalar(select(func.count()).where(GameRow.id.in_(ids), GameRow.status != "finished")) == 0

    _wait(finished, args.timeout)
    elapsed = time.monotonic() - started
    with session_scope() as s:
        moves = s.scalar(select(func.sum(GameRow.seq)).where(GameRow.id.in_(ids))) or 0
        chats = s.scalar(select(func.count()).select_from(Chat).where(Chat.platform_id.like(f"bench-{run}-%")))
    return moves / elapsed, moves, metrics.read("move"), chats


def _cleanup(run: str) -> None:
    from service.store import session_scope
    from service.store.models import Chat, GameRow, OutboxRow, SentMessage

    with session_scope() as s:
        chat_ids = select(Chat.id).where(Chat.platform == "bench", Chat.platform_id.like(f"bench-{run}-%"))
        s.execute(delete(GameRow).where(GameRow.chat_id.in_(chat_ids)))
        s.execute(delete(OutboxRow).where(OutboxRow.platform == "bench"))
        s.execute(delete(SentMessage).where(SentMessage.platform == "bench"))
        s.execute(delete(Chat).where(Chat.platform == "bench", Chat.platform_id.like(f"bench-{run}-%")))


def pipeline(argv: list[str] | None = None) -> dict[str, float]:
    """Run the benchmark, print the figures, and return them."""
    args = _parse(argv or [])
    _configure(args)
    from service.store import migrate

    migrate()
    run = str(int(time.time()))
    worker = _start_worker(args.concurrency)
    try:
        noop_rate, noop_rt = _noop_phase(args.games, args.moves, args.timeout)
        move_rate, moves, move_rt, _ = _game_phase(args, run)
    finally:
        os.killpg(worker.pid, signal.SIGTERM)
        worker.wait(30)
        _cleanup(run)
    figures = {
        "games": args.games,
        "moves": moves,
        "moves_per_s": move_rate,
        "move_p50_ms": _pct(move_rt, 0.5) * 1000,
        "move_p99_ms": _pct(move_rt, 0.99) * 1000,
        "move_mean_ms": statistics.fmean(move_rt) * 1000 if move_rt else float("nan"),
        "noop_per_s": noop_rate,
        "noop_p50_ms": _pct(noop_rt, 0.5) * 1000,
        "noop_p99_ms": _pct(noop_rt, 0.99) * 1000,
    }
    figures["p50_ratio"] = figures["move_p50_ms"] / figures["noop_p50_ms"]
    figures["throughput_ratio"] = figures["moves_per_s"] / figures["noop_per_s"]
    print(
        f"pipeline: {args.games} concurrent {args.game} games ({args.players} bots each), "
        f"{args.concurrency} worker processes"
    )
    print(
        f"  moves: {moves} in all, {move_rate:.0f} moves/s, round trip p50 {figures['move_p50_ms']:.1f} ms, "
        f"p99 {figures['move_p99_ms']:.1f} ms"
    )
    print(
        f"  no-op: {noop_rate:.0f} tasks/s, round trip p50 {figures['noop_p50_ms']:.1f} ms, "
        f"p99 {figures['noop_p99_ms']:.1f} ms"
    )
    print(
        f"  ratios: p50 move/no-op {figures['p50_ratio']:.2f}x, throughput move/no-op {figures['throughput_ratio']:.2f}"
    )
    return figures


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--serve-worker":
        _serve_worker(int(sys.argv[2]))
    else:
        pipeline(sys.argv[1:])
