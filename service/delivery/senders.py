"""Sending the outbox: in id order per chat, within the platform's rates, with retries; records sent ids.

Rates are minimum intervals held in shared buckets (`Sessions.take`), so every worker together stays within
them: Telegram 1/s per chat, 20/min per group, 30/s per bot (edits count); Matrix per room and per bot.
A 429 blocks the chat's bucket for `retry_after`; network errors retry with backoff (a few quick tries with
tenacity, then `not_before` on the row); permanent errors mark the row failed (an edit that fails is sent anew).
Delivery is at-least-once: a crash between a send and its bookkeeping may repeat that one message.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

import structlog
from sqlalchemy import select, update

from service.chat.base import ChatAdapter, RateLimited, TransientError
from service.chat.registry import get_adapter
from service.delivery import gather, tables
from service.delivery.edits import newest_edits
from service.delivery.leases import Lease
from service.delivery.loop import run
from service.delivery.sends import SendResult, perform
from service.delivery.takeover import shard_lease, waiting_mark
from service.play.presenting import t
from service.play.queue import delivery_mark, enqueue, request_delivery
from service.sessions import get_sessions
from service.settings import Settings, get_settings
from service.store import get_engine, outbox, session_scope
from service.store.models import OutboxRow, User, utcnow
from service.store.transient import DB_ERRORS, retried
from service.store.users import learn_direct_chat

log = structlog.get_logger(__name__)
UNLIMITED = ("console", "bench")  # the terminal; the benchmark's null platform
BATCH = 20
SHARD_BATCH = 100
SHARD_BUDGET = 5.0  # seconds a shard sender works before it hands on to a fresh task
RETRY_SOON = 0.05  # after a 429 or a network error: the bucket or the row's not_before then says how long
MARKERS = ("@user:", "@uid:")  # addresses standing for a user's direct chat not known yet (`_readdressed`)


def buckets(settings: Settings, platform: str, chat: str, is_group: bool) -> list[tuple[str, float]]:
    """The rate buckets one send to `chat` takes. Unknown platforms get Telegram's (the strictest) limits."""
    if platform in UNLIMITED:
        return []
    if platform == "matrix":
        return [(f"mx:room:{chat}", settings.matrix_room_interval), ("mx:global", settings.matrix_global_interval)]
    found = [(f"{platform}:chat:{chat}", settings.telegram_chat_interval)]
    if is_group:
        found.append((f"{platform}:group:{chat}", settings.telegram_group_interval))
    found.append((f"{platform}:global", settings.telegram_global_interval))
    return found


def deliver_chat(platform: str, chat: str, in_process: bool | None = None) -> int:
    """Send what is due for one chat (the in-process mode's sender); returns how many rows were handled. Waits
    for a rate by sleeping in-process, else by re-enqueueing itself."""
    settings = get_settings()
    in_process = not settings.celery_broker_url if in_process is None else in_process
    lock = Lease(f"deliver:{platform}:{chat}", wait=0 if not in_process else 30)
    try:
        lock.__enter__()
    except TimeoutError:
        enqueue("deliver", countdown=0.2, platform=platform, chat=chat)
        return 0
    handled = 0
    booked = Booked(f"{platform}:{chat}")
    try:
        try:
            adapter = get_adapter(platform)
        except LookupError:  # this process has no adapter for the platform: the rows wait for one that has
            log.warning("outbox.no_adapter", platform=platform)
            return 0
        while True:
            booked.write()  # before reading again: those rows are done
            with get_engine().connect() as conn:
                rows = outbox.pending_for_chat(conn, platform, chat, BATCH)
            if not rows or _readdressed(adapter, platform, chat) or tables.opened(adapter, platform, chat):
                return handled
            last_batch = len(rows) < BATCH  # rows committed later come with their own deliver task
            for row in newest_edits(rows, booked.superseded):
                delay = _attempt(adapter, row, settings, booked)
                if delay <= 0:
                    handled += 1
                    continue
                if in_process:
                    time.sleep(delay)
                    break  # reload: the row is still first
                enqueue("deliver", countdown=delay, platform=platform, chat=chat)
                return handled
            else:
                if last_batch:
                    return handled
    finally:
        _finish(booked, lock)


