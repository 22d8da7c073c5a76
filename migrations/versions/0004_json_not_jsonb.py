"""store JSON columns as json (text kept as written), not jsonb (keys reordered)

A match's state must round-trip exactly: jsonb sorts object keys, so an engine that iterates
a dict in insertion order could replay differently from the live match.

Revision ID: 0004_json_not_jsonb
Revises: 0003_seat_away_user
Create Date: 2026-11-30
"""
from typing import Sequence, Union

from alembic import op

from app.ops.downgrade import refuse_if_any

revision: str = "0004_json_not_jsonb"
down_revision: Union[str, Sequence[str], None] = "0003_seat_away_user"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

COLUMNS = [("matches", "options"), ("matches", "state"), ("matches", "result"),
           ("actions", "action")]


def upgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return  # SQLite stores JSON as text already
    for table, column in COLUMNS:
        op.execute(f"ALTER TABLE {table} ALTER COLUMN {column} TYPE json USING {column}::text::json")


def downgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    # jsonb reorders the keys of every stored object for good: the states would not replay.
    refuse_if_any(revision, "the key order of the stored match states and actions",
                  *(f"SELECT COUNT(*) FROM {table} WHERE {column} IS NOT NULL"
                    for table, column in COLUMNS))
    for table, column in COLUMNS:
        op.execute(f"ALTER TABLE {table} ALTER COLUMN {column} TYPE jsonb USING {column}::jsonb")
