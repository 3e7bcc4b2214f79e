"""Migration 0007 on PostgreSQL and SQLite: it creates the tournament tables as the models declare them (Alembic's
comparison finds no difference), and goes down and up again."""

from __future__ import annotations

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import inspect

from service.store import get_engine
from service.store.migrate import alembic_config
from service.store.models import Base

TABLES = {"tournaments", "tournament_players", "tournament_rounds", "tournament_tables", "tournament_seats"}


def _differences() -> list:
    with get_engine().connect() as conn:
        diffs = compare_metadata(MigrationContext.configure(conn), Base.metadata)
    return [d for d in diffs if TABLES & {getattr(part, "name", None) for part in _parts(d)}]


def _parts(diff) -> list:
    """The schema objects a comparison's entry names (and their tables)."""
    entries = diff if isinstance(diff, list) else [diff]
    found = []
    for entry in entries:
        for item in entry[1:]:
            found.append(item)
            if getattr(item, "table", None) is not None:
                found.append(item.table)
    return found


@pytest.mark.parametrize("fixture", ["backbone_local", "backbone_pg"])
def test_the_migration_creates_the_tables_the_models_declare_and_goes_down(fixture, request):
    request.getfixturevalue(fixture)
    assert set(inspect(get_engine()).get_table_names()) >= TABLES
    assert _differences() == []
    cfg = alembic_config()
    command.downgrade(cfg, "0006")
    try:
        assert not TABLES & set(inspect(get_engine()).get_table_names())
    finally:
        command.upgrade(cfg, "head")
    assert set(inspect(get_engine()).get_table_names()) >= TABLES and _differences() == []
