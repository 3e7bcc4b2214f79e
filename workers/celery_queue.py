"""The Celery implementation of the application's queue (`service.play.queue.Broker`), installed by the composition
root (`service.compose.wire`) and used when `CELERY_BROKER_URL` is set.

On a Redis broker the messages are built here and pushed in one round trip (`workers.messages`); on any other,
they go through Celery's `apply_async`.
"""

from __future__ import annotations

from typing import Any

from service.settings import get_settings
from workers import messages, tasks
from workers.app import configure, is_redis
from workers.deliveries import DeliveryConsumer, delivery_queue


class CeleryQueue:
    """Publishes jobs as the Celery tasks of the same name (`workers.tasks.TASKS`)."""

    def publish(
        self, task: str, kwargs: dict[str, Any], countdown: float | None = None, producer: Any = None
    ) -> None:
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

    def publish_together(self, jobs: list[tuple[str, dict[str, Any]]]) -> None:
        """Publish tasks to the broker together: their messages sent in one round trip."""
        if _on_redis():
            _push(jobs)
            return
        if len(jobs) == 1:
            self.publish(*jobs[0])
            return
        with configure().producer_or_acquire() as producer, producer.batch():
            for task, kwargs in jobs:
                self.publish(task, kwargs, producer=producer)

    def consume_deliveries(self, platform: str) -> DeliveryConsumer:
        return DeliveryConsumer(platform)


def _on_redis() -> bool:
    """Whether the broker is Redis, whose messages `workers.messages` builds (others go through `apply_async`)."""
    return is_redis(get_settings().celery_broker_url)


def _push(jobs: list[tuple[str, dict[str, Any]]]) -> None:
    default = configure().conf.task_default_queue
    built = []
    for task, kwargs in jobs:
        queue = queue_of(task, kwargs) or default
        built.append((queue, messages.message(tasks.TASKS[task].name, kwargs, queue, shown(kwargs))))
    messages.push(get_settings().celery_broker_url or "", built)


def queue_of(task: str, kwargs: dict[str, Any]) -> str | None:
    """The Celery queue for a task: deliveries go to their platform's own (`delivery_queue`), which that platform's
    gateway process consumes (`workers.deliveries`); the rest to the default queue (None), `camelot worker`'s."""
    return delivery_queue(kwargs["platform"]) if task == "deliver" else None


def shown(kwargs: dict[str, Any]) -> str:
    """What Celery logs and reports of a task's arguments (`kwargsrepr`): a player's choice (the action code, the
    button data) can be secret, e.g. a card discarded face down, so it is masked."""
    cmd = kwargs.get("cmd")
    if not isinstance(cmd, dict):
        return repr(kwargs)
    return repr({**kwargs, "cmd": {k: ("***" if k in ("code", "text") and v else v) for k, v in cmd.items()}})
