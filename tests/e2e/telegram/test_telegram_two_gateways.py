"""Two gateways for one bot in webhook mode, behind one URL (a round-robin proxy), with a Celery worker, PostgreSQL
and Redis: both take updates and delivery shards; every chat gets its messages in order and once. One gateway is
SIGKILLed while it holds a shard's lease: the other sends that shard's waiting messages within about a lease and a
half (the lease lapses; the survivor's shard watch asks for the shard) without any new move asking for it."""

from __future__ import annotations

import socket
import threading
import time
from typing import Any

import pytest
import redis
from fake_bot_api import DEFAULT_BOT_RIGHTS, FakeBotApi
from sqlalchemy import select
from telegram_players import Table
from telegram_stack import Stack, scaled_limits
from test_telegram_games import CARDS_SEED, game_row, open_table, outbox_drained
from webhook_proxy import WebhookProxy

from service.settings import get_settings
from service.store import session_scope
from service.store.models import OutboxRow, SentMessage

pytestmark = pytest.mark.e2e
LEASE = 2.0
KEY = 30  # characters of a text that identify it (the adapter trims long texts to Telegram's limits)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LeaseWatch:
    """Samples who holds each delivery shard's lease, from Redis, every 10 ms in a thread."""

    def __init__(self, redis_url: str) -> None:
        self.client = redis.Redis.from_url(redis_url)
        self.seen: dict[int, set[str]] = {}  # shard → holder ids seen
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def holders(self) -> dict[int, str]:
        keys = sorted(self.client.scan_iter("camelot:lease:deliver:telegram:shard:*"))
        values = self.client.mget(keys) if keys else []
        return {int(k.rsplit(b":", 1)[1]): v.decode() for k, v in zip(keys, values, strict=True) if v}

    def _run(self) -> None:
        while not self._stop.wait(0.01):
            for shard, holder in self.holders().items():
                self.seen.setdefault(shard, set()).add(holder)

    def pids(self) -> set[int]:
        return {int(h.split(":")[1]) for holders in self.seen.values() for h in holders}

    def __enter__(self) -> LeaseWatch:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(5)


def pending(shard: int) -> list[int]:
    with session_scope() as s:
        return list(
            s.scalars(
                select(OutboxRow.id).where(
                    OutboxRow.platform == "telegram", OutboxRow.shard == shard, OutboxRow.status == "pending"
                )
            )
        )


def expected_sends(chat: int) -> tuple[list[str], dict[int, str]]:
    """What the chat must have received as new messages, in order: its sent rows that are a `send`, or the first
    sent `upsert` of a message (later ones are edits); and each row's key by id."""
    with session_scope() as s:
        rows = s.scalars(
            select(OutboxRow)
            .where(OutboxRow.platform == "telegram", OutboxRow.chat == str(chat), OutboxRow.status == "sent")
            .order_by(OutboxRow.id)
        ).all()
        made: set[str] = set()
        sends, keys = [], {}
        for row in rows:
            if row.op not in ("send", "upsert"):
                continue
            key = (row.payload.get("text") or "").strip()[:KEY]
            keys[row.id] = key
            if row.op == "send" or row.ref not in made:
                made.add(row.ref or "")
                sends.append(key)
        return sends, keys


def newest_edits(chat: int) -> dict[int, str]:
    """Each message edited in place: the key of the newest row sent for it, by the message's id."""
    with session_scope() as s:
        refs = {m.ref: m.message_id for m in s.scalars(select(SentMessage).where(SentMessage.chat == str(chat)))}
        rows = s.scalars(
            select(OutboxRow)
            .where(OutboxRow.chat == str(chat), OutboxRow.op == "upsert", OutboxRow.status == "sent")
            .order_by(OutboxRow.id)
        ).all()
        return {int(refs[r.ref]): (r.payload.get("text") or "").strip()[:KEY] for r in rows if refs.get(r.ref)}


