"""The outbox against a recording adapter: order per chat, the configured rates, 429s, network errors, edits."""

from __future__ import annotations

import threading
import time
import zlib

import pytest

from service.chat.base import PermanentError, RateLimited, TransientError
from service.delivery.senders import deliver_chat
from service.settings import get_settings
from service.store import get_engine, outbox, session_scope
from service.store.models import OutboxRow

CHAT, GROUP, GLOBAL = 0.1, 0.25, 0.005  # nine chats share the global rate: still below 1/CHAT


@pytest.fixture
def rates(backbone_pg, recording, monkeypatch):
    monkeypatch.setenv("TELEGRAM_CHAT_INTERVAL", str(CHAT))
    monkeypatch.setenv("TELEGRAM_GROUP_INTERVAL", str(GROUP))
    monkeypatch.setenv("TELEGRAM_GLOBAL_INTERVAL", str(GLOBAL))
    get_settings.cache_clear()
    return recording


def queue(chat: str, n: int, is_group: bool) -> None:
    with session_scope() as s:
        for i in range(n):
            outbox.add(s, "rec", chat, "send", {"text": f"{chat} #{i}"}, is_group=is_group)


def max_in_window(times: list[float], width: float) -> int:
    times = sorted(times)
    return max(sum(1 for u in times[i:] if u < t + width) for i, t in enumerate(times))


def test_rates_per_chat_per_group_and_global_hold_across_concurrent_senders(rates):
    groups, directs = [f"g{i}" for i in range(3)], [f"d{i}" for i in range(6)]
    for chat in groups:
        queue(chat, 6, True)
    for chat in directs:
        queue(chat, 8, False)
    threads = [threading.Thread(target=deliver_chat, args=("rec", c, True)) for c in groups + directs]
    started = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    elapsed = time.monotonic() - started
    calls = rates.calls
    assert len(calls) == 3 * 6 + 6 * 8
    # Timestamps are taken after the bucket grants a send, so one late recording may bunch two sends up: allow
    # one extra send in any window of three intervals, and one interval less over a chat's whole burst.
    for chat, interval, n in [(g, GROUP, 6) for g in groups] + [(d, CHAT, 8) for d in directs]:
        times = [c.at for c in calls if c.chat == chat]
        assert max_in_window(times, 3 * interval) <= 3 + 1, chat
        assert max(times) - min(times) >= (n - 2) * interval, chat
    for chat in groups:
        assert [c.text for c in calls if c.chat == chat] == [f"{chat} #{i}" for i in range(6)]
    assert len(calls) / elapsed <= 1 / GLOBAL * 1.05
    with session_scope() as s:
        assert s.query(OutboxRow).filter_by(status="sent").count() == len(calls)


def test_the_global_rate_holds_across_many_chats(backbone_pg, recording, monkeypatch):
    fast, overall = 0.05, 0.02  # per chat fast enough that twelve chats together would exceed the global rate
    for name, value in [("CHAT", fast), ("GROUP", fast), ("GLOBAL", overall)]:
        monkeypatch.setenv(f"TELEGRAM_{name}_INTERVAL", str(value))
    get_settings.cache_clear()
    chats = [f"m{i}" for i in range(12)]
    for chat in chats:
        queue(chat, 4, False)
    threads = [threading.Thread(target=deliver_chat, args=("rec", c, True)) for c in chats]
    started = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    elapsed = time.monotonic() - started
    times = [c.at for c in recording.calls]
    assert len(times) == 48
    # at most one grant per interval (+1 at the window's edge, +1 for a late recording)
    assert max_in_window(times, 10 * overall) <= 10 + 2
    assert len(times) / elapsed <= 1 / overall * 1.05


def test_a_429_waits_retry_after_and_keeps_order(rates):
    queue("d1", 3, False)
    rates.fail_next(RateLimited(0.5))
    deliver_chat("rec", "d1", True)
    calls = rates.sent("d1")
    assert [c.text for c in calls] == ["d1 #0", "d1 #1", "d1 #2"]


def test_network_errors_retry_then_succeed_and_permanent_errors_fail_the_row(rates):
    queue("d2", 2, False)
    rates.fail_next(TransientError("reset"), times=2)  # within the quick retries
    deliver_chat("rec", "d2", True)
    assert [c.text for c in rates.sent("d2")] == ["d2 #0", "d2 #1"]
    queue("d3", 1, False)
    rates.fail_next(PermanentError("blocked"))
    deliver_chat("rec", "d3", True)
    with session_scope() as s:
        row = s.query(OutboxRow).filter_by(chat="d3").one()
        assert row.status == "failed" and "blocked" in row.error


