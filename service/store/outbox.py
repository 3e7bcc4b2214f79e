"""The outbox: messages to send, in order per (platform, chat), and the ids of messages edited in place."""

from __future__ import annotations

import hashlib
import json
import zlib
from datetime import datetime
from typing import Any

from psycopg.rows import namedtuple_row
from sqlalchemy import Connection, Row, event, exists, or_, select, update
from sqlalchemy.orm import Session

from service.settings import get_settings
from service.store.db import insert_for
from service.store.driver import driver_of, scrubbed
from service.store.models import Chat, OutboxRow, SentMessage, utcnow


def shard_of(chat: str) -> int:
    """The delivery shard of a chat: one sender at a time per (platform, shard) keeps each chat's order, and one
    task drains many chats. `DELIVERY_SHARDS` must be the same in every process and change only while the outbox
    is empty."""
    return zlib.crc32(chat.encode()) % get_settings().delivery_shards


def digest(payload: dict[str, Any], photo: bytes | None = None) -> str:
    h = hashlib.sha256(json.dumps(payload, sort_keys=True, default=str).encode())
    if photo:
        h.update(photo)
    return h.hexdigest()


def add(
    s: Session,
    platform: str,
    chat: str,
    op: str,
    payload: dict[str, Any] | None = None,
    *,
    ref: str | None = None,
    is_group: bool = False,
    photo: bytes | None = None,
) -> None:
    """Queue a message in the caller's transaction (kept for `take_buffered` while the transaction buffers)."""
    values = {
        "platform": platform,
        "chat": chat,
        "shard": shard_of(chat),
        "is_group": is_group,
        "op": op,
        "ref": ref,
        "payload": payload or {},
        "photo": photo,
    }
    buffered = s.info.get(_BUFFER)
    if buffered is not None:
        buffered.append(values)
    else:
        s.add(OutboxRow(**values))


def tell(s: Session, chat: Chat, text: str) -> None:
    """Queue a text for a chat row (a game's group notice), with the chat's own group flag."""
    add(s, chat.platform, chat.platform_id, "send", {"text": text}, is_group=chat.is_group)


_BUFFER = "outbox_rows"


def buffer(s: Session) -> None:
    """Keep this transaction's outbox rows for `take_buffered` instead of adding them to the session, so that a move
    writes them in the same statement as its log entry (`service.store.games.save_move`)."""
    s.info[_BUFFER] = []


def buffered_rows(s: Session) -> list[dict[str, Any]]:
    """The rows kept since `buffer` so far, in order, left in place (empty when the transaction does not buffer)."""
    return list(s.info.get(_BUFFER) or [])


def take_buffered(s: Session) -> list[dict[str, Any]]:
    """The rows kept since `buffer`, in order; the transaction stops buffering."""
    return s.info.pop(_BUFFER, None) or []


@event.listens_for(Session, "before_commit")
def _nothing_left_buffered(s: Session) -> None:
    if s.info.get(_BUFFER):
        raise RuntimeError("outbox rows buffered but never written: call take_buffered before commit")


def upsert_if_changed(
    s: Session,
    platform: str,
    chat: str,
    ref: str,
    payload: dict[str, Any],
    *,
    is_group: bool = False,
    photo: bytes | None = None,
    same_as: str | None = None,
) -> bool:
    """Queue an edit-in-place of `ref` unless its last queued content had the same digest.
    `same_as` is the digest to compare (default: of the payload), e.g. one that ignores a button's seq."""
    key = same_as or digest(payload, photo)
    known = s.scalar(
        select(SentMessage).where(SentMessage.platform == platform, SentMessage.chat == chat, SentMessage.ref == ref)
    )
    if known is not None and known.digest == key:
        return False
    if known is None:
        s.add(SentMessage(platform=platform, chat=chat, ref=ref, digest=key))
    else:
        known.digest = key
    upsert(s, platform, chat, ref, payload, is_group=is_group, photo=photo)
    return True


def upsert(
    s: Session,
    platform: str,
    chat: str,
    ref: str,
    payload: dict[str, Any],
    *,
    is_group: bool = False,
    photo: bytes | None = None,
) -> None:
    """Queue an edit-in-place of `ref` (a send if it was never sent). Edits of one `ref` waiting together are
    superseded by the newest at delivery (`service.delivery.senders`): the chat sees only the newest content (fewer
    edits, and a backlog behind the platform's rate limits shrinks instead of growing)."""
    add(s, platform, chat, "upsert", payload, ref=ref, is_group=is_group, photo=photo)


def chats_with_pending(s: Session, now: datetime | None = None, limit: int = 500) -> list[tuple[str, str]]:
    now = now or utcnow()
    rows = s.execute(
        select(OutboxRow.platform, OutboxRow.chat)
        .where(OutboxRow.status == "pending", or_(OutboxRow.not_before.is_(None), OutboxRow.not_before <= now))
        .group_by(OutboxRow.platform, OutboxRow.chat)
        .limit(limit)
    )
    return [(p, c) for p, c in rows]


def shards_with_pending(s: Session, platform: str, shards: list[int], before: datetime) -> set[int]:
    """Which of `shards` hold a due row of `platform` queued before `before` (read through the outbox's
    (platform, shard, status, id) index)."""
    now = utcnow()
    rows = s.execute(
        select(OutboxRow.shard)
        .where(
            OutboxRow.platform == platform,
            OutboxRow.shard.in_(shards),
            OutboxRow.status == "pending",
            OutboxRow.created < before,
            or_(OutboxRow.not_before.is_(None), OutboxRow.not_before <= now),
        )
        .group_by(OutboxRow.shard)
    )
    return {shard for (shard,) in rows}


