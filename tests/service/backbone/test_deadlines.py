"""Deadlines: graduated reminders, the timeout policy, and a deadline missed while everything was down."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select, update

from service.callback import pack
from service.chat.base import Inbound
from service.play import hand_on, lobby
from service.play.dispatch import precheck, submit
from service.play.scans import forget_stale_caches, resume_stalled_bots, scan
from service.sessions import get_sessions, reset_sessions
from service.store import dispose_all, session_scope
from service.store import games as game_rows
from service.store.models import ActionRow, Deadline, GameRow, Seat, utcnow
from tests.redis_dbs import flush_redis


def deadline_of(game_id: int, seat: int) -> Deadline | None:
    with session_scope() as s:
        return s.query(Deadline).filter_by(game_id=game_id, seat=seat).one_or_none()


def test_reminders_first_direct_then_group_then_timeout_plays_the_default(backbone_pg, toy_game, recording):
    game_id = lobby.create_and_start("rec", "grp", "toy", {}, ["alice", "bob"], 0, seed=4)
    row = deadline_of(game_id, 0)
    assert row is not None and row.timing == "turn" and deadline_of(game_id, 1) is None
    start, due = row.started_at, row.due_at
    assert abs((due - start).total_seconds() - backbone_pg.turn_deadline) < 1

    assert scan(start + (due - start) * 0.1) == {"reminders": 0, "timeouts": 0}
    assert scan(start + (due - start) * 0.6) == {"reminders": 1, "timeouts": 0}
    reminder = [c.text for c in recording.sent("dm-alice") if c.text.startswith("⏰")]
    left = round((due - start).total_seconds() * 0.4 / 3600)
    assert reminder == [f"⏰ toy #{game_id}: your decision is due in {left} h."]  # 0.4 of the turn left
    assert scan(start + (due - start) * 0.6) == {"reminders": 0, "timeouts": 0}  # not twice
    assert scan(start + (due - start) * 0.95) == {"reminders": 1, "timeouts": 0}
    mention = [c for c in recording.sent("grp") if "waiting for you" in c.text]
    assert mention and "alice" in mention[0].text

    assert scan(due + timedelta(seconds=1)) == {"reminders": 0, "timeouts": 1}
    with session_scope() as s:
        assert game_rows.action_log(s, game_id) == [(0, "add:1")]  # the toy game's timeout default
    assert any("ran out of time" in c.text for c in recording.sent("grp"))
    told = [c.text for c in recording.sent("dm-alice") if c.text.startswith("⌛")]
    assert told == [f"⌛ toy #{game_id}: your time ran out; played for you: add:1"]  # what, in her chat only
    assert not any("played for you" in c.text for c in recording.sent("dm-bob") + recording.sent("grp"))
    assert deadline_of(game_id, 0) is None and deadline_of(game_id, 1) is not None  # bob's clock now runs


def test_a_deadline_missed_while_everything_was_down_fires_on_the_first_scan(backbone_pg, toy_game, recording):
    game_id = lobby.create_and_start("rec", "grp", "toy", {}, ["alice", "bob"], 0, seed=4)
    due = deadline_of(game_id, 0).due_at
    dispose_all()  # "restart": no engine, no sessions, nothing in memory survives
    reset_sessions()
    counts = scan(due + timedelta(days=3))
    assert counts["timeouts"] == 1
    with session_scope() as s:
        assert len(game_rows.action_log(s, game_id)) == 1


def test_timeout_in_a_response_window_passes(backbone_pg, toy_game, recording):
    game_id = lobby.create_and_start("rec", "grp", "toy", {}, ["alice", "bob"], 0, seed=4)

    data = [b.data for c in recording.sent("dm-alice") if c.buttons for row in c.buttons for b in row][-1]  # add:3
    submit(Inbound("rec", "dm-alice", "alice", "x1", "tap", text=data))
    data = [b.data for c in recording.sent("dm-bob") if c.buttons for row in c.buttons for b in row][-1]
    submit(Inbound("rec", "dm-bob", "bob", "x2", "tap", text=data))  # total 6: window for both
    row = deadline_of(game_id, 1)
    assert row.timing == "response"
    assert abs((row.due_at - row.started_at).total_seconds() - backbone_pg.response_deadline) < 1
    scan(row.due_at + timedelta(seconds=1))
    with session_scope() as s:
        codes = [c for _, c in game_rows.action_log(s, game_id)]
    assert codes[-2:] == ["pass", "pass"]


def test_a_bot_game_whose_scheduled_move_was_lost_is_resumed_by_the_scan(backbone_pg, toy_game, recording, monkeypatch):
    """Paced bot moves wait in Redis; if Redis loses one, the beat's scan hands the bot its move again. A game
    waiting for a person is left alone."""

    game_id = lobby.create_and_start("rec", "grp", "toy", {"target": 40}, ["ann"], 1, seed=4)
    real_schedule = hand_on.schedule_bot
    monkeypatch.setattr(hand_on, "schedule_bot", lambda *a, **k: None)  # the bot's move will be lost
    with session_scope() as s:
        seq = s.query(Seat).filter_by(game_id=game_id, seat=0).one().prompt_seq
    assert seq is not None  # ann's turn
    submit(Inbound("rec", "dm-ann", "ann", "r1", "tap", text=pack(game_id, seq, "add:1")))
    monkeypatch.setattr(hand_on, "schedule_bot", real_schedule)
    with session_scope() as s:
        before = len(game_rows.action_log(s, game_id))
    later = utcnow() + timedelta(seconds=30)
    assert resume_stalled_bots(later) == 0  # not stalled long enough yet

    def backdate() -> None:
        with session_scope() as s:
            s.execute(update(GameRow).where(GameRow.id == game_id).values(updated=utcnow() - timedelta(minutes=10)))

    backdate()
    assert resume_stalled_bots() == 1
    with session_scope() as s:
        assert len(game_rows.action_log(s, game_id)) == before + 1  # the bot moved; now ann is asked again
    backdate()
    assert resume_stalled_bots() == 0

    flush_redis(backbone_pg.redis_url)  # Redis lost: the database still says a person is asked (her deadline)
    assert resume_stalled_bots() == 0
    with session_scope() as s:
        assert len(game_rows.action_log(s, game_id)) == before + 1


def test_a_bot_game_is_resumed_whatever_its_stale_cached_meta_says(backbone_pg, toy_game, recording, monkeypatch):
    """The move that made it a bot's turn lost its hand-on: the cached meta still shows the person's old prompt.
    The scan looks at the database only, and finds no person asked."""

    game_id = lobby.create_and_start("rec", "grp", "toy", {"target": 40}, ["ann"], 1, seed=4)
    stale = get_sessions().games.get_meta(game_id)
    assert stale["prompts"] == {"0": 0}
    monkeypatch.setattr(hand_on, "schedule_bot", lambda *a, **k: None)
    with session_scope() as s:
        seq = s.query(Seat).filter_by(game_id=game_id, seat=0).one().prompt_seq
    submit(Inbound("rec", "dm-ann", "ann", "r1", "tap", text=pack(game_id, seq, "add:1")))
    monkeypatch.undo()
    get_sessions().games.put_meta(game_id, stale)  # as if the hand-on had never run
    with session_scope() as s:
        s.execute(update(GameRow).where(GameRow.id == game_id).values(updated=utcnow() - timedelta(minutes=10)))
    assert resume_stalled_bots() == 1
    with session_scope() as s:
        assert [by for by in s.scalars(select(ActionRow.by).where(ActionRow.game_id == game_id))] == ["user", "bot"]


def test_two_scans_at_once_take_different_rows(backbone_pg, toy_game, recording):
    """A slow scan overlapping the next one (or a second beat) must not send the same reminder twice."""
    from service.store import deadlines as deadline_rows

    game_id = lobby.create_and_start("rec", "grp", "toy", {}, ["alice", "bob"], 0, seed=4)
    row = deadline_of(game_id, 0)
    later = row.started_at + (row.due_at - row.started_at) * 0.6
    with session_scope() as first:
        taken = deadline_rows.due(first, later)
        assert [r.game_id for r in taken] == [game_id]
        with session_scope() as second:  # while the first scan's transaction is open
            assert deadline_rows.due(second, later) == []
    assert scan(later) == {"reminders": 1, "timeouts": 0}  # once the first is done, the row is there again


def test_a_cache_left_behind_by_lost_hand_ons_is_forgotten_and_the_next_button_let_through(
    backbone_pg, toy_game, recording
):
    """Two moves lost their hand-on: the cached meta is two moves behind, and the precheck (which lets one move's lag
    through) would refuse bob's button as expired. Once the game has waited the recovery grace, the scan forgets the
    cache, and the button goes through to the worker."""
    game_id = lobby.create_and_start("rec", "grp", "toy", {"target": 40}, ["ann", "bob"], 0, seed=4)
    stale = get_sessions().games.get_meta(game_id)
    for user, update_id in (("ann", "s1"), ("bob", "s2")):
        submit(
            Inbound("rec", f"dm-{user}", user, update_id, "tap", text=pack(game_id, prompt_of(game_id, user), "add:1"))
        )
    get_sessions().games.put_meta(game_id, stale)  # as if neither move had handed on
    tap = Inbound("rec", "dm-ann", "ann", "s3", "tap", text=pack(game_id, prompt_of(game_id, "ann"), "add:1"))
    assert prompt_of(game_id, "ann") == stale["seq"] + 2 and precheck(tap) == "expired"
    grace = backbone_pg.recovery_grace
    assert forget_stale_caches() == 0  # just moved: its hand-on may be on its way
    assert forget_stale_caches(utcnow() + timedelta(seconds=grace + 1)) == 1
    assert precheck(tap) is None
    assert forget_stale_caches(utcnow() + timedelta(seconds=grace + 1)) == 0


def prompt_of(game_id: int, user: str) -> int | None:
    with session_scope() as s:
        seats = {row.seat: row.prompt_seq for row in s.query(Seat).filter_by(game_id=game_id)}
    return seats[0 if user == "ann" else 1]
