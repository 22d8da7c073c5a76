"""hints (issue 17, item 6): each use of a hint recorded (hint_uses), and an imported record's
hints (records.hints)

Revision ID: 0012_hint_uses
Revises: 0011_seat_away_since
Create Date: 2026-12-01

The downgrade keeps the hint uses (the table renamed) and the records' hints aside; the upgrade
puts them back (app/ops/downgrade.py).
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

from app.ops.downgrade import exists, keep, restore

revision: str = "0012_hint_uses"
down_revision: Union[str, Sequence[str], None] = "0011_seat_away_since"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    with op.batch_alter_table("records") as batch_op:
        batch_op.add_column(sa.Column("hints", sa.JSON(), nullable=True))
    restore("kept_0012_records", "records", ["id"], ["hints"])
    if exists("kept_0012_hint_uses"):
        op.rename_table("kept_0012_hint_uses", "hint_uses")
        return
    op.create_table(
        "hint_uses",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("match_id", sa.String(length=16), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_hint_uses_match_id", "hint_uses", ["match_id"])


def downgrade() -> None:
    op.execute("DROP TABLE IF EXISTS kept_0012_hint_uses")
    op.rename_table("hint_uses", "kept_0012_hint_uses")
    keep("kept_0012_records", "SELECT id, hints FROM records WHERE hints IS NOT NULL")
    with op.batch_alter_table("records") as batch_op:
        batch_op.drop_column("hints")
