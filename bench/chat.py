"""`camelot bench chat`: concurrent games of simulated people through the real Telegram gateway (`camelot serve
--telegram`, long polling) and real workers (`camelot worker`), PostgreSQL and Redis, against the fake Bot API of
the tests (`tests/e2e/telegram/fake_bot_api`, which needs the checkout and the Bot API spec beside it) with each
send taking `--send-latency` seconds.

Prints a tap → updated panel latency (a person's tap until their direct chat next changes) p50/p99, beside the same
run's baseline (a tap until the gateway's own answer to it, which involves no worker: the round trip of a handler
that does nothing but answer); the Bot API calls per move by method and chat kind, counted by name from what the
fake received (so it measures whatever the pipeline sends); and from those, how many human-paced games (each person
moving once every `--pace` seconds, 10 minutes by default) one bot account carries under Telegram's ~30 messages/s.
The service's rate intervals are 0 and the fake's limits lifted: the figures are the pipeline's, not the waits
Telegram's limits would add, which the capacity figure accounts for instead.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import delete, func, select, update

from bench import harness
from bench.chat_people import People, calls_by_kind

CAMELOT = "from service.cli import app\napp()\n"
TELEGRAM_MESSAGES_PER_S = 30.0  # Telegram's global limit per bot (edits count): the figure that bounds a bot
FAKE = Path(__file__).resolve().parent.parent / "tests" / "e2e" / "telegram"
IDLE_SECONDS = 5.0  # the service's own CPU with no game, measured before the games start
MESSAGE_METHODS = ("send", "edit")  # what Telegram's 30/s counts: new messages and edits (media too)


def _parse(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="camelot bench chat")
    harness.add_game_arguments(p)
    p.add_argument("--games", type=int, default=30, help="concurrent games, every seat a simulated person")
    p.add_argument("--send-latency", type=float, default=0.05, help="seconds each Bot API send or edit takes")
    p.add_argument("--think", type=float, default=1.0, help="about how long a person looks before tapping (s)")
    p.add_argument("--seconds", type=float, default=30.0, help="measuring window")
    p.add_argument("--warmup", type=float, default=10.0)
    p.add_argument("--workers", type=int, default=None, help="`camelot worker` processes (default: cores + 1)")
    p.add_argument("--pace", type=float, default=600.0, help="seconds between two moves of one person, for the "
                   "capacity figure (human-paced: 10 minutes)")
    args = p.parse_args(argv)
    if args.workers is None:
        from workers.run import solo_workers

        args.workers = solo_workers()
    return args


def _fake_api(latency: float) -> Any:
    """The tests' fake Bot API, limits lifted, ids apart from earlier runs' (they may share the database)."""
    if not (FAKE / "fake_bot_api").is_dir():
        raise SystemExit(f"camelot bench chat needs the fake Bot API of the tests at {FAKE}: run it from a checkout")
    sys.path.insert(0, str(FAKE))
    from fake_bot_api import FakeBotApi, RateLimits, spec_path

    if spec_path() is None:
        raise SystemExit("the Bot API spec (shared/telegram-bot-api/api.json) is not beside the checkout")
    api = FakeBotApi(limits=RateLimits.lifted(), first_id=int(time.time()) % 100_000 * 10_000)
    api.world.limits = RateLimits(per_chat=(10**6, 1.0), per_group=(10**6, 1.0), overall=(10**6, 1.0))
    api.latency = latency
    api.start()
    return api


def _service_env(api: Any) -> dict[str, str]:
    return {
        **os.environ,
        "TELEGRAM_TOKEN": api.token,
        "TELEGRAM_BASE_URL": api.base_url,
        "TELEGRAM_CHAT_INTERVAL": "0",
        "TELEGRAM_GROUP_INTERVAL": "0",
        "TELEGRAM_GLOBAL_INTERVAL": "0",
        "TAP_RATE_LIMIT": "1000 per 1 second",
        "COMMAND_RATE_LIMIT": "1000 per 1 second",
        "METRICS_PORT": "0",
    }


def _start(env: dict[str, str], *argv: str) -> subprocess.Popen:
    """One of the service's processes, in its own process group (its CPU time counts as the service's)."""
    proc = subprocess.Popen(
        [sys.executable, "-c", CAMELOT, *argv], env=env, start_new_session=True,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    harness.worker_groups.add(proc.pid)
    return proc


def _await_service(api: Any, procs: list[subprocess.Popen], workers: int) -> None:
    from workers.app import configure

    app = configure()
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if any(proc.poll() is not None for proc in procs):
            raise SystemExit("a process of the service exited at start")
        if api.calls["getUpdates"] > 0 and len(app.control.ping(timeout=0.5)) >= workers:
            return
    raise SystemExit("the service did not start")


def _idle_cpu(seconds: float, gateway: int) -> dict[str, float]:
    """CPU seconds a second the service's processes (and PostgreSQL and Redis, machine-wide) spend with no game:
    polling, the workers' due loops; taken off the window's CPU for what a move itself costs."""
    before = harness.cpu_seconds(gateway)
    time.sleep(seconds)
    after = harness.cpu_seconds(gateway)
    return {key: max(0.0, after[key] - before[key]) / seconds for key in after}


def _open_tables(api: Any, args: argparse.Namespace) -> tuple[list[int], list[Any], list[str]]:
    """`--games` groups of `--players` people who have opened the bot, and a game started in each."""
    from service.play import lobby
    from service.store import session_scope
    from service.store.users import user_for

    tables = []
    for n in range(args.games):
        people = [api.add_user(f"P{n}-{seat}") for seat in range(args.players)]
        with api.world.lock:
            for person in people:
                person.started = True  # they opened the bot's direct chat
                api.world.private_chat(person)
        tables.append((api.add_group(f"Table {n}", people), people))
    with session_scope() as s:
        for _, people in tables:
            for person in people:
                user_for(s, "telegram", str(person.id), person.first_name, "en").direct_chat = str(person.id)

    def start(n: int) -> int:
        group, people = tables[n]
        return lobby.create_and_start(
            "telegram", str(group.id), args.game, {}, [str(p.id) for p in people], 0, seed=n
        )

    with ThreadPoolExecutor(4) as pool:
        ids = list(pool.map(start, range(args.games)))
    users = [person for _, people in tables for person in people]
    chats = [str(group.id) for group, _ in tables] + [str(person.id) for person in users]
    return ids, users, chats


def _moves(ids: list[int]) -> int:
    from service.store import session_scope
    from service.store.models import GameRow

    with session_scope() as s:
        return int(s.scalar(select(func.coalesce(func.sum(GameRow.seq), 0)).where(GameRow.id.in_(ids))))


def _cleanup(ids: list[int], users: list[Any], chats: list[str], since: datetime) -> None:
    """Stop the run's games and delete them, their chats, people and messages."""
    from service.store import session_scope
    from service.store.models import Chat, GameRow, InboxRow, OutboxRow, SentMessage, User

    with session_scope() as s:
        s.execute(update(GameRow).where(GameRow.id.in_(ids)).values(status="aborted"))
    with session_scope() as s:
        s.execute(delete(GameRow).where(GameRow.id.in_(ids)))
        s.execute(delete(OutboxRow).where(OutboxRow.platform == "telegram", OutboxRow.chat.in_(chats)))
        s.execute(delete(SentMessage).where(SentMessage.platform == "telegram", SentMessage.chat.in_(chats)))
        # taps in flight at the end (no beat runs here to replay them; a later one would find their games gone)
        s.execute(delete(InboxRow).where(InboxRow.platform == "telegram", InboxRow.created >= since))
        s.execute(delete(Chat).where(Chat.platform == "telegram", Chat.platform_id.in_(chats)))
        s.execute(delete(User).where(User.platform == "telegram", User.platform_id.in_([str(u.id) for u in users])))


