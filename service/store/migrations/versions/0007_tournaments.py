"""tournaments: registrations, rounds (unique per tournament and number), tables (each a game) and their seats'
results

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    when = sa.DateTime(timezone=True)
    op.create_table(
        "tournaments",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("chat_id", sa.Integer(), sa.ForeignKey("chats.id"), nullable=False),
        sa.Column("creator_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=True),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("language", sa.String(length=16), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("created", when, nullable=False),
        sa.Column("updated", when, nullable=False),
    )
    op.create_index("ix_tournaments_chat_status", "tournaments", ["chat_id", "status"])
    op.create_table(
        "tournament_players",
        sa.Column("tournament_id", sa.Integer(), sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("first_round", sa.Integer(), nullable=False),
        sa.Column("withdrawn_after", sa.Integer(), nullable=True),
        sa.Column("created", when, nullable=False),
    )
    op.create_table(
        "tournament_rounds",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("tournament_id", sa.Integer(), sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("started", when, nullable=False),
        sa.Column("deadline", when, nullable=False),
        sa.Column("autopilot", when, nullable=True),
        sa.Column("finished", when, nullable=True),
        sa.UniqueConstraint("tournament_id", "number"),
    )
    op.create_table(
        "tournament_tables",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("round_id", sa.Integer(), sa.ForeignKey("tournament_rounds.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("games.id"), nullable=True),
        sa.Column("recorded", when, nullable=True),
        sa.Column("outcome", sa.String(length=8), nullable=True),
        sa.UniqueConstraint("round_id", "number"),
        sa.UniqueConstraint("game_id"),
    )
    op.create_table(
        "tournament_seats",
        sa.Column("table_id", sa.Integer(), sa.ForeignKey("tournament_tables.id", ondelete="CASCADE"),
                  primary_key=True),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("side", sa.String(length=8), nullable=True),
        sa.Column("points", sa.Float(), nullable=True),
        sa.Column("merit", sa.Float(), nullable=True),
    )
    op.create_index("ix_tournament_seats_user", "tournament_seats", ["user_id"])


def downgrade() -> None:
    op.drop_index("ix_tournament_seats_user", table_name="tournament_seats")
    op.drop_table("tournament_seats")
    op.drop_table("tournament_tables")
    op.drop_table("tournament_rounds")
    op.drop_table("tournament_players")
    op.drop_index("ix_tournaments_chat_status", table_name="tournaments")
    op.drop_table("tournaments")