def deliver_shard(platform: str, shard: int) -> int:
    """Send what is due for every chat of one shard: with a broker, the only sender of those chats. One task
    drains many chats (one query per batch of rows, one update for the sent ones) instead of a task per chat per
    move. A chat that must wait (rate, retry) is left out until then; the others go on. Returns rows handled."""
    settings = get_settings()
    sessions = get_sessions()
    sessions.marks.clear(delivery_mark(platform, shard))
    lock = Lease(shard_lease(platform, shard))  # a gateway's, renewed while it sends; lapses if it dies
    try:
        lock.__enter__()
    except TimeoutError:  # another sender has the shard: look again shortly (it may have read before our rows)
        enqueue("deliver", countdown=0.2, platform=platform, shard=shard)
        return 0
    sessions.marks.clear(waiting_mark(platform, shard))
    handled = 0
    booked = Booked(f"{platform}:shard:{shard}")
    waits: dict[str, float] = {}  # chat → seconds until it may send again
    started = time.monotonic()
    try:
        try:
            adapter = get_adapter(platform)
        except LookupError:
            log.warning("outbox.no_adapter", platform=platform)
            return 0
        while not lock.lost:  # lost: this process stalled past the lease and another sender has the shard
            booked.write()
            with get_engine().connect() as conn:
                rows = outbox.pending_for_shard(conn, platform, shard, list(waits), SHARD_BATCH)
            by_chat: dict[str, list[Any]] = {}
            for row in rows:
                by_chat.setdefault(row.chat, []).append(row)
            plan: list[tuple[Any, str | None]] = []  # the rows each chat may send now, in order
            riders: set[int] = set()  # rows going in the call of the row before them (`gather.rides`)
            for chat, chat_rows in by_chat.items():
                if _readdressed(adapter, platform, chat) or tables.opened(adapter, platform, chat):
                    continue
                previous = None
                for row in newest_edits(chat_rows, booked.superseded):
                    if previous is not None and _due_in(row) <= 0 and gather.rides(row, previous):
                        riders.add(row.id)
                        plan.append((row, plan[-1][1]))
                        previous = row
                        continue
                    delay, real_chat = _ready(adapter, row, settings)
                    if delay > 0:
                        waits[chat] = delay
                        break
                    plan.append((row, real_chat))
                    previous = row
            # one call into the adapters' event loop for the whole batch (a call per row cost more than the send)
            outcomes = _run_plan(adapter, plan, frozenset(riders))
            for (row, real_chat), outcome in _sent_first(plan, outcomes):
                if row.chat in waits and outcome is None:  # not tried: an earlier row of its chat must wait
                    continue
                if _book(row, real_chat, outcome, booked):
                    handled += 1
                else:
                    waits[row.chat] = RETRY_SOON
            if len(rows) < SHARD_BATCH:  # all seen; rows committed later come with their own request
                break
            if time.monotonic() - started > SHARD_BUDGET:  # a long backlog: let other tasks have the worker
                enqueue("deliver", platform=platform, shard=shard)
                break
    finally:
        _finish(booked, lock)
    if waits:  # the shard's next task waits for a chat's rate; the mark keeps the gateways' watch off meanwhile
        wait = min(waits.values())
        sessions.marks.set(waiting_mark(platform, shard), ttl=wait + settings.lease_seconds)
        enqueue("deliver", countdown=wait, platform=platform, shard=shard)
    return handled


def _finish(booked: Booked, lock: Lease) -> None:
    """Book what was sent, then release the sender's lock, also when the booking fails: a lock left held stopped
    its chats' deliveries until it expired (and the collector released it later, from another thread, in vain)."""
    try:
        booked.write()
    finally:
        lock.__exit__(None, None, None)


def _sent_first(plan: list[tuple[Any, str | None]], outcomes: list[SendResult]) -> list[tuple[Any, SendResult]]:
    """The plan's rows with their outcomes, those sent first: booking a failure touches the database, and an error
    there must not leave a sent row unbooked (it would be sent again)."""
    pairs = list(zip(plan, outcomes, strict=True))
    return [p for p in pairs if isinstance(p[1], tuple)] + [p for p in pairs if not isinstance(p[1], tuple)]


def _attempt(adapter: ChatAdapter, row: Any, settings: Settings, booked: Booked) -> float:
    """Try to send one row: 0 when it is done (sent, or failed for good), else the seconds to wait before the
    chat may try again (its `not_before`, a rate bucket, a 429 or a network error)."""
    delay, real_chat = _ready(adapter, row, settings)
    if delay > 0:
        return delay
    outcome = _run_plan(adapter, [(row, real_chat)])[0]
    return 0.0 if _book(row, real_chat, outcome, booked) else RETRY_SOON


