"""Celery tasks, thin wrappers over the application's jobs (`service.jobs.JOBS`, also run in-process).

acks_late + reject_on_worker_lost where a redelivery is harmless: `play` and `command` (their update id is claimed
in the transaction of their effect: a redelivered one runs again only if nothing of it committed), `play_bot`
(valid only at its seq), `rate_game` (a game is rated once), `tournament_game` (a table is recorded once, under
the tournament's lock) and `tournament_autopilot` (each of its moves is a bot move, valid only at its seq).
`deliver` is not: a redelivered send could repeat a message; the outbox sweep picks up anything a lost task left
pending. A tap or command whose task is lost altogether is queued again from the inbox (`service.play.inbox`).

A task that fails on a transient database or Redis error (a backend terminated, a restart) is tried again with
backoff (`RETRIED`) instead of being dropped; each is safe to run again for the same reasons. The scans are not:
the next beat runs them anyway.
"""

from __future__ import annotations

import redis

from service import jobs
from service.play import commands, hand_on, rating, scans, tournament_deadlines, tournament_rounds
from service.store.transient import DB_ERRORS
from workers import due_tasks  # noqa: F401 (due_tasks: starts with the worker)
from workers.app import app

IDEMPOTENT = {"acks_late": True, "reject_on_worker_lost": True}
TRANSIENT = (*DB_ERRORS, redis.exceptions.ConnectionError, redis.exceptions.TimeoutError)
# Celery's full jitter: the first retry within a second, the next within 2, 4 … 30 s: three minutes at most in all.
RETRIED = {"autoretry_for": TRANSIENT, "retry_backoff": 1, "retry_backoff_max": 30, "max_retries": 10}

play = app.task(name="workers.tasks.play", **IDEMPOTENT, **RETRIED)(jobs.play)
play_bot = app.task(name="workers.tasks.play_bot", **IDEMPOTENT, **RETRIED)(jobs.play_bot)
command = app.task(name="workers.tasks.command", **IDEMPOTENT, **RETRIED)(commands.handle)
deliver = app.task(name="workers.tasks.deliver", **RETRIED)(jobs.deliver)
scan_deadlines = app.task(name="workers.tasks.scan_deadlines")(jobs.scan)
sweep_outbox = app.task(name="workers.tasks.sweep_outbox")(scans.sweep_outbox)
prune = app.task(name="workers.tasks.prune")(scans.prune)
noop = app.task(name="workers.tasks.noop")(jobs.noop)
resume_bots = app.task(name="workers.tasks.resume_bots", **RETRIED)(hand_on.resume_bots)
rate_game = app.task(name="workers.tasks.rate_game", **IDEMPOTENT, **RETRIED)(rating.rate)
tournament_game = app.task(name="workers.tasks.tournament_game", **IDEMPOTENT, **RETRIED)(tournament_rounds.game_ended)
tournament_autopilot = app.task(name="workers.tasks.tournament_autopilot", **IDEMPOTENT, **RETRIED)(
    tournament_deadlines.autopilot
)

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
    "tournament_game": tournament_game,
    "tournament_autopilot": tournament_autopilot,
}
