"""a match's rematch is remembered: matches.rematch_of (unique), so a second "Rematch" click
(a double-click, another player's click, another process) leads to the rematch that exists

Revision ID: 0010_rematch_of
Revises: 0009_atomic_seats
Create Date: 2026-12-01

The downgrade keeps the links aside and the upgrade puts them back (app/ops/downgrade.py), for
matches that still exist.
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

from app.ops.downgrade import keep, restore

revision: str = "0010_rematch_of"
down_revision: Union[str, Sequence[str], None] = "0009_atomic_seats"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    with op.batch_alter_table("matches") as batch_op:
        batch_op.add_column(sa.Column("rematch_of", sa.String(length=16), nullable=True))
        batch_op.create_unique_constraint("uq_matches_rematch_of", ["rematch_of"])
        batch_op.create_foreign_key("fk_matches_rematch_of_matches", "matches", ["rematch_of"],
                                    ["id"], ondelete="SET NULL")
    restore("kept_0010_matches", "matches", ["id"], ["rematch_of"],
            when="EXISTS (SELECT 1 FROM matches o WHERE o.id = k.rematch_of)")


def downgrade() -> None:
    keep("kept_0010_matches", "SELECT id, rematch_of FROM matches WHERE rematch_of IS NOT NULL")
    with op.batch_alter_table("matches") as batch_op:
        batch_op.drop_constraint("fk_matches_rematch_of_matches", type_="foreignkey")
        batch_op.drop_constraint("uq_matches_rematch_of", type_="unique")
        batch_op.drop_column("rematch_of")