def _ready(adapter: ChatAdapter, row: Any, settings: Settings) -> tuple[float, str | None]:
    """(0, the chat to send to) when the row may be sent now, taking its rate; else (seconds to wait, None)."""
    delay = _due_in(row)
    if delay > 0:
        return delay, None
    real_chat = None if row.chat.startswith(MARKERS) else row.chat  # a marker left: no direct chat yet
    delay = get_sessions().rates.take(buckets(settings, row.platform, real_chat or row.chat, row.is_group))
    return (delay, None) if delay > 0 else (0.0, real_chat)


def _run_plan(
    adapter: ChatAdapter, plan: list[tuple[Any, str | None]], riders: frozenset[int] = frozenset()
) -> list[SendResult]:
    """Send the planned rows in the adapters' event loop, with the ids of the messages they edit read beforehand
    (`_edited_message_ids`): in the loop a send waits on the platform only, never on Redis or the database. A bot's
    consecutive moves are gathered into one group message (`gather`; `riders` took no rate of their own); the
    outcomes are the plan's rows'."""
    edits = _edited_message_ids(plan)
    staged = gather.stage(plan, edits, riders)
    outcomes = run(perform(adapter, staged.plan, {**edits, **staged.known}))
    gather.record(staged, outcomes)
    return outcomes


def _edited_message_ids(plan: list[tuple[Any, str | None]]) -> dict[tuple[str, str], str]:
    """The platform's ids of the messages the plan's edits-in-place target, `(chat, ref) → id`: one Redis round trip
    for them all, and one query on a plain connection for those Redis lacks (new messages, or Redis lost them)."""
    keys = sorted({(chat, row.ref or "") for row, chat in plan if row.op == "upsert" and chat is not None})
    if not keys:
        return {}
    platform = plan[0][0].platform  # a plan is one platform's (a shard's, or a chat's)
    cached = get_sessions().messages.get_many(platform, keys)
    found = {key: known for key, known in zip(keys, cached, strict=True) if known}
    missing = [key for key in keys if key not in found]
    if missing:
        with get_engine().connect() as conn:
            found.update(outbox.sent_message_ids(conn, platform, missing))
    return found


def _due_in(row: Any) -> float:
    if row.not_before is None:
        return 0.0
    return max(0.0, (row.not_before - utcnow()).total_seconds())


def _readdressed(adapter: ChatAdapter, platform: str, chat: str) -> bool:
    """Rows for a user's direct chat that was not known when they were queued carry a marker (`@user:<id>` or
    `@uid:<row id>`, `service.store.users.direct_chat_markers`). Learn the chat (the adapter may open it: Matrix),
    move the rows there (`learn_direct_chat`) and ask that chat's sender. Returns whether they moved; if not
    (the bot cannot write to the user yet), the rows fail as undeliverable."""
    if not chat.startswith(MARKERS):
        return False
    with session_scope() as s:
        if chat.startswith("@uid:"):
            user = s.get(User, int(chat.removeprefix("@uid:")))
        else:
            found = select(User).where(User.platform == platform, User.platform_id == chat.removeprefix("@user:"))
            user = s.scalar(found)
        if user is None:
            return False
        user_id, platform_id, direct = user.id, user.platform_id, user.direct_chat
    if direct is None:
        direct = run(adapter.direct_chat(platform_id))
        if direct is None:
            return False
    with session_scope() as s:
        user = s.get(User, user_id)
        moved = learn_direct_chat(s, user, direct)
        direct = user.direct_chat
    log.info("outbox.readdressed", platform=platform, rows=moved)
    request_delivery(platform, direct)
    return True


def _ask_for_direct_chat(row: OutboxRow) -> None:
    """Once an hour at most per user: ask them in the game's group to open a direct chat with the bot."""
    group = row.payload.get("group")
    if not group or not get_sessions().marks.set(f"ask-dm:{row.platform}:{row.chat}", ttl=3600):
        return
    text = t(row.payload.get("lang"), "notice.open_direct_chat", name=row.payload.get("name", ""))
    with session_scope() as s:
        outbox.add(s, row.platform, group, "send", {"text": text}, is_group=True)
    request_delivery(row.platform, group)


