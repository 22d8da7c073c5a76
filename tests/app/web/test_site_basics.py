"""Public-site basics (issue 12 §4), every database.

"Security headers on every response [...] The development SECRET_KEY is refused unless the
server listens on loopback only. Admin login is throttled, compares ADMIN_TOKEN in constant
time, and logs failures. Webhooks connect to the address that passed the public-address check
[...] CSRF refusals and every limit hit are log events and metrics [...] pip-audit (or an
equivalent) runs in CI against the pinned dependencies."
"""
from __future__ import annotations

import importlib.util
import json
import logging
import os
import re
import socket
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

from app.main import create_app
from app.settings import DEV_SECRET, Settings
from app.telemetry.metrics import LIMIT_HITS
from app.web import security
from tests.app.conftest import migrate, named, release_cancelled_connections
from tests.app.matches.test_webhooks import Receiver
from tests.app.realtime.test_live import recv, started
from tests.csrf import as_browser

ROOT = Path(__file__).resolve().parents[3]
ADMIN = "admin-token-for-the-throttle-test"


@pytest.fixture
def database_url(tmp_path):
    """SQLite only: headers, start-up checks, throttles and webhooks do not depend on the
    database (the rate limiter's PostgreSQL counting is tests/app/web/test_rate_limits.py's)."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'lair.db'}"
    migrate(url)
    return url


def hits(limit: str) -> float:
    return LIMIT_HITS.labels(limit)._value.get()


# ----- headers ----------------------------------------------------------------------------------
@pytest.mark.parametrize("secure", [False, True])
def test_every_response_carries_the_security_headers(database_url, secure):
    app = create_app(Settings(database_url=database_url, secret_key="s", cookie_secure=secure))
    with as_browser(TestClient(app, base_url="http://testserver")) as client:
        named(client, "Ann")
        stranger = TestClient(app)
        stranger.portal = client.portal
        answers = [client.get("/"), client.get("/static/css/lair.css"), client.get("/api/games"),
                   client.get("/m/nosuchmatch"), client.get("/no/such/page"),
                   client.post("/name", data={"name": "Bo"}, follow_redirects=False),
                   stranger.post("/matches", headers={"origin": "https://evil.example"})]
        for r in answers:
            csp = r.headers.get("content-security-policy", "")
            directives = dict(d.strip().split(" ", 1) for d in csp.split(";"))
            assert directives["frame-ancestors"] == "'self'", r.url  # no clickjacking
            assert directives["script-src"] == "'self'"  # no inline script, no other site
            assert directives["object-src"] == "'none'" and directives["form-action"] == "'self'"
            assert r.headers["x-frame-options"] == "SAMEORIGIN"
            assert r.headers["referrer-policy"] == "same-origin"
            assert r.headers["x-content-type-options"] == "nosniff"
            assert ("strict-transport-security" in r.headers) is secure
            if secure:
                assert r.headers["strict-transport-security"] == "max-age=31536000"


def test_the_bench_probes_are_not_routes_of_the_site(database_url):
    """The load benchmark's read-only probes (bench/memory_probe.py: per-match map sizes, live
    objects, the hard bots' pool and its workers' process ids) exist only in the bench's own
    app: the site answers 404 for each, to a stranger and to a named user alike."""
    from bench.memory_probe import ROUTES
    assert "/_bench/bots" in ROUTES
    app = create_app(Settings(database_url=database_url, secret_key="s"))
    with as_browser(TestClient(app, base_url="http://testserver")) as client:
        for path in ROUTES:
            assert client.get(path).status_code == 404, path
        named(client, "Ann")
        for path in ROUTES:
            r = client.get(path)
            assert r.status_code == 404 and "in_flight" not in r.text, path


def test_no_template_has_an_inline_script_or_handler():
    """``script-src 'self'`` runs only files: every template's scripts must be files."""
    for path in sorted((ROOT / "templates").glob("*.html")):
        html = path.read_text()
        for tag in re.findall(r"<script\b[^>]*>", html):
            assert "src=" in tag, (path.name, tag)
        assert not re.search(r"\son[a-z]+\s*=", html), path.name
        assert "javascript:" not in html, path.name


