"""inbox: the taps and commands gateways accepted and no worker has applied yet, replayed by the beat

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "inbox",
        sa.Column("platform", sa.String(length=16), primary_key=True),
        sa.Column("update_id", sa.String(length=128), primary_key=True),
        sa.Column("job", sa.String(length=16), nullable=False),
        sa.Column("cmd", sa.JSON(), nullable=False),
        sa.Column("replays", sa.Integer(), nullable=False),
        sa.Column("due_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_inbox_due_at", "inbox", ["due_at"])


def downgrade() -> None:
    op.drop_index("ix_inbox_due_at", table_name="inbox")
    op.drop_table("inbox")
