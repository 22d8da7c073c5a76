"""hint_uses.log_at: how many events the match's log held when a hint was asked, so a table
opened later puts the hint's line among the log's lines where it happened, not at the end
(the new-user trial of session 14)

Revision ID: 0013_hint_log_at
Revises: 0012_hint_uses
Create Date: 2026-12-06

The downgrade keeps the counts aside and the upgrade puts them back (app/ops/downgrade.py):
the round trip loses nothing. Uses recorded before this revision have none (null): the table
places them as it did.
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

from app.ops.downgrade import keep, restore

revision: str = "0013_hint_log_at"
down_revision: Union[str, Sequence[str], None] = "0012_hint_uses"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    with op.batch_alter_table("hint_uses") as batch_op:
        batch_op.add_column(sa.Column("log_at", sa.Integer(), nullable=True))
    restore("kept_0013_hint_uses", "hint_uses", ["id"], ["log_at"])


def downgrade() -> None:
    keep("kept_0013_hint_uses", "SELECT id, log_at FROM hint_uses WHERE log_at IS NOT NULL")
    with op.batch_alter_table("hint_uses") as batch_op:
        batch_op.drop_column("log_at")
