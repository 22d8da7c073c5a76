"""rate limit windows (app.ratelimit) and the serving heartbeat (app.matches.outage)

Revision ID: 0008_rate_windows_heartbeats
Revises: 0006_records_chat_channels

Both tables hold only transient facts (counters of windows that end within the hour, the time a
process last served), so the downgrade drops them and loses nothing the next upgrade needs: the
limits count afresh, and a missing heartbeat means no outage is credited.
Create Date: 2026-12-01
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = "0008_rate_windows_heartbeats"
down_revision: Union[str, Sequence[str], None] = "0006_records_chat_channels"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table(
        "rate_windows",
        sa.Column("key", sa.String(length=200), nullable=False),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("key"),
    )
    op.create_index("ix_rate_windows_expires_at", "rate_windows", ["expires_at"])
    op.create_table(
        "heartbeats",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("beat_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )


def downgrade() -> None:
    op.drop_table("heartbeats")
    op.drop_index("ix_rate_windows_expires_at", table_name="rate_windows")
    op.drop_table("rate_windows")
