"""Every setting from the environment (pydantic-settings), with embedded defaults that need no server.

Defaults: a SQLite file under `./var/`, in-memory sessions (`REDIS_URL` unset), in-process task execution
(`CELERY_BROKER_URL` unset). Tests override by setting env vars and calling `get_settings.cache_clear()`.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    """Read once per process from env vars of the same name (case-insensitive) or a `.env` file."""

    model_config = SettingsConfigDict(env_file=".env", extra="ignore")

    database_url: str = f"sqlite:///{Path('var/camelot.sqlite3').absolute()}"
    redis_url: str | None = None
    celery_broker_url: str | None = None
    celery_result_backend: str | None = None
    celery_visibility_timeout: float = 300.0  # an unacknowledged task is redelivered after this (Redis broker)
    worker_pool: str = "solo"  # Celery pool of `camelot worker`: solo (run one per core, plus one), prefork or threads
    worker_concurrency: int = 1  # processes (or threads) of that pool; a solo pool has one
    worker_prefetch_multiplier: int = 4  # messages reserved per worker process (0: no limit)

    telegram_token: str | None = None
    telegram_base_url: str | None = None  # e.g. http://127.0.0.1:8081/bot (tests' fake Bot API)
    telegram_webhook_url: str | None = None
    telegram_webhook_secret: str | None = None
    telegram_webhook_listen: str = "127.0.0.1"  # address the webhook server binds (behind a TLS proxy)
    telegram_webhook_port: int = 8443
    matrix_homeserver: str | None = None
    matrix_user: str | None = None
    matrix_password: str | None = None
    matrix_store_path: str = "var/matrix-store"

    default_language: str = "en"

    # Signs button data (service.callback); unset: generated once into callback_secret_file (one machine only).
    callback_secret: str | None = None
    callback_secret_file: str = str(Path("var/callback-secret").absolute())
    # Per-user flood limits at the gateways (the `limits` library's notation); more is dropped before it is queued.
    tap_rate_limit: str = "15 per 10 seconds"
    command_rate_limit: str = "10 per minute"

    # About how many seconds a bot waits before each move in a chat game, so people can follow what it did: a
    # move is a message and a board edit, and a Telegram group takes about 20 a minute (one move in 6 s) - a
    # quicker bot only makes the messages queue. 0 plays at once. The terminal game never waits.
    chat_bot_delay: float = 8.0
    # The pinned board of a chat game is a picture with the text as its caption (off: the text alone).
    board_pictures: bool = True
    # Deadlines per prompt timing (engine.core.prompts TURN / RESPONSE), in seconds.
    turn_deadline: float = 24 * 3600
    response_deadline: float = 3600
    # A window asked of everyone so that nobody learns who could answer (who holds a Merlin): the default is played
    # for whoever has not answered after this many seconds (`service.play.no_idle`).
    window_deadline: float = 120
    # Reminders at these fractions of the deadline: first in the player's direct chat, later ones in the group.
    reminder_fractions: tuple[float, ...] = (0.5, 0.9)
    deadline_scan_interval: float = 15.0
    # How long a move may be on its way before the beat's scans hand it on again: a bot's move that a dead worker
    # or a lost task never made, a received tap or command never applied (`service.play.inbox`). Keep it at or
    # below the Redis broker's visibility timeout, after which a dead worker's task comes back anyway.
    recovery_grace: float = 60.0

    # Outbox rates, as minimum intervals between sends (seconds); edits count as sends.
    telegram_chat_interval: float = 1.0  # 1 message/s per chat
    telegram_group_interval: float = 3.0  # 20 messages/min per group
    telegram_global_interval: float = 1 / 30  # 30 messages/s per bot
    matrix_room_interval: float = 0.5
    matrix_global_interval: float = 0.1
    outbox_max_attempts: int = 8
    delivery_shards: int = 4  # senders that may work at once per platform (each drains many chats); see outbox
    delivery_batch_window: float = 0.1  # seconds a shard's delivery waits to gather more messages (with a broker)
    # Seconds a lease lasts unless renewed (`service.delivery.leases`): a dead gateway's delivery shards, a bot's
    # long poll and a Matrix account's sync are taken over this long after it died.
    lease_seconds: float = 10.0

    # /metrics, /healthz and /readyz of each process (`service.observability.http`); 0 = no such server. Several
    # processes on one host take the first free port of METRICS_PORT … METRICS_PORT + METRICS_PORTS - 1.
    metrics_port: int = 0
    metrics_ports: int = 16
    metrics_listen: str = "127.0.0.1"  # 0.0.0.0 in a container, so that Prometheus reaches it
    log_format: Literal["text", "json"] = "text"  # json: one JSON object a line (`service.logs`)

@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """The process-wide settings; call `get_settings.cache_clear()` after changing the environment."""
    return Settings()