def test_repeated_network_errors_back_off_with_not_before_and_keep_order(rates):
    queue("d4", 2, False)
    rates.fail_next(TransientError("down"), times=3)  # more than the quick retries
    started = time.monotonic()
    deliver_chat("rec", "d4", True)
    calls = rates.sent("d4")
    assert [c.text for c in calls] == ["d4 #0", "d4 #1"]
    assert calls[0].at - started >= 1.9  # backed off 2 s (not_before) after the first round of quick retries
    with session_scope() as s:
        assert [r.attempts for r in s.query(OutboxRow).filter_by(chat="d4").order_by(OutboxRow.id)] == [1, 0]


def test_upsert_edits_in_place_and_skips_unchanged_content(rates):
    with session_scope() as s:
        assert outbox.upsert_if_changed(s, "rec", "g9", "board:1", {"text": "v1"}, is_group=True)
    deliver_chat("rec", "g9", True)
    with session_scope() as s:
        assert not outbox.upsert_if_changed(s, "rec", "g9", "board:1", {"text": "v1"}, is_group=True)
        assert outbox.upsert_if_changed(s, "rec", "g9", "board:1", {"text": "v2"}, is_group=True)
    deliver_chat("rec", "g9", True)
    calls = rates.sent("g9")
    assert [(c.method, c.text) for c in calls] == [("send_text", "v1"), ("edit_text", "v2")]
    assert calls[1].message_id == calls[0].message_id
    with session_scope() as s:  # written by the time the sender is done, not only cached in Redis
        assert outbox.sent_message_ids(s, "rec", [("g9", "board:1")]) == {("g9", "board:1"): calls[0].message_id}
        assert {r.status for r in s.query(OutboxRow).filter_by(chat="g9")} == {"sent"}
    rates.fail_next(PermanentError("message can't be edited"))
    with session_scope() as s:
        outbox.upsert_if_changed(s, "rec", "g9", "board:1", {"text": "v3"}, is_group=True)
    deliver_chat("rec", "g9", True)
    assert [(c.method, c.text) for c in rates.sent("g9")][-1] == ("send_text", "v3")
    with session_scope() as s:  # the new message's id replaced the old one; the digest of v3 was kept
        assert not outbox.upsert_if_changed(s, "rec", "g9", "board:1", {"text": "v3"}, is_group=True)
        assert outbox.upsert_if_changed(s, "rec", "g9", "board:1", {"text": "v4"}, is_group=True)
    deliver_chat("rec", "g9", True)
    last, previous = rates.sent("g9")[-1], rates.sent("g9")[-2]
    assert (last.method, last.text, last.message_id) == ("edit_text", "v4", previous.message_id)


@pytest.mark.parametrize("fixture", ["backbone_local", "backbone_pg"])
def test_message_ids_are_recorded_for_new_refs_and_replaced_for_known_ones(fixture, request):
    request.getfixturevalue(fixture)
    with session_scope() as s:  # as a move leaves it: the ref known with its content's digest, no id yet
        outbox.upsert_if_changed(s, "rec", "c1", "board:1", {"text": "v1"})
    with get_engine().begin() as conn:
        outbox.record_message_ids(conn, {("rec", "c1", "board:1"): "101", ("rec", "c1", "panel:1:0"): "102"})
    with get_engine().begin() as conn:
        outbox.record_message_ids(conn, {("rec", "c1", "board:1"): "103"})
    with session_scope() as s:
        found = outbox.sent_message_ids(s, "rec", [("c1", ref) for ref in ("board:1", "panel:1:0", "panel:1:1")])
        ids = [found.get(("c1", ref)) for ref in ("board:1", "panel:1:0", "panel:1:1")]
        assert ids == ["103", "102", None]
        assert not outbox.upsert_if_changed(s, "rec", "c1", "board:1", {"text": "v1"})  # the digest was kept


