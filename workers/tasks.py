"""Celery tasks, thin wrappers over the application's jobs (`service.jobs.JOBS`, also run in-process).

acks_late + reject_on_worker_lost only where a redelivery is harmless: `play` (dedupe by update id in the
move's transaction), `play_bot` (valid only at its seq), `rate_game` (a game is rated once), `tournament_game` (a
table is recorded once, under the tournament's lock) and `tournament_autopilot` (each of its moves is a bot move,
valid only at its seq). `deliver`, `command` and the scans are not (a redelivered send could repeat a message);
the outbox sweep picks up anything a lost task left pending.
"""

from __future__ import annotations

from service import jobs
from service.play import commands, hand_on, rating, scans, tournament_deadlines, tournament_rounds
from workers import due_tasks  # noqa: F401 (due_tasks: starts with the worker)
from workers.app import app

IDEMPOTENT = {"acks_late": True, "reject_on_worker_lost": True}

play = app.task(name="workers.tasks.play", **IDEMPOTENT)(jobs.play)
play_bot = app.task(name="workers.tasks.play_bot", **IDEMPOTENT)(jobs.play_bot)
command = app.task(name="workers.tasks.command")(commands.handle)
deliver = app.task(name="workers.tasks.deliver")(jobs.deliver)
scan_deadlines = app.task(name="workers.tasks.scan_deadlines")(jobs.scan)
sweep_outbox = app.task(name="workers.tasks.sweep_outbox")(scans.sweep_outbox)
prune = app.task(name="workers.tasks.prune")(scans.prune)
noop = app.task(name="workers.tasks.noop")(jobs.noop)
resume_bots = app.task(name="workers.tasks.resume_bots")(hand_on.resume_bots)
rate_game = app.task(name="workers.tasks.rate_game", **IDEMPOTENT)(rating.rate)
tournament_game = app.task(name="workers.tasks.tournament_game", **IDEMPOTENT)(tournament_rounds.game_ended)
tournament_autopilot = app.task(name="workers.tasks.tournament_autopilot", **IDEMPOTENT)(tournament_deadlines.autopilot)

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
