"""Start a real Celery worker for tests: the toy game registered, and a recording adapter for platform "rec"
that appends every call to the file named by CAMELOT_TEST_CALLS (one JSON line per call). It consumes the moves'
queue and platform "rec"'s deliveries (in production a gateway's, `workers.deliveries`).

CAMELOT_TEST_EXIT_AT="module:function[,…]": the process exits (as if killed) the first time one of them is called,
e.g. `service.play.person_move:after_commit`, between a move's commit and its hand-on."""

from __future__ import annotations

import importlib
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import toygame  # noqa: E402

from service import compose  # noqa: E402
from service.chat import registry  # noqa: E402
from service.chat.base import delivering  # noqa: E402
from service.chat.recording import RecordingAdapter  # noqa: E402


class FileRecordingAdapter(RecordingAdapter):
    """Each call as a JSON line: when, by which process, the method, chat and text, the buttons' data, and the
    outbox row it performs (`delivering`: the chaos test counts sends by row)."""

    def _record(self, method: str, chat: str, **kw):
        message_id = super()._record(method, chat, **kw)
        buttons = [[b.data for b in row] for row in kw.get("buttons") or []]
        call = {"at": time.time(), "pid": os.getpid(), "method": method, "chat": chat, "text": kw.get("text", "")}
        call.update(buttons=buttons, row=delivering.get())
        with open(os.environ["CAMELOT_TEST_CALLS"], "a") as f:
            f.write(json.dumps(call) + "\n")
        return message_id


def exit_at(targets: str) -> None:
    """Replace each named function (where its module holds it) by one that ends the process at once."""
    for target in filter(None, targets.split(",")):
        module, name = target.split(":")

        def gone(*_: object, **__: object) -> None:
            os._exit(3)

        setattr(importlib.import_module(module), name, gone)


def _ready(**_: object) -> None:
    with open(os.environ["CAMELOT_TEST_READY"], "w") as f:
        f.write(str(os.getpid()))


if __name__ == "__main__":
    from celery.signals import worker_ready

    worker_ready.connect(_ready, weak=False)
    from workers import observed

    observed.log_as_configured()  # LOG_FORMAT=json: Celery's lines as JSON, as `camelot worker` writes them
    compose.wire()
    toygame.register()
    registry.register("rec", lambda: FileRecordingAdapter("rec"))
    exit_at(os.environ.get("CAMELOT_TEST_EXIT_AT", ""))
    from workers.app import app
    from workers.deliveries import delivery_queue

    queues = [] if "-Q" in sys.argv else ["-Q", f"{app.conf.task_default_queue},{delivery_queue('rec')}"]
    app.worker_main(
        [
            "worker",
            "--loglevel",
            "WARNING",
            "--without-gossip",
            "--without-mingle",
            "--without-heartbeat",
            "--hostname",
            f"test{os.getpid()}@%h",
            *queues,
            *sys.argv[1:],
        ]
    )
