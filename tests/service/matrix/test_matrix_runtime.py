"""The gateway's hand-off: what the precheck refuses is answered at once through the outbox in a direct room, and
never in a group; the rest goes to the backbone."""

from __future__ import annotations

from service.callback import pack
from service.chat import registry
from service.chat.base import Inbound
from service.chat.recording import RecordingAdapter
from service.matrix import runtime
from service.sessions import get_sessions


def _tap(data: str, room: str = "!dm:x", is_group: bool = False) -> Inbound:
    return Inbound("matrix", room, "@ann:x", f"$ev{len(data)}{room}", "tap", text=data, is_group=is_group)


def test_precheck_answers_in_the_room_without_submitting(backbone_local, monkeypatch):
    adapter = RecordingAdapter("matrix")
    registry.register("matrix", lambda: adapter)
    submitted = []
    monkeypatch.setattr(runtime.dispatch, "submit", submitted.append)
    get_sessions().games.put_meta(7, {"status": "finished", "seq": 9, "seats": {}, "prompts": {}})
    runtime._submit(_tap(pack(7, 9, "pass")))
    get_sessions().games.put_meta(8, {"status": "active", "seq": 9, "seats": {"@ann:x": 0}, "prompts": {"0": 9}})
    runtime._submit(_tap(pack(8, 3, "pass")))  # an old menu
    runtime._submit(_tap("8:9:pass"))  # hand-made
    runtime._submit(_tap(pack(8, 9, "pass")))  # current: handed to the backbone
    assert [(c.chat, c.text) for c in adapter.sent()] == [
        ("!dm:x", "This game is over."),
        ("!dm:x", "This choice has expired."),
        ("!dm:x", "That choice is not valid."),
    ]
    assert [c.text for c in submitted] == [pack(8, 9, "pass")]


def test_a_refused_choice_from_a_group_is_ignored_there(backbone_local, monkeypatch):
    """A reply or reaction in a group that resolves to a stale, foreign or forged choice: nothing is posted."""
    adapter = RecordingAdapter("matrix")
    registry.register("matrix", lambda: adapter)
    monkeypatch.setattr(runtime.dispatch, "submit", lambda cmd: None)
    get_sessions().games.put_meta(8, {"status": "active", "seq": 9, "seats": {"@bob:x": 0}, "prompts": {"0": 9}})
    for data in (pack(8, 9, "pass"), pack(8, 3, "pass"), "8:9:pass"):
        runtime._submit(_tap(data, room="!group:x", is_group=True))
    assert adapter.calls == []
