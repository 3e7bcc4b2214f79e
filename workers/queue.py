"""How work is handed on: to Celery when a broker is configured, else run in this process, in order.

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
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from service.settings import get_settings

_local = threading.local()
TIMED = ("play", "play_bot", "noop")  # stamped with `enqueued_at` for `service.play.metrics`
COALESCE_TTL = 30.0  # a lost deliver task blocks new ones at most this long (the beat's sweep also recovers)
PACE_JITTER = 0.2


def paced(seconds: float) -> float:
    """About `seconds` (± PACE_JITTER): the pace of a bot (`bot_delay`). Counted from each game's previous move,
    an exact pace keeps the moves that a slow moment bunched together bunched, game after game, and the bunch
    grows each round (seen in the pipeline benchmark: the slow moves came as one stretch per round); a little
    randomness lets them spread out again, as people's moves do."""
    return seconds * random.uniform(1 - PACE_JITTER, 1 + PACE_JITTER)


def enqueue(task: str, countdown: float | None = None, **kwargs: Any) -> None:
    """Run task `task` (a name in `workers.tasks.TASKS`) with `kwargs`, now or after `countdown` seconds."""
    from workers import tasks

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
            _publish(task, kwargs, countdown)
        return
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
            tasks.RUNNERS[name](**kw)
    finally:
        _local.jobs = None


def _publish(task: str, kwargs: dict[str, Any], countdown: float | None = None, producer: Any = None) -> None:
    from workers import tasks
    from workers.app import configure

    configure()
    if not countdown and _on_redis():
        _push([(task, kwargs)])
        return
    tasks.TASKS[task].apply_async(
        kwargs=kwargs,
        countdown=countdown,
        queue=queue_of(task, kwargs),
        argsrepr="()",
        kwargsrepr=shown(kwargs),
        producer=producer,
    )


def _publish_together(jobs: list[tuple[str, dict[str, Any]]]) -> None:
    """Publish tasks to the broker together: their messages sent in one round trip."""
    if _on_redis():
        _push(jobs)
        return
    if len(jobs) == 1:
        _publish(*jobs[0])
        return
    from workers.app import configure

    with configure().producer_or_acquire() as producer, producer.batch():
        for task, kwargs in jobs:
            _publish(task, kwargs, producer=producer)


def _on_redis() -> bool:
    """Whether the broker is Redis, whose messages `workers.messages` builds (others go through `apply_async`)."""
    from workers.broker import is_redis

    return is_redis(get_settings().celery_broker_url)


def _push(jobs: list[tuple[str, dict[str, Any]]]) -> None:
    from workers import messages, tasks
    from workers.app import configure

    default = configure().conf.task_default_queue
    built = []
    for task, kwargs in jobs:
        queue = queue_of(task, kwargs) or default
        built.append((queue, messages.message(tasks.TASKS[task].name, kwargs, queue, shown(kwargs))))
    messages.push(get_settings().celery_broker_url or "", built)


@contextmanager
def handing_on() -> Iterator[None]:
    """A block that hands work on together: its session writes (a move's cached state, work scheduled for later,
    delivery requests) go to Redis in one round trip when it ends, and only then are the tasks it enqueued for now
    published (a task must find the state the block cached)."""
    if getattr(_local, "later", None) is not None:  # nested: the outer block hands on
        yield
        return
    from service.sessions import get_sessions

    _local.later = later = []
    try:
        with get_sessions().pipelined():
            yield
    finally:
        _local.later = None
    if later:
        _publish_together(later)


def queue_of(task: str, kwargs: dict[str, Any]) -> str | None:
    """The Celery queue for a task: deliveries go to their platform's own (`delivery_queue`), which that platform's
    gateway process consumes (`service.chat.deliveries`); the rest to the default queue (None), `camelot worker`'s."""
    return delivery_queue(kwargs["platform"]) if task == "deliver" else None


def delivery_queue(platform: str) -> str:
    return f"deliver.{platform}"


def schedule(task: str, countdown: float, kwargs: dict[str, Any]) -> None:
    """Publish `task` in `countdown` seconds (see the module's docstring)."""
    from service.sessions import get_sessions

    get_sessions().schedule(*due_entry(task, countdown, kwargs))


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
    from service.sessions import get_sessions

    sessions = get_sessions()
    taken = [
        (member, item["kwargs"])
        for member in sessions.scheduled()
        if wanted((item := json.loads(member))["task"], item["kwargs"])
    ]
    sessions.unschedule([member for member, _ in taken])
    return [kwargs for _, kwargs in taken]


def shown(kwargs: dict[str, Any]) -> str:
    """What Celery logs and reports of a task's arguments (`kwargsrepr`): a player's choice (the action code, the
    button data) can be secret, e.g. a card discarded face down, so it is masked."""
    cmd = kwargs.get("cmd")
    if not isinstance(cmd, dict):
        return repr(kwargs)
    return repr({**kwargs, "cmd": {k: ("***" if k in ("code", "text") and v else v) for k, v in cmd.items()}})


def request_delivery(platform: str, chat: str) -> None:
    """Ask for the chat's outbox to be sent. With a broker the chat's shard is asked (`service.store.outbox.shard_of`),
    and requests coalesce: while one deliver task for the shard waits in the queue, more are not added (it clears
    the mark when it starts, then reads every row committed before)."""
    if get_settings().celery_broker_url:
        from service.sessions import get_sessions
        from service.store.outbox import shard_of

        settings = get_settings()
        shard = shard_of(chat)
        mark = delivery_mark(platform, shard)
        # after a short window, so that one task sends what several moves queued (nobody notices 100 ms)
        window = settings.delivery_batch_window
        if window and settings.redis_url:  # what `enqueue` would do, with the mark in the same round trip
            entry = due_entry("deliver", window, {"platform": platform, "shard": shard})
            get_sessions().schedule_unless_marked(mark, COALESCE_TTL, *entry)
        elif get_sessions().mark(mark, ttl=COALESCE_TTL):
            enqueue("deliver", countdown=window or None, platform=platform, shard=shard)
        return
    enqueue("deliver", platform=platform, chat=chat)


def delivery_mark(platform: str, shard: int) -> str:
    return f"deliver-queued:{platform}:{shard}"
