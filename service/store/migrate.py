"""Alembic, shipped inside the package: `migrate()` upgrades to head; `ensure_migrated()` refuses an old schema."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory

from service.store.db import get_engine


class NotMigrated(RuntimeError):
    """The database schema is not at the latest revision; run `camelot migrate`."""


def alembic_config(url: str | None = None) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(Path(__file__).with_name("migrations")))
    cfg.attributes["engine"] = get_engine(url)
    return cfg


def migrate(url: str | None = None) -> None:
    """Upgrade the database (settings' DATABASE_URL unless given) to the newest revision."""
    command.upgrade(alembic_config(url), "head")


def ensure_migrated(url: str | None = None) -> None:
    """Raise `NotMigrated` with a clear message unless the schema is at head (the service must not run otherwise)."""
    head = ScriptDirectory.from_config(alembic_config(url)).get_current_head()
    with get_engine(url).connect() as conn:
        current = MigrationContext.configure(conn).get_current_revision()
    if current != head:
        raise NotMigrated(
            f"database schema is at revision {current or 'none'}, expected {head}: run `camelot migrate` first"
        )