def chat(argv: list[str] | None = None) -> dict[str, float]:
    """Run the benchmark, print the figures, and return them."""
    args = _parse(argv or [])
    harness.configure(args)
    from bench.engine import reference_cpu_seconds
    from service.store import migrate
    from service.store.models import utcnow
    from workers.app import configure

    migrate()
    since = utcnow()
    reference_start = reference_cpu_seconds() * 1000
    configure().control.purge()
    api = _fake_api(args.send_latency)
    env = _service_env(api)
    procs = [_start(env, "worker") for _ in range(args.workers)]
    procs.append(_start(env, "serve", "--telegram"))
    ids: list[int] = []
    users: list[Any] = []
    chats: list[str] = []
    try:
        _await_service(api, procs, args.workers)
        idle = _idle_cpu(IDLE_SECONDS, procs[-1].pid)
        ids, users, chats = _open_tables(api, args)
        people = People(api, users, args.think)
        people.start()
        time.sleep(args.warmup)
        people.measure()
        moves_before, calls_before = _moves(ids), Counter(api.calls)
        with api.world.lock:
            first_record, first_error = len(api.world.records), len(api.errors)
        cpu_before = harness.cpu_seconds(procs[-1].pid)
        started = time.monotonic()
        time.sleep(args.seconds)
        elapsed = time.monotonic() - started
        cpu_after = harness.cpu_seconds(procs[-1].pid)
        moves = _moves(ids) - moves_before
        calls = Counter(api.calls) - calls_before
        with api.world.lock:
            records = api.world.records[first_record:]
            errors = Counter(f"{method} {code} {text[:40]}" for method, code, text in api.errors[first_error:])
        people.stop()
        answers = people.answer_latencies()
    finally:
        for proc in procs:
            os.killpg(proc.pid, signal.SIGTERM)
        for proc in procs:
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
        api.stop()
        _cleanup(ids, users, chats, since)
    f = _figures(args, moves, elapsed, people, answers, calls, records, cpu_before, cpu_after, idle)
    f["reference_ms"], f["reference_start_ms"] = reference_cpu_seconds() * 1000, reference_start
    sending = sum(n for method, n in calls.items() if method.startswith(MESSAGE_METHODS))
    f["sending_calls_per_move"] = sending / max(1, moves)
    f["errors_per_move"] = sum(errors.values()) / max(1, moves)
    _print(args, f, calls, calls_by_kind(records), moves)
    if errors:
        print("  refused calls per move: " + ", ".join(f"{k}: {n / max(1, moves):.2f}" for k, n in errors.items()))
    return f


