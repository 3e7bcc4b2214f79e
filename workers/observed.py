"""What the Celery processes add to the service's observability: the broker's queue lengths (read through kombu,
for `/readyz` and the `camelot_queue_length` gauge of every process), the worker's and beat's own readiness from
Celery's signals, JSON log lines from Celery's own loggers with `LOG_FORMAT=json`, and the HTTP server of each
(`serve`, called by `workers.run`). A prefork worker's pool processes each serve their own counters, on the next
free port (`service.observability.http`).
"""

from __future__ import annotations

import logging
from typing import Any

import kombu.exceptions
from celery.signals import beat_init, setup_logging, worker_process_init, worker_ready, worker_shutdown

from service import logs
from service.observability import checks, http
from service.settings import get_settings
from workers.app import configure
from workers.deliveries import delivery_queue

PLATFORMS = ("telegram", "matrix")  # each has its deliveries' queue, consumed by its gateway
_state = {"worker": "not consuming yet", "beat": "not started yet"}


def queue_lengths() -> dict[str, int]:
    """Messages waiting in the moves' queue and each platform's deliveries' queue (a queue never declared is empty).
    A passive declare is how AMQP asks a queue's length, and kombu's Redis transport answers it the same way."""
    app = configure()
    names = [app.conf.task_default_queue, *(delivery_queue(p) for p in PLATFORMS)]
    lengths = {}
    with app.connection_for_read(connect_timeout=checks.CONNECT_TIMEOUT) as conn:
        conn.ensure_connection(max_retries=1, timeout=checks.CONNECT_TIMEOUT)
        for name in names:
            channel = conn.channel()
            try:
                lengths[name] = channel.queue_declare(queue=name, passive=True).message_count
            except (kombu.exceptions.ChannelError, *conn.channel_errors):
                lengths[name] = 0  # NOT_FOUND: no message was ever sent there
            finally:
                channel.close()
    return lengths


def serve(role: str) -> None:
    """Start the process's HTTP server (METRICS_PORT), with the readiness of its Celery side ("worker" or "beat")."""
    checks.register(role, lambda: _ready(role))
    log_as_configured()
    http.serve(role)


def log_as_configured() -> None:
    """With LOG_FORMAT=json, Celery's own log lines as JSON too (before the worker or beat starts)."""
    if get_settings().log_format == "json":
        setup_logging.connect(_json_logging, weak=False)  # Celery then leaves the loggers to us


def _ready(role: str) -> str:
    if _state[role] != "ready":
        raise checks.Problem(_state[role])
    return "consuming" if role == "worker" else "scheduling"


@worker_ready.connect
def _worker_ready(**_: Any) -> None:
    _state["worker"] = "ready"


@worker_shutdown.connect
def _worker_stopping(**_: Any) -> None:
    _state["worker"] = "shutting down"


@beat_init.connect
def _beat_started(**_: Any) -> None:
    _state["beat"] = "ready"


@worker_process_init.connect
def _pool_process(**_: Any) -> None:
    """A prefork pool process counts the moves it plays: it serves them itself (ready as it starts: its parent
    hands it tasks)."""
    _state["worker"] = "ready"
    serve("worker")


def _json_logging(loglevel: Any = logging.INFO, **_: Any) -> None:
    """Celery's `setup_logging`: its log lines (task received, succeeded…) as JSON, like the service's own."""
    logs.json_root_handler(loglevel if isinstance(loglevel, int) else logging.getLevelName(str(loglevel).upper()))
