"""Gauges read from shared state when Prometheus scrapes: the outbox's backlog and its oldest message per platform,
open and overdue deadlines (the database), and the messages waiting in the broker's queues.

Every process serves them and they read the same thing in each: a dashboard takes their `max()`, never a `sum()`.
The reads are cheap: the outbox's pending rows are found through its (platform, shard, status, id) index, so a
scrape reads the backlog and not the week of sent rows kept beside it; deadlines are one row per open prompt. A read
that fails is left out of the scrape and `camelot_shared_read_ok{source}` says so (0), so one unreachable service does
not hide the other gauges.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

import structlog
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import REGISTRY, Collector
from sqlalchemy import case, func, select

from service.observability import checks
from service.settings import get_settings
from service.store.models import Deadline, OutboxRow, utcnow

log = structlog.get_logger(__name__)
PLATFORMS = ("telegram", "matrix")  # the platforms a deployment sends to (dashboards show both, 0 when unused)


def outbox() -> Iterator[Metric]:
    backlog = GaugeMetricFamily("camelot_outbox_backlog", "Outbox messages waiting to be sent", labels=["platform"])
    oldest = GaugeMetricFamily(
        "camelot_outbox_oldest_age_seconds", "Age of the oldest message waiting to be sent", labels=["platform"]
    )
    table = OutboxRow.__table__
    pending = (
        table.c.platform.in_(PLATFORMS),
        table.c.shard.in_(list(range(get_settings().delivery_shards))),  # the index's second column: a range scan
        table.c.status == "pending",
    )
    now = utcnow()
    with checks.engine().connect() as conn:
        counts = {
            platform: (count, first)
            for platform, count, first in conn.execute(
                select(table.c.platform, func.count(), func.min(table.c.id)).where(*pending).group_by(table.c.platform)
            )
        }
        firsts = [first for _, first in counts.values()]
        created = {}
        if firsts:
            created = dict(conn.execute(select(table.c.id, table.c.created).where(table.c.id.in_(firsts))).all())
    for platform in PLATFORMS:
        count, first = counts.get(platform, (0, None))
        backlog.add_metric([platform], count)
        age = (now - created[first]).total_seconds() if first in created else 0.0
        oldest.add_metric([platform], max(0.0, age))
    yield backlog
    yield oldest


def deadlines() -> Iterator[Metric]:
    now = utcnow()
    with checks.engine().connect() as conn:
        total, due = conn.execute(
            select(func.count(), func.coalesce(func.sum(case((Deadline.due_at <= now, 1), else_=0)), 0))
        ).one()
    yield GaugeMetricFamily("camelot_deadlines_open", "Open prompts with a deadline", value=total)
    yield GaugeMetricFamily(
        "camelot_deadlines_due", "Deadlines passed whose timeout move has not landed yet", value=due
    )


def queues() -> Iterator[Metric]:
    if not get_settings().celery_broker_url:
        return
    family = GaugeMetricFamily("camelot_queue_length", "Messages waiting in the broker's queue", labels=["queue"])
    for name, length in sorted(checks.read_queues().items()):
        family.add_metric([name], length)
    yield family


SOURCES: dict[str, Callable[[], Iterable[Metric]]] = {"outbox": outbox, "deadlines": deadlines, "broker": queues}


class SharedState(Collector):
    """The gauges above, read on each scrape."""

    def collect(self) -> Iterator[Metric]:
        status = GaugeMetricFamily(
            "camelot_shared_read_ok", "1 when this scrape read the source, 0 when it failed", labels=["source"]
        )
        for source, read in SOURCES.items():
            try:
                families = list(read())
            except Exception as exc:  # a database or broker that does not answer: the other sources still count
                log.warning("metrics.read_failed", source=source, error=str(exc).splitlines()[0] if str(exc) else "")
                status.add_metric([source], 0)
                continue
            status.add_metric([source], 1)
            yield from families
        yield status

    def describe(self) -> Iterator[Metric]:
        return iter(())  # no reads when registered: the families are known on collection


_registered: SharedState | None = None


def register() -> None:
    """Add the shared gauges to this process's registry (once)."""
    global _registered
    if _registered is None:
        _registered = SharedState()
        REGISTRY.register(_registered)
