"""A move's round trip, as the benchmark reports it: from its enqueueing until its state and outbox rows are
committed; the work after the commit (the cache, the delivery request, the next bot move) is not in it."""

from __future__ import annotations

import time
from contextlib import contextmanager

from service import jobs
from service.play import hand_on, lobby, metrics
from service.store import games as game_rows
from service.store import session_scope

PAUSE = 0.2  # before the commit (the test hook of `publish.record_move`): inside the round trip
AFTER = 0.5  # after the commit: outside it


def test_a_moves_round_trip_ends_at_its_commit(backbone_local, toy_game, recording, monkeypatch):
    """Alice's tap, then the bot's move it hands on (in-process: run inside the tap's hand-on)."""
    game_id = lobby.create_and_start("rec", "grp", "toy", {"target": 99}, ["alice"], 1, seed=8)
    with session_scope() as s:
        assert game_rows.action_log(s, game_id) == []  # alice's turn first
    metrics.reset("move")
    seen_after_commit: list[list[tuple[int, str]]] = []
    handing_on = hand_on.handing_on

    @contextmanager
    def slow_handing_on():
        with session_scope() as s:  # the move is committed by the time it hands on
            seen_after_commit.append(game_rows.action_log(s, game_id))
        time.sleep(AFTER)
        with handing_on():
            yield

    monkeypatch.setattr(hand_on, "handing_on", slow_handing_on)
    monkeypatch.setenv("CAMELOT_TEST_PAUSE_IN_PLAY", str(PAUSE))
    cmd = {
        "platform": "rec",
        "chat": "dm-alice",
        "user": "alice",
        "update_id": "rt-1",
        "is_group": False,
        "game_id": game_id,
        "prompt_seq": 0,
        "code": "add:2",
    }
    started = time.time()
    assert jobs.play(cmd, enqueued_at=started) == "applied"
    took = time.time() - started

    assert [len(log) for log in seen_after_commit] == [1, 2] and seen_after_commit[0] == [(0, "add:2")]
    assert took >= 2 * (PAUSE + AFTER)
    taps, bots = metrics.read("move")
    assert PAUSE <= taps < PAUSE + AFTER  # the transaction counts, the hand-on does not
    assert PAUSE <= bots < PAUSE + AFTER


def test_a_refused_move_records_no_round_trip(backbone_local, toy_game, recording):
    game_id = lobby.create_and_start("rec", "grp", "toy", {}, ["alice", "bob"], 0, seed=8)
    metrics.reset("move")
    cmd = {
        "platform": "rec",
        "chat": "dm-alice",
        "user": "alice",
        "update_id": "rt-2",
        "is_group": False,
        "game_id": game_id,
        "prompt_seq": 5,
        "code": "add:2",
    }
    assert jobs.play(cmd, enqueued_at=time.time()) == "expired"
    assert metrics.read("move") == []
