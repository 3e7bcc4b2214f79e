"""A move's write (`service.store.move_write`), built from the models' columns: on SQLite (a statement each) and
PostgreSQL (one statement), what it writes is what the move changed, column by column."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy import select

from service.play import lobby
from service.store import deadlines, move_write, outbox, session_scope
from service.store.games import lock_with_table, save_move
from service.store.models import ActionRow, GameRow, OutboxRow, Seat


@pytest.fixture(params=["sqlite", "postgresql"])
def backbone(request):
    return request.getfixturevalue("backbone_local" if request.param == "sqlite" else "backbone_pg")


def test_a_move_writes_the_game_its_log_entry_its_changed_seats_and_its_outbox_rows(backbone):
    game_id = lobby.create_and_start("rec", "group-1", "cards", {}, ["alice", "bob", "carol"], 0, seed=3)
    with session_scope() as s:
        outbox_before = s.scalar(select(OutboxRow.id).order_by(OutboxRow.id.desc()).limit(1)) or 0
        game, table = lock_with_table(s, game_id)
        game.seq += 1
        game.status, game.result, game.board_digest, game.silence = "finished", {"winner": "loyal"}, "d1", True
        table.seats[1].prompt_seq, table.seats[1].prompt_sig = game.seq, "sig-b"
        outbox.buffer(s)
        outbox.add(s, "rec", "group-1", "upsert", {"text": "board"}, ref=f"board:{game_id}", is_group=True)
        outbox.add(s, "rec", "dm-2", "send", {"text": "yours"}, photo=b"\x89PNG\x00")
        save_move(s, game, table, 1, "x:1", "bot", outbox.take_buffered(s))
        seq = game.seq
    with session_scope() as s:
        saved = s.get(GameRow, game_id)
        assert (saved.seq, saved.status, saved.result, saved.board_digest, saved.silence) == (
            seq, "finished", {"winner": "loyal"}, "d1", True
        )
        action = s.scalars(select(ActionRow).where(ActionRow.game_id == game_id, ActionRow.seq == seq)).one()
        assert (action.seat, action.code, action.by) == (1, "x:1", "bot")
        assert (datetime.now(UTC) - action.created).total_seconds() < 60
        seat = s.scalars(select(Seat).where(Seat.game_id == game_id, Seat.seat == 1)).one()
        assert (seat.prompt_seq, seat.prompt_sig) == (seq, "sig-b")
        rows = s.scalars(select(OutboxRow).where(OutboxRow.id > outbox_before).order_by(OutboxRow.id)).all()
        assert [(r.chat, r.op, r.ref, r.payload, r.photo, r.is_group, r.shard) for r in rows] == [
            ("group-1", "upsert", f"board:{game_id}", {"text": "board"}, None, True, outbox.shard_of("group-1")),
            ("dm-2", "send", None, {"text": "yours"}, b"\x89PNG\x00", False, outbox.shard_of("dm-2")),
        ]
        assert all((r.status, r.attempts, r.platform) == ("pending", 0, "rec") for r in rows)


def test_the_columns_written_are_the_models_and_the_rows_producers():
    """A column added to a model, or a value added to an outbox or deadline row, is written or refused here."""
    game_columns = set(GameRow.__table__.c.keys())
    assert set(move_write.GAME_COLUMNS) <= game_columns
    assert set(move_write.SEAT_COLUMNS) <= set(Seat.__table__.c.keys())
    assert set(move_write.OUTBOX_COLUMNS) <= set(OutboxRow.__table__.c.keys())

    class Buffering:
        info: dict = {}

    s = Buffering()
    outbox.buffer(s)
    outbox.add(s, "rec", "c", "send", {"text": "t"})
    assert tuple(outbox.take_buffered(s)[0]) == move_write.OUTBOX_COLUMNS
    now = datetime.now(UTC)
    (row,) = deadlines.rows_for({0: (1, "turn")}, {"turn": 60.0}, (0.5,), now)
    assert tuple(row) == move_write.DEADLINE_COLUMNS
