"""Chaos on PostgreSQL + Redis (in-process tasks): a flushed Redis, racing taps, duplicates, forged input.

The worker killed mid-move (SIGKILL, redelivery) is in tests/workers/test_celery_worker.py."""

from __future__ import annotations

import itertools
import threading

from service.callback import pack, unpack
from service.chat.base import Inbound
from service.play import lobby
from service.play.dispatch import submit
from service.store import games as game_rows
from service.store import session_scope
from service.store.models import GameRow, ProcessedUpdate
from tests.redis_dbs import flush_redis

_ids = itertools.count(1)


def tap(user: str, data: str, update_id: str | None = None) -> Inbound:
    return Inbound("rec", f"dm-{user}", user, update_id or f"r{next(_ids)}", "tap", text=data)


def newest_buttons(rec, user: str) -> list[str]:
    for call in reversed(rec.calls):
        if call.chat == f"dm-{user}" and call.buttons:
            return [b.data for row in call.buttons for b in row]
    return []


def log_of(game_id: int) -> list[tuple[int, str]]:
    with session_scope() as s:
        return game_rows.action_log(s, game_id)


def test_redis_flushed_mid_game_rebuilds_from_the_log(backbone_pg, toy_game, recording):
    game_id = lobby.create_and_start("rec", "g", "toy", {"target": 30}, ["alice", "bob"], 0, seed=11)
    submit(tap("alice", newest_buttons(recording, "alice")[1]))
    submit(tap("bob", newest_buttons(recording, "bob")[1]))
    assert log_of(game_id) == [(0, "add:2"), (1, "add:2")]
    flush_redis(backbone_pg.redis_url)  # keeps this run's claim on the db
    submit(tap("alice", newest_buttons(recording, "alice")[0]))  # total 5: a window opens
    assert log_of(game_id) == [(0, "add:2"), (1, "add:2"), (0, "add:1")]
    submit(tap("bob", newest_buttons(recording, "bob")[0]))
    assert log_of(game_id)[-1] == (1, "ack")


def test_two_racing_taps_on_one_prompt_one_wins_the_other_expires(backbone_pg, toy_game, recording):
    game_id = lobby.create_and_start("rec", "g", "toy", {}, ["alice", "bob"], 0, seed=2)
    buttons = newest_buttons(recording, "alice")
    barrier = threading.Barrier(2)
    outcomes: list[BaseException | None] = []

    def go(data: str) -> None:
        barrier.wait()
        try:
            submit(tap("alice", data))
            outcomes.append(None)
        except BaseException as exc:  # noqa: BLE001 - reported below
            outcomes.append(exc)

    threads = [threading.Thread(target=go, args=(d,)) for d in (buttons[0], buttons[2])]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert outcomes == [None, None]
    log = log_of(game_id)
    assert len(log) == 1 and log[0][1] in ("add:1", "add:3")
    assert sum("expired" in c.text for c in recording.sent("dm-alice")) == 1


def test_the_same_update_three_times_is_one_move(backbone_pg, toy_game, recording):
    game_id = lobby.create_and_start("rec", "g", "toy", {}, ["alice", "bob"], 0, seed=2)
    data = newest_buttons(recording, "alice")[0]
    threads = [threading.Thread(target=submit, args=(tap("alice", data, update_id="dup-1"),)) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert log_of(game_id) == [(0, "add:1")]
    with session_scope() as s:
        assert s.query(ProcessedUpdate).filter_by(update_id="dup-1").count() == 1


def test_forged_and_out_of_turn_input_changes_nothing(backbone_pg, toy_game, recording):
    game_id = lobby.create_and_start("rec", "g", "toy", {}, ["alice", "bob"], 0, seed=2)
    good = unpack(newest_buttons(recording, "alice")[0])
    forged = [
        f"{game_id}:{good.seq}:add:1",  # hand-made: the unsigned form of a legal choice
        f"{game_id}:{good.seq}:drop table",
        "L99999:start",
        "\x00\xff",
        # signed, as if the secret had leaked: the worker still refuses them
        pack(game_id, good.seq, "add:9"),  # not a legal amount
        pack(game_id, good.seq, "add:1.2.3"),
        pack(game_id, good.seq + 5, "add:1"),  # a future seq
        pack(game_id + 99, good.seq, "add:1"),  # no such game
    ]
    for data in forged:
        submit(tap("alice", data))
    submit(tap("bob", pack(game_id, good.seq, "add:1")))  # bob, out of turn, with a current seq
    assert log_of(game_id) == []
    with session_scope() as s:
        assert s.get(GameRow, game_id).seq == 0
    texts = [c.text for c in recording.calls if c.chat in ("dm-alice", "dm-bob")]
    assert any("not valid" in t for t in texts)
    assert any("not allowed" in t for t in texts)
    assert any("not your turn" in t for t in texts)
    assert any("no such game" in t for t in texts)
