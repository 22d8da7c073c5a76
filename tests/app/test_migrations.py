"""Every schema change is a migration (DESIGN.md "Folders" > migrations/)."""
from __future__ import annotations

from alembic import command
from alembic.config import Config

from tests.app.conftest import ROOT


def test_models_match_the_migrations(database_url):
    cfg = Config(str(ROOT / "alembic.ini"))
    cfg.attributes["url"] = database_url
    cfg.attributes["configure_logger"] = False
    command.check(cfg)  # raises if autogenerate would find differences


def test_downgrade_to_base_and_back(database_url):
    cfg = Config(str(ROOT / "alembic.ini"))
    cfg.attributes["url"] = database_url
    cfg.attributes["configure_logger"] = False
    command.downgrade(cfg, "base")
    command.upgrade(cfg, "head")
