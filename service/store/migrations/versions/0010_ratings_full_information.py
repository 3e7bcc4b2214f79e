"""ratings: every rating recomputed with each game's whole information taken into the uncertainty (the model's
change of docs/ratings.md; no schema change)

Revision ID: 0010
Revises: 0009

The recomputation is the application's own (`service.ratings.store.recompute`), as in 0005. Downgrading keeps the
recomputed numbers: the schema is the same, and the older code reads them as they are.
"""

from __future__ import annotations

from alembic import op
from sqlalchemy.orm import Session

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    from service.ratings.store import recompute

    recompute(Session(bind=op.get_bind()))


def downgrade() -> None:
    """Nothing to undo: the numbers stay, the schema did not change."""
