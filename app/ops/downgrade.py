"""Downgrades that lose nothing, or refuse to (issue 13, item 12): helpers for the migrations.

A rollback (``alembic downgrade``) followed by the next upgrade must give back every row as it
was. A migration whose downgrade drops a table or columns keeps their contents aside in a
``kept_<revision>_<what>`` table (:func:`keep`, or the table renamed) that its upgrade puts back
(:func:`restore`) and drops; rows the older code added meanwhile get the defaults, as new rows
would. A migration that cannot give the data back (the older schema cannot hold it, or the
older code would change what was kept) refuses to downgrade while that data exists
(:func:`refuse_if_any`) with a message, unless forced: ``alembic -x force=1 downgrade <rev>`` or
``LAIR_DOWNGRADE_FORCE=1``. Offline (``--sql``) nothing is counted: the SQL is only written.
"""
from __future__ import annotations

import os

import sqlalchemy as sa
from alembic import context, op

FORCE_ENV = "LAIR_DOWNGRADE_FORCE"


class LossyDowngrade(RuntimeError):
    """A downgrade would lose data and was not forced (the message says what and how)."""


def forced() -> bool:
    """Whether the operator accepted losing data (``-x force=1`` or ``LAIR_DOWNGRADE_FORCE=1``)."""
    yes = ("1", "true", "yes")
    return (str(context.get_x_argument(as_dictionary=True).get("force", "")).lower() in yes
            or os.environ.get(FORCE_ENV, "").lower() in yes)


def refuse_if_any(revision: str, what: str, *count_queries: str) -> None:
    """Raise :class:`LossyDowngrade` unless forced when any ``SELECT COUNT(*) ...`` of
    ``count_queries`` counts a row: downgrading ``revision`` would lose ``what``."""
    if context.is_offline_mode():
        return
    bind = op.get_bind()
    rows = sum(bind.execute(sa.text(q)).scalar() or 0 for q in count_queries)
    if rows and not forced():
        raise LossyDowngrade(
            f"Downgrading {revision} would lose {what} ({rows} row(s)), which the next upgrade "
            f"cannot give back. Back up the database first; to downgrade anyway, run "
            f"`alembic -x force=1 downgrade ...` (or set {FORCE_ENV}=1).")


def exists(table: str) -> bool:
    """Whether ``table`` exists (False offline)."""
    if context.is_offline_mode():
        return False
    return sa.inspect(op.get_bind()).has_table(table)


def drop_kept() -> None:
    """Drop every ``kept_*`` table (the first migration's downgrade: nothing comes back)."""
    if context.is_offline_mode():
        return
    for name in sa.inspect(op.get_bind()).get_table_names():
        if name.startswith("kept_"):
            op.drop_table(name)


def keep(name: str, select: str) -> None:
    """Keep the rows of ``select`` in a new table ``name`` (an older copy is replaced)."""
    op.execute(f"DROP TABLE IF EXISTS {name}")
    op.execute(f"CREATE TABLE {name} AS {select}")


def restore(name: str, table: str, keys: list[str], columns: list[str], when: str = "",
            drop: bool = True) -> None:
    """Put ``columns`` of ``table`` back from the kept table ``name`` (rows matched on ``keys``;
    only where the SQL condition ``when`` on ``k``, the kept row, and ``table`` holds), then
    drop ``name`` (unless ``drop`` is false: more columns to restore from it). Nothing to do
    when it does not exist (a database never downgraded)."""
    if not exists(name):
        return
    match = " AND ".join(f"k.{c} = {table}.{c}" for c in keys) + (f" AND {when}" if when else "")
    sets = ", ".join(f"{c} = (SELECT k.{c} FROM {name} k WHERE {match})" for c in columns)
    op.execute(f"UPDATE {table} SET {sets} WHERE EXISTS (SELECT 1 FROM {name} k WHERE {match})")
    if drop:
        op.execute(f"DROP TABLE {name}")
