"""ratings v2: rating_sides (the loyal side's record per setting), each rating change's side and expected chance,
and every rating recomputed from the finished games in order with the new model (`service.ratings.model`)

Revision ID: 0005
Revises: 0004

The recomputation is the application's own (`service.ratings.store.recompute`), reading and writing only the
columns this revision has. Downgrading keeps the recomputed numbers (the 0004 code reads `mu` and `sigma` as
they are) and drops what 0004 did not have.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.orm import Session

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    from service.ratings.store import recompute

    op.create_table(
        "rating_sides",
        sa.Column("kind", sa.String(length=16), primary_key=True),
        sa.Column("players", sa.Integer(), primary_key=True),
        sa.Column("variants", sa.String(length=255), primary_key=True),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("loyal_wins", sa.Integer(), nullable=False),
    )
    op.execute(sa.text("DELETE FROM rating_changes"))  # recomputed below
    with op.batch_alter_table("rating_changes") as batch:
        batch.add_column(sa.Column("side", sa.String(length=8), nullable=False))
        batch.add_column(sa.Column("expected", sa.Float(), nullable=False))
    op.create_index("ix_rating_changes_user", "rating_changes", ["user_id", "created"])
    recompute(Session(bind=op.get_bind()))


def downgrade() -> None:
    op.drop_index("ix_rating_changes_user", table_name="rating_changes")
    with op.batch_alter_table("rating_changes") as batch:
        batch.drop_column("expected")
        batch.drop_column("side")
    op.drop_table("rating_sides")