def matches(received: list[str], expected: list[str], may_repeat: set[str]) -> tuple[bool, int]:
    """Whether `received` is `expected` in order, each once, but for a message sent again right after itself when
    it may be (a row the killed gateway sent and could not book: at-least-once); and how many such repeats."""
    i = repeats = 0
    for j, key in enumerate(received):
        if i < len(expected) and key == expected[i]:
            i += 1
        elif j and key == received[j - 1] and key in may_repeat:
            repeats += 1
        else:
            return False, repeats
    return i == len(expected), repeats


def test_two_webhook_gateways_deliver_in_order_once_and_take_over_a_killed_ones_shards(
    backbone_pg: Any, redis_url: str, fake_api: FakeBotApi, tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake_api.world.limits = scaled_limits()
    fake_api.latency = 0.1  # a send takes a while: a gateway holds its shard's lease across several
    stack = Stack(fake_api, redis_url, tmp_path)
    stack.env["LEASE_SECONDS"] = str(LEASE)
    for key in ("TELEGRAM_TOKEN", "TELEGRAM_BASE_URL", "CELERY_BROKER_URL", "LEASE_SECONDS"):
        monkeypatch.setenv(key, stack.env[key])
    get_settings.cache_clear()
    ports = [free_port(), free_port()]
    with WebhookProxy(ports) as proxy, LeaseWatch(redis_url) as leases:
        hook = {"TELEGRAM_WEBHOOK_URL": proxy.url, "TELEGRAM_WEBHOOK_SECRET": "s3cret-token"}
        stack.start_worker()
        gateway_a = stack.start_gateway("gateway-a", TELEGRAM_WEBHOOK_PORT=str(ports[0]), **hook)
        gateway_b = stack.start_gateway("gateway-b", TELEGRAM_WEBHOOK_PORT=str(ports[1]), **hook)
        try:
            fake_api.wait(lambda: fake_api.world.webhook, 30, "setWebhook")
            for port in ports:
                fake_api.wait(lambda p=port: _listening(p), 30, f"the gateway on {port}")
            users = [fake_api.add_user(name) for name in ("Arthur", "Kay", "Guinevere", "Lancelot")]
            group, game_id, _ = open_table(fake_api, "cards", users, CARDS_SEED, DEFAULT_BOT_RIGHTS)
            table = Table(fake_api, users, CARDS_SEED)
            table.play_until(lambda: game_row(game_id)[1] >= 4, timeout=120)
            assert all(proxy.served.values()), proxy.served  # updates reached both gateways
            assert leases.pids() >= {gateway_a.pid, gateway_b.pid}, leases.seen  # both sent some shards

            # kill gateway A while it holds a shard's lease
            deadline = time.monotonic() + 90
            while True:
                held = {s: h for s, h in leases.holders().items() if int(h.split(":")[1]) == gateway_a.pid}
                waiting = {s: pending(s) for s in held}
                shard = next((s for s, ids in waiting.items() if ids), None)
                if shard is not None:
                    break
                assert time.monotonic() < deadline, "gateway A never held a shard with messages waiting"
                table.step()
                time.sleep(0.01)
            stack.kill_gateway("gateway-a")
            killed = time.monotonic()
            inflight = pending(shard)
            fake_api.wait(lambda: set(pending(shard)) != set(inflight), 30, "the killed gateway's shard taken")
            taken_over = time.monotonic() - killed
            fake_api.wait(lambda: not set(pending(shard)) & set(inflight), 60, "the killed gateway's shard sent")
            print(
                f"gateway A killed holding shard {shard} with {len(inflight)} messages waiting; gateway B sent the "
                f"first {taken_over:.2f} s later, all {time.monotonic() - killed:.2f} s later (lease {LEASE:.0f} s; "
                "the rest at the chats' rates)"
            )
            assert taken_over <= 1.5 * LEASE + 1.5  # the lease lapses, the survivor's watch asks within half one
            assert leases.seen[shard] - {h for h in leases.seen[shard] if f":{gateway_a.pid}:" in h}

            start_seq = game_row(game_id)[1]
            table.play_until(lambda: game_row(game_id)[1] >= start_seq + 6 or game_row(game_id)[0] != "active",
                             timeout=180)
            fake_api.wait(outbox_drained, 60, "the outbox to drain")
            time.sleep(0.5)
        finally:
            stack.stop()

    with session_scope() as s:
        keys_inflight = {
            (row.payload.get("text") or "").strip()[:KEY] for row in s.scalars(
                select(OutboxRow).where(OutboxRow.id.in_(inflight))
            )
        }
    repeated = 0
    for chat in [group.id, *(u.id for u in users)]:
        expected, _ = expected_sends(chat)
        received = [r.text.strip()[:KEY] for r in fake_api.records(chat) if r.action == "send"]
        ok, again = matches(received, expected, keys_inflight)
        repeated += again
        assert ok, (
            f"chat {chat}: messages out of order, missing or repeated\n{received}\n{expected}\n{_rows(chat)}"
        )
        shown = {m.message_id: (m.caption or m.text or "").strip()[:KEY] for m in fake_api.messages(chat)}
        for message_id, newest in newest_edits(chat).items():
            assert shown.get(message_id) == newest, f"chat {chat}: message {message_id} does not show its newest"
    assert repeated <= len(inflight)  # only what the killed gateway may have sent without booking it
    assert fake_api.rejected == [] and fake_api.throttled == []  # the two shared the rate buckets
    unchanged = [e for e in fake_api.errors if e[0].startswith("edit") and "message is not modified" in e[2]]
    assert [e for e in fake_api.errors if e not in unchanged] == []


def _listening(port: int) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


def _rows(chat: int) -> list[tuple[Any, ...]]:
    with session_scope() as s:
        return [
            (r.id, r.op, r.status, r.ref, (r.payload.get("text") or "")[:KEY])
            for r in s.scalars(select(OutboxRow).where(OutboxRow.chat == str(chat)).order_by(OutboxRow.id))
        ]


def test_a_second_polling_gateway_says_why_it_stands_by_and_takes_over_when_the_first_dies(
    backbone_pg: Any, redis_url: str, fake_api: FakeBotApi, tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Telegram allows one long poll per bot: the second gateway says so in words and waits; when the first is
    SIGKILLed, the second polls within about a lease and serves the bot."""
    fake_api.world.limits = scaled_limits()
    stack = Stack(fake_api, redis_url, tmp_path)
    stack.env["LEASE_SECONDS"] = str(LEASE)
    for key in ("TELEGRAM_TOKEN", "TELEGRAM_BASE_URL", "CELERY_BROKER_URL"):
        monkeypatch.setenv(key, stack.env[key])
    get_settings.cache_clear()
    stack.start_worker()
    try:
        stack.start_gateway("gateway-a")
        fake_api.wait(lambda: fake_api.calls["getUpdates"] > 0, 30, "the first gateway's poll")
        stack.start_gateway("gateway-b")
        log_b = tmp_path / "gateway-b.log"
        fake_api.wait(lambda: "lease.standing_by" in log_b.read_text(), 30, "the second gateway's notice")
        notice = next(line for line in log_b.read_text().splitlines() if "lease.standing_by" in line)
        print(notice)
        assert "Telegram allows one poller per bot" in notice and "TELEGRAM_WEBHOOK_URL" in notice
        assert "deliveries.consuming" not in log_b.read_text()  # standing by: it neither polls nor sends
        stack.kill_gateway("gateway-a")
        killed = time.monotonic()
        fake_api.wait(lambda: "lease.taken_over" in log_b.read_text(), 30, "the second gateway taking over")
        assert time.monotonic() - killed <= LEASE + LEASE / 3 + 2.0
        ann = fake_api.add_user("Ann")
        group = fake_api.add_group("Table", [ann])
        fake_api.say(ann, group.id, "/newgame cards 3")
        fake_api.wait(
            lambda: any("start=join" in str(m.reply_markup) for m in fake_api.messages(group.id)), 30,
            "the lobby, from the second gateway",
        )
    finally:
        stack.stop()
