"""A placeholder for the migration 0006 another branch brings (the chain 0005 → 0006 → 0007 → 0008): it changes
nothing. DELETE THIS FILE when merging that branch; it exists only so that 0008_tournaments.py has its
down_revision on this branch.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
