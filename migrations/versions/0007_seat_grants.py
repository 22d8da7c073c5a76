"""rejoin links grant one seat: seats.rejoin_hash (SHA-256 of the link token, which is no
longer stored), seats.player_id (the device playing the seat now) and seat_grants

Revision ID: 0007_seat_grants
Revises: 0006_records_chat_channels
Create Date: 2026-12-01

Existing rejoin links keep working: their tokens are hashed in place (they now grant their seat
to the browser that opens them instead of signing it in as the player).

The downgrade cannot give back a token from its hash: it refuses while any seat has a rejoin
link, a grant or another device playing it (say so, remove nothing), and is lossless otherwise.
"""
import hashlib
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = "0007_seat_grants"
down_revision: Union[str, Sequence[str], None] = "0006_records_chat_channels"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch_op:
        batch_op.add_column(sa.Column("rejoin_hash", sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column("player_id", sa.String(length=36), nullable=True))
        batch_op.create_unique_constraint("uq_seats_rejoin_hash", ["rejoin_hash"])
        batch_op.create_foreign_key("fk_seats_player_id_users", "users", ["player_id"], ["id"])
    bind = op.get_bind()
    seats = sa.table("seats", sa.column("match_id", sa.String), sa.column("seat", sa.Integer),
                     sa.column("rejoin_token", sa.String), sa.column("rejoin_hash", sa.String))
    rows = bind.execute(sa.select(seats.c.match_id, seats.c.seat, seats.c.rejoin_token)
                        .where(seats.c.rejoin_token.is_not(None))).all()
    for match_id, seat, token in rows:
        bind.execute(seats.update().where(seats.c.match_id == match_id, seats.c.seat == seat)
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


def downgrade() -> None:
    bind = op.get_bind()
    linked = bind.execute(sa.text(
        "SELECT (SELECT count(*) FROM seats WHERE rejoin_hash IS NOT NULL OR player_id IS NOT "
        "NULL) + (SELECT count(*) FROM seat_grants)")).scalar()
    if linked:
        raise RuntimeError(
            "0007_seat_grants cannot be downgraded: rejoin links are stored as hashes (the old "
            f"schema needs the tokens) and {linked} seat link(s)/grant(s) exist. Downgrading "
            "would break every rejoin link and drop the grants; restore a backup taken before "
            "the upgrade instead.")
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
