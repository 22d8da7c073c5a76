"""actions.irreversible and actions.undo: what the undo rule needs without replaying the log

Revision ID: 0002_action_undo_flags
Revises: 413263c5d6f9
Create Date: 2026-11-30
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

from app.ops.downgrade import keep, restore

revision: str = "0002_action_undo_flags"
down_revision: Union[str, Sequence[str], None] = "413263c5d6f9"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    with op.batch_alter_table("actions") as batch_op:
        batch_op.add_column(sa.Column("irreversible", sa.Boolean(), nullable=False,
                                      server_default=sa.false()))
        batch_op.add_column(sa.Column("undo", sa.Boolean(), nullable=False,
                                      server_default=sa.false()))
    # after a downgrade: the flags as they were (app/ops/downgrade.py)
    restore("kept_0002_actions", "actions", ["match_id", "seq"], ["irreversible", "undo"])


def downgrade() -> None:
    keep("kept_0002_actions", "SELECT match_id, seq, irreversible, undo FROM actions "
                              "WHERE irreversible OR undo")
    with op.batch_alter_table("actions") as batch_op:
        batch_op.drop_column("undo")
        batch_op.drop_column("irreversible")
