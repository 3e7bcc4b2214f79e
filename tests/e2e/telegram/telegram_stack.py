"""The whole service as separate processes around a fake Telegram: the gateway (`camelot serve --telegram`) and a
Celery worker (`camelot worker`), with PostgreSQL and Redis on 127.0.0.1. Rates are scaled by TIME_SCALE on both
sides (the worker's buckets and the fake server's limits), so a game takes seconds per round instead of minutes,
and every rate is still enforced in the same proportions as Telegram's; so are the gateway's per-person flood
limits, since the simulated people tap as fast as the scaled rates bring them their buttons.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from fake_bot_api import FakeBotApi, RateLimits
from limits import parse

from service.settings import Settings

TIME_SCALE = 4  # 1 message/s per chat becomes 4/s; 20/min per group becomes 20 per 15 s; 30/s becomes 120/s
CAMELOT = "from service.cli import app\napp()\n"  # the `camelot` command, as the Procfile runs it


def scaled_limits() -> RateLimits:
    """Telegram's limits at TIME_SCALE. Per chat, up to three sends may bunch up within three intervals (Telegram,
    too, tolerates a short burst): that absorbs the delay between the worker's bucket granting a send and the send
    reaching the server on a busy 2-core machine (a worker's first send also opens its HTTP client), while the
    average stays at most one per interval. Per group and overall the limits are exact."""
    interval = 1.0 / TIME_SCALE
    return RateLimits(per_chat=(3, 3 * interval), per_group=(20, 60.0 * interval), overall=(30, interval), slack=0.2)


def scaled_flood_limit(setting: str) -> str:
    """A flood limit's default (service.settings) at TIME_SCALE times the count in the same window."""
    item = parse(Settings.model_fields[setting].default)
    return f"{item.amount * TIME_SCALE} per {item.multiples} {item.GRANULARITY.name}"


def stack_env(api: FakeBotApi, broker_url: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        {
            "CELERY_BROKER_URL": broker_url,
            "TELEGRAM_TOKEN": api.token,
            "TELEGRAM_BASE_URL": api.base_url,
            "TELEGRAM_CHAT_INTERVAL": str(1.0 / TIME_SCALE),
            "TELEGRAM_GROUP_INTERVAL": str(3.0 / TIME_SCALE),
            "TELEGRAM_GLOBAL_INTERVAL": str(1.0 / 30 / TIME_SCALE),
            "TAP_RATE_LIMIT": scaled_flood_limit("tap_rate_limit"),
            "COMMAND_RATE_LIMIT": scaled_flood_limit("command_rate_limit"),
            "PYTHONUNBUFFERED": "1",
        }
    )
    return env


class Stack:
    """Starts the gateway and a worker; `stop()` ends them (SIGTERM, then SIGKILL); the gateway can be killed and
    started again mid-game."""

    def __init__(self, api: FakeBotApi, broker_url: str, logs: Path) -> None:
        self.env = stack_env(api, broker_url)
        self.logs = logs
        self.procs: dict[str, subprocess.Popen[bytes]] = {}

    def start(self) -> None:
        self.start_worker()
        self.start_gateway()

    def start_worker(self) -> None:
        self._spawn(
            "worker",
            [
                sys.executable,
                "-c",
                CAMELOT,
                "worker",
                "--concurrency",
                "2",
                "--loglevel",
                "INFO",
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
            ],
        )

    def start_gateway(self, name: str = "gateway", **env: str) -> subprocess.Popen[bytes]:
        """`camelot serve --telegram` as process `name`, with `env` added to the stack's settings."""
        return self._spawn(name, [sys.executable, "-c", CAMELOT, "serve", "--telegram"], env)

    def start_beat(self, interval: float) -> subprocess.Popen[bytes]:
        """`camelot beat` scanning deadlines every `interval` seconds (its schedule file among the logs), for the
        tests whose deadlines must fall due while they run."""
        schedule = str(self.logs / "celerybeat-schedule")
        argv = [sys.executable, "-c", CAMELOT, "beat", "--schedule", schedule]
        return self._spawn("beat", argv, {"DEADLINE_SCAN_INTERVAL": str(interval)})

    def kill_gateway(self, name: str = "gateway") -> None:
        """SIGKILL: no goodbye, no last offset confirmed to Telegram."""
        proc = self.procs[name]
        proc.kill()
        proc.wait(10)

    def _spawn(self, name: str, argv: list[str], env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
        out = (self.logs / f"{name}.log").open("ab")
        self.procs[name] = subprocess.Popen(argv, env={**self.env, **(env or {})}, stdout=out, stderr=subprocess.STDOUT)
        return self.procs[name]

    def log_tail(self, lines: int = 40) -> str:
        parts = []
        for name in self.procs:
            text = (self.logs / f"{name}.log").read_text(errors="replace").splitlines()[-lines:]
            parts.append(f"--- {name} ---\n" + "\n".join(text))
        return "\n".join(parts)

    def stop(self) -> None:
        for proc in self.procs.values():
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        for proc in self.procs.values():
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(5)
