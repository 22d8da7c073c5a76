"""Alembic environment: the database URL comes from Lair's settings (``DATABASE_URL``)."""
import asyncio
from logging.config import fileConfig

from alembic import context
from sqlalchemy import event, pool, text
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import create_async_engine

from app.models import Base
from app.settings import get_settings

config = context.config
if config.config_file_name is not None and config.attributes.get("configure_logger", True):
    fileConfig(config.config_file_name, disable_existing_loggers=False)

target_metadata = Base.metadata


def _url() -> str:
    return config.attributes.get("url") or get_settings().async_database_url


def run_migrations_offline() -> None:
    """Emit SQL without a connection (``alembic upgrade head --sql``)."""
    context.configure(url=_url(), target_metadata=target_metadata, literal_binds=True,
                      dialect_opts={"paramstyle": "named"}, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


# Any fixed number: the PostgreSQL advisory lock that makes concurrent upgrades take turns.
MIGRATION_LOCK = 7_405_231_108


def do_run_migrations(connection: Connection) -> None:
    # transactional_ddl: one transaction on SQLite too (alembic assumes none there), so a
    # migration failing midway leaves nothing half done (_transactional_sqlite_ddl)
    context.configure(connection=connection, target_metadata=target_metadata,
                      render_as_batch=True, transactional_ddl=True)
    with context.begin_transaction():
        if connection.dialect.name == "postgresql":
            # Processes started together on a new database (several `make run`, containers)
            # would all create the same tables and all but one fail. The lock lasts until this
            # transaction commits; the next upgrade then reads the new revision and does nothing.
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"),
                               {"key": MIGRATION_LOCK})
        context.run_migrations()


def _transactional_sqlite_ddl(engine) -> None:
    """Make SQLite's DDL part of the migration's one transaction, as PostgreSQL's is: by default
    the driver commits before every DDL statement, so a migration failing midway (a downgrade
    refused as lossy: app/ops/downgrade.py) would leave the steps before it applied. (The
    SQLAlchemy documentation's recipe for pysqlite/aiosqlite.)"""
    @event.listens_for(engine.sync_engine, "connect")
    def _no_implicit_transactions(dbapi_connection, _record) -> None:
        dbapi_connection.isolation_level = None

    @event.listens_for(engine.sync_engine, "begin")
    def _begin(conn) -> None:
        conn.exec_driver_sql("BEGIN")


async def run_async_migrations() -> None:
    connectable = create_async_engine(_url(), poolclass=pool.NullPool)
    if connectable.dialect.name == "sqlite":
        _transactional_sqlite_ddl(connectable)
    async with connectable.connect() as connection:
        await connection.run_sync(do_run_migrations)
    await connectable.dispose()


def run_migrations_online() -> None:
    asyncio.run(run_async_migrations())


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
