"""Every tap and command a gateway accepts is applied, or answered as not applied: it is kept in the inbox
(`service.store.inbox`) before its task is queued, and leaves it in the transaction that claims its update id.

A task can be lost after the gateway answered the tap: a worker killed while the broker was handing it the message
(Celery's Redis transport pops a message before it books it as unacknowledged), or failing until its retries ran
out. The beat's scan queues again what stays longer than `RECOVERY_GRACE` (`replay`), a few times, further apart
each time; a replay of a task that did run is a duplicate and does nothing. After MAX_REPLAYS the person is told
in their direct chat that their choice was not applied.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import structlog
from sqlalchemy.orm import Session

from service.play import presenting
from service.play.queue import enqueue, request_delivery
from service.settings import get_settings
from service.store import inbox as inbox_rows
from service.store import outbox, session_scope
from service.store.models import utcnow

log = structlog.get_logger(__name__)
MAX_REPLAYS = 5


def accept(job: str, cmd: dict[str, Any]) -> None:
    """Keep the update in the inbox, then queue its job (`play` or `command`) with it."""
    due = utcnow() + timedelta(seconds=get_settings().recovery_grace)
    with session_scope() as s:
        inbox_rows.receive(s, cmd["platform"], str(cmd["update_id"]), job, cmd, due)
    enqueue(job, cmd=cmd)


def replay(now: datetime | None = None) -> int:
    """The beat's pass: queue again each update still waiting (the wait doubling each time); tell its sender it
    was not applied after MAX_REPLAYS. Returns how many were queued again."""
    now = now or utcnow()
    grace = get_settings().recovery_grace
    again: list[tuple[str, dict[str, Any]]] = []
    told: set[tuple[str, str]] = set()
    with session_scope() as s:
        for row in inbox_rows.due(s, now):
            if row.replays >= MAX_REPLAYS:
                log.warning("inbox.not_applied", platform=row.platform, job=row.job, replays=row.replays)
                told |= _tell_not_applied(s, row.cmd)
                s.delete(row)
                continue
            row.replays += 1
            row.due_at = now + timedelta(seconds=grace * 2**row.replays)
            again.append((row.job, row.cmd))
    for platform, chat in sorted(told):
        request_delivery(platform, chat)
    for job, cmd in again:
        enqueue(job, cmd=cmd)
    return len(again)


def _tell_not_applied(s: Session, cmd: dict[str, Any]) -> set[tuple[str, str]]:
    """Tell the sender of a tap in a direct chat that it was not applied (nothing is said in a group)."""
    if cmd.get("is_group"):
        return set()
    text = presenting.t(cmd.get("language"), "notice.not_applied")
    outbox.add(s, cmd["platform"], cmd["chat"], "send", {"text": text})
    return {(cmd["platform"], cmd["chat"])}
