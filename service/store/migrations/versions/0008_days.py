"""days: games that outlive people: who the autopilot plays for (seats.pilot), a seat's run of timeouts, the
roster version a cached move must match, a game's pause, a person's vacation, a chat's quiet hours, a deadline's
vacation extension, and the log of these changes (game_events)

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    when = sa.DateTime(timezone=True)
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("pilot", sa.String(length=16), nullable=True))
        batch.add_column(sa.Column("timeouts", sa.Integer(), nullable=False, server_default="0"))
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("roster", sa.Integer(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("paused_at", when, nullable=True))
    with op.batch_alter_table("users") as batch:
        batch.add_column(sa.Column("away_until", when, nullable=True))
    with op.batch_alter_table("chats") as batch:
        batch.add_column(sa.Column("quiet", sa.String(length=64), nullable=True))
    with op.batch_alter_table("deadlines") as batch:
        batch.add_column(sa.Column("extended", sa.Float(), nullable=False, server_default="0"))
    op.create_table(
        "game_events",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=True),
        sa.Column("actor_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=True),
        sa.Column("detail", sa.JSON(), nullable=False),
        sa.Column("created", when, nullable=False),
    )
    op.create_index("ix_game_events_game", "game_events", ["game_id", "id"])


def downgrade() -> None:
    op.drop_index("ix_game_events_game", table_name="game_events")
    op.drop_table("game_events")
    for table, columns in (
        ("deadlines", ["extended"]),
        ("chats", ["quiet"]),
        ("users", ["away_until"]),
        ("games", ["paused_at", "roster"]),
        ("seats", ["timeouts", "pilot"]),
    ):
        with op.batch_alter_table(table) as batch:
            for column in columns:
                batch.drop_column(column)