def test_prune_forgets_old_update_ids_and_finished_rows_only(rates):
    from datetime import timedelta

    from service.play.scans import prune
    from service.store.models import ProcessedUpdate, utcnow

    old = utcnow() - timedelta(days=8)
    with session_scope() as s:
        s.add_all(
            [
                ProcessedUpdate(platform="rec", update_id="old", created=old),
                ProcessedUpdate(platform="rec", update_id="new"),
            ]
        )
        for status in ("sent", "pending", "failed"):
            s.add(OutboxRow(platform="rec", chat="c", op="send", payload={}, status=status, created=old))
    assert prune() == 3
    with session_scope() as s:
        assert [u.update_id for u in s.query(ProcessedUpdate)] == ["new"]
        assert [r.status for r in s.query(OutboxRow)] == ["pending"]


def test_a_process_without_the_platform_adapter_leaves_rows_waiting(rates):
    with session_scope() as s:
        outbox.add(s, "nowhere", "c1", "send", {"text": "hi"})
    assert deliver_chat("nowhere", "c1", True) == 0
    with session_scope() as s:
        assert s.query(OutboxRow).filter_by(platform="nowhere").one().status == "pending"


def test_a_shard_sender_drains_many_chats_in_order_while_some_wait_for_their_rate(rates, monkeypatch):
    from service.delivery.senders import deliver_shard

    monkeypatch.setenv("DELIVERY_SHARDS", "1")
    get_settings.cache_clear()
    groups, directs = ["sg1", "sg2", "sg3"], ["sd1", "sd2", "sd3", "sd4"]
    for n in range(4):  # interleaved in the outbox, as moves of different games would be
        for chat in groups + directs:
            with session_scope() as s:
                outbox.add(s, "rec", chat, "send", {"text": f"{chat} #{n}"}, is_group=chat in groups)
    deliver_shard("rec", 0)  # in-process, a chat's wait comes back as a task of the same shard
    calls = rates.calls
    for chat in groups + directs:
        assert [c.text for c in calls if c.chat == chat] == [f"{chat} #{n}" for n in range(4)]
        times = [c.at for c in calls if c.chat == chat]
        assert max_in_window(times, 3 * (GROUP if chat in groups else CHAT)) <= 3 + 1, chat
    # a chat waiting for its rate does not hold the others up: every chat's first message precedes any second one
    order = [c.text for c in calls]
    assert max(order.index(f"{chat} #0") for chat in groups + directs) < min(
        order.index(f"{chat} #1") for chat in groups + directs
    )
    with session_scope() as s:
        assert s.query(OutboxRow).filter_by(status="pending").count() == 0


def test_a_failure_in_a_shard_batch_holds_back_only_its_chat(backbone_pg, recording, monkeypatch):
    """One batch, two chats: the first send (chat a's first row) gets a 429, then a row of chat b fails with an
    adapter's unexpected error. Chat a's second row is not tried before its first; chat b's row counts as a network
    error (kept, with the error's type and no more) while its other rows wait behind it; every row ends up sent once,
    in order per chat."""
    from service.delivery.senders import deliver_shard

    monkeypatch.setenv("DELIVERY_SHARDS", "1")
    get_settings.cache_clear()
    for n in range(3):
        for chat in ("a", "b"):
            with session_scope() as s:
                outbox.add(s, "rec", chat, "send", {"text": f"{chat} #{n}"})
    recording.fail_next(RateLimited(0.2))
    original = recording._record
    broken = {"b #1"}

    def record(method: str, chat: str, **kw):
        if kw.get("text") in broken:
            broken.clear()
            raise ValueError("the adapter's own bug: secret text")
        return original(method, chat, **kw)

    monkeypatch.setattr(recording, "_record", record)
    deliver_shard("rec", 0)
    sent = [c.text for c in recording.calls]
    assert [t for t in sent if t.startswith("a")] == ["a #0", "a #1", "a #2"]
    assert [t for t in sent if t.startswith("b")] == ["b #0", "b #1", "b #2"]
    assert sent.index("b #0") < sent.index("a #0")  # chat b was not held up by chat a's 429
    with session_scope() as s:
        rows = {r.payload["text"]: r for r in s.query(OutboxRow)}
        assert {r.status for r in rows.values()} == {"sent"}
        assert rows["b #1"].attempts == 1 and rows["b #1"].error == "unexpected ValueError"