def _figures(
    args: argparse.Namespace, moves: int, elapsed: float, people: People, answers: list[float],
    calls: Counter[str], records: list[Any], cpu_before: dict[str, float], cpu_after: dict[str, float],
    idle: dict[str, float],
) -> dict[str, float]:
    per_move = max(1, moves)
    messages = [r for r in records if r.method.startswith(MESSAGE_METHODS)]
    group = sum(r.chat_id < 0 for r in messages)
    f: dict[str, float] = {
        "games": args.games,
        "moves": moves,
        "moves_per_s": moves / elapsed,
        "taps": people.taps,
        "unanswered": people.unanswered,
        "panel_p50_ms": _pct(people.panel_latencies, 0.5),
        "panel_p99_ms": _pct(people.panel_latencies, 0.99),
        "answer_p50_ms": _pct(answers, 0.5),
        "answer_p99_ms": _pct(answers, 0.99),
        "calls_per_move": sum(v for k, v in calls.items() if k != "getUpdates") / per_move,
        "messages_per_move": len(messages) / per_move,
        "group_messages_per_move": group / per_move,
        "direct_messages_per_move": (len(messages) - group) / per_move,
    }
    for key in ("worker", "apart", "postgres", "redis"):
        f[f"cpu_{key}_ms"] = (cpu_after[key] - cpu_before[key]) * 1000 / per_move
        f[f"cpu_{key}_above_idle_ms"] = (cpu_after[key] - cpu_before[key] - idle[key] * elapsed) * 1000 / per_move
        f[f"idle_{key}_ms_per_s"] = idle[key] * 1000
    moves_per_game_s = args.players / args.pace
    f["bot_moves_per_s"] = TELEGRAM_MESSAGES_PER_S / f["messages_per_move"] if f["messages_per_move"] else 0.0
    f["games_per_bot"] = f["bot_moves_per_s"] / moves_per_game_s
    f["group_per_min"] = f["group_messages_per_move"] * moves_per_game_s * 60
    return f


