"""seats.away_user_id: the player a bot stands in for, who may take the seat back

Revision ID: 0003_seat_away_user
Revises: 0002_action_undo_flags
Create Date: 2026-11-30
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

from app.ops.downgrade import keep, restore

revision: str = "0003_seat_away_user"
down_revision: Union[str, Sequence[str], None] = "0002_action_undo_flags"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch_op:
        batch_op.add_column(sa.Column("away_user_id", sa.String(length=36), nullable=True))
        batch_op.create_foreign_key("fk_seats_away_user_id_users", "users", ["away_user_id"],
                                    ["id"])
    # after a downgrade: the players bots stood in for (app/ops/downgrade.py)
    restore("kept_0003_seats", "seats", ["match_id", "seat"], ["away_user_id"])


def downgrade() -> None:
    keep("kept_0003_seats", "SELECT match_id, seat, away_user_id FROM seats "
                            "WHERE away_user_id IS NOT NULL")
    with op.batch_alter_table("seats") as batch_op:
        batch_op.drop_constraint("fk_seats_away_user_id_users", type_="foreignkey")
        batch_op.drop_column("away_user_id")
