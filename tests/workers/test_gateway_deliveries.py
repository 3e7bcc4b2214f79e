"""A gateway's delivery consumer (`workers.deliveries`): a real Celery consumer on the platform's queue, in a
thread of this process, sending through the adapter registered here; its shards send in parallel."""

from __future__ import annotations

import asyncio
import time

from service.play.queue import enqueue
from service.settings import get_settings
from service.store import outbox, session_scope
from service.store.models import OutboxRow


def test_the_consumer_sends_its_platforms_shards_in_parallel(backbone_pg, recording, monkeypatch):
    from workers.deliveries import DeliveryConsumer

    monkeypatch.setenv("CELERY_BROKER_URL", backbone_pg.redis_url)
    monkeypatch.setenv("DELIVERY_SHARDS", "2")
    get_settings.cache_clear()
    chats = {}
    for n in range(50):  # one chat in each shard
        chats.setdefault(outbox.shard_of(f"par{n}"), f"par{n}")
    assert sorted(chats) == [0, 1]
    for chat in chats.values():
        with session_scope() as s:
            for i in range(2):
                outbox.add(s, "rec", chat, "send", {"text": f"{chat} #{i}"})
    recording.latency = 0.3
    in_flight = {"now": 0, "most": 0}
    original = recording._call

    async def call(method: str, chat: str, **kw):
        in_flight["now"] += 1
        in_flight["most"] = max(in_flight["most"], in_flight["now"])
        try:
            return await original(method, chat, **kw)
        finally:
            in_flight["now"] -= 1

    monkeypatch.setattr(recording, "_call", call)
    consumer = DeliveryConsumer("rec")
    consumer.start()
    try:
        for shard in chats:
            enqueue("deliver", platform="rec", shard=shard)
        deadline = time.monotonic() + 30
        while True:
            with session_scope() as s:
                if s.query(OutboxRow).filter_by(platform="rec", status="pending").count() == 0:
                    break
            assert time.monotonic() < deadline, "the consumer did not send"
            time.sleep(0.1)
    finally:
        asyncio.run(consumer.stop())
    assert in_flight["most"] == 2  # both shards at once (one sender at a time: 1)
    for chat in chats.values():
        assert [c.text for c in recording.calls if c.chat == chat] == [f"{chat} #0", f"{chat} #1"]
