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
    assert sessions.get_state(7) is None
    sessions.put_state(7, 12, b"\x00blob:with:colons")
    assert sessions.get_state(7) == (12, b"\x00blob:with:colons")
    sessions.put_game(8, 3, b"eight", {"status": "active"})
    sessions.forget_game(7)
    assert sessions.get_state(7) is None
    assert sessions.get_state(8) == (3, b"eight") and sessions.get_meta(8) == {"status": "active"}
    sessions.forget_game(8)
    assert sessions.get_state(8) is None and sessions.get_meta(8) is None


def test_a_pipelined_block_writes_when_it_ends(sessions):
    """A move's writes (state, meta, scheduled work, a coalesced request) go together; all of them land."""
    with sessions.pipelined():
        sessions.put_game(9, 4, b"nine", {"seq": 4})
        sessions.schedule("later", time.time() - 1)
        sessions.schedule_unless_marked("shard:0", 30, "deliver-0", time.time() - 1)
        sessions.schedule_unless_marked("shard:0", 30, "deliver-0-again", time.time() - 1)
    assert sessions.get_state(9) == (4, b"nine") and sessions.get_meta(9) == {"seq": 4}
    assert sorted(member for member, _ in sessions.claim_due(time.time(), 30, 10)) == ["deliver-0", "later"]
    assert sessions.marked("shard:0")


def test_ui_state_and_message_ids(sessions):
    sessions.set_ui("user", "telegram:1", {"level": "play", "map": {"1": "5:3:pass"}})
    assert sessions.get_ui("user", "telegram:1") == {"level": "play", "map": {"1": "5:3:pass"}}
    sessions.set_ui("chat", "c", {"x": 1}, ttl=0.05)
    time.sleep(0.1)
    assert sessions.get_ui("chat", "c") is None
    sessions.clear_ui("user", "telegram:1")
    assert sessions.get_ui("user", "telegram:1") is None
    sessions.set_message_id("telegram", "-100", "board:1", "42")
    assert sessions.get_message_id("telegram", "-100", "board:1") == "42"
    sessions.set_message_id("telegram", "-100", "panel:1:0", "43")
    keys = [("-100", "panel:1:0"), ("-100", "board:9"), ("-100", "board:1")]
    assert sessions.get_message_ids("telegram", keys) == ["43", None, "42"]
    assert sessions.get_message_ids("telegram", []) == []
    sessions.set_message_id("bench", "b-1", "board:2", "7")
    sessions.forget_messages("bench")
    assert sessions.get_message_id("bench", "b-1", "board:2") is None
    assert sessions.get_message_id("telegram", "-100", "board:1") == "42"


def test_mark_is_set_once(sessions):
    assert sessions.mark("u:1") is True
    assert sessions.mark("u:1") is False
    assert sessions.marked("u:1") and not sessions.marked("u:2")


def test_take_spaces_sends_and_consumes_all_buckets_or_none(sessions):
    assert sessions.take([("chat:a", 0.2), ("global", 0.01)]) == 0
    wait = sessions.take([("chat:a", 0.2), ("global", 0.01)])
    assert 0.1 < wait <= 0.2
    # chat:b is free, but the refused attempt above must not have consumed "global" beyond its first send
    time.sleep(0.02)
    assert sessions.take([("chat:b", 0.2), ("global", 0.01)]) == 0
    sessions.penalize("chat:b", 0.5)
    assert sessions.take([("chat:b", 0.2)]) > 0.3


def test_lock_excludes_a_second_holder(sessions):
    order: list[str] = []

    def second() -> None:
        with sessions.lock("g1"):
            order.append("second")

    with sessions.lock("g1"):
        t = threading.Thread(target=second)
        t.start()
        time.sleep(0.1)
        order.append("first")
    t.join(5)
    assert order == ["first", "second"]


def test_put_game_stores_state_and_meta(sessions):
    sessions.put_game(3, 4, b"blob", {"status": "active", "seq": 4})
    assert sessions.get_state(3) == (4, b"blob")
    assert sessions.get_meta(3) == {"status": "active", "seq": 4}


def test_due_work_is_claimed_once_with_a_lease_and_released(sessions):
    sessions.schedule("a", 100.0)
    sessions.schedule("b", 105.0)
    assert sessions.claim_due(99.0, 30.0, 10) == []
    assert sessions.claim_due(101.0, 30.0, 10) == [("a", 131.0)]
    assert sessions.claim_due(102.0, 30.0, 10) == []  # leased: another claimer does not get it
    assert sorted(sessions.claim_due(132.0, 30.0, 10)) == [("a", 162.0), ("b", 162.0)]  # its claimer died: due again
    sessions.release_due(["a", "b"], 162.0)
    assert sessions.claim_due(1000.0, 30.0, 10) == []


def test_due_work_scheduled_anew_after_its_claim_is_not_released(sessions):
    sessions.schedule("a", 100.0)
    [(member, lease)] = sessions.claim_due(100.0, 30.0, 10)
    sessions.schedule("a", 110.0)  # asked again meanwhile (e.g. a chat's delivery must wait for its rate)
    sessions.release_due([member], lease)
    assert sessions.claim_due(110.0, 30.0, 10) == [("a", 140.0)]


def test_scheduled_work_can_be_listed_and_forgotten_due_or_not(sessions):
    sessions.schedule("soon", 100.0)
    sessions.schedule("later", 200.0)
    sessions.schedule("kept", 150.0)
    assert sorted(sessions.scheduled()) == ["kept", "later", "soon"]
    sessions.unschedule(["soon", "later", "never-scheduled"])
    assert sessions.scheduled() == ["kept"]
    assert sessions.claim_due(1000.0, 30.0, 10) == [("kept", 1030.0)]


def test_a_bucket_without_an_interval_never_asks_for_a_wait(sessions):
    """Its next free time is now, stored exactly: read back, it is never a little in the future (Lua's tostring
    rounded the epoch to 14 digits, up to 50 µs late, and a delivery pass then deferred the chat)."""
    waits = [sessions.take([("chat:free", 0.0), ("global:free", 0.0)]) for _ in range(300)]
    assert waits == [0.0] * 300
