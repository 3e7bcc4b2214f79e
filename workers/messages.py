"""Celery task messages for the Redis broker, built here and pushed in one round trip.

The due loop publishes every paced bot move and batched delivery (`workers.due_tasks`). Through `apply_async` a
message cost about 300 µs of CPU on the 2-core machine (three uuid4s, the kombu producer's declare checks and
copies, JSON twice), so the loop took half as much CPU as the moves it published (py-spy over
`camelot bench pipeline`). The message is the same here: Celery's task protocol 2 in kombu's Redis envelope,
pushed onto the queue's list as kombu's Redis transport does for its default exchange (`Channel._put`). A test holds
it to what `apply_async` produces, key by key, and a real worker runs it.
"""

from __future__ import annotations

import base64
import json
import os
import random
import socket
from collections.abc import Iterable
from typing import Any

from service.sessions import round_trip
from workers.app import app

_EMBED = {"callbacks": None, "errbacks": None, "chain": None, "chord": None}


def message(task: str, kwargs: dict[str, Any], queue: str, kwargsrepr: str) -> str:
    """The envelope kombu's Redis transport stores for `app.tasks[task].apply_async(kwargs=…, queue=…)`."""
    task_id = _uuid()
    body = json.dumps([[], kwargs, _EMBED]).encode()
    return json.dumps(
        {
            "body": base64.b64encode(body).decode(),
            "content-encoding": "utf-8",
            "content-type": "application/json",
            "headers": {
                "lang": "py",
                "task": task,
                "id": task_id,
                "shadow": None,
                "eta": None,
                "expires": None,
                "group": None,
                "group_index": None,
                "retries": 0,
                "timelimit": [None, None],
                "root_id": task_id,
                "parent_id": None,
                "argsrepr": "()",
                "kwargsrepr": kwargsrepr,
                "origin": _origin(),
                "ignore_result": True,
                "replaced_task_nesting": 0,
                "stamped_headers": None,
                "stamps": {},
            },
            "properties": {
                "correlation_id": task_id,
                "reply_to": app.thread_oid,
                "argsrepr": "()",
                "kwargsrepr": kwargsrepr,
                "delivery_mode": 2,
                "delivery_info": {"exchange": "", "routing_key": queue},
                "priority": 0,
                "body_encoding": "base64",
                "delivery_tag": _uuid(),
            },
        }
    )


def push(broker_url: str, messages: Iterable[tuple[str, str]]) -> None:
    """LPUSH each `(queue, message)` onto its queue's list, all in one round trip."""
    round_trip.send(round_trip.client_for(broker_url), [("LPUSH", queue, msg) for queue, msg in messages])


def _uuid() -> str:
    """A version 4 UUID from the process's `random` (reseeded at fork), without uuid4's system call."""
    n = random.getrandbits(128) & ~(0xC000 << 48) | (0x8000 << 48)
    n = n & ~(0xF000 << 64) | (4 << 76)
    h = f"{n:032x}"
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def _origin() -> str:
    """Celery's `anon_nodename()`: gen<pid>@<host>; the pid is read each time, pool processes are forks."""
    return f"gen{os.getpid()}@{_HOST}"


_HOST = socket.gethostname()
