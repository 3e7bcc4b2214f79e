"""Storage: SQLAlchemy models, Alembic migrations shipped in the package, sessions and repositories.

`migrate()` upgrades the schema (`camelot migrate`), `ensure_migrated()` refuses to run on an old one,
`session_scope()` is one transaction. Repositories: `store.users`, `store.games`, `store.outbox`, `store.deadlines`.
"""

from service.store.db import dispose_all, get_engine, is_postgres, session_factory, session_scope
from service.store.migrate import NotMigrated, ensure_migrated, migrate

__all__ = [
    "NotMigrated",
    "dispose_all",
    "ensure_migrated",
    "get_engine",
    "is_postgres",
    "migrate",
    "session_factory",
    "session_scope",
]
