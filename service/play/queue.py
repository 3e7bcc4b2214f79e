"""How work is handed on: the application's queue interface.

Jobs are named (`service.jobs.JOBS`). Without a broker they run in this process, in order (`InProcess`); with one
(`CELERY_BROKER_URL`) they go to the installed `Broker` (`workers.celery_queue`). The composition root
(`service.compose.wire`) installs both; the settings choose between them at each call, as they say where to go.

The in-process mode drains a FIFO in a loop instead of recursing, so an all-bot game of hundreds of moves
(each move enqueuing the next) runs in constant stack depth.

Work due later (a bot's pace, a delivery waiting for its rate) is not a Celery countdown: an ETA message sits in
a worker's prefetch slots until it is due, so a thousand paced bot games starve the worker of real work. It is
kept in the shared sessions (`Sessions.schedule`) and published when due by `workers.due_tasks`, which every
worker runs.
"""

from __future__ import annotations

import json
import random
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any, Protocol

from service.sessions import get_sessions
from service.settings import get_settings
from service.store.outbox import shard_of

_local = threading.local()
TIMED = ("play", "play_bot", "noop")  # stamped with `enqueued_at` for `service.play.metrics`
COALESCE_TTL = 30.0  # a lost deliver task blocks new ones at most this long (the beat's sweep also recovers)
PACE_JITTER = 0.2

Job = Callable[..., Any]
Jobs = Mapping[str, Job]


class DeliveryConsumer(Protocol):
    """A gateway's consumer of its platform's deliveries, with a broker (`workers.deliveries`)."""

    def start(self) -> None: ...

    async def stop(self) -> None: ...


class Broker(Protocol):
    """Where jobs go when a broker is configured: the Celery implementation is `workers.celery_queue.CeleryQueue`."""

    def publish(self, task: str, kwargs: dict[str, Any], countdown: float | None = None) -> None:
        """Hand on one job, now or after `countdown` seconds."""

    def publish_together(self, jobs: list[tuple[str, dict[str, Any]]]) -> None:
        """Hand on jobs together (their messages in one round trip)."""

    def consume_deliveries(self, platform: str) -> DeliveryConsumer:
        """A consumer of the platform's deliveries, for its gateway's process."""


class InProcess:
    """Runs jobs in this process, in order, before `enqueue` returns (the mode without a broker)."""

    def __init__(self, jobs: Jobs) -> None:
        self.jobs = jobs

    def run(self, task: str, kwargs: dict[str, Any], countdown: float | None = None) -> None:
        jobs: deque[tuple[str, float | None, dict[str, Any]]] | None = getattr(_local, "jobs", None)
        if jobs is not None:  # already draining in this thread: append, the loop below picks it up
            jobs.append((task, countdown, kwargs))
            return
        _local.jobs = jobs = deque([(task, countdown, kwargs)])
        try:
            while jobs:
                name, delay, kw = jobs.popleft()
                if delay:
                    threading.Event().wait(delay)
                self.jobs[name](**kw)
        finally:
            _local.jobs = None


_in_process: InProcess | None = None
_broker_factory: Callable[[], Broker] | None = None
_broker: Broker | None = None


def install(jobs: Jobs, broker: Callable[[], Broker] | None = None) -> None:
    """Put the jobs in place for in-process runs, and how to make the broker (called once, when first needed: a
    process that never uses a broker never loads Celery)."""
    global _in_process, _broker_factory, _broker
    _in_process = InProcess(jobs)
    _broker_factory, _broker = broker, None


def in_process() -> InProcess:
    if _in_process is None:
        raise RuntimeError("no jobs installed: call service.compose.wire() first (the camelot command does)")
    return _in_process


def broker() -> Broker:
    """The installed broker (CELERY_BROKER_URL is set)."""
    global _broker
    if _broker is None:
        if _broker_factory is None:
            raise RuntimeError("CELERY_BROKER_URL is set but no broker is installed: call service.compose.wire()")
        _broker = _broker_factory()
    return _broker


def paced(seconds: float) -> float:
    """About `seconds` (± PACE_JITTER): the pace of a bot (`bot_delay`). Counted from each game's previous move,
    an exact pace keeps the moves that a slow moment bunched together bunched, game after game, and the bunch
    grows each round (seen in the pipeline benchmark: the slow moves came as one stretch per round); a little
    randomness lets them spread out again, as people's moves do."""
    return seconds * random.uniform(1 - PACE_JITTER, 1 + PACE_JITTER)


