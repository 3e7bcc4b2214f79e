"""The inbox: taps and commands accepted by a gateway and not yet applied (`models.InboxRow`)."""

from __future__ import annotations

import hashlib
from datetime import datetime
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from service.store.db import insert_for
from service.store.models import InboxRow, ProcessedUpdate, utcnow

UPDATE_ID_MAX = ProcessedUpdate.update_id.type.length


def update_key(update_id: str) -> str:
    """An update id as the database keeps it: one longer than the column (a Matrix event id may reach 255) as its
    SHA-256."""
    if len(update_id) > UPDATE_ID_MAX:
        return "sha256:" + hashlib.sha256(update_id.encode()).hexdigest()
    return update_id


def receive(s: Session, platform: str, update_id: str, job: str, cmd: dict[str, Any], due_at: datetime) -> None:
    """Keep an accepted update until it is applied; a platform's second delivery of it keeps the first."""
    row = {"platform": platform, "update_id": update_key(update_id), "job": job, "cmd": cmd}
    insert = insert_for(s.get_bind().dialect.name, InboxRow)
    s.execute(insert.values(**row, replays=0, due_at=due_at, created=utcnow()).on_conflict_do_nothing())


def forget(s: Session, platform: str, update_id: str) -> None:
    """The update is applied (or answered as not applied), in the caller's transaction."""
    s.execute(delete(InboxRow).where(InboxRow.platform == platform, InboxRow.update_id == update_key(update_id)))


def due(s: Session, now: datetime, limit: int = 200) -> list[InboxRow]:
    """Updates still waiting at `now`, locked for the caller's transaction (two scans at once take different
    ones; SQLite, a single process, has no row locks)."""
    return list(
        s.scalars(
            select(InboxRow)
            .where(InboxRow.due_at <= now)
            .order_by(InboxRow.due_at)
            .limit(limit)
            .with_for_update(skip_locked=True)
        )
    )
