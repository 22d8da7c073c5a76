"""seats.away_since: since when (epoch s) a seat's player has had no socket open, kept in the
database so a process can forget its own copy once the match is idle (issue 13, item 4), and a
restarted process still knows it

Revision ID: 0011_seat_away_since
Revises: 0010_rematch_of
Create Date: 2026-12-01

The downgrade keeps the times aside and the upgrade puts them back (app/ops/downgrade.py), for
seats that still exist: the round trip loses nothing.
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

from app.ops.downgrade import keep, restore

revision: str = "0011_seat_away_since"
down_revision: Union[str, Sequence[str], None] = "0010_rematch_of"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch_op:
        batch_op.add_column(sa.Column("away_since", sa.Float(), nullable=True))
    restore("kept_0011_seats", "seats", ["match_id", "seat"], ["away_since"])


def downgrade() -> None:
    keep("kept_0011_seats", "SELECT match_id, seat, away_since FROM seats "
                            "WHERE away_since IS NOT NULL")
    with op.batch_alter_table("seats") as batch_op:
        batch_op.drop_column("away_since")
