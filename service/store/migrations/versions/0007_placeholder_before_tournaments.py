"""A placeholder for the migration 0007 another branch brings (the chain 0005 → 0006 → 0007 → 0008): it changes
nothing. DELETE THIS FILE when merging that branch; it exists only so that 0008_tournaments.py has its
down_revision on this branch.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