def test_a_shard_batch_sends_to_its_chats_at_once_and_to_each_chat_in_turn(backbone_pg, recording, monkeypatch):
    """Sends that take time (a platform's API): the chats of one batch are sent to at once, while each chat has
    one send in flight at most, in order."""
    from service.delivery.senders import deliver_shard

    monkeypatch.setenv("DELIVERY_SHARDS", "1")
    get_settings.cache_clear()
    chats = [f"slow{i}" for i in range(4)]
    for n in range(3):
        for chat in chats:
            with session_scope() as s:
                outbox.add(s, "rec", chat, "send", {"text": f"{chat} #{n}"})
    recording.latency = 0.02
    in_flight: dict[str, int] = {}
    most = {"all": 0, "chat": 0}
    original = recording._call

    async def call(method: str, chat: str, **kw):
        in_flight[chat] = in_flight.get(chat, 0) + 1
        most["all"] = max(most["all"], sum(in_flight.values()))
        most["chat"] = max(most["chat"], in_flight[chat])
        try:
            return await original(method, chat, **kw)
        finally:
            in_flight[chat] -= 1

    monkeypatch.setattr(recording, "_call", call)
    assert deliver_shard("rec", 0) == 12
    assert most == {"all": 4, "chat": 1}
    for chat in chats:
        assert [c.text for c in recording.calls if c.chat == chat] == [f"{chat} #{n}" for n in range(3)]


@pytest.mark.parametrize("window", ["0.05", "0"])
def test_with_a_broker_requests_for_chats_of_one_shard_coalesce_into_one_task(backbone_pg, monkeypatch, window):
    """Ten chats in two shards ask for delivery: one deliver task per shard, scheduled after the batch window (or
    published at once without one)."""
    import json

    from service.play import queue as work_queue
    from service.sessions import get_sessions
    from workers import celery_queue

    monkeypatch.setenv("CELERY_BROKER_URL", backbone_pg.redis_url)
    monkeypatch.setenv("DELIVERY_SHARDS", "2")
    monkeypatch.setenv("DELIVERY_BATCH_WINDOW", window)
    get_settings.cache_clear()
    published: list[dict] = []
    monkeypatch.setattr(  # what goes to the broker now
        celery_queue, "_push", lambda jobs: published.extend({"task": task, **kwargs} for task, kwargs in jobs)
    )
    chats = [f"c{i}" for i in range(10)]
    with work_queue.handing_on():  # as a move asks: in one round trip
        for chat in chats[:5]:
            work_queue.request_delivery("rec", chat)
    for chat in chats[5:]:
        work_queue.request_delivery("rec", chat)
    shards = {outbox.shard_of(chat) for chat in chats}
    assert shards == {0, 1}
    due = [json.loads(member) for member, _ in get_sessions().scheduler.claim(time.time() + 60, 30, 100)]
    asked = published + [{"task": d["task"], **d["kwargs"]} for d in due]
    assert sorted(a["shard"] for a in asked) == [0, 1] and {a["task"] for a in asked} == {"deliver"}
    assert (published == []) == (window != "0")


@pytest.mark.parametrize("by_row_id", [False, True])
def test_rows_queued_before_a_direct_chat_was_known_keep_their_order_with_later_ones(
    backbone_pg, recording, monkeypatch, by_row_id
):
    """A player's panel is queued under a marker (`@user:<id>`, or `@uid:<row id>` for a long id: their direct chat is
    not known yet) and sent once the adapter gives the chat; the next move queues the panel's new version for the chat
    itself, in another shard.
    While the first version is being sent, that shard's sender runs: it must neither send the panel a second time
    nor have its newer version overwritten by the older one (both happened with two addresses for one chat)."""
    import asyncio

    from sqlalchemy import select

    from service.delivery.senders import deliver_shard
    from service.store.models import User
    from service.store.outbox import shard_of
    from service.store.users import direct_chat_markers, user_for

    player = "u1"
    with session_scope() as s:
        marker = direct_chat_markers(user_for(s, "rec", player))[by_row_id]
    shards = next(n for n in range(2, 50) if zlib.crc32(marker.encode()) % n != zlib.crc32(b"dm-u1") % n)
    monkeypatch.setenv("DELIVERY_SHARDS", str(shards))  # the marker and the chat in different shards
    get_settings.cache_clear()
    requested: list[str] = []
    monkeypatch.setattr("service.delivery.senders.request_delivery", lambda platform, chat: requested.append(chat))
    with session_scope() as s:
        outbox.upsert_if_changed(s, "rec", marker, "panel:1:0", {"text": "v1"})

    def next_move() -> None:  # a move applied meanwhile: the direct chat is known, so the new panel goes there
        with session_scope() as s:
            chat = s.scalar(select(User.direct_chat).where(User.platform_id == player))
            outbox.upsert_if_changed(s, "rec", chat, "panel:1:0", {"text": "v2"})
        deliver_shard("rec", shard_of(chat))

    racer = threading.Thread(target=next_move)
    original = recording._call

    async def call(method: str, chat: str, **kw):
        if kw.get("text") == "v1" and not racer.is_alive() and racer.ident is None:
            racer.start()  # that sender runs while this send is in flight (it may have to wait for this one)
            await asyncio.to_thread(racer.join, 2.0)
        return await original(method, chat, **kw)

    monkeypatch.setattr(recording, "_call", call)
    deliver_shard("rec", shard_of(marker))
    for chat in requested:  # what the marker's sender asked for, as the chat's shard task would do it
        deliver_shard("rec", shard_of(chat))
    racer.join(30)
    sent = [(c.method, c.chat, c.text) for c in recording.calls]
    assert sent == [("send_text", f"dm-{player}", "v1"), ("edit_text", f"dm-{player}", "v2")]
    assert recording.calls[1].message_id == recording.calls[0].message_id
    with session_scope() as s:
        assert {(r.chat, r.status) for r in s.query(OutboxRow)} == {(f"dm-{player}", "sent")}