# ----- the development secret -------------------------------------------------------------------
@pytest.mark.parametrize("fields, refused", [
    ({}, False), ({"host": "localhost"}, False), ({"host": "::1"}, False),
    ({"host": "127.0.0.2", "public_url": "http://127.0.0.1:8000"}, False),
    ({"host": "0.0.0.0"}, True), ({"host": "::"}, True), ({"host": "192.168.1.5"}, True),
    ({"public_url": "https://lair.example.org"}, True), ({"cookie_secure": True}, True),
    ({"host": "0.0.0.0", "secret_key": "a-real-secret"}, False),
])
def test_the_development_secret_only_on_loopback(fields, refused):
    settings = Settings(**fields)
    if refused:
        with pytest.raises(security.DevSecretRefused, match="SECRET_KEY is the development"):
            security.refuse_dev_secret(settings)
    else:
        security.refuse_dev_secret(settings)


def test_a_server_on_every_interface_with_the_development_secret_does_not_start(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("SECRET_KEY", "PUBLIC_URL")}
    env.update(HOST="0.0.0.0", PORT="0", PYTHONPATH=str(ROOT),
               DATABASE_URL=f"sqlite+aiosqlite:///{tmp_path / 'x.db'}")
    proc = subprocess.run([sys.executable, "-m", "app.ops.cli", "serve"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)  # `lair serve`
    assert proc.returncode != 0
    assert "Refusing to start on HOST=0.0.0.0" in proc.stderr
    assert "SECRET_KEY is the development default" in proc.stderr


def test_with_the_development_secret_only_loopback_requests_are_served(database_url):
    app = create_app(Settings(database_url=database_url, secret_key=DEV_SECRET))
    with TestClient(app, base_url="http://127.0.0.1:8000") as local:
        assert local.get("/").status_code == 200
        proxied = local.get("/", headers={"x-forwarded-for": "203.0.113.9"})
        assert proxied.status_code == 503 and "SECRET_KEY" in proxied.text
        lan = TestClient(app, base_url="http://192.168.1.5:8000")
        lan.portal = local.portal
        r = lan.get("/")
        assert r.status_code == 503 and "SECRET_KEY is the development default" in r.text
        assert r.headers["x-content-type-options"] == "nosniff"
        release_cancelled_connections(local)


# ----- admin sign-in ----------------------------------------------------------------------------
def test_admin_sign_in_is_throttled_per_address_and_logged(database_url, caplog, monkeypatch):
    import app.ops.admin as admin
    from app.telemetry.metrics import RATE_LIMITED

    compared = []
    real = admin.hmac.compare_digest
    monkeypatch.setattr(admin.hmac, "compare_digest",  # hmac is shared: count the token's
                        lambda a, b: (b == ADMIN.encode() and compared.append(1)) or real(a, b))
    app = create_app(Settings(database_url=database_url, secret_key="s", admin_token=ADMIN,
                              rate_admin_login="3/15 minutes"))
    with as_browser(TestClient(app, base_url="http://testserver",
                               client=("198.51.100.7", 4000))) as guesser:
        before = RATE_LIMITED.labels("admin_login")._value.get()
        with caplog.at_level(logging.INFO):
            for _ in range(3):
                r = guesser.post("/admin/login", data={"token": "guess"})
                assert r.status_code == 401 and "Wrong token" in r.text
            assert len(compared) == 3  # hmac.compare_digest each time
            # past the limit even the right token is refused, without being compared
            r = guesser.post("/admin/login", data={"token": ADMIN}, follow_redirects=False)
            assert r.status_code == 429 and "Too many admin sign-in attempts" in r.text
            assert int(r.headers["retry-after"]) > 0 and "lair_admin" not in guesser.cookies
        assert len(compared) == 3
        refusals = [x for x in caplog.records if getattr(x, "event", None) == "admin_login"]
        assert len(refusals) == 3 and not any(x.ok for x in refusals)
        limited = [x for x in caplog.records if getattr(x, "event", None) == "rate_limited"]
        assert [x.rule for x in limited] == ["admin_login"]
        assert ADMIN not in caplog.text and "guess" not in caplog.text
        assert RATE_LIMITED.labels("admin_login")._value.get() == before + 1
        # another address is not held back
        operator = as_browser(TestClient(app, base_url="http://testserver",
                                         client=("192.0.2.1", 4000)))
        operator.portal = guesser.portal
        r = operator.post("/admin/login", data={"token": ADMIN}, follow_redirects=False)
        assert r.status_code == 303 and "lair_admin" in operator.cookies


# ----- webhooks ---------------------------------------------------------------------------------
def _fake_dns(monkeypatch, answers: dict[str, list[list[str]]]):
    """socket.getaddrinfo answering ``answers[host]`` one list per lookup (then: no such host);
    returns the list of looked-up names."""
    real = socket.getaddrinfo
    asked: list[str] = []

    def getaddrinfo(host, port, *args, **kwargs):
        if host not in answers:
            return real(host, port, *args, **kwargs)
        asked.append(host)
        if not answers[host]:
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return [(socket.AF_INET6 if ":" in a else socket.AF_INET, socket.SOCK_STREAM, 6, "",
                 (a, port)) for a in answers[host].pop(0)]
    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    return asked


def test_a_webhook_connects_to_the_address_that_passed_the_check(client, monkeypatch):
    """DNS rebinding: the name answers a public address for the check, then a private one."""
    asked = _fake_dns(monkeypatch, {"hooks.example": [["93.184.216.34"], ["127.0.0.1"]]})
    seen: list[httpx.Request] = []
    hooks = client.app.state.webhooks
    hooks.transport = httpx.MockTransport(lambda r: seen.append(r) or httpx.Response(204))
    ok = client.portal.call(hooks.post, "m1", "turn", "https://hooks.example/a?key=1",
                            {"content": "x"})
    assert ok and asked == ["hooks.example"]  # one lookup: the one checked
    (request,) = seen
    assert request.url.host == "93.184.216.34" and request.url.path == "/a"
    assert request.url.query == b"key=1" and request.url.scheme == "https"
    assert request.headers["host"] == "hooks.example"
    assert request.extensions["sni_hostname"] == "hooks.example"  # the certificate's name


def test_a_webhook_is_called_once_resolved_even_if_the_name_changes(client, monkeypatch):
    """A real call: the name resolves once (to the loopback receiver, private addresses allowed
    here); a second lookup would find nothing, as a rebinding name could answer anything."""
    receiver = Receiver()
    try:
        port = receiver.server.server_address[1]
        asked = _fake_dns(monkeypatch, {"rebind.test": [["127.0.0.1"]]})
        hooks = client.app.state.webhooks
        hooks.allow_private = True
        ok = client.portal.call(hooks.post, "m1", "turn", f"http://rebind.test:{port}/hooks/abc",
                                {"content": "x"})
        assert ok and asked == ["rebind.test"]
        assert [c["path"] for c in receiver.calls] == ["/hooks/abc"]
    finally:
        receiver.close()


def test_a_webhook_to_a_name_of_a_private_address_is_refused(client, monkeypatch):
    _fake_dns(monkeypatch, {"inside.example": [["93.184.216.34", "10.0.0.5"]]})
    seen = []
    hooks = client.app.state.webhooks
    hooks.transport = httpx.MockTransport(lambda r: seen.append(r) or httpx.Response(204))
    assert not client.portal.call(hooks.post, "m1", "turn", "https://inside.example/",
                                  {"content": "x"})
    assert seen == []


# ----- limit hits -------------------------------------------------------------------------------
def test_limit_hits_are_logged_once_per_flood_and_counted(database_url, caplog):
    app = create_app(Settings(database_url=database_url, secret_key="s", bot_delay=0,
                              ws_rate=1e-6, ws_burst=2, max_message_bytes=200,
                              record_max_bytes=1000))
    with as_browser(TestClient(app, base_url="http://testserver")) as client:
        mid, _ = started(client)
        before = {k: hits(k) for k in ("ws_rate", "ws_too_large", "record_too_large",
                                       "body_too_large")}
        with caplog.at_level(logging.INFO):
            with client.websocket_connect(f"/ws/matches/{mid}") as ws:
                recv(ws, "view")
                ws.send_text("x" * 300)
                assert recv(ws, "error")["code"] == "too_large"
                # the oversized message took one of the burst of 2: one more, then 5 refused
                for _ in range(6):
                    ws.send_text(json.dumps({"type": "ping"}))
                codes = [recv(ws, "error")["code"] for _ in range(5)]
                assert codes == ["rate_limited"] * 5
            r = client.post("/records", content=b"{" * 5000,
                            headers={"content-type": "application/json"})
            assert r.status_code == 413
            r = client.post("/name", data={"name": "x" * 20_000})  # over FORM_MAX_BYTES
            assert r.status_code == 413
        release_cancelled_connections(client)
    assert hits("ws_too_large") == before["ws_too_large"] + 1
    assert hits("ws_rate") == before["ws_rate"] + 5
    assert hits("record_too_large") == before["record_too_large"] + 1
    assert hits("body_too_large") == before["body_too_large"] + 1
    logged = [x.limit for x in caplog.records if getattr(x, "event", None) == "limit_hit"]
    assert logged == ["ws_too_large", "ws_rate", "record_too_large"]


# ----- pip-audit in CI --------------------------------------------------------------------------
def _audit_module():
    spec = importlib.util.spec_from_file_location("ci_audit", ROOT / ".ci" / "audit.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _fake_pip_audit(tmp_path, report: dict | None) -> Path:
    exe = tmp_path / "pip-audit"
    exe.write_text("#!" + sys.executable + "\nimport sys, json\nargs = sys.argv\n"
                   f"report = {report!r}\n"
                   "if report is None: sys.exit('no network')\n"
                   "open(args[args.index('-o') + 1], 'w').write(json.dumps(report))\n")
    exe.chmod(0o755)
    return exe


@pytest.mark.parametrize("report, code, says", [
    ({"dependencies": [{"name": "jinja2", "version": "3.1.2", "vulns": [
        {"id": "GHSA-h5c8-rqwp-cp95", "fix_versions": ["3.1.3"]}]}]}, 1,
     "jinja2 3.1.2: GHSA-h5c8-rqwp-cp95 (fixed in: 3.1.3)"),
    ({"dependencies": [{"name": "httpx", "version": "0.28.1", "vulns": []}]}, 0,
     "no known vulnerabilities"),
    ({"dependencies": [{"name": "httpx", "skip_reason": "Dependency not found on PyPI"}]}, 0,
     "NOT AUDITED"),
    (None, 0, "NOT AUDITED"),
])
def test_ci_audits_the_pinned_dependencies(tmp_path, monkeypatch, capsys, report, code, says):
    audit = _audit_module()
    exe = _fake_pip_audit(tmp_path, report)
    monkeypatch.setattr(audit, "tool", lambda: exe)
    pins = audit.pins()
    assert any(p.startswith("fastapi==") for p in pins) and any(p.startswith("pytest==")
                                                                for p in pins)
    assert audit.main() == code
    assert says in capsys.readouterr().out
    assert "python3 .ci/audit.py" in (ROOT / ".ci" / "run").read_text()
