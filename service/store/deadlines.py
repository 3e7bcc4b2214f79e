"""Deadline rows: one per seat with an open prompt; the beat task scans those whose `next_at` has passed."""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from service.store.models import Deadline, GameRow


def next_time(started: datetime, due: datetime, reminders_sent: int, fractions: tuple[float, ...]) -> datetime:
    """When the deadline row needs attention next: the next reminder, or the deadline itself."""
    if reminders_sent < len(fractions):
        return started + (due - started) * fractions[reminders_sent]
    return due


def set_for_game(
    s: Session,
    game_id: int,
    prompts: dict[int, tuple[int, str]],
    durations: dict[str, float],
    fractions: tuple[float, ...],
    now: datetime,
) -> None:
    """Make the rows match the open prompts {seat: (prompt_seq, timing)}: keep unchanged ones (their clock runs on),
    restart changed ones, delete the rest."""
    existing = {d.seat: d for d in s.scalars(select(Deadline).where(Deadline.game_id == game_id))}
    for seat, row in existing.items():
        if seat not in prompts or prompts[seat] != (row.seq, row.timing):
            s.delete(row)
    s.flush()
    for seat, (seq, timing) in prompts.items():
        row = existing.get(seat)
        if row is not None and (row.seq, row.timing) == (seq, timing):
            continue
        due = now + timedelta(seconds=durations[timing])
        s.add(
            Deadline(
                game_id=game_id,
                seat=seat,
                seq=seq,
                timing=timing,
                started_at=now,
                due_at=due,
                next_at=next_time(now, due, 0, fractions),
                reminders=0,
            )
        )


def rows_for(
    prompts: dict[int, tuple[int, str]], durations: dict[str, float], fractions: tuple[float, ...], now: datetime
) -> list[dict[str, object]]:
    """The rows `set_for_game` would start now for these prompts, as column values (for a statement that writes
    them itself, keeping an unchanged row's clock: `games.save_move_if_current`)."""
    rows: list[dict[str, object]] = []
    for seat, (seq, timing) in sorted(prompts.items()):
        due = now + timedelta(seconds=durations[timing])
        rows.append(
            {
                "seat": seat,
                "seq": seq,
                "timing": timing,
                "started_at": now,
                "due_at": due,
                "next_at": next_time(now, due, 0, fractions),
            }
        )
    return rows


def clear_game(s: Session, game_id: int) -> None:
    s.execute(delete(Deadline).where(Deadline.game_id == game_id))


def due(s: Session, now: datetime, limit: int = 200) -> list[Deadline]:
    """Rows due by `now` of games not paused, locked for the caller's transaction. Two scans at once (a slow scan
    overlapping the next tick in another worker, or a second beat by mistake) take different rows (`SKIP LOCKED`),
    so no reminder or timeout is sent twice. (SQLite, a single process, has no row locks: the clause is left out
    there.)"""
    return list(
        s.scalars(
            select(Deadline)
            .join(GameRow, GameRow.id == Deadline.game_id)
            .where(Deadline.next_at <= now, GameRow.status == "active", GameRow.paused_at.is_(None))
            .order_by(Deadline.next_at)
            .limit(limit)
            .with_for_update(skip_locked=True, of=Deadline)
        )
    )
