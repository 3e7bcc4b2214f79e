"""What both pipeline benchmarks share (`bench.pipeline`, `bench.moves`): the bench games' options, pointing this
process at PostgreSQL and Redis, the tables' upkeep, the CPU time of the processes involved, and the clean-up."""

from __future__ import annotations

import argparse
import glob
import os

from sqlalchemy import delete, select

DEFAULT_DB = "postgresql://postgres@127.0.0.1:5432/test"
DEFAULT_REDIS = "redis://127.0.0.1:6379/14"


def add_game_arguments(p: argparse.ArgumentParser) -> None:
    """The options both pipeline benchmarks share: what the bench games are, and where they are kept."""
    p.add_argument("--game", default="cards", help="cards or board")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--bot", default="random", help="bot kind of the seats: random or heuristic")
    p.add_argument("--database-url", default=None, help=f"default: DATABASE_URL if PostgreSQL, else {DEFAULT_DB}")
    p.add_argument("--redis-url", default=None, help=f"default: REDIS_URL, else {DEFAULT_REDIS}")

def configure(args: argparse.Namespace) -> None:
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

_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
worker_groups: set[int] = set()


def cpu_seconds(apart: int | None = None) -> dict[str, float]:
    """CPU seconds used so far by the benchmark's worker (its process group), PostgreSQL and Redis, read from
    /proc (empty elsewhere). Work per move in CPU time holds on a busy machine where rates and latencies do not.
    `apart`: a process group of the worker's counted also on its own, as "apart" (e.g. the gateway's)."""
    used = {"worker": 0.0, "postgres": 0.0, "redis": 0.0, "apart": 0.0}
    for stat in glob.glob("/proc/[0-9]*/stat"):
        try:
            with open(stat) as f:
                raw = f.read()
        except OSError:
            continue
        name, fields = raw[raw.find("(") + 1 : raw.rfind(")")], raw[raw.rfind(")") + 2 :].split()
        key = "worker" if int(fields[2]) in worker_groups else next((k for k in used if name.startswith(k)), None)
        if key:
            used[key] += (int(fields[11]) + int(fields[12])) / _TICK
        if apart is not None and int(fields[2]) == apart:
            used["apart"] += (int(fields[11]) + int(fields[12])) / _TICK
    return used


def machine_ticks() -> tuple[int, int, int]:
    """(busy, steal, total) clock ticks of all CPUs so far, from /proc/stat ((0, 0, 0) elsewhere)."""
    try:
        with open("/proc/stat") as f:
            fields = [int(v) for v in f.readline().split()[1:]]
    except OSError:
        return 0, 0, 0
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle + iowait
    steal = fields[7] if len(fields) > 7 else 0
    return sum(fields[:8]) - idle - steal, steal, sum(fields[:8])

def vacuum() -> None:
    """Clear the dead rows earlier runs left (their games are deleted), so that every run starts on a database in
    the same shape: a PostgreSQL without autovacuum, as on the test machine, keeps them (after a few dozen runs
    the outbox held 330,000 dead rows, 118 MB)."""
    _on_tables("VACUUM (ANALYZE)")


def analyze() -> None:
    """Statistics of the tables as they are now, with the games in them, as autovacuum's ANALYZE would keep them on
    a server with it on (this one runs without). Planned with the statistics of the empty tables `vacuum` left,
    the lock's join scanned a whole index of games and the whole seats table on every move: 1.9-2.2 ms of
    PostgreSQL per move (pg_stat_statements), against 0.2 ms for the move's write."""
    _on_tables("ANALYZE")


def _on_tables(command: str) -> None:
    """Run a maintenance command (outside a transaction, as VACUUM needs) on every table of the service."""
    from sqlalchemy import text

    from service.store import get_engine
    from service.store.models import Base

    with get_engine().connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        conn.execute(text(f"{command} " + ", ".join(Base.metadata.tables)))

def cleanup(run: str) -> None:
    """Delete the run's games, chats and outbox, and what Redis keeps of them (cached states, message ids)."""
    from service.sessions import get_sessions
    from service.store import session_scope
    from service.store.models import Chat, GameRow, OutboxRow, SentMessage

    with session_scope() as s:
        chat_ids = select(Chat.id).where(Chat.platform == "bench", Chat.platform_id.like(f"bench-{run}-%"))
        game_ids = list(s.scalars(select(GameRow.id).where(GameRow.chat_id.in_(chat_ids))))
        s.execute(delete(GameRow).where(GameRow.chat_id.in_(chat_ids)))
        s.execute(delete(OutboxRow).where(OutboxRow.platform == "bench"))
        s.execute(delete(SentMessage).where(SentMessage.platform == "bench"))
        s.execute(delete(Chat).where(Chat.platform == "bench", Chat.platform_id.like(f"bench-{run}-%")))
    sessions = get_sessions()
    for game_id in game_ids:
        sessions.games.forget(game_id)
    sessions.messages.forget_platform("bench")
