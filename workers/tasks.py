"""Celery tasks, thin wrappers over plain functions (`RUNNERS`, also run in-process by `workers.queue`).

acks_late + reject_on_worker_lost only where a redelivery is harmless: `play` (dedupe by update id in the
move's transaction), `play_bot` (valid only at its seq) and `rate_game` (a game is rated once). `deliver`,
`command` and the scans are not (a redelivered send could repeat a message); the outbox sweep picks up anything a
lost task left pending.
"""

from __future__ import annotations

import time
from typing import Any

from service.delivery import senders
from service.play import commands, metrics, moves, rating, scans
from service.settings import get_settings
from service.store.outbox import shard_of
from workers import due_tasks  # noqa: F401 (due_tasks: starts with the worker)
from workers.app import app
from workers.queue import enqueue, paced

IDEMPOTENT = {"acks_late": True, "reject_on_worker_lost": True}


def _play(cmd: dict[str, Any], enqueued_at: float | None = None) -> str:
    return _observed(moves.play_action(cmd), enqueued_at)


def _play_bot(game_id: int, seat: int, seq: int, by: str = "bot", enqueued_at: float | None = None) -> str:
    return _observed(moves.play_bot(game_id, seat, seq, by), enqueued_at)


def _observed(outcome: moves.Outcome, enqueued_at: float | None) -> str:
    """A move's round trip, as the benchmark's target defines it: from its enqueueing until its state and outbox
    rows are committed. What follows the commit (the cache, the delivery request, the next bot move) hands on, as a
    no-op's enqueueing of the next in its chain does after its own round trip is taken."""
    if outcome.status == "applied":
        metrics.observe("move", enqueued_at, at=outcome.committed_at)
    return outcome.status


def _deliver(platform: str, chat: str | None = None, shard: int | None = None) -> int:
    """A chat's delivery (in-process), or a shard's (with a broker: every request for a chat becomes its shard's,
    so that a chat never has two senders at once)."""
    if shard is None and not get_settings().celery_broker_url:
        return senders.deliver_chat(platform, chat or "")
    return senders.deliver_shard(platform, shard if shard is not None else shard_of(chat or ""))


def _scan() -> dict[str, int]:
    """The beat's pass: reminders and timeouts, then bot games that lost their scheduled move and finished games
    that lost their rating."""
    return {**scans.scan(), "resumed": scans.resume_stalled_bots(), "rated": rating.rate_missed()}


def _noop(until: float = 0.0, delay: float = 0.0, enqueued_at: float | None = None) -> None:
    """The benchmark's baseline: a task that does nothing but, like a bot move, hand on to the next in its chain
    (after about `delay` seconds, paced like a bot's `bot_delay`) until the time `until`."""
    metrics.observe("noop", enqueued_at)
    if time.time() < until:
        enqueue("noop", countdown=paced(delay) or None, until=until, delay=delay)


RUNNERS: dict[str, Any] = {
    "play": _play,
    "play_bot": _play_bot,
    "command": commands.handle,
    "deliver": _deliver,
    "scan_deadlines": _scan,
    "sweep_outbox": scans.sweep_outbox,
    "prune": scans.prune,
    "noop": _noop,
    "resume_bots": moves.resume_bots,
    "rate_game": rating.rate,
}

play = app.task(name="workers.tasks.play", **IDEMPOTENT)(_play)
play_bot = app.task(name="workers.tasks.play_bot", **IDEMPOTENT)(_play_bot)
command = app.task(name="workers.tasks.command")(commands.handle)
deliver = app.task(name="workers.tasks.deliver")(_deliver)
scan_deadlines = app.task(name="workers.tasks.scan_deadlines")(_scan)
sweep_outbox = app.task(name="workers.tasks.sweep_outbox")(scans.sweep_outbox)
prune = app.task(name="workers.tasks.prune")(scans.prune)
noop = app.task(name="workers.tasks.noop")(_noop)
resume_bots = app.task(name="workers.tasks.resume_bots")(moves.resume_bots)
rate_game = app.task(name="workers.tasks.rate_game", **IDEMPOTENT)(rating.rate)

TASKS = {
    "play": play,
    "play_bot": play_bot,
    "command": command,
    "deliver": deliver,
    "scan_deadlines": scan_deadlines,
    "sweep_outbox": sweep_outbox,
    "prune": prune,
    "noop": noop,
    "resume_bots": resume_bots,
    "rate_game": rate_game,
}
