"""What each job name runs: plain functions, run in-process by `service.play.queue.InProcess` and wrapped as Celery
tasks of the same names by `workers.tasks`.

The top of the application: it names the move pipeline's jobs (`service.play`) and the outbox's sender
(`service.delivery`), so neither needs the other to run a job.
"""

from __future__ import annotations

import time
from typing import Any

from service.delivery import senders
from service.observability import metrics as observed
from service.play import (
    board_clock,
    bot_move,
    commands,
    hand_on,
    inbox,
    metrics,
    person_move,
    rating,
    scans,
    tournament_deadlines,
    tournament_rounds,
)
from service.play.queue import Job, enqueue, paced
from service.play.state import Outcome
from service.settings import get_settings
from service.store.models import utcnow
from service.store.outbox import shard_of


def play(cmd: dict[str, Any], enqueued_at: float | None = None) -> str:
    return _observed(person_move.play_action(cmd), enqueued_at, "person")


def play_bot(game_id: int, seat: int, seq: int, by: str = "bot", enqueued_at: float | None = None) -> str:
    return _observed(bot_move.play_bot(game_id, seat, seq, by), enqueued_at, by)


def _observed(outcome: Outcome, enqueued_at: float | None, by: str) -> str:
    """A move's round trip, as the benchmark's target defines it: from its enqueueing until its state and outbox
    rows are committed. What follows the commit (the cache, the delivery request, the next bot move) hands on, as a
    no-op's enqueueing of the next in its chain does after its own round trip is taken. Counted for Prometheus
    too (`service.observability.metrics`: applied or refused by reason, by person, bot or timeout)."""
    applied = outcome.status == "applied" and enqueued_at is not None
    seconds = (outcome.committed_at or time.time()) - enqueued_at if applied else None
    if applied:
        metrics.observe("move", enqueued_at, at=outcome.committed_at)
    observed.move(by, outcome.status, seconds)
    return outcome.status


def deliver(platform: str, chat: str | None = None, shard: int | None = None) -> int:
    """A chat's delivery (in-process), or a shard's (with a broker: every request for a chat becomes its shard's,
    so that a chat never has two senders at once)."""
    if shard is None and not get_settings().celery_broker_url:
        return senders.deliver_chat(platform, chat or "")
    return senders.deliver_shard(platform, shard if shard is not None else shard_of(chat or ""))


def scan() -> dict[str, int]:
    """The beat's pass: reminders and timeouts, then what a lost task left undone: bot games that lost their
    move, caches left behind by a lost hand-on, finished games that lost their rating, received taps and commands
    never applied; the boards' clocks; then the tournaments' round deadlines and the game ends they missed."""
    counts = {
        **scans.scan(),
        "resumed": scans.resume_stalled_bots(),
        "forgotten": scans.forget_stale_caches(),
        "rated": rating.rate_missed(),
        "replayed": inbox.replay(),
        "clocks": board_clock.refresh(utcnow()),
    }
    counts.update((f"tournament_{key}", n) for key, n in tournament_deadlines.scan().items())
    observed.scanned(counts)
    return counts


def noop(until: float = 0.0, delay: float = 0.0, enqueued_at: float | None = None) -> None:
    """The benchmark's baseline: a task that does nothing but, like a bot move, hand on to the next in its chain
    (after about `delay` seconds, paced like a bot's `bot_delay`) until the time `until`."""
    metrics.observe("noop", enqueued_at)
    if time.time() < until:
        enqueue("noop", countdown=paced(delay) or None, until=until, delay=delay)


JOBS: dict[str, Job] = {
    "play": play,
    "play_bot": play_bot,
    "command": commands.handle,
    "deliver": deliver,
    "scan_deadlines": scan,
    "sweep_outbox": scans.sweep_outbox,
    "prune": scans.prune,
    "noop": noop,
    "resume_bots": hand_on.resume_bots,
    "rate_game": rating.rate,
    "tournament_game": tournament_rounds.game_ended,
    "tournament_autopilot": tournament_deadlines.autopilot,
}
