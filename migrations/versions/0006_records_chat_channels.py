"""imported match records; chat channels (table / spectators) and the host's opening of the table

Revision ID: 0006_records_chat_channels
Revises: 0005_match_pace

The downgrade keeps the records (the table renamed), the spectators' chat lines and the opened
tables aside; the upgrade puts them back (app/ops/downgrade.py).
Create Date: 2026-11-30
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

from app.ops.downgrade import exists, keep, restore

revision: str = "0006_records_chat_channels"
down_revision: Union[str, Sequence[str], None] = "0005_match_pace"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    with op.batch_alter_table("chat_messages") as batch_op:
        batch_op.add_column(sa.Column("channel", sa.String(length=12), nullable=False,
                                      server_default="table"))
    with op.batch_alter_table("matches") as batch_op:
        batch_op.add_column(sa.Column("spectator_chat_open", sa.Boolean(), nullable=False,
                                      server_default=sa.false()))
    restore("kept_0006_chat", "chat_messages", ["id"], ["channel"])
    restore("kept_0006_matches", "matches", ["id"], ["spectator_chat_open"])
    if exists("kept_0006_records"):
        op.rename_table("kept_0006_records", "records")
        return
    op.create_table(
        "records",
        sa.Column("id", sa.String(length=16), nullable=False),
        sa.Column("digest", sa.String(length=64), nullable=False),
        sa.Column("game", sa.String(length=40), nullable=False),
        sa.Column("engine_version", sa.Integer(), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("actions", sa.JSON(), nullable=False),
        sa.Column("seats", sa.JSON(), nullable=False),
        sa.Column("result", sa.JSON(), nullable=False),
        sa.Column("final_hash", sa.String(length=64), nullable=False),
        sa.Column("uploader_id", sa.String(length=36), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["uploader_id"], ["users.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("digest"),
    )


def downgrade() -> None:
    op.execute("DROP TABLE IF EXISTS kept_0006_records")
    op.rename_table("records", "kept_0006_records")
    keep("kept_0006_matches", "SELECT id, spectator_chat_open FROM matches "
                              "WHERE spectator_chat_open")
    keep("kept_0006_chat", "SELECT id, channel FROM chat_messages WHERE channel <> 'table'")
    with op.batch_alter_table("matches") as batch_op:
        batch_op.drop_column("spectator_chat_open")
    with op.batch_alter_table("chat_messages") as batch_op:
        batch_op.drop_column("channel")
