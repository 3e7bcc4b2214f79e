"""The pinned board shows the time left for the current decision, coarse enough that its edits stay few."""

from __future__ import annotations

from datetime import timedelta

from service.play import board_clock, lobby
from service.render.clock import board_left
from service.store import session_scope
from service.store.models import Deadline


def boards(recording, chat: str = "grp") -> list[str]:
    """The board message's texts as sent and edited, in order (the first message the game sends the group that
    starts with the toy board's JSON)."""
    first = next(c for c in recording.sent(chat) if c.method == "send_text" and c.text.startswith("{"))
    return [c.text for c in recording.sent(chat) if c.message_id == first.message_id]


def test_the_figure_is_coarse_and_changes_rarely():
    assert board_left("en", 24 * 3600) == "⏳ 24 h left"
    assert board_left("en", 3 * 24 * 3600) == "⏳ 3 days left"
    assert board_left("en", 55 * 60) == "⏳ 1 h left"
    assert board_left("en", 41 * 60) == "⏳ 50 min left"
    assert board_left("en", 9 * 60 + 5) == "⏳ 10 min left"
    assert board_left("en", 90) == "⏳ 2 min left"
    assert board_left("en", 0) == "⏳ 1 min left"
    assert board_left("de", 5 * 3600) == board_left("en", 5 * 3600)  # an unknown language reads English
    assert board_left("cs", 5 * 3600) != board_left("en", 5 * 3600)  # the table's language
    # a 24-hour turn seen every 15 seconds: about one figure an hour, then tens of minutes, then minutes
    figures = [board_left("en", 24 * 3600 - 15 * i) for i in range(24 * 240)]
    changes = sum(a != b for a, b in zip(figures, figures[1:], strict=False))
    assert changes <= 24 + 4 + 10
    window = [board_left("en", 120 - 15 * i) for i in range(8)]  # a 2-minute window: one edit
    assert sum(a != b for a, b in zip(window, window[1:], strict=False)) == 1


def test_the_board_shows_the_time_left_and_is_edited_only_when_the_figure_changes(backbone_pg, toy_game, recording):
    game_id = lobby.create_and_start("rec", "grp", "toy", {}, ["alice", "bob"], 0, seed=4)
    shown = boards(recording)
    assert shown[-1].split("\n")[1] == "⏳ 24 h left"  # under the title: alice's whole turn
    with session_scope() as s:
        row = s.query(Deadline).filter_by(game_id=game_id, seat=0).one()
        start, due = row.started_at, row.due_at

    later = due - timedelta(hours=20.5) + timedelta(seconds=1)  # just past the figure's change from 21 to 20 hours
    assert board_clock.refresh(later) == 1
    assert boards(recording)[-1].split("\n")[1] == "⏳ 20 h left"
    assert board_clock.refresh(later) == 0  # same figure: no edit
    assert board_clock.refresh(later + timedelta(minutes=20)) == 0  # still 20 h: not even rendered again
    near = due - timedelta(minutes=9, seconds=50)
    assert board_clock.refresh(near) == 1
    assert boards(recording)[-1].split("\n")[1] == "⏳ 10 min left"
    assert len(boards(recording)) == len(shown) + 2  # two edits in all
    assert start < later < due


def test_a_board_with_no_person_to_ask_shows_no_clock(backbone_pg, toy_game, recording):
    lobby.create_and_start("rec", "grp", "toy", {}, [], 2, seed=4)
    texts = [c.text for c in recording.sent("grp")]
    assert any(text.startswith("{") for text in texts)  # the board was sent
    assert not any("⏳" in text for text in texts)
