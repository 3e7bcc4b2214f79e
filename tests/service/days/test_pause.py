"""`/pause` freezes every deadline of a game and `/resume` restarts them with the time that was left; a pause that
commits while a timeout is on its way wins (issue 24, item 4)."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select

from service.play import bot_move, lobby
from service.play.scans import scan
from service.store import session_scope
from service.store.models import ActionRow, Deadline, GameRow, utcnow
from tests.service.days.helpers import command, game, texts


def _deadline(game_id: int, number: int) -> Deadline | None:
    with session_scope() as s:
        return s.scalar(select(Deadline).where(Deadline.game_id == game_id, Deadline.seat == number))


def _started(recording) -> int:
    command("alice", "newgame", "toy", group=True)
    command("bob", "join", group=True)
    command("alice", "start", group=True)
    with session_scope() as s:
        return s.scalars(select(GameRow.id).where(GameRow.status == "active")).one()


def _moves(game_id: int) -> int:
    with session_scope() as s:
        return len(s.scalars(select(ActionRow).where(ActionRow.game_id == game_id)).all())


def test_pause_freezes_the_clocks_and_resume_restarts_them_with_the_time_left(backbone_pg, toy_game, recording):
    game_id = _started(recording)
    before = _deadline(game_id, 0)
    command("bob", "pause", group=True)  # neither the creator nor an admin
    assert game(game_id).paused_at is None
    command("alice", "pause", group=True)
    paused_at = game(game_id).paused_at
    assert paused_at is not None
    assert any("paused the game" in text for text in texts(recording.sent("grp")))
    assert any(text.startswith("⏸ Paused") for text in texts(recording.sent("grp"))), "the board shows it"

    assert scan(before.due_at + timedelta(days=2)) == {"reminders": 0, "timeouts": 0}  # frozen
    assert _moves(game_id) == 0

    command("alice", "resume", group=True)
    after = _deadline(game_id, 0)
    assert game(game_id).paused_at is None
    left_before = before.due_at - paused_at
    left_after = after.due_at - utcnow()
    assert abs((left_after - left_before).total_seconds()) < 5, (left_before, left_after)
    assert any("resumed the game" in text for text in texts(recording.sent("grp")))
    assert scan(after.due_at + timedelta(seconds=1))["timeouts"] == 1  # the clock runs again


def test_a_pause_that_commits_while_a_timeout_is_on_its_way_wins(backbone_pg, toy_game, recording):
    game_id = lobby.create_and_start("rec", "grp", "toy", {}, ["alice", "bob"], 0, seed=4)
    due = _deadline(game_id, 0)
    task = {"game_id": game_id, "seat": 0, "seq": due.seq, "by": "timeout"}  # the beat found it due and queued it
    command("alice", "pause", "--admin", group=True)  # ... and an admin's pause committed before it ran
    assert game(game_id).paused_at is not None
    assert bot_move.play_bot(**task).status == "stale"
    assert _moves(game_id) == 0 and _deadline(game_id, 0).due_at == due.due_at