def pending_for_chat(s: Session | Connection, platform: str, chat: str, limit: int = 50) -> list[Row[Any]]:
    """The chat's pending rows in order, as plain rows (attribute access like `OutboxRow`; no ORM tracking: this
    is the outbox's hot path)."""
    table = OutboxRow.__table__
    return list(
        s.execute(
            select(table)
            .where(table.c.platform == platform, table.c.chat == chat, table.c.status == "pending")
            .order_by(table.c.id)
            .limit(limit)
        )
    )


def pending_for_shard(conn: Connection, platform: str, shard: int, skip: list[str], limit: int = 100) -> list[Any]:
    """The shard's pending rows in id order, leaving out the chats in `skip` (those waiting for a rate): rows whose
    columns read as attributes. A sender's pass runs this query; on PostgreSQL it runs on the driver, prepared
    (`service.store.driver`): built and run through SQLAlchemy it cost 1.9 ms of CPU a pass of 15 rows on the 2-core
    machine, about a quarter of the pass."""
    driver = driver_of(conn)
    if driver is not None:
        params = {"platform": platform, "shard": shard, "skip": skip, "limit": limit}
        with scrubbed(), driver.cursor(row_factory=namedtuple_row) as cur:
            return cur.execute(_PENDING_FOR_SHARD_SQL, params, prepare=True).fetchall()
    table = OutboxRow.__table__
    query = select(table).where(table.c.platform == platform, table.c.shard == shard, table.c.status == "pending")
    if skip:
        query = query.where(table.c.chat.not_in(skip))
    return list(conn.execute(query.order_by(table.c.id).limit(limit)))


_PENDING_FOR_SHARD_SQL = (
    f"SELECT {', '.join(c.name for c in OutboxRow.__table__.c)} FROM outbox "
    "WHERE platform = %(platform)s AND shard = %(shard)s AND status = 'pending' AND chat <> ALL(%(skip)s) "
    "ORDER BY id LIMIT %(limit)s"
)


def mark_done(conn: Connection, ids: list[int], status: str) -> None:
    """Set rows `sent` or `superseded` (now): a sender's booking, on the driver on PostgreSQL (through SQLAlchemy
    the statement's IN list was built and rendered anew each time: 1.1 ms of CPU for 15 rows)."""
    if not ids:
        return
    driver = driver_of(conn)
    if driver is not None:
        with scrubbed(), driver.cursor() as cur:
            cur.execute(_MARK_DONE_SQL, {"status": status, "now": utcnow(), "ids": ids}, prepare=True)
        return
    table = OutboxRow.__table__
    conn.execute(update(table).where(table.c.id.in_(ids)).values(status=status, sent_at=utcnow()))


_MARK_DONE_SQL = "UPDATE outbox SET status = %(status)s, sent_at = %(now)s WHERE id = ANY(%(ids)s)"


def readdress(s: Session, platform: str, chats: tuple[str, ...], to: str) -> int:
    """Move pending rows from other addresses to `to`, keeping their ids and so their order; they join that chat's
    shard. An edit that a newer edit of the same message at `to` (pending or sent) has overtaken is dropped as
    superseded instead: sent now, it would put the older content back. Returns how many moved."""
    table = OutboxRow.__table__
    newer = table.alias("newer")
    moving = (table.c.platform == platform, table.c.chat.in_(chats), table.c.status == "pending")
    overtaken = exists().where(
        newer.c.platform == platform,
        newer.c.chat == to,
        newer.c.op == "upsert",
        newer.c.ref == table.c.ref,
        newer.c.id > table.c.id,
        newer.c.status.in_(("pending", "sent")),
    )
    dropped = update(table).where(*moving, table.c.op == "upsert", overtaken)
    s.execute(dropped.values(status="superseded", sent_at=utcnow()))
    return s.execute(update(table).where(*moving).values(chat=to, shard=shard_of(to))).rowcount


def sent_message_ids(s: Session | Connection, platform: str, keys: list[tuple[str, str]]) -> dict[tuple[str, str], str]:
    """The platform's ids of the messages sent for `(chat, ref)` keys, those known, in one query."""
    if not keys:
        return {}
    table = SentMessage.__table__
    wanted = set(keys)
    rows = s.execute(
        select(table.c.chat, table.c.ref, table.c.message_id).where(
            table.c.platform == platform,
            table.c.chat.in_({chat for chat, _ in wanted}),
            table.c.ref.in_({ref for _, ref in wanted}),
        )
    )
    return {(chat, ref): message_id for chat, ref, message_id in rows if (chat, ref) in wanted and message_id}


def record_message_ids(conn: Connection, ids: dict[tuple[str, str, str], str]) -> None:
    """Remember the platform's ids of messages sent for refs, `(platform, chat, ref) → id`: one upsert (Core, on a
    delivery's connection) for a sender's whole batch (through the ORM each took a query, a flush and their set-up)."""
    table = SentMessage.__table__
    insert = insert_for(conn.dialect.name, table)
    now = utcnow()
    stmt = insert.values(
        [
            {"platform": platform, "chat": chat, "ref": ref, "message_id": message_id, "updated": now}
            for (platform, chat, ref), message_id in ids.items()
        ]
    )
    conn.execute(
        stmt.on_conflict_do_update(
            index_elements=[table.c.platform, table.c.chat, table.c.ref],
            set_={"message_id": stmt.excluded.message_id, "updated": stmt.excluded.updated},
        )
    )