def enqueue(task: str, countdown: float | None = None, **kwargs: Any) -> None:
    """Run job `task` (a name in `service.jobs.JOBS`) with `kwargs`, now or after `countdown` seconds."""
    settings = get_settings()
    if countdown and settings.celery_broker_url and settings.redis_url:
        schedule(task, countdown, kwargs)
        return
    if task in TIMED:
        kwargs["enqueued_at"] = time.time() + (countdown or 0.0)  # when it is due
    if settings.celery_broker_url:
        later: list[tuple[str, dict[str, Any]]] | None = getattr(_local, "later", None)
        if later is not None and not countdown:
            later.append((task, kwargs))
        else:
            broker().publish(task, kwargs, countdown)
        return
    in_process().run(task, kwargs, countdown)


@contextmanager
def handing_on() -> Iterator[None]:
    """A block that hands work on together: its session writes (a move's cached state, work scheduled for later,
    delivery requests) go to Redis in one round trip when it ends, and only then are the tasks it enqueued for now
    published (a task must find the state the block cached)."""
    if getattr(_local, "later", None) is not None:  # nested: the outer block hands on
        yield
        return
    _local.later = later = []
    try:
        with get_sessions().pipelined():
            yield
    finally:
        _local.later = None
    if later:
        broker().publish_together(later)


def schedule(task: str, countdown: float, kwargs: dict[str, Any]) -> None:
    """Publish `task` in `countdown` seconds (see the module's docstring)."""
    get_sessions().scheduler.schedule(*due_entry(task, countdown, kwargs))


def due_entry(task: str, countdown: float, kwargs: dict[str, Any]) -> tuple[str, float]:
    """The member and due time that schedule `task`. A timed task gets a nonce so that two identical ones both run;
    other identical requests (a chat's delivery) collapse into one."""
    item: dict[str, Any] = {"task": task, "kwargs": kwargs}
    if task in TIMED:
        item["nonce"] = secrets.token_hex(4)
    return json.dumps(item, sort_keys=True, separators=(",", ":")), time.time() + countdown


def unschedule_moves(game_ids: set[int]) -> int:
    """Forget the bot moves scheduled for these games (stopped ones: the moves would only find them stopped).
    Returns how many."""
    return len(take_scheduled(lambda task, kwargs: task == "play_bot" and kwargs.get("game_id") in game_ids))


def take_scheduled(wanted: Callable[[str, dict[str, Any]], bool]) -> list[dict[str, Any]]:
    """Take the scheduled tasks that `wanted(task, kwargs)` picks out of the schedule; returns their arguments."""
    sessions = get_sessions()
    taken = [
        (member, item["kwargs"])
        for member in sessions.scheduler.members()
        if wanted((item := json.loads(member))["task"], item["kwargs"])
    ]
    sessions.scheduler.unschedule([member for member, _ in taken])
    return [kwargs for _, kwargs in taken]


def request_delivery(platform: str, chat: str) -> None:
    """Ask for the chat's outbox to be sent. With a broker the chat's shard is asked (`service.store.outbox.shard_of`),
    and requests coalesce: while one deliver task for the shard waits in the queue, more are not added (it clears
    the mark when it starts, then reads every row committed before)."""
    if get_settings().celery_broker_url:
        settings = get_settings()
        shard = shard_of(chat)
        mark = delivery_mark(platform, shard)
        # after a short window, so that one task sends what several moves queued (nobody notices 100 ms)
        window = settings.delivery_batch_window
        if window and settings.redis_url:  # what `enqueue` would do, with the mark in the same round trip
            entry = due_entry("deliver", window, {"platform": platform, "shard": shard})
            get_sessions().scheduler.schedule_unless_marked(mark, COALESCE_TTL, *entry)
        elif get_sessions().marks.set(mark, ttl=COALESCE_TTL):
            enqueue("deliver", countdown=window or None, platform=platform, shard=shard)
        return
    enqueue("deliver", platform=platform, chat=chat)


def delivery_mark(platform: str, shard: int) -> str:
    return f"deliver-queued:{platform}:{shard}"
