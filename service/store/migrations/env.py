"""Alembic environment: the engine comes from `service.store.migrate.alembic_config` (no alembic.ini)."""

from __future__ import annotations

from alembic import context

from service.store.models import Base

engine = context.config.attributes["engine"]
with engine.connect() as connection:
    sqlite = connection.dialect.name == "sqlite"
    if sqlite:  # batch mode recreates a table (copy, drop, rename): other tables' foreign keys must not object.
        # On the driver's connection: SQLAlchemy's begin would issue BEGIN first, and the pragma is a no-op in one.
        connection.connection.driver_connection.execute("PRAGMA foreign_keys=OFF")
    context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()
    if sqlite:
        connection.connection.driver_connection.execute("PRAGMA foreign_keys=ON")
