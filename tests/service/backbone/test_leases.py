"""Leases: taken when free, renewed by their holder, never taken from a live holder, lapsing when the holder stops
renewing (a killed gateway), given up by their holder only."""

from __future__ import annotations

import time

import pytest

from service.delivery.leases import Lease
from service.sessions import get_sessions
from service.settings import get_settings


@pytest.fixture(params=["backbone_local", "backbone_pg"])
def sessions(request, monkeypatch):
    request.getfixturevalue(request.param)
    monkeypatch.setenv("LEASE_SECONDS", "0.6")
    get_settings.cache_clear()
    return get_sessions()


def test_a_live_holders_lease_is_not_taken_and_a_dead_ones_lapses(sessions):
    assert sessions.locks.lease("shard:1", "a", 0.3) and sessions.locks.lease_holder("shard:1") == "a"
    assert not sessions.locks.lease("shard:1", "b", 0.3)  # a start-up beside a live holder takes nothing
    sessions.locks.drop_lease("shard:1", "b")  # not b's to give up
    assert sessions.locks.lease_holder("shard:1") == "a"
    assert sessions.locks.lease("shard:1", "a", 0.3)  # renewed by its holder
    time.sleep(0.4)  # a stopped renewing (killed)
    assert sessions.locks.lease_holder("shard:1") is None
    assert sessions.locks.lease("shard:1", "b", 0.3) and sessions.locks.lease_holder("shard:1") == "b"
    sessions.locks.drop_lease("shard:1", "b")
    assert sessions.locks.lease_holder("shard:1") is None


def test_a_held_lease_is_renewed_by_the_keeper_and_excludes_other_holders_even_in_this_process(sessions):
    with Lease("deliver:x:shard:0") as first:
        time.sleep(1.5)  # two and a half lease times: only renewals keep it
        assert sessions.locks.lease_holder("deliver:x:shard:0") == first.holder and not first.lost
        with pytest.raises(TimeoutError), Lease("deliver:x:shard:0", wait=0.2):
            pass  # another thread's sender of this process is another holder
    assert sessions.locks.lease_holder("deliver:x:shard:0") is None  # given up at the block's end


def test_a_lease_taken_over_after_a_stall_is_lost_and_its_holder_told(sessions):
    told = []
    lease = Lease("poll:telegram:1", on_lost=lambda: told.append(True))
    assert lease.take()
    sessions.locks.drop_lease("poll:telegram:1", lease.holder)  # as if it had lapsed while this process stalled
    assert sessions.locks.lease("poll:telegram:1", "another", 5.0)
    deadline = time.monotonic() + 3
    while not told and time.monotonic() < deadline:  # `lost` turns True just before `on_lost` is called
        time.sleep(0.05)
    assert lease.lost and told == [True]
    lease.release()
    assert sessions.locks.lease_holder("poll:telegram:1") == "another"  # the new holder's lease stays
