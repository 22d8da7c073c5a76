"""match pace: table settings, clocks and their next deadline; resigned seats, replacement votes

Revision ID: 0005_match_pace
Revises: 0004_json_not_jsonb
Create Date: 2026-12-01
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = "0005_match_pace"
down_revision: Union[str, Sequence[str], None] = "0004_json_not_jsonb"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    with op.batch_alter_table("matches") as batch_op:
        batch_op.add_column(sa.Column("settings", sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column("clocks", sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column("deadline", sa.DateTime(timezone=True), nullable=True))
        batch_op.create_index("ix_matches_deadline", ["deadline"])
    with op.batch_alter_table("seats") as batch_op:
        batch_op.add_column(sa.Column("resigned_at", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("replace_votes", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch_op:
        batch_op.drop_column("replace_votes")
        batch_op.drop_column("resigned_at")
    with op.batch_alter_table("matches") as batch_op:
        batch_op.drop_index("ix_matches_deadline")
        batch_op.drop_column("deadline")
        batch_op.drop_column("clocks")
        batch_op.drop_column("settings")
