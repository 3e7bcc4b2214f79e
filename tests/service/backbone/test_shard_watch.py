"""The gateways' shard watch (`service.delivery.takeover`): it asks for a sender of a shard whose rows wait with
nobody holding the shard (its gateway died), and not for a shard whose sender only waits for a chat's rate: each
such request started one more chain of waiting deliver tasks for the rest of a long backlog."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import update

from service.delivery import senders, takeover
from service.sessions import get_sessions
from service.settings import get_settings
from service.store import outbox, session_scope
from service.store.models import OutboxRow, utcnow

CHAT = "group-1"


@pytest.fixture
def asked(monkeypatch: pytest.MonkeyPatch) -> list[dict]:
    """The deliver tasks the watch and the sender ask for, instead of running them."""
    calls: list[dict] = []
    monkeypatch.setattr(takeover, "enqueue", lambda task, **kw: calls.append({"task": task, **kw}))
    monkeypatch.setattr(senders, "enqueue", lambda task, **kw: calls.append({"task": task, **kw}))
    return calls


def _queued_long_ago(texts: list[str]) -> int:
    """Rows of a group queued two leases ago; their shard."""
    with session_scope() as s:
        for text in texts:
            outbox.add(s, "rec", CHAT, "send", {"text": text}, is_group=True)
        s.flush()
        s.execute(update(OutboxRow).values(created=utcnow() - timedelta(seconds=2 * get_settings().lease_seconds)))
    return outbox.shard_of(CHAT)


def test_a_shard_nobody_holds_is_taken_over(backbone_pg, recording, asked):
    shard = _queued_long_ago(["one"])
    assert takeover.take_over_lapsed("rec") == [shard]
    assert asked == [{"task": "deliver", "platform": "rec", "shard": shard}]


def test_a_shard_whose_sender_waits_for_a_chats_rate_is_left_to_it(backbone_pg, recording, asked, monkeypatch):
    monkeypatch.setenv("TELEGRAM_GROUP_INTERVAL", "30")  # the group may send one message, then waits
    get_settings.cache_clear()
    shard = _queued_long_ago(["one", "two", "three"])
    assert senders.deliver_shard("rec", shard) == 1
    assert [call.text for call in recording.calls] == ["one"]
    (later,) = asked
    assert later["shard"] == shard and later["countdown"] > 0  # its next task, after the wait
    assert get_sessions().marks.is_set(takeover.waiting_mark("rec", shard))

    assert takeover.take_over_lapsed("rec") == []  # no lease held, old rows due, but a task is on its way
    assert len(asked) == 1

    get_sessions().marks.clear(takeover.waiting_mark("rec", shard))  # its mark lapsed: that task was lost
    assert takeover.take_over_lapsed("rec") == [shard]
