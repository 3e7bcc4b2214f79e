"""outbox.shard: one sender per (platform, shard) drains many chats per task

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("outbox") as batch_op:
        batch_op.add_column(sa.Column("shard", sa.SmallInteger(), nullable=False, server_default="0"))
    op.create_index("ix_outbox_shard_pending", "outbox", ["platform", "shard", "status", "id"])
    # Rows still waiting join their chat's shard, so that each chat keeps a single sender.
    from service.store.outbox import shard_of

    conn = op.get_bind()
    outbox = sa.table("outbox", sa.column("id", sa.Integer), sa.column("chat", sa.String), sa.column("shard"))
    pending = conn.execute(sa.text("SELECT id, chat FROM outbox WHERE status = 'pending'")).all()
    for row_id, chat in pending:
        conn.execute(sa.update(outbox).where(outbox.c.id == row_id).values(shard=shard_of(chat)))


def downgrade() -> None:
    op.drop_index("ix_outbox_shard_pending", table_name="outbox")
    with op.batch_alter_table("outbox") as batch_op:
        batch_op.drop_column("shard")
