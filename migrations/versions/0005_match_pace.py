"""match pace: table settings, clocks and their next deadline; resigned seats, replacement votes

Revision ID: 0005_match_pace
Revises: 0004_json_not_jsonb
Create Date: 2026-12-01

The downgrade keeps the pace aside and the upgrade puts it back (app/ops/downgrade.py): table
settings, resignations and votes always; clocks and deadlines only for matches that did not move
meanwhile (for the others they would be stale: a deadline long past).
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

from app.ops.downgrade import keep, restore

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
    restore("kept_0005_matches", "matches", ["id"], ["settings"], drop=False)
    restore("kept_0005_matches", "matches", ["id"], ["clocks", "deadline"],
            when="k.version = matches.version")
    restore("kept_0005_seats", "seats", ["match_id", "seat"], ["resigned_at", "replace_votes"])


def downgrade() -> None:
    keep("kept_0005_matches", "SELECT id, version, settings, clocks, deadline FROM matches "
                              "WHERE settings IS NOT NULL OR clocks IS NOT NULL "
                              "OR deadline IS NOT NULL")
    keep("kept_0005_seats", "SELECT match_id, seat, resigned_at, replace_votes FROM seats "
                            "WHERE resigned_at IS NOT NULL OR replace_votes IS NOT NULL")
    with op.batch_alter_table("seats") as batch_op:
        batch_op.drop_column("replace_votes")
        batch_op.drop_column("resigned_at")
    with op.batch_alter_table("matches") as batch_op:
        batch_op.drop_index("ix_matches_deadline")
        batch_op.drop_column("deadline")
        batch_op.drop_column("clocks")
        batch_op.drop_column("settings")
