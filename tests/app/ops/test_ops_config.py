"""Configuration (issue 8, item 7): every setting comes from the environment (pydantic-settings)
and is listed in the operations guide's table; the guide has the operator's sections, and the
README leads with playing and links to the docs (issue 16)."""
from __future__ import annotations

from pathlib import Path

from app.settings import Settings

ROOT = Path(__file__).resolve().parents[3]
README = (ROOT / "README.md").read_text()
OPERATIONS = (ROOT / "docs" / "operations.md").read_text()


def test_every_setting_is_in_the_settings_table():
    table = [line for line in OPERATIONS.splitlines() if line.startswith("| `")]
    for name in Settings.model_fields:
        assert any(f"`{name.upper()}`" in line for line in table), name


def test_settings_come_from_the_environment(monkeypatch):
    monkeypatch.setenv("ADMIN_TOKEN", "from-env")
    monkeypatch.setenv("SHUTDOWN_TIMEOUT", "3.5")
    monkeypatch.setenv("LOG_FORMAT", "text")
    s = Settings()
    assert (s.admin_token, s.shutdown_timeout, s.log_format) == ("from-env", 3.5, "text")


def test_the_guide_tells_an_operator_how_to_watch_back_up_and_restore():
    for needle in ("## Running the site", "/readyz", "/metrics", "pg_dump", "psql", ".backup",
                   "lair verify", "Production checklist", "SECRET_KEY", "COOKIE_SECURE",
                   "ALLOWED_ORIGINS", "DATABASE_URL", "WEB_CONCURRENCY"):
        assert needle in OPERATIONS, needle
    assert OPERATIONS.index("## Settings") < OPERATIONS.index("## Hosting") < \
        OPERATIONS.index("## Running the site") < OPERATIONS.index("## Security")


def test_the_readme_leads_with_playing_and_links_the_docs():
    assert README.index("make run") < README.index("**invite link**") < \
        README.index("**private window**") < README.index("## Documentation")
    assert "## Hosting" not in README and "| `DATABASE_URL`" not in README
    for doc in ("docs/design.md", "docs/wire.md", "docs/operations.md"):
        assert f"]({doc})" in README, doc