def _book(row: OutboxRow, chat: str | None, outcome: SendResult, booked: Booked) -> bool:
    """Record what sending a row did: True when the row is done (sent, or failed for good); False when it must be
    tried again later (a 429, a network error, or not tried)."""
    sessions = get_sessions()
    settings = get_settings()
    if outcome is None:
        return False
    if isinstance(outcome, RateLimited):
        # Telegram limits per chat; Synapse limits the sending account, so every room waits it out.
        bucket = "mx:global" if row.platform == "matrix" else f"{row.platform}:chat:{chat}"
        sessions.rates.penalize(bucket, outcome.retry_after)
        return False
    if isinstance(outcome, TransientError):
        failed = _count_attempt(row.id, str(outcome)[:500], settings.outbox_max_attempts)
        log.warning("outbox.transient", row=row.id, platform=row.platform, error=str(outcome))
        return failed
    if isinstance(outcome, BaseException):  # PermanentError
        if chat is None:
            _ask_for_direct_chat(row)
        _fail(row, str(outcome)[:500])
        log.warning("outbox.permanent", row=row.id, platform=row.platform, error=str(outcome))
        return True
    message_id, new_id = outcome
    booked.sent.append(row.id)
    if new_id and message_id is not None and row.ref and chat is not None:
        sessions.messages.set(row.platform, chat, row.ref, message_id)  # at once: a later edit finds it
        booked.message_ids[(row.platform, row.chat, row.ref)] = message_id
        booked.message_ids[(row.platform, chat, row.ref)] = message_id
    return True


@retried
def _count_attempt(row_id: int, error: str, max_attempts: int) -> bool:
    """A network error on the row's send: count it, and fail the row for good after `max_attempts` (True), else
    hold it back with a growing backoff (`not_before`)."""
    with session_scope() as s:
        fresh = s.get(OutboxRow, row_id)
        fresh.attempts += 1
        fresh.error = error
        if fresh.attempts >= max_attempts:
            fresh.status = "failed"
        else:
            fresh.not_before = utcnow() + timedelta(seconds=min(300.0, 2.0**fresh.attempts))
        return fresh.status == "failed"


@dataclass
class Booked:
    """What the sender holding lock `key` has done and not yet written: rows sent, edits overtaken by a newer edit
    of the same message before they were sent, and the ids of new messages. Written in one transaction before the
    next rows are read and at the end, not a transaction per message; committed without waiting for the disk on
    PostgreSQL: losing it in a crash only repeats a send, which at-least-once delivery allows (the new ids are in
    Redis at once). A transient database error is tried again on the spot (`retried`); what still cannot be
    written is owed (`_owed`) and written by the next holder of the same lock in this process before it reads:
    so a failed booking sends nothing again, unless the process dies owing it."""

    key: str
    sent: list[int] = field(default_factory=list)
    superseded: list[int] = field(default_factory=list)
    message_ids: dict[tuple[str, str, str], str] = field(default_factory=dict)  # (platform, chat, ref) → id

    def write(self) -> None:
        with _owed_mutex:
            owed = _owed.pop(self.key, None)
        if owed is not None:
            self.take(owed)
        if not (self.sent or self.superseded or self.message_ids):
            return
        try:
            _write_booking(self)
        except DB_ERRORS:
            with _owed_mutex:
                _owed.setdefault(self.key, Booked(self.key)).take(self)
            raise
        self.sent.clear()
        self.superseded.clear()
        self.message_ids.clear()

    def take(self, other: Booked) -> None:
        """Add what `other` holds to this booking, emptying `other`."""
        self.sent += other.sent
        self.superseded += other.superseded
        self.message_ids.update(other.message_ids)
        other.sent, other.superseded, other.message_ids = [], [], {}


_owed: dict[str, Booked] = {}  # lock name → what its holders sent but could not book (see `Booked`)
_owed_mutex = threading.Lock()  # senders of different shards run in threads of one process


@retried
def _write_booking(booked: Booked) -> None:
    with get_engine(lazy_commit=True).begin() as conn:
        outbox.mark_done(conn, booked.sent, "sent")
        outbox.mark_done(conn, booked.superseded, "superseded")
        if booked.message_ids:
            outbox.record_message_ids(conn, booked.message_ids)


@retried
def _fail(row: OutboxRow, error: str) -> None:
    """Mark the row failed for good, with why."""
    table = OutboxRow.__table__
    with get_engine(lazy_commit=True).begin() as conn:
        conn.execute(update(table).where(table.c.id == row.id).values(status="failed", error=error, sent_at=utcnow()))
