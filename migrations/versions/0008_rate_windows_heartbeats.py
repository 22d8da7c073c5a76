"""rate limit windows (app.ratelimit) and the serving heartbeat (app.matches.outage)

Revision ID: 0008_rate_windows_heartbeats
Revises: 0006_records_chat_channels

The rate windows are kept aside by the downgrade (``kept_0008_rate_windows``) and put back by the
next upgrade (issue 13, item 12): they hold the per-address quotas too (record uploads per day),
which a rollback must not reset. The heartbeat is dropped on purpose: the older code beats
none, so a kept beat would date from before the rollback, and the first look after the upgrade
would give every running clock the whole time the older code served as if nothing had been
(a missing heartbeat means no outage is credited: at worst the minutes of the upgrade itself).
Create Date: 2026-12-01
"""
from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

from app.ops.downgrade import exists, keep

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
    if exists("kept_0008_rate_windows"):
        op.execute('INSERT INTO rate_windows ("key", "count", expires_at) '
                    'SELECT "key", "count", expires_at FROM kept_0008_rate_windows')
        op.drop_table("kept_0008_rate_windows")


def downgrade() -> None:
    keep("kept_0008_rate_windows", 'SELECT "key", "count", expires_at FROM rate_windows')
    op.drop_table("heartbeats")
    op.drop_index("ix_rate_windows_expires_at", table_name="rate_windows")
    op.drop_table("rate_windows")