def test_an_edit_queued_under_a_marker_never_overwrites_a_newer_one_already_sent(backbone_pg, recording, monkeypatch):
    """A move that read the player's direct chat as unknown just before a sender recorded it queues its panel under
    the marker; the next move, a moment later, queues the newer panel for the chat itself, and it is sent first.
    When the marker's row then moves to the chat it is obsolete: dropped, not sent as an edit back to the old
    panel."""
    from service.delivery.senders import deliver_shard
    from service.store.outbox import shard_of
    from service.store.users import user_for

    monkeypatch.setenv("DELIVERY_SHARDS", "1")
    get_settings.cache_clear()
    with session_scope() as s:
        user_for(s, "rec", "u7").direct_chat = "dm-u7"
        outbox.upsert_if_changed(s, "rec", "@user:u7", "panel:1:2", {"text": "older"})
        outbox.add(s, "rec", "@user:u7", "send", {"text": "your turn"})
    with session_scope() as s:
        outbox.upsert_if_changed(s, "rec", "dm-u7", "panel:1:2", {"text": "newer"})
    monkeypatch.setattr("service.delivery.senders.request_delivery", lambda platform, chat: None)
    with get_engine().connect() as conn:  # the chat's own row goes first: the marker's waits for its pass
        first = outbox.pending_for_chat(conn, "rec", "dm-u7")
    assert [r.payload["text"] for r in first] == ["newer"]
    deliver_chat("rec", "dm-u7", True)
    deliver_shard("rec", shard_of("@user:u7"))  # moves the marker's rows to the chat
    deliver_chat("rec", "dm-u7", True)
    assert [(c.method, c.text) for c in recording.sent("dm-u7")] == [("send_text", "newer"), ("send_text", "your turn")]
    with session_scope() as s:
        assert {r.payload["text"]: r.status for r in s.query(OutboxRow)} == {
            "older": "superseded", "newer": "sent", "your turn": "sent"
        }


def test_a_batchs_edits_find_their_messages_ids_in_one_read_before_the_sends(backbone_pg, recording, monkeypatch):
    """The ids of the messages a shard's batch edits are read together (one Redis read, then one query for those
    Redis lost), outside the adapters' event loop; each edit targets its own chat's message."""
    from service.delivery.senders import deliver_shard
    from service.sessions import get_sessions

    monkeypatch.setenv("DELIVERY_SHARDS", "1")
    get_settings.cache_clear()
    chats = [f"ed{i}" for i in range(4)]

    def board(version: str) -> None:
        with session_scope() as s:
            for chat in chats:
                outbox.upsert_if_changed(s, "rec", chat, "board:1", {"text": f"{chat} {version}"}, is_group=True)

    board("v1")
    assert deliver_shard("rec", 0) == 4
    board("v2")
    sessions = get_sessions()
    sessions.client.delete(*(f"camelot:msg:rec:{chat}:board:1" for chat in chats[:2]))  # Redis lost two ids
    reads: list[list[tuple[str, str]]] = []
    original = type(sessions.messages).get_many

    def read(self, platform, keys):
        reads.append(keys)
        return original(self, platform, keys)

    monkeypatch.setattr(type(sessions.messages), "get_many", read)
    monkeypatch.setattr(type(sessions.messages), "get", lambda *a: pytest.fail("an id read on its own"))
    assert deliver_shard("rec", 0) == 4
    assert reads == [[(chat, "board:1") for chat in chats]]
    for chat in chats:
        sent, edited = [c for c in recording.calls if c.chat == chat]
        assert (sent.method, sent.text) == ("send_text", f"{chat} v1")
        assert (edited.method, edited.text, edited.message_id) == ("edit_text", f"{chat} v2", sent.message_id)


