"""Fixtures of the operations tests."""
from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.settings import Settings
from tests.app.conftest import release_cancelled_connections
from tests.app.ops.test_ops_support import ADMIN
from tests.csrf import as_browser


@pytest.fixture
def ops_client(database_url):
    """A browser's client of an app with the operator's token ``ADMIN`` set (no bot delay)."""
    settings = Settings(database_url=database_url, secret_key="test-secret", bot_delay=0,
                        admin_token=ADMIN)
    with as_browser(TestClient(create_app(settings), base_url="http://testserver")) as c:
        yield c
        release_cancelled_connections(c)
