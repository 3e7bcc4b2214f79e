"""A database error while a sender books what it sent: its lock is released at once, and nothing is sent again."""

from __future__ import annotations

import psycopg
import pytest

from service.chat.base import TransientError
from service.delivery import senders
from service.sessions import get_sessions
from service.store import outbox, session_scope
from service.store.models import OutboxRow

CHAT = "c1"


def queue(n: int) -> list[int]:
    with session_scope() as s:
        for i in range(n):
            outbox.add(s, "rec", CHAT, "send", {"text": f"#{i}"})
    with session_scope() as s:
        return [row.id for row in s.query(OutboxRow).order_by(OutboxRow.id)]


def statuses() -> list[str]:
    with session_scope() as s:
        return [row.status for row in s.query(OutboxRow).order_by(OutboxRow.id)]


def lock_is_free() -> bool:
    """Nobody holds the shard's delivery lease (the sender gave it up)."""
    return get_sessions().locks.lease_holder(f"deliver:rec:shard:{outbox.shard_of(CHAT)}") is None


@pytest.fixture
def failing_bookings(monkeypatch):
    """`outbox.mark_done` fails with a terminated backend's error the next `n` times (set `failures[0]`)."""
    real = outbox.mark_done
    failures = [0]

    def mark_done(conn, ids, status):
        if ids and failures[0] > 0:
            failures[0] -= 1
            raise psycopg.errors.AdminShutdown("terminating connection due to administrator command")
        return real(conn, ids, status)

    monkeypatch.setattr(outbox, "mark_done", mark_done)
    return failures


def test_a_booking_that_fails_once_is_tried_again_the_lock_released_nothing_sent_twice(
    backbone_pg, recording, failing_bookings
):
    queue(3)
    failing_bookings[0] = 1
    assert senders.deliver_shard("rec", outbox.shard_of(CHAT)) == 3
    assert failing_bookings[0] == 0  # it did fail
    assert lock_is_free()
    assert statuses() == ["sent"] * 3
    senders.deliver_shard("rec", outbox.shard_of(CHAT))
    assert [c.text for c in recording.sent(CHAT)] == ["#0", "#1", "#2"]


def test_a_booking_that_keeps_failing_releases_the_lock_and_the_next_sender_books_before_it_reads(
    backbone_pg, recording, failing_bookings
):
    """The database stays away longer than the quick retries: the task fails (Celery tries it again), its lock is
    free at once, and what it sent is owed by this process: the next sender of the shard books it before reading
    the pending rows, so it does not send them again."""
    queue(3)
    failing_bookings[0] = 100
    with pytest.raises(psycopg.errors.AdminShutdown):
        senders.deliver_shard("rec", outbox.shard_of(CHAT))
    assert lock_is_free()
    assert statuses() == ["pending"] * 3  # sent, not booked
    failing_bookings[0] = 0  # the database is back
    assert senders.deliver_shard("rec", outbox.shard_of(CHAT)) == 0
    assert statuses() == ["sent"] * 3
    assert [c.text for c in recording.sent(CHAT)] == ["#0", "#1", "#2"]


def test_an_error_booking_one_rows_failure_does_not_lose_the_others_sends(backbone_pg, recording, monkeypatch):
    """One row's send fails on the network and counting that attempt fails on the database: the rows sent in the
    same pass are booked anyway (a sent row never waits behind another row's bookkeeping)."""
    ids = queue(3)
    with session_scope() as s:  # the first row to another chat, whose send fails
        s.get(OutboxRow, ids[0]).chat = "c-net"
    calls = {"n": 0}
    real_send = recording.send_text

    async def send_text(chat, text, buttons=None):
        if chat == "c-net":
            raise TransientError("connection reset")
        return await real_send(chat, text, buttons)

    def count_attempt(row_id, error, max_attempts):
        calls["n"] += 1
        raise psycopg.errors.AdminShutdown("terminating connection due to administrator command")

    monkeypatch.setattr(recording, "send_text", send_text)
    monkeypatch.setattr(senders, "_count_attempt", count_attempt)
    with pytest.raises(psycopg.errors.AdminShutdown):
        senders.deliver_shard("rec", outbox.shard_of(CHAT))
    assert calls["n"] == 1 and lock_is_free()
    assert statuses()[1:] == ["sent", "sent"]
