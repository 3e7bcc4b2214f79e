"""Every accepted tap and command is applied once, or answered as not applied: the inbox and the claim of a
command in the transaction of its effect (in-process, on PostgreSQL and Redis)."""

from __future__ import annotations

from datetime import timedelta

import psycopg
import pytest

from service.callback import pack
from service.chat.base import Inbound
from service.play import commands, inbox, lobby
from service.play.dispatch import submit, to_dict
from service.store import games as game_rows
from service.store import session_scope
from service.store.models import GameRow, InboxRow, ProcessedUpdate, Seat, utcnow


@pytest.fixture
def lost(monkeypatch):
    """The next `n[0]` tasks the gateway queues are lost (a worker killed while the broker handed them over)."""
    real = inbox.enqueue
    n = [0]

    def enqueue(task, **kwargs):
        if n[0] > 0:
            n[0] -= 1
            return
        real(task, **kwargs)

    monkeypatch.setattr(inbox, "enqueue", enqueue)
    return n


def waiting() -> list[str]:
    with session_scope() as s:
        return [row.update_id for row in s.query(InboxRow)]


def log_of(game_id: int) -> list[tuple[int, str]]:
    with session_scope() as s:
        return game_rows.action_log(s, game_id)


def alices_tap(game_id: int, update_id: str) -> Inbound:
    with session_scope() as s:
        seq = s.query(Seat).filter_by(game_id=game_id, seat=0).one().prompt_seq
    return Inbound("rec", "dm-alice", "alice", update_id, "tap", text=pack(game_id, seq, "add:2"))


def later(seconds: float):
    return utcnow() + timedelta(seconds=seconds)


def test_a_tap_whose_task_was_lost_is_replayed_after_the_grace_and_applied_once(backbone_pg, toy_game, recording, lost):
    game_id = lobby.create_and_start("rec", "grp", "toy", {}, ["alice", "bob"], 0, seed=2)
    lost[0] = 1
    submit(alices_tap(game_id, "t1"))
    assert log_of(game_id) == [] and waiting() == ["t1"]
    assert inbox.replay() == 0  # within the grace: its task may still be on its way
    grace = backbone_pg.recovery_grace
    assert inbox.replay(later(grace + 1)) == 1
    assert log_of(game_id) == [(0, "add:2")] and waiting() == []
    assert inbox.replay(later(100 * grace)) == 0


def test_a_replay_of_a_tap_that_was_applied_meanwhile_changes_nothing(backbone_pg, toy_game, recording):
    """The scan queues a tap again while its first task, only slow, is still to run: the second is a duplicate."""
    game_id = lobby.create_and_start("rec", "grp", "toy", {}, ["alice", "bob"], 0, seed=2)
    cmd = to_dict(alices_tap(game_id, "t2"))
    cmd.update(kind="action", game_id=game_id, prompt_seq=0, code="add:2")
    with session_scope() as s:  # accepted; its task has not run yet
        inbox.inbox_rows.receive(s, "rec", "t2", "play", cmd, utcnow())
    assert inbox.replay() == 1  # applies it
    calls_before = len(recording.calls)
    inbox.enqueue("play", cmd=cmd)  # the first task, at last
    assert log_of(game_id) == [(0, "add:2")] and waiting() == []
    assert len(recording.calls) == calls_before  # a duplicate says nothing


def test_a_platforms_second_delivery_of_an_applied_tap_leaves_nothing_waiting(backbone_pg, toy_game, recording):
    game_id = lobby.create_and_start("rec", "grp", "toy", {}, ["alice", "bob"], 0, seed=2)
    tap = alices_tap(game_id, "t3")
    submit(tap)
    submit(tap)
    assert log_of(game_id) == [(0, "add:2")] and waiting() == []
    with session_scope() as s:
        assert s.query(ProcessedUpdate).filter_by(update_id="t3").count() == 1


def test_a_tap_never_applied_is_answered_in_the_direct_chat_after_the_last_replay(
    backbone_pg, toy_game, recording, lost
):
    game_id = lobby.create_and_start("rec", "grp", "toy", {}, ["alice", "bob"], 0, seed=2)
    lost[0] = 1 + inbox.MAX_REPLAYS
    submit(alices_tap(game_id, "t4"))
    grace = backbone_pg.recovery_grace
    for n in range(inbox.MAX_REPLAYS):
        assert inbox.replay(later(grace * 2 ** (n + 1) + 1)) == 1, n
    assert not any("could not be applied" in c.text for c in recording.sent("dm-alice"))
    assert inbox.replay(later(grace * 2 ** (inbox.MAX_REPLAYS + 1) + 1)) == 0
    assert waiting() == [] and log_of(game_id) == []
    assert "could not be applied" in recording.sent("dm-alice")[-1].text


def join(user: str, update_id: str) -> dict:
    return to_dict(Inbound("rec", "grp", user, update_id, "command", command="join", is_group=True))


def seated(game_id: int) -> int:
    with session_scope() as s:
        return s.query(Seat).filter_by(game_id=game_id).count()


def test_a_lobby_command_whose_task_was_lost_is_replayed_and_applied(backbone_pg, recording, lost):
    _, game_id = lobby.create("rec", "grp", "ann", kind="cards")
    lost[0] = 1
    submit(Inbound("rec", "grp", "bob", "j1", "command", command="join", is_group=True))
    assert seated(game_id) == 1 and waiting() == ["j1"]
    assert inbox.replay(later(backbone_pg.recovery_grace + 1)) == 1
    assert seated(game_id) == 2 and waiting() == []


def test_a_command_that_failed_before_its_effect_committed_runs_again(backbone_pg, recording, monkeypatch):
    """Its claim commits with its effect: the first attempt dies on the database and commits nothing, so the retry
    (or a redelivery) is no duplicate."""
    _, game_id = lobby.create("rec", "grp", "ann", kind="cards")
    real = lobby.join
    fails = [1]

    def join_failing(*args, **kwargs):
        if fails[0]:
            fails[0] -= 1
            with session_scope():
                raise psycopg.errors.AdminShutdown("terminating connection due to administrator command")
        return real(*args, **kwargs)

    monkeypatch.setattr(lobby, "join", join_failing)
    with pytest.raises(psycopg.errors.AdminShutdown):
        commands.handle(join("bob", "j2"))
    assert seated(game_id) == 1
    assert commands.handle(join("bob", "j2")) == "ok"
    assert seated(game_id) == 2


def test_a_command_redelivered_after_its_effect_committed_is_a_duplicate_and_says_nothing(backbone_pg, recording):
    cmd = to_dict(Inbound("rec", "grp", "ann", "n1", "command", command="newgame", is_group=True))
    assert commands.handle(cmd) == "ok"
    sent = len(recording.calls)
    assert commands.handle(cmd) == "duplicate"  # not "busy", said in the group
    assert len(recording.calls) == sent
    with session_scope() as s:
        assert s.query(GameRow).count() == 1
        assert s.query(ProcessedUpdate).filter_by(update_id="n1").count() == 1


def test_a_command_whose_only_transaction_is_its_reply_is_claimed_with_it(backbone_pg, recording):
    """/join in a direct chat, with no lobby named, writes nothing but its refusal: the claim commits with that
    reply, and a redelivery says nothing more."""
    cmd = to_dict(Inbound("rec", "dm-bob", "bob", "j3", "command", command="join"))
    assert commands.handle(cmd) == "no_lobby"
    assert commands.handle(cmd) == "duplicate"
    assert len(recording.sent("dm-bob")) == 1
