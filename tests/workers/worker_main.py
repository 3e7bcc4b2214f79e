"""Start a real Celery worker for tests: the toy game registered, and a recording adapter for platform "rec"
that appends every call to the file named by CAMELOT_TEST_CALLS (one JSON line per call). It consumes the moves'
queue and platform "rec"'s deliveries (in production a gateway's, `workers.deliveries`)."""

from __future__ import annotations

import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import toygame  # noqa: E402

from service import compose  # noqa: E402
from service.chat import registry  # noqa: E402
from service.chat.recording import RecordingAdapter  # noqa: E402


class FileRecordingAdapter(RecordingAdapter):
    def _record(self, method: str, chat: str, **kw):
        message_id = super()._record(method, chat, **kw)
        with open(os.environ["CAMELOT_TEST_CALLS"], "a") as f:
            f.write(
                json.dumps(
                    {"at": time.time(), "pid": os.getpid(), "method": method, "chat": chat, "text": kw.get("text", "")}
                )
                + "\n"
            )
        return message_id


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
            *queues,
            *sys.argv[1:],
        ]
    )
