"""Vacations: `/away` moves a person's deadlines on up to the game's limit, then the autopilot plays for them until
`/back`; others see "🏖 until <day>" beside their name (issue 24, item 5)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

from service.play import autopilot, away, lobby
from service.play.scans import scan
from service.store import session_scope
from service.store.models import ActionRow, Deadline, GameEvent, GameRow, OutboxRow, User, utcnow
from tests.service.days.helpers import command, seat, texts


def _deadline(game_id: int, number: int) -> Deadline | None:
    with session_scope() as s:
        return s.scalar(select(Deadline).where(Deadline.game_id == game_id, Deadline.seat == number))


def _moves(game_id: int) -> list[tuple[int, str]]:
    with session_scope() as s:
        rows = s.execute(select(ActionRow.seat, ActionRow.by).where(ActionRow.game_id == game_id))
        return [(number, by) for number, by in rows]


def _set_limit(game_id: int, hours: float) -> None:
    with session_scope() as s:
        game = s.get(GameRow, game_id)
        game.options = {**game.options, "away_limit": hours * 3600}


def test_a_vacation_crossing_a_deadline_moves_it_to_the_vacations_end(backbone_pg, toy_game, recording):
    game_id = lobby.create_and_start("rec", "grp", "toy", {}, ["alice", "bob"], 0, seed=4)
    due = _deadline(game_id, 0).due_at
    command("alice", "away", "3d")
    with session_scope() as s:
        until = s.scalar(select(User.away_until).where(User.platform_id == "alice"))
    assert until is not None and abs((until - utcnow() - timedelta(days=3)).total_seconds()) < 60
    assert any(t.startswith("🏖 You are away until") for t in texts(recording.sent("dm-alice")))
    assert any(t.startswith("🏖 alice is away until") for t in texts(recording.sent("grp")))

    assert scan(due - (due - utcnow()) * 0.3)["reminders"] == 0, "no reminder on a vacation"
    assert scan(due + timedelta(seconds=1)) == {"reminders": 0, "timeouts": 0}
    moved = _deadline(game_id, 0)
    assert abs((moved.due_at - until).total_seconds()) < 1 and moved.extended > 0
    assert _moves(game_id) == []
    assert scan(moved.due_at + timedelta(seconds=1))["timeouts"] == 1, "her vacation is over: a timeout as any"
    assert _moves(game_id) == [(0, "timeout")]


def test_past_the_games_limit_the_autopilot_plays_until_back(backbone_pg, toy_game, recording):
    game_id = lobby.create_and_start("rec", "grp", "toy", {"target": 40}, ["alice", "bob"], 0, seed=4)
    _set_limit(game_id, 24)
    due = _deadline(game_id, 0).due_at
    command("alice", "away", "5d")
    assert scan(due + timedelta(seconds=1))["timeouts"] == 0
    moved = _deadline(game_id, 0)
    assert abs((moved.due_at - due).total_seconds() - 24 * 3600) < 1
    assert scan(moved.due_at + timedelta(seconds=1))["timeouts"] == 0
    assert seat(game_id, 0).pilot == "away"
    assert _moves(game_id)[-1] == (0, "bot"), "the autopilot played her turn"
    assert any("away beyond this game's limit" in t for t in texts(recording.sent("grp")))

    command("alice", "back")
    assert seat(game_id, 0).pilot is None
    with session_scope() as s:
        assert s.scalar(select(User.away_until).where(User.platform_id == "alice")) is None
    assert any("alice is back" in t for t in texts(recording.sent("grp")))


def test_others_see_the_vacation_beside_the_name_on_the_board(backbone_pg, recording):
    lobby.create_and_start("rec", "grp", "board", {}, ["alice", "bob"], 3, seed=5)
    command("alice", "away", "2d")
    day = (utcnow() + timedelta(days=2)).strftime("%A")
    assert any(f"alice 🏖 until {day}" in t for t in texts(recording.sent("grp"))), day


def test_what_a_vacation_may_be():
    now = utcnow()
    assert away.until_of("3d", now) == now + timedelta(days=3)
    assert away.until_of("12h", now) == now + timedelta(hours=12)
    assert away.until_of("2026-12-24", now.replace(year=2026, month=12, day=1)) is not None
    for bad in ("", "0d", "999d", "3x", "2026-13-40", "yesterday", "-1d"):
        assert away.until_of(bad, now) is None, bad


def test_the_notices_of_away_commit_with_it_even_if_the_worker_dies_right_after(
    backbone_pg, toy_game, recording, monkeypatch
):
    first = lobby.create_and_start("rec", "grp", "toy", {}, ["alice", "bob"], 0, seed=4)
    second = lobby.create_and_start("rec", "grp2", "toy", {}, ["alice", "carol"], 0, seed=5)

    def died(*_: object) -> None:  # the worker dies between the commit and what follows it (delivery, hand-on)
        raise SystemExit("SIGKILL")

    monkeypatch.setattr(autopilot, "after_changes", died)
    with pytest.raises(SystemExit):
        away.run("away", ["3d"], {"platform": "rec", "chat": "dm-alice", "user": "alice"})
    with session_scope() as s:
        assert s.scalar(select(User.away_until).where(User.platform_id == "alice")) is not None
        pending = s.execute(select(OutboxRow.chat, OutboxRow.payload).where(OutboxRow.status == "pending")).all()
        kinds = {e for (e,) in s.execute(select(GameEvent.kind).where(GameEvent.game_id.in_([first, second])))}
    told = {chat for chat, payload in pending if payload.get("text", "").startswith("🏖 alice is away until")}
    assert told == {"grp", "grp2"}, "each group's notice is in the outbox, delivered by the next sweep"
    assert any(chat == "dm-alice" and "You are away until" in payload.get("text", "") for chat, payload in pending)
    assert kinds == {"away"}


def test_a_failed_notice_leaves_no_vacation_behind(backbone_pg, toy_game, recording, monkeypatch):
    lobby.create_and_start("rec", "grp", "toy", {}, ["alice", "bob"], 0, seed=4)

    def broken(*_: object) -> None:
        raise RuntimeError("the notice could not be written")

    monkeypatch.setattr(autopilot, "republish", broken)
    with pytest.raises(RuntimeError):
        away.run("away", ["3d"], {"platform": "rec", "chat": "dm-alice", "user": "alice"})
    with session_scope() as s:
        assert s.scalar(select(User.away_until).where(User.platform_id == "alice")) is None, "all or nothing"
