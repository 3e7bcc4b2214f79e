"""Task messages built by `workers.messages` are those Celery's `apply_async` would push (a real worker runs them
in every test that plays through Celery: `service.play.queue` publishes through them on a Redis broker)."""

from __future__ import annotations

import base64
import json
import os
import uuid

import redis

from service.play import queue
from service.settings import get_settings
from workers import celery_queue, messages, tasks
from workers.app import configure

IDS = (("headers", "id"), ("headers", "root_id"), ("properties", "correlation_id"), ("properties", "delivery_tag"))


def _opened(raw: str | bytes) -> dict:
    """The envelope with its body decoded and its ids checked, then blanked (they differ from message to message)."""
    msg = json.loads(raw)
    msg["body"] = json.loads(base64.b64decode(msg["body"]))
    for part, key in IDS:
        assert uuid.UUID(msg[part][key]).version == 4, (part, key)
        msg[part][key] = "<id>"
    return msg


def test_a_built_message_is_the_one_apply_async_pushes(backbone_pg, monkeypatch):
    monkeypatch.setenv("CELERY_BROKER_URL", backbone_pg.redis_url)
    get_settings.cache_clear()
    app = configure()
    r = redis.Redis.from_url(backbone_pg.redis_url)
    for task, kwargs, queue_name in [
        ("play_bot", {"game_id": 5, "seat": 1, "seq": 7, "enqueued_at": 1.5}, None),
        ("deliver", {"platform": "telegram", "shard": 3}, "deliver.telegram"),
        ("play", {"cmd": {"code": "discard:7", "text": None, "game": 2}, "enqueued_at": 2.0}, None),
    ]:
        key = queue_name or app.conf.task_default_queue
        r.delete(key)
        shown = celery_queue.shown(kwargs)
        tasks.TASKS[task].apply_async(kwargs=kwargs, queue=queue_name, argsrepr="()", kwargsrepr=shown)
        (celerys,) = r.lrange(key, 0, -1)
        ours = messages.message(tasks.TASKS[task].name, kwargs, key, shown)
        assert _opened(ours) == _opened(celerys)
        assert "discard:7" not in json.dumps(_opened(ours)["headers"])  # a secret choice is masked in the reprs
        r.delete(key)


def test_messages_go_onto_their_queues_in_one_push(backbone_pg, monkeypatch):
    monkeypatch.setenv("CELERY_BROKER_URL", backbone_pg.redis_url)
    get_settings.cache_clear()
    r = redis.Redis.from_url(backbone_pg.redis_url)
    r.delete("celery", "deliver.matrix")
    with queue.handing_on():
        queue.enqueue("play_bot", game_id=1, seat=0, seq=4)
        queue.enqueue("deliver", platform="matrix", shard=0)
        queue.enqueue("play_bot", game_id=2, seat=1, seq=9)
        assert r.llen("celery") == 0  # held until the block ends
    bots = [json.loads(base64.b64decode(json.loads(m)["body"]))[1] for m in reversed(r.lrange("celery", 0, -1))]
    assert [(b["game_id"], b["seq"]) for b in bots] == [(1, 4), (2, 9)]  # in order: a worker BRPOPs the oldest
    assert all(b["enqueued_at"] > 0 for b in bots)
    (delivery,) = r.lrange("deliver.matrix", 0, -1)
    assert json.loads(delivery)["headers"]["task"] == "workers.tasks.deliver"


def test_ids_differ_in_a_forked_process():
    """Ids come from the process's `random`, which Python reseeds in a forked child (pool processes are forks)."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        os.write(write, messages._uuid().encode())
        os._exit(0)
    os.waitpid(pid, 0)
    theirs = os.read(read, 64).decode()
    assert uuid.UUID(theirs).version == 4 and theirs != messages._uuid()
