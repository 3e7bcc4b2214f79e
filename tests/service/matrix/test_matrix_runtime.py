"""The gateway's hand-off: what the cache already knows is answered at once through the outbox; the rest goes
to the backbone."""

from __future__ import annotations

from service.chat import registry
from service.chat.base import Inbound
from service.chat.recording import RecordingAdapter
from service.matrix import runtime
from service.sessions import get_sessions


def _tap(data: str) -> Inbound:
    return Inbound("matrix", "!dm:x", "@ann:x", "$ev1", "tap", text=data, is_group=False)


def test_precheck_answers_in_the_room_without_submitting(backbone_local, monkeypatch):
    adapter = RecordingAdapter("matrix")
    registry.register("matrix", lambda: adapter)
    submitted = []
    monkeypatch.setattr(runtime.dispatch, "submit", submitted.append)
    get_sessions().put_meta(7, {"status": "finished", "seq": 9, "seats": {}, "prompts": {}})
    runtime._submit(_tap("7:9:pass"))
    get_sessions().put_meta(8, {"status": "active", "seq": 9, "seats": {"@ann:x": 0}, "prompts": {"0": 9}})
    runtime._submit(_tap("8:3:pass"))  # an old menu
    runtime._submit(_tap("8:9:pass"))  # current: handed to the backbone
    assert [(c.chat, c.text) for c in adapter.sent()] == [
        ("!dm:x", "This game is over."),
        ("!dm:x", "This choice has expired."),
    ]
    assert [c.text for c in submitted] == ["8:9:pass"]
