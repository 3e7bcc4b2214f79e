"""The service's Prometheus metrics, counted where things happen, in the process where they happen.

Each process has its own registry (prometheus-client's default) and serves it on its own port
(`service.observability.http`); Prometheus adds the process as the `instance` label, so a deployment's total is a
`sum()` over its processes. The gauges that read shared state on scrape (`service.observability.collectors`: the
outbox, deadlines, the broker's queues) read the same thing in every process: take their `max()`.

Each helper here is the one call a module of the application makes: one line where the event happens.
"""

from __future__ import annotations

from typing import Any

from prometheus_client import Counter, Gauge, Histogram, disable_created_metrics

from service.chat.base import RateLimited, TransientError

disable_created_metrics()  # no `_created` series beside each counter: Prometheus's own resets detection suffices
ROUND_TRIP_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
NOT_A_MOVE = ("navigated",)  # an "@" tap re-renders a panel: neither applied nor refused

PROCESS = Gauge("camelot_process", "1 for each process, by what it runs", ["role"])
MOVES_APPLIED = Counter("camelot_moves_applied", "Moves applied, by who made them", ["by"])
MOVES_REFUSED = Counter("camelot_moves_refused", "Moves refused (nothing changed), by who and why", ["by", "reason"])
ROUND_TRIP = Histogram(
    "camelot_move_round_trip_seconds",
    "A move from its enqueueing until its state and outbox rows are committed",
    ["by"],
    buckets=ROUND_TRIP_BUCKETS,
)
SENT = Counter("camelot_messages_sent", "Platform calls that succeeded, by kind and chat", ["platform", "kind", "chat"])
RATE_LIMITED = Counter("camelot_rate_limited", "Platform calls answered 429 (retry after a while)", ["platform"])
SEND_FAILED = Counter(
    "camelot_send_failures", "Platform calls that failed: transient (retried later) or permanent", ["platform", "error"]
)
REMINDERS = Counter("camelot_deadline_reminders", "Deadline reminders queued by the beat's scan")
TIMEOUTS = Counter(
    "camelot_deadline_timeouts",
    "Timeout moves started by the scan at a deadline (again each two scans until the move lands; the ones applied "
    'are camelot_moves_applied_total{by="timeout"})',
)
RESUMED = Counter("camelot_bot_games_resumed", "Bot games whose lost move the scan handed on again")
GAMES_STARTED = Counter("camelot_games_started", "Games started", ["kind"])
GAMES_ENDED = Counter("camelot_games_ended", "Games ended: finished, or aborted once started", ["kind", "how"])


def process(role: str) -> None:
    """Name this process's role (worker, beat, telegram, matrix) in its metrics."""
    PROCESS.labels(role).set(1)


def move(by: str, status: str, seconds: float | None = None) -> None:
    """A move's outcome (`service.play.state.Outcome.status`) and, when applied, its round trip."""
    if status == "applied":
        MOVES_APPLIED.labels(by).inc()
        if seconds is not None:
            ROUND_TRIP.labels(by).observe(seconds)
    elif status not in NOT_A_MOVE:
        MOVES_REFUSED.labels(by, status).inc()


def scanned(counts: dict[str, int]) -> None:
    """What one pass of the beat's scan did (`service.jobs.scan`)."""
    REMINDERS.inc(counts.get("reminders", 0))
    TIMEOUTS.inc(counts.get("timeouts", 0))
    RESUMED.inc(counts.get("resumed", 0))


def game_moved(game: Any) -> None:
    """A game's state was committed (`service.play.hand_on.after_commit`): at seq 0 it has just started; finished,
    it has just ended (a game finishes once, and only an applied move commits)."""
    if game.seq == 0 and game.status == "active":
        GAMES_STARTED.labels(game.kind).inc()
    elif game.status == "finished":
        GAMES_ENDED.labels(game.kind, "finished").inc()


def game_aborted(game: Any) -> None:
    """A game is being aborted: an end if it had started (a lobby's abort is none)."""
    if game.status == "active":
        GAMES_ENDED.labels(game.kind, "aborted").inc()


def sent(row: Any, outcome: Any) -> None:
    """One outbox row's call to its platform (`service.delivery.sends.perform`): `outcome` is (message id, whether
    it is new), the error it ended with, or None when it was not tried."""
    if outcome is None:
        return
    if isinstance(outcome, RateLimited):
        RATE_LIMITED.labels(row.platform).inc()
    elif isinstance(outcome, BaseException):
        SEND_FAILED.labels(row.platform, "transient" if isinstance(outcome, TransientError) else "permanent").inc()
    else:
        SENT.labels(row.platform, _kind(row, new=outcome[1]), "group" if row.is_group else "direct").inc()


def _kind(row: Any, new: bool) -> str:
    """send, edit (an upsert of a message already sent, or a bot's turn added to its message, not sent anew), or the
    row's op (restrict, delete…)."""
    if row.op in ("upsert", "append"):
        return "send" if new else "edit"
    return row.op
