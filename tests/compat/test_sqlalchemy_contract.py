"""What `service.store.sqlalchemy_compat` assumes of SQLAlchemy's ORM: an instance made as loading makes one has no
constructor's defaults, reads its attributes from the values put in its `__dict__`, is tracked by no session, and can
be written back by a session as a loaded row is (merge)."""

from __future__ import annotations

import pytest
from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session, object_session

from service.store import sqlalchemy_compat
from service.store.models import Base, Chat, Seat


def test_an_object_made_from_values_reads_them_and_has_no_defaults():
    seat = sqlalchemy_compat.loaded(Seat, ["id", "game_id", "seat"], [7, 3, 2])
    assert (seat.id, seat.game_id, seat.seat) == (7, 3, 2)
    assert seat.bot is None  # not set: read as the ORM reads an unloaded, unset column of a new object
    assert object_session(seat) is None
    seat.prompt_seq = 5  # instrumented: the change is seen as a loaded object's would be
    assert seat.prompt_seq == 5


def test_an_object_made_from_values_is_merged_as_a_loaded_row(tmp_path):
    engine = create_engine(f"sqlite:///{tmp_path / 'compat.db'}")
    Base.metadata.create_all(engine, tables=[Chat.__table__])
    with Session(engine) as s:
        s.add(Chat(id=1, platform="telegram", platform_id="-100", is_group=True, language="en"))
        s.commit()
    keys = ["id", "platform", "platform_id", "is_group", "language"]
    chat = sqlalchemy_compat.loaded(Chat, keys, [1, "telegram", "-100", True, "en"])
    chat.language = "cs"
    with Session(engine) as s:
        s.merge(chat)
        s.commit()
        assert s.scalar(select(Chat.language).where(Chat.id == 1)) == "cs"


def test_values_of_the_wrong_length_are_refused():
    with pytest.raises(ValueError):
        sqlalchemy_compat.loaded(Seat, ["id", "game_id"], [1])
