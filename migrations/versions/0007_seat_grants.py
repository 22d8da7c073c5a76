"""rejoin links grant one seat: seats.rejoin_hash (SHA-256 of the link token, which is no
longer stored), seats.player_id (the device playing the seat now) and seat_grants

Revision ID: 0007_seat_grants
Revises: 0008_rate_windows_heartbeats (main's head when this was written; re-chain at merge)
Create Date: 2026-12-01

Existing rejoin links keep working: their tokens are hashed in place (they now grant their seat
to the browser that opens them instead of signing it in as the player).

The downgrade loses nothing (app/ops/downgrade.py): the hashes, who plays each seat and the
grants are kept aside, and the next upgrade puts them back, for seats whose owner did not
change meanwhile (a grant is for one player's seat: never hand it to the seat's next owner).
The older schema cannot check a hashed link, so rejoin links do not work while downgraded; a
link the older code made meanwhile is hashed by the upgrade and wins over the kept one.
"""
import hashlib
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import context, op

from app.ops.downgrade import exists, keep

revision: str = "0007_seat_grants"
down_revision: Union[str, Sequence[str], None] = "0008_rate_windows_heartbeats"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

#: The owner of a seat, in SQL on ``seats`` (app/matches/access.py: ``owner``).
_OWNER = "COALESCE({t}.user_id, {t}.away_user_id)"


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch_op:
        batch_op.add_column(sa.Column("rejoin_hash", sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column("player_id", sa.String(length=36), nullable=True))
        batch_op.create_unique_constraint("uq_seats_rejoin_hash", ["rejoin_hash"])
        batch_op.create_foreign_key("fk_seats_player_id_users", "users", ["player_id"], ["id"])
    if not context.is_offline_mode():  # offline: only the SQL is written
        bind = op.get_bind()
        seats = sa.table("seats", sa.column("match_id", sa.String), sa.column("seat", sa.Integer),
                         sa.column("rejoin_token", sa.String),
                         sa.column("rejoin_hash", sa.String))
        rows = bind.execute(sa.select(seats.c.match_id, seats.c.seat, seats.c.rejoin_token)
                            .where(seats.c.rejoin_token.is_not(None))).all()
        for match_id, seat, token in rows:
            bind.execute(seats.update().where(seats.c.match_id == match_id,
                                              seats.c.seat == seat)
                         .values(rejoin_hash=hashlib.sha256(token.encode()).hexdigest()))
    with op.batch_alter_table("seats") as batch_op:
        batch_op.drop_column("rejoin_token")
    op.create_table(
        "seat_grants",
        sa.Column("match_id", sa.String(length=16), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.String(length=36), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["match_id", "seat"], ["seats.match_id", "seats.seat"],
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"]),
        sa.PrimaryKeyConstraint("match_id", "seat", "user_id"),
    )
    with op.batch_alter_table("seat_grants") as batch_op:
        batch_op.create_index(batch_op.f("ix_seat_grants_user_id"), ["user_id"], unique=False)
    # after a downgrade: the links, players and grants as they were (same owner only)
    same = (f"k.match_id = seats.match_id AND k.seat = seats.seat "
            f"AND k.owner_id = {_OWNER.format(t='seats')}")
    if exists("kept_0007_seats"):
        op.execute(f"UPDATE seats SET "
                   f"rejoin_hash = COALESCE(rejoin_hash, (SELECT k.rejoin_hash FROM "
                   f"kept_0007_seats k WHERE {same})), "
                   f"player_id = (SELECT k.player_id FROM kept_0007_seats k WHERE {same}) "
                   f"WHERE EXISTS (SELECT 1 FROM kept_0007_seats k WHERE {same})")
        op.drop_table("kept_0007_seats")
    if exists("kept_0007_seat_grants"):
        op.execute(f"INSERT INTO seat_grants (match_id, seat, user_id, created_at) "
                   f"SELECT k.match_id, k.seat, k.user_id, k.created_at "
                   f"FROM kept_0007_seat_grants k JOIN seats ON {same}")
        op.drop_table("kept_0007_seat_grants")


def downgrade() -> None:
    keep("kept_0007_seats", f"SELECT match_id, seat, {_OWNER.format(t='seats')} AS owner_id, "
                            f"rejoin_hash, player_id FROM seats "
                            f"WHERE rejoin_hash IS NOT NULL OR player_id IS NOT NULL")
    keep("kept_0007_seat_grants", f"SELECT g.match_id, g.seat, g.user_id, g.created_at, "
                                  f"{_OWNER.format(t='s')} AS owner_id FROM seat_grants g "
                                  f"JOIN seats s ON s.match_id = g.match_id AND s.seat = g.seat")
    with op.batch_alter_table("seat_grants") as batch_op:
        batch_op.drop_index(batch_op.f("ix_seat_grants_user_id"))
    op.drop_table("seat_grants")
    with op.batch_alter_table("seats") as batch_op:
        batch_op.add_column(sa.Column("rejoin_token", sa.String(length=64), nullable=True))
        batch_op.create_unique_constraint("uq_seats_rejoin_token", ["rejoin_token"])
    with op.batch_alter_table("seats") as batch_op:
        batch_op.drop_constraint("fk_seats_player_id_users", type_="foreignkey")
        batch_op.drop_constraint("uq_seats_rejoin_hash", type_="unique")
        batch_op.drop_column("player_id")
        batch_op.drop_column("rejoin_hash")
