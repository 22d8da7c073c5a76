"""Configuration (issue 8, item 7): every setting comes from the environment (pydantic-settings)
and is listed in the README's table; the README has the operator's sections."""
from __future__ import annotations

from pathlib import Path

from app.settings import Settings

README = (Path(__file__).resolve().parents[2] / "README.md").read_text()


def test_every_setting_is_in_the_readme_table():
    table = [line for line in README.splitlines() if line.startswith("| `")]
    for name in Settings.model_fields:
        assert any(f"`{name.upper()}`" in line for line in table), name


def test_settings_come_from_the_environment(monkeypatch):
    monkeypatch.setenv("ADMIN_TOKEN", "from-env")
    monkeypatch.setenv("SHUTDOWN_TIMEOUT", "3.5")
    monkeypatch.setenv("LOG_FORMAT", "text")
    s = Settings()
    assert (s.admin_token, s.shutdown_timeout, s.log_format) == ("from-env", 3.5, "text")


def test_readme_tells_an_operator_how_to_watch_back_up_and_restore():
    for needle in ("## Operations", "/readyz", "/metrics", "pg_dump", "psql", ".backup",
                   "lair verify", "Production checklist", "SECRET_KEY", "COOKIE_SECURE",
                   "ALLOWED_ORIGINS", "DATABASE_URL", "WEB_CONCURRENCY"):
        assert needle in README, needle
    assert README.index("make run") < README.index("## Configuration") < \
        README.index("## Hosting") < README.index("## Operations")