def _print(
    args: argparse.Namespace, f: dict[str, float], calls: Counter[str], kinds: Counter[tuple[str, str]], moves: int
) -> None:
    print(
        f"chat: {args.games} {args.game} games of {args.players} simulated people (about {args.think:.1f} s of "
        f"thought a tap) through one Telegram gateway and {args.workers} worker(s), the fake Bot API's sends taking "
        f"{args.send_latency * 1000:.0f} ms, {args.seconds:.0f} s window; this host's CPU: reference workload "
        f"{f['reference_ms']:.0f} ms ({f['reference_start_ms']:.0f} ms at the start)"
    )
    print(
        f"  tap -> updated panel: p50 {f['panel_p50_ms']:.0f} ms, p99 {f['panel_p99_ms']:.0f} ms "
        f"({f['taps']:.0f} taps, {f['unanswered']:.0f} unanswered); {f['moves_per_s']:.1f} moves/s"
    )
    print(
        f"  baseline, same run: tap -> the gateway's answer (answerCallbackQuery, no worker): "
        f"p50 {f['answer_p50_ms']:.0f} ms, p99 {f['answer_p99_ms']:.0f} ms; one send alone: "
        f"{args.send_latency * 1000:.0f} ms"
    )
    shown = ", ".join(
        f"{method} {n / max(1, moves):.2f}" for method, n in sorted(calls.items()) if method != "getUpdates"
    )
    print(f"  Bot API calls per move ({moves} moves): {f['calls_per_move']:.2f}: {shown}")
    by_kind = ", ".join(f"{method} {kind} {n / max(1, moves):.2f}" for (method, kind), n in sorted(kinds.items()))
    print(f"  by chat kind: {by_kind}")
    print(
        f"  messages per move (sends and edits, media included: what Telegram's 30/s counts): "
        f"{f['messages_per_move']:.2f} (group {f['group_messages_per_move']:.2f}, "
        f"direct {f['direct_messages_per_move']:.2f})"
    )
    print(
        f"  sending calls per move (sends and edits tried, refused ones too): {f['sending_calls_per_move']:.2f}; "
        f"the figures below count the messages that changed a chat"
    )
    print(
        f"  one bot account at {TELEGRAM_MESSAGES_PER_S:.0f} messages/s: {f['bot_moves_per_s']:.1f} moves/s; "
        f"human-paced games ({args.players} people, each moving once every {args.pace / 60:.0f} min): "
        f"{f['games_per_bot']:.0f} games; a group then gets {f['group_per_min']:.1f} messages/min "
        f"(Telegram: 20/min)"
    )
    for label, suffix in (("CPU per move", ""), ("CPU per move above idle", "_above_idle")):
        pg = f[f"cpu_postgres{suffix}_ms"]
        postgres = f"{pg:.2f} ms" if pg >= 0 else "n/a (backends ended meanwhile)"
        print(
            f"  {label}: service processes {f[f'cpu_worker{suffix}_ms']:.2f} ms (the gateway "
            f"{f[f'cpu_apart{suffix}_ms']:.2f}, the workers the rest) + PostgreSQL "
            f"{postgres} + Redis {f[f'cpu_redis{suffix}_ms']:.2f} ms (machine-wide for the last two)"
        )
    print(
        f"  idle, before the games: service processes {f['idle_worker_ms_per_s']:.0f} ms of CPU a second, "
        f"PostgreSQL {f['idle_postgres_ms_per_s']:.0f}, Redis {f['idle_redis_ms_per_s']:.0f}"
    )


def _pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] * 1000


if __name__ == "__main__":
    from service import compose

    compose.wire()
    chat(sys.argv[1:])
