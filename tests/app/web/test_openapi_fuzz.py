"""HTTP: schemathesis against the app's OpenAPI document finds no 5xx (issue 6, section 3).

The app serves ``/openapi.json`` (the docs UI is off). A real uvicorn process on a fresh SQLite
database, with a named guest and one started bot match so that some generated requests reach
real matches, gets a bounded number of generated requests per operation (path and query
parameters, form bodies); every answer must be below 500.
"""
from __future__ import annotations

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings

from app.settings import Settings
from app.web import csrf
from tests.app.conftest import migrate
from tests.app.servers import SECRET, free_port, start_server
from tests.csrf import as_browser


@pytest.fixture(scope="module")
def api(tmp_path_factory):
    """``(base url, identity cookie, a started match id)`` on a real server."""
    url = f"sqlite+aiosqlite:///{tmp_path_factory.mktemp('openapi') / 'lair.db'}"
    migrate(url)
    port = free_port()
    proc = start_server(url, port, bot_delay=0.5)
    base = f"http://127.0.0.1:{port}"
    try:
        http = as_browser(httpx.Client(base_url=base, follow_redirects=True), SECRET)
        http.post("/name", data={"name": "Fuzz", "next": "/"})
        r = http.post("/matches", data={"game": "toy", "players_toy": "2", "public": "on"})
        mid = str(r.url).rsplit("/", 1)[1]
        http.post(f"/m/{mid}/fill", data={"bot": "random"})
        http.post(f"/m/{mid}/start")
        yield base, http.cookies["lair_user"], mid
    finally:
        proc.kill()
        proc.wait(timeout=10)


def test_no_server_errors(api):
    base, cookie, mid = api
    schema = schemathesis.openapi.from_url(f"{base}/openapi.json")
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 10
    for operation in operations:

        @given(case=operation.as_strategy())
        @settings(max_examples=12, deadline=None, derandomize=True, database=None,
                  suppress_health_check=list(HealthCheck))
        def run(case):
            # a stranger, then a named guest, each sending its page's CSRF token (app/web/csrf.py)
            for jar in ({"lair_pre": "fuzz-pre-session-value-0123"}, {"lair_user": cookie}):
                token = csrf.token_for(jar, Settings(secret_key=SECRET))
                response = case.call(base_url=base, allow_redirects=False, cookies=jar,
                                     headers={"X-CSRF-Token": token})
                assert response.status_code < 500, (case.method, case.formatted_path,
                                                     response.status_code, response.text[:500])

        run()
    # the real match too, with generated query and form values
    assert httpx.get(f"{base}/matches/{mid}/replay?step=-99999999999999999999").status_code < 500
