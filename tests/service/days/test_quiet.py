"""Quiet hours of a group: nothing is sent and no timeout applied inside them; a deadline falling inside them falls
at their end (issue 24, item 6)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from sqlalchemy import select, update

from service.play import lobby, quiet
from service.play.scans import scan
from service.store import session_scope
from service.store.models import ActionRow, Chat, Deadline
from tests.service.days.helpers import command, texts

PRAGUE = ZoneInfo("Europe/Prague")


def test_quiet_hours_are_read_in_the_groups_zone():
    assert quiet.parse("23-08", "Europe/Prague") == "23-08 Europe/Prague"
    for hours, zone in (("23-23", "UTC"), ("25-08", "UTC"), ("23-08", "Mars/Olympus"), ("x-8", "UTC"), ("23-08", "")):
        assert quiet.parse(hours, zone) is None, (hours, zone)
    spec = "23-08 Europe/Prague"
    night = datetime(2026, 7, 1, 2, 30, tzinfo=PRAGUE)  # summer time: UTC+2
    assert quiet.end_of_quiet(spec, night.astimezone(UTC)) == datetime(2026, 7, 1, 8, tzinfo=PRAGUE)
    late = datetime(2026, 1, 10, 23, 15, tzinfo=PRAGUE)
    assert quiet.end_of_quiet(spec, late) == datetime(2026, 1, 11, 8, tzinfo=PRAGUE)
    assert quiet.end_of_quiet(spec, datetime(2026, 1, 10, 12, tzinfo=PRAGUE)) is None
    afternoon = datetime(2026, 1, 10, 14, tzinfo=UTC)
    assert quiet.end_of_quiet("13-15 UTC", afternoon) == datetime(2026, 1, 10, 15, tzinfo=UTC)
    assert quiet.end_of_quiet("13-15 UTC", datetime(2026, 1, 10, 15, tzinfo=UTC)) is None


def test_a_deadline_inside_quiet_hours_falls_at_their_end(backbone_pg, toy_game, recording):
    game_id = lobby.create_and_start("rec", "grp", "toy", {}, ["alice", "bob"], 0, seed=4)
    command("alice", "set", "quiet", "23-08", "Europe/Prague", group=True)  # no admin, no creator
    with session_scope() as s:
        assert s.scalar(select(Chat.quiet).where(Chat.platform_id == "grp")) is None
    command("alice", "set", "quiet", "23-08", "Europe/Prague", "--admin", group=True)
    assert any("Quiet hours 23-08 Europe/Prague" in t for t in texts(recording.sent("grp")))

    night = datetime(2030, 1, 15, 2, 0, tzinfo=PRAGUE)
    with session_scope() as s:  # the deadline falls at 2 a.m. in Prague
        s.execute(update(Deadline).where(Deadline.game_id == game_id).values(due_at=night, next_at=night))
    assert scan(night + timedelta(minutes=1)) == {"reminders": 0, "timeouts": 0}
    with session_scope() as s:
        row = s.scalars(select(Deadline).where(Deadline.game_id == game_id)).one()
        assert row.due_at == datetime(2030, 1, 15, 8, tzinfo=PRAGUE) == row.next_at
        assert s.scalars(select(ActionRow).where(ActionRow.game_id == game_id)).all() == []
    assert scan(datetime(2030, 1, 15, 8, 0, 30, tzinfo=PRAGUE))["timeouts"] == 1

    command("alice", "set", "quiet", "off", "--admin", group=True)
    with session_scope() as s:
        assert s.scalar(select(Chat.quiet).where(Chat.platform_id == "grp")) is None
