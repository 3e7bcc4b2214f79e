"""Quiet hours of a group: nothing is sent and no timeout applied inside them; a deadline falling inside them falls
at their end (issue 24, item 6)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from sqlalchemy import select, update

from service.play import lobby, quiet
from service.play.scans import scan
from service.store import session_scope
from service.store.models import ActionRow, Chat, Deadline, User
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


def _first_reminder_due_at_night(game_id: int) -> tuple[datetime, str]:
    """The group keeps quiet hours 23-08 in Prague; the open deadline's first reminder falls at 1 a.m. and its end
    at 5 a.m. Returns the night's reminder time and whose seat it is."""
    command("alice", "set", "quiet", "23-08", "Europe/Prague", "--admin", group=True)
    night = datetime(2030, 1, 15, 1, 0, tzinfo=PRAGUE)
    with session_scope() as s:
        row = s.scalars(select(Deadline).where(Deadline.game_id == game_id)).one()
        row.started_at, row.next_at, row.due_at = night - timedelta(hours=4), night, night + timedelta(hours=4)
        owner = "alice" if row.seat == 0 else "bob"
    return night, owner


def test_direct_reminders_wait_for_the_quiet_hours_unless_the_person_asks(backbone_pg, toy_game, recording):
    game_id = lobby.create_and_start("rec", "grp", "toy", {}, ["alice", "bob"], 0, seed=4)
    night, owner = _first_reminder_due_at_night(game_id)
    assert scan(night + timedelta(minutes=1)) == {"reminders": 0, "timeouts": 0}  # waits, as the group's do
    with session_scope() as s:
        assert s.scalars(select(Deadline).where(Deadline.game_id == game_id)).one().next_at == datetime(
            2030, 1, 15, 8, tzinfo=PRAGUE
        )

    command(owner, "quiet", "off")  # in their direct chat: their reminders come anyway
    assert "come even during a group's quiet hours" in texts(recording.sent(f"dm-{owner}"))[-1]
    with session_scope() as s:
        row = s.scalars(select(Deadline).where(Deadline.game_id == game_id)).one()
        row.next_at = night
    before = len(recording.sent(f"dm-{owner}"))
    assert scan(night + timedelta(minutes=1)) == {"reminders": 1, "timeouts": 0}
    [reminder] = texts(recording.sent(f"dm-{owner}")[before:])
    assert reminder.startswith("⏰") and "your decision is due in 4 h" in reminder, reminder
    with session_scope() as s:
        row = s.scalars(select(Deadline).where(Deadline.game_id == game_id)).one()
        assert row.reminders == 1
    group_before = len(recording.sent("grp"))
    assert scan(night + timedelta(hours=3, minutes=50)) == {"reminders": 0, "timeouts": 0}  # the group's still waits
    assert len(recording.sent("grp")) == group_before
    assert scan(night + timedelta(hours=4, minutes=1)) == {"reminders": 0, "timeouts": 0}  # so does the timeout
    with session_scope() as s:
        assert s.scalars(select(ActionRow).where(ActionRow.game_id == game_id)).all() == []

    command(owner, "quiet", "on")
    assert "wait for the end of a group's quiet hours" in texts(recording.sent(f"dm-{owner}"))[-1]


def test_quiet_on_or_off_is_said_in_the_direct_chat_only(backbone_pg, toy_game, recording):
    command("alice", "help")
    command("alice", "quiet", "off", group=True)
    assert texts(recording.sent("dm-alice"))[-1] == "Send /quiet on or /quiet off in your direct chat with me."
    command("alice", "quiet", "maybe")
    assert texts(recording.sent("dm-alice"))[-1] == "That value is not valid."
    with session_scope() as s:
        assert s.scalar(select(User.remind_in_quiet).where(User.platform_id == "alice")) is False
