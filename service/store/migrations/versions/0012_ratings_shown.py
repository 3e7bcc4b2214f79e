"""ratings: every rating change recomputed in ratings as shown, each person among everyone who plays the kind
(`service.ratings.shown`, docs/ratings.md; no schema change)

Revision ID: 0012
Revises: 0011

The ratings' means and uncertainties are the model's, unchanged; what changes is what a rating change records
before and after (the rating shown then), which the recomputation (`service.ratings.store.recompute`, as in 0005
and 0010) writes anew. Downgrading keeps the numbers: the schema is the same.
"""

from __future__ import annotations

from alembic import op
from sqlalchemy.orm import Session

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    from service.ratings.store import recompute

    recompute(Session(bind=op.get_bind()))


def downgrade() -> None:
    """Nothing to undo: the numbers stay, the schema did not change."""
