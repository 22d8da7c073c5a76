"""one seat per user per match: a partial unique index on seats (match_id, user_id)

Revision ID: 0009_atomic_seats
Revises: 0007_seat_grants
Create Date: 2026-12-01

Issue 13, item 6: with several server processes a user could end up in two seats of one match.
The index makes the database refuse that (app/matches/service.py takes, leaves and starts with
conditional updates). Rows that already break the rule are cleaned up first: the user keeps
their lowest seat; each other one is freed (its rejoin link, the device playing it and its
grants go with it, as when a player leaves a seat). In a running match a freed seat would stall
the table, so a ``random`` bot (every game has one) plays it instead.

The downgrade drops the index only and loses nothing; the cleaned rows were broken and do not
come back.
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = "0009_atomic_seats"
down_revision: Union[str, Sequence[str], None] = "0007_seat_grants"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

#: A seat of a user who also sits in a lower seat of the same match (SQL on ``seats``).
_EXTRA = ("{t}.user_id IS NOT NULL AND EXISTS (SELECT 1 FROM seats o WHERE "
          "o.match_id = {t}.match_id AND o.user_id = {t}.user_id AND o.seat < {t}.seat)")


def upgrade() -> None:
    op.execute("DELETE FROM seat_grants WHERE EXISTS (SELECT 1 FROM seats s WHERE "
               "s.match_id = seat_grants.match_id AND s.seat = seat_grants.seat AND "
               + _EXTRA.format(t="s") + ")")
    op.execute("UPDATE seats SET bot = CASE WHEN (SELECT m.status FROM matches m WHERE "
               "m.id = seats.match_id) = 'active' THEN 'random' ELSE NULL END, "
               "rejoin_hash = NULL, player_id = NULL, replace_votes = NULL, user_id = NULL "
               "WHERE " + _EXTRA.format(t="seats"))
    op.create_index("uq_seats_match_user", "seats", ["match_id", "user_id"], unique=True,
                    postgresql_where=sa.text("user_id IS NOT NULL"),
                    sqlite_where=sa.text("user_id IS NOT NULL"))


def downgrade() -> None:
    op.drop_index("uq_seats_match_user", table_name="seats")
