"""Sessions: the in-memory and Redis implementations behave the same."""

from __future__ import annotations

import threading
import time

import pytest

from service.sessions import get_sessions


@pytest.fixture(params=["backbone_local", "backbone_pg"])
def sessions(request):
    request.getfixturevalue(request.param)
    return get_sessions()


def test_state_cache_round_trip_and_forget(sessions):
    assert sessions.games.get_state(7) is None
    sessions.games.put_state(7, 12, b"\x00blob:with:colons")
    assert sessions.games.get_state(7) == (12, b"\x00blob:with:colons")
    sessions.games.put(8, 3, b"eight", {"status": "active"})
    sessions.games.forget(7)
    assert sessions.games.get_state(7) is None
    assert sessions.games.get_state(8) == (3, b"eight") and sessions.games.get_meta(8) == {"status": "active"}
    sessions.games.forget(8)
    assert sessions.games.get_state(8) is None and sessions.games.get_meta(8) is None


def test_a_pipelined_block_writes_when_it_ends(sessions):
    """A move's writes (state, meta, scheduled work, a coalesced request) go together; all of them land."""
    with sessions.pipelined():
        sessions.games.put(9, 4, b"nine", {"seq": 4})
        sessions.scheduler.schedule("later", time.time() - 1)
        sessions.scheduler.schedule_unless_marked("shard:0", 30, "deliver-0", time.time() - 1)
        sessions.scheduler.schedule_unless_marked("shard:0", 30, "deliver-0-again", time.time() - 1)
    assert sessions.games.get_state(9) == (4, b"nine") and sessions.games.get_meta(9) == {"seq": 4}
    assert sorted(member for member, _ in sessions.scheduler.claim(time.time(), 30, 10)) == ["deliver-0", "later"]
    assert sessions.marks.is_set("shard:0")


def test_ui_state_and_message_ids(sessions):
    sessions.ui.set("user", "telegram:1", {"level": "play", "map": {"1": "5:3:pass"}})
    assert sessions.ui.get("user", "telegram:1") == {"level": "play", "map": {"1": "5:3:pass"}}
    sessions.ui.set("chat", "c", {"x": 1}, ttl=0.05)
    time.sleep(0.1)
    assert sessions.ui.get("chat", "c") is None
    sessions.ui.clear("user", "telegram:1")
    assert sessions.ui.get("user", "telegram:1") is None
    sessions.messages.set("telegram", "-100", "board:1", "42")
    assert sessions.messages.get("telegram", "-100", "board:1") == "42"
    sessions.messages.set("telegram", "-100", "panel:1:0", "43")
    keys = [("-100", "panel:1:0"), ("-100", "board:9"), ("-100", "board:1")]
    assert sessions.messages.get_many("telegram", keys) == ["43", None, "42"]
    assert sessions.messages.get_many("telegram", []) == []
    sessions.messages.set("bench", "b-1", "board:2", "7")
    sessions.messages.forget_platform("bench")
    assert sessions.messages.get("bench", "b-1", "board:2") is None
    assert sessions.messages.get("telegram", "-100", "board:1") == "42"


def test_mark_is_set_once(sessions):
    assert sessions.marks.set("u:1") is True
    assert sessions.marks.set("u:1") is False
    assert sessions.marks.is_set("u:1") and not sessions.marks.is_set("u:2")


def test_take_spaces_sends_and_consumes_all_buckets_or_none(sessions):
    assert sessions.rates.take([("chat:a", 0.2), ("global", 0.01)]) == 0
    wait = sessions.rates.take([("chat:a", 0.2), ("global", 0.01)])
    assert 0.1 < wait <= 0.2
    # chat:b is free, but the refused attempt above must not have consumed "global" beyond its first send
    time.sleep(0.02)
    assert sessions.rates.take([("chat:b", 0.2), ("global", 0.01)]) == 0
    sessions.rates.penalize("chat:b", 0.5)
    assert sessions.rates.take([("chat:b", 0.2)]) > 0.3


def test_lock_excludes_a_second_holder(sessions):
    order: list[str] = []

    def second() -> None:
        with sessions.locks.hold("g1"):
            order.append("second")

    with sessions.locks.hold("g1"):
        t = threading.Thread(target=second)
        t.start()
        time.sleep(0.1)
        order.append("first")
    t.join(5)
    assert order == ["first", "second"]


def test_put_game_stores_state_and_meta(sessions):
    sessions.games.put(3, 4, b"blob", {"status": "active", "seq": 4})
    assert sessions.games.get_state(3) == (4, b"blob")
    assert sessions.games.get_meta(3) == {"status": "active", "seq": 4}


def test_due_work_is_claimed_once_with_a_lease_and_released(sessions):
    sessions.scheduler.schedule("a", 100.0)
    sessions.scheduler.schedule("b", 105.0)
    assert sessions.scheduler.claim(99.0, 30.0, 10) == []
    assert sessions.scheduler.claim(101.0, 30.0, 10) == [("a", 131.0)]
    assert sessions.scheduler.claim(102.0, 30.0, 10) == []  # leased: another claimer does not get it
    # its claimer died: due again
    assert sorted(sessions.scheduler.claim(132.0, 30.0, 10)) == [("a", 162.0), ("b", 162.0)]
    sessions.scheduler.release(["a", "b"], 162.0)
    assert sessions.scheduler.claim(1000.0, 30.0, 10) == []


def test_due_work_scheduled_anew_after_its_claim_is_not_released(sessions):
    sessions.scheduler.schedule("a", 100.0)
    [(member, lease)] = sessions.scheduler.claim(100.0, 30.0, 10)
    sessions.scheduler.schedule("a", 110.0)  # asked again meanwhile (e.g. a chat's delivery must wait for its rate)
    sessions.scheduler.release([member], lease)
    assert sessions.scheduler.claim(110.0, 30.0, 10) == [("a", 140.0)]


def test_scheduled_work_can_be_listed_and_forgotten_due_or_not(sessions):
    sessions.scheduler.schedule("soon", 100.0)
    sessions.scheduler.schedule("later", 200.0)
    sessions.scheduler.schedule("kept", 150.0)
    assert sorted(sessions.scheduler.members()) == ["kept", "later", "soon"]
    sessions.scheduler.unschedule(["soon", "later", "never-scheduled"])
    assert sessions.scheduler.members() == ["kept"]
    assert sessions.scheduler.claim(1000.0, 30.0, 10) == [("kept", 1030.0)]


def test_a_bucket_without_an_interval_never_asks_for_a_wait(sessions):
    """Its next free time is now, stored exactly: read back, it is never a little in the future (Lua's tostring
    rounded the epoch to 14 digits, up to 50 µs late, and a delivery pass then deferred the chat)."""
    waits = [sessions.rates.take([("chat:free", 0.0), ("global:free", 0.0)]) for _ in range(300)]
    assert waits == [0.0] * 300