@pytest.mark.parametrize("fixture", ["backbone_local", "backbone_pg"])
def test_a_shards_pending_rows_and_their_booking_read_alike_on_both_databases(fixture, request, monkeypatch):
    """What a sender's pass reads (in id order, leaving out waiting chats, at most `limit`) and books (sent,
    superseded), whether SQLAlchemy runs it (SQLite) or the driver does (PostgreSQL)."""
    request.getfixturevalue(fixture)
    monkeypatch.setenv("DELIVERY_SHARDS", "1")
    get_settings.cache_clear()
    with session_scope() as s:
        for n in range(3):
            for chat in ("pa", "pb", "pc"):
                outbox.add(s, "rec", chat, "send", {"text": f"{chat} {n}", "buttons": [["ok", "1:2:ok"]]})
        outbox.upsert(s, "rec", "pa", "board:1", {"text": "board"}, is_group=True, photo=b"\x89PNG")
    with get_engine().connect() as conn:
        rows = outbox.pending_for_shard(conn, "rec", 0, [])
        first = [("pa", "pa 0"), ("pb", "pb 0"), ("pc", "pc 0"), ("pa", "pa 1")]
        assert [(r.chat, r.payload["text"]) for r in rows][:4] == first
        assert [r.id for r in rows] == sorted(r.id for r in rows) and len(rows) == 10
        board = rows[-1]
        assert (board.op, board.ref, board.photo, board.is_group) == ("upsert", "board:1", b"\x89PNG", True)
        assert board.not_before is None
        assert rows[0].payload["buttons"] == [["ok", "1:2:ok"]] and rows[0].platform == "rec"
        assert {r.chat for r in outbox.pending_for_shard(conn, "rec", 0, ["pa", "pc"])} == {"pb"}
        assert len(outbox.pending_for_shard(conn, "rec", 0, ["pb"], limit=4)) == 4
        assert outbox.pending_for_shard(conn, "rec", 1, []) == []
    with get_engine(lazy_commit=True).begin() as conn:
        outbox.mark_done(conn, [rows[0].id, rows[1].id], "sent")
        outbox.mark_done(conn, [rows[2].id], "superseded")
        outbox.mark_done(conn, [], "sent")
    with session_scope() as s:
        done = {r.id: (r.status, r.sent_at is not None) for r in s.query(OutboxRow).filter_by(platform="rec")}
    assert done[rows[0].id] == done[rows[1].id] == ("sent", True) and done[rows[2].id] == ("superseded", True)
    assert [r.id for r in rows if done[r.id] == ("pending", False)] == [r.id for r in rows[3:]]
    with get_engine().connect() as conn:
        assert [r.id for r in outbox.pending_for_shard(conn, "rec", 0, [])] == [r.id for r in rows[3:]]


def test_a_message_edited_while_it_waits_goes_out_newest_in_its_first_place():
    """The pinned board behind a flood of moves' messages: only its newest content is sent, where its first edit
    stood (not after every message queued since, where a chat's rate limit would keep pushing it back)."""
    from types import SimpleNamespace

    from service.delivery.edits import newest_edits

    def row(id_: int, op: str, ref: str | None = None) -> SimpleNamespace:
        return SimpleNamespace(id=id_, op=op, ref=ref)

    rows = [row(1, "upsert", "board"), row(2, "send"), row(3, "upsert", "board"), row(4, "send"),
            row(5, "upsert", "board"), row(6, "upsert", "panel")]
    superseded: list[int] = []
    assert [r.id for r in newest_edits(rows, superseded)] == [5, 2, 4, 6]
    assert superseded == [1, 3]
