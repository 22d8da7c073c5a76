"""Shared set-up of the browser tests (Playwright, sync API, on Debian's Chromium).

One place for what every ``e2e`` test needs: the Chromium binary and its launch arguments, the
``browser`` fixture (registered for the whole ``tests`` tree by ``tests/conftest.py``), free
ports, a uvicorn app in a thread, a real ``make run``-like server process, and the screenshot
folders. Never ``playwright install``: the browser is the system's ``/usr/bin/chromium``.
The site's Content-Security-Policy is enforced in these browsers: a violation fails the tests
(:class:`Watched`), and ``wait_for_function`` polls through the DevTools protocol, which the
CSP does not restrict (:func:`_wait_for_function`).
"""
from __future__ import annotations

import atexit
import contextlib
import functools
import os
import re
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: Screenshots of test runs (git-ignored).
ARTIFACTS = ROOT / "tests" / "browser" / "artifacts"
#: Screenshots of the client tests (``$LAIR_SHOTS``, default /tmp/client-shots).
SHOTS = Path(os.environ.get("LAIR_SHOTS", "/tmp/client-shots"))
CHROMIUM = shutil.which("chromium")
#: No sandbox (containers), no GPU, and nothing that phones home or updates itself.
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync"]
#: Phone portrait and desktop: the two sizes the table is laid out and screenshotted at.
PHONE = {"viewport": {"width": 375, "height": 740}, "device_scale_factor": 2,
         "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1366, "height": 800}}


def require_chromium() -> str:
    """The Chromium path; skips the test when it is missing (fails on CI, where it must be)."""
    if CHROMIUM is None:
        msg = "chromium is not installed: apt-get install -y chromium"
        if os.environ.get("CI"):
            pytest.fail(msg)
        pytest.skip(msg)
    return CHROMIUM


#: ``LAIR_E2E_QUICK=1`` (``make test`` sets it): the browser tests draw what they check and no
#: more -- no screenshots (nobody looks at a CI run's PNGs: ``make screenshots`` and a plain
#: ``pytest tests/browser`` still make them), phones at 1x pixels (layout, text and touch sizes
#: are in CSS pixels; 2x quadrupled the pixels rasterised), and ``prefers-reduced-motion`` for
#: every page whose test does not choose (the flashes after every bot move repainted the page
#: 60 times a second; tests/browser/test_motion.py and any test that asks keep the motion).
#: Measured 2026-12-07 on samples of the browser tests: no screenshots and 1x phones -14 % of
#: the CPU (Chromium and tests), reduced motion -18 % more on tests that had motion.
#: Off while ``LAIR_SCREENSHOTS`` asks for the docs' screenshots.
QUICK = os.environ.get("LAIR_E2E_QUICK") == "1" and not os.environ.get("LAIR_SCREENSHOTS")


def quick_options(options: dict) -> dict:
    """A new context's or page's Playwright ``options``, under :data:`QUICK` at 1x pixels and
    with reduced motion unless the test chose motion; unchanged otherwise."""
    if not QUICK:
        return options
    options = dict(options)
    if "device_scale_factor" in options:
        options["device_scale_factor"] = 1
    options.setdefault("reduced_motion", "reduce")
    return options


def _no_screenshot(self, *args, **kwargs) -> bytes:
    """``Page.screenshot`` / ``Locator.screenshot`` under :data:`QUICK`: takes none."""
    return b""


class Watched:
    """A Playwright ``Browser`` whose pages report Content-Security-Policy violations (issue 12
    §4: the site's CSP allows scripts from its own files only): ``violations`` lists the
    console messages of every context and page it made."""

    def __init__(self, browser):
        self._browser = browser
        self.violations: list[str] = []

    def __getattr__(self, name):
        return getattr(self._browser, name)

    def _console(self, msg) -> None:
        if "Content Security Policy" in msg.text:
            self.violations.append(msg.text)

    def new_context(self, *args, **kwargs):
        kwargs = quick_options(kwargs)
        ctx = self._browser.new_context(*args, **kwargs)
        ctx.on("console", self._console)
        return ctx

    def new_page(self, *args, **kwargs):
        kwargs = quick_options(kwargs)
        page = self._browser.new_page(*args, **kwargs)
        page.on("console", self._console)
        return page


def _wait_for_function(page, expression: str, *, arg=None, timeout: float | None = None,
                       polling=None):
    """``Page.wait_for_function`` that works under the site's CSP: Playwright polls a
    predicate by evaluating its source inside the page (``eval``, refused without
    ``'unsafe-eval'``); ``page.evaluate`` goes through the DevTools protocol, which CSP does
    not restrict. Same arguments; returns the truthy value; raises Playwright's
    ``TimeoutError`` after ``timeout`` ms (default 30 s). An evaluation that throws counts
    as "not yet", as with Playwright's own polling across navigations: a form post's page is
    briefly a document without the awaited element (or no context at all); the last error is
    in the timeout's message."""
    from playwright.sync_api import Error as PlaywrightError
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    # Without a given interval: 25 ms at first, each wait half as long again, up to 200 ms.
    # Each poll is a DevTools round trip costing the browser and the driver CPU (at a fixed
    # 50 ms, 12 % of a core while a test waits: measured 2026-12-07); a quick condition is
    # still seen quickly.
    fixed = polling if isinstance(polling, (int, float)) else None
    every = 25.0 if fixed is None else fixed
    deadline = time.monotonic() + (30_000 if timeout is None else timeout) / 1000
    last_error: str | None = None
    while True:
        try:
            value = page.evaluate(expression, arg)
        except PlaywrightTimeout:
            raise
        except PlaywrightError as exc:
            if page.is_closed():
                raise
            value, last_error = None, str(exc).splitlines()[0]
        if value:
            return value
        if timeout != 0 and time.monotonic() > deadline:
            raise PlaywrightTimeout(f"wait_for_function timed out: {expression}"
                                    + (f" (last error: {last_error})" if last_error else ""))
        page.wait_for_timeout(every)
        if fixed is None:
            every = min(200.0, every * 1.5)


#: How long a page gets to run one ``requestAnimationFrame`` callback before it counts as
#: stalled (ms).
_FRAME_PROBE_MS = 1500
_FRAMES_FLOW = """() => new Promise((done) => {
  requestAnimationFrame(() => done(true));
  setTimeout(() => done(false), %d);
})""" % _FRAME_PROBE_MS


def _frames_flow(page) -> bool:
    """Whether ``page`` still draws frames: a ``requestAnimationFrame`` callback runs within
    :data:`_FRAME_PROBE_MS` (timers and the DOM work without frames)."""
    return bool(page.evaluate(_FRAMES_FLOW))


def _click_through_stall(original):
    """``Locator.click`` that survives a page whose compositor stopped drawing frames.

    Playwright clicks only an element whose box stayed put over two animation frames. Once in
    hundreds of runs under CI's load (landing CI of 61a33a9, the Covil renderer's 3-player
    game) a page's ``requestAnimationFrame`` never fired again: the click waited 30 s on
    "visible, enabled and stable" and failed, with the page's DOM whole and answering. A
    known Chromium state (other projects' CI logs show the same call log; a fresh page is
    their remedy). When a click times out there and the page draws no frame, the same click
    is made without the wait (``force``: still a real mouse click at the element's centre,
    after scrolling it into view); the page is marked, so its later clicks skip the wait
    while it stays stalled. A click that timed out on a page that draws frames fails as
    before: the element really was hidden, disabled or moving."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    @functools.wraps(original)
    def click(self, *args, **kwargs):
        page = self.page
        if getattr(page, "_lair_stalled", False) and not kwargs.get("force"):
            if _frames_flow(page):
                page._lair_stalled = False
            else:
                return original(self, *args, **{**kwargs, "force": True})
        try:
            return original(self, *args, **kwargs)
        except PlaywrightTimeout as exc:
            if kwargs.get("force") or "stable" not in str(exc) or _frames_flow(page):
                raise
            page._lair_stalled = True
            print(f"tests/chromium.py: {page.url} draws no frames; clicking without the "
                  "stability wait", file=sys.stderr)
            return original(self, *args, **{**kwargs, "force": True})

    return click


@contextlib.contextmanager
def launch() -> Iterator:
    """A Playwright ``Browser`` on the system Chromium, closed on exit. A page that broke the
    Content-Security-Policy (an inline script, a script from elsewhere) fails the tests that
    used it: at exit, unless they failed already."""
    path = require_chromium()
    from playwright.sync_api import Locator, Page, sync_playwright

    original = Page.wait_for_function
    shots = Page.screenshot, Locator.screenshot
    click = Locator.click
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        watched = Watched(b)
        Page.wait_for_function = _wait_for_function
        Locator.click = _click_through_stall(click)
        if QUICK:
            Page.screenshot = Locator.screenshot = _no_screenshot
        try:
            yield watched
            assert not watched.violations, f"CSP violations: {watched.violations}"
        finally:
            Page.wait_for_function = original
            Page.screenshot, Locator.screenshot = shots
            Locator.click = click
            b.close()


@pytest.fixture(scope="module")
def browser():
    """One Chromium per test module (a fresh browser keeps modules independent)."""
    with launch() as b:
        yield b


def free_port() -> int:
    """A free TCP port on the loopback interface."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def serve_in_thread(app, timeout: float = 10.0) -> Iterator[str]:
    """Serve the ASGI ``app`` with uvicorn in a daemon thread, with the site's server options
    (``app.serve``; from the app's own settings when it is Lair's); yields its base URL.

    Raises ``RuntimeError`` if it is not listening within ``timeout`` seconds."""
    import uvicorn

    from app.serve import uvicorn_config
    from app.settings import Settings

    port = free_port()
    settings = getattr(getattr(app, "state", None), "settings", None) or Settings()
    server = uvicorn.Server(uvicorn_config(settings, app, "127.0.0.1", port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + timeout
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("server did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


@contextlib.contextmanager
def serve_page(html: str) -> Iterator[str]:
    """Serve one HTML page at ``/`` beside the site's ``/static`` files (a toy page that
    imports the table's modules); yields its base URL (:func:`serve_in_thread`)."""
    from fastapi import FastAPI
    from fastapi.responses import HTMLResponse
    from fastapi.staticfiles import StaticFiles

    app = FastAPI()
    app.mount("/static", StaticFiles(directory=ROOT / "static"), name="static")

    @app.get("/", response_class=HTMLResponse)
    async def page():
        return html

    with serve_in_thread(app) as url:
        yield url


@functools.cache
def _migrated_sqlite() -> Path:
    """A fresh SQLite database migrated to head by ``alembic upgrade head`` (``make run``'s
    first step), made once per test process: each server copies it. Migrating per server cost
    a Python process and ~1 s of CPU each (16 servers in the browsers' part); the migrations
    keep their own tests (tests/app/ops/test_migrations.py)."""
    folder = Path(tempfile.mkdtemp(prefix="lair-e2e-template-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    db = folder / "template.db"
    env = {**os.environ, "DATABASE_URL": f"sqlite+aiosqlite:///{db}", "SECRET_KEY": "e2e",
           "PYTHONPATH": str(ROOT)}
    subprocess.run([sys.executable, "-m", "alembic", "upgrade", "head"], cwd=ROOT, env=env,
                   check=True, capture_output=True)
    return db


#: The SQLite file of each running :func:`lair_process` server, by its base URL (for
#: :func:`fix_seed`).
_DATABASES: dict[str, Path] = {}


def match_id(url: str) -> str:
    """The match id in a match page's URL (``.../m/<id>``, its waiting room or its table)."""
    return re.search(r"/m/(\w+)", url).group(1)


def fix_seed(server: str, match: str, seed: int) -> None:
    """Test only: give the open (not yet started) match ``match`` of the test server ``server``
    (a :func:`lair_process` URL) the seed ``seed``, so the deal its start makes is the same at
    every run (a browser test whose course depends on the deal then never passes or fails by
    luck). It writes the row in that server's own SQLite file, which only the test can reach:
    the site has no route or setting that chooses a seed (a player who picks the deal could
    know the hidden cards). The start reads the match from the database, not from a cache."""
    with contextlib.closing(sqlite3.connect(_DATABASES[server], timeout=30)) as con, con:
        changed = con.execute("UPDATE matches SET seed = ? WHERE id = ? AND status = 'open'",
                              (seed, match)).rowcount
    assert changed == 1, f"no open match {match} to seed"


@contextlib.contextmanager
def lair_process(db: Path, **env: str) -> Iterator[str]:
    """``make run`` in miniature: a fresh SQLite file ``db`` migrated to head (a copy of
    :func:`_migrated_sqlite`), served with ``lair serve`` in a child process (extra
    environment ``env``, e.g. ``BOT_DELAY``); yields its base URL.

    Raises ``RuntimeError`` if ``/healthz`` does not answer within 60 s (a loaded CI box)."""
    import httpx

    env = {**os.environ, "DATABASE_URL": f"sqlite+aiosqlite:///{db}", "SECRET_KEY": "e2e",
           "BOT_DELAY": "0.05", "PYTHONPATH": str(ROOT), **env}
    shutil.copyfile(_migrated_sqlite(), db)
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "app.ops.cli", "serve"], cwd=ROOT,
                            env={**env, "HOST": "127.0.0.1", "PORT": str(port)})
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                httpx.get(url + "/healthz", timeout=1)
                break
            except httpx.HTTPError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise RuntimeError("server did not start")
                time.sleep(0.1)
        _DATABASES[url] = db
        yield url
    finally:
        _DATABASES.pop(url, None)
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


@pytest.fixture(scope="module")
def lair_server(tmp_path_factory):
    """The real site on a fresh migrated SQLite database (bots move after 0.05 s); its URL."""
    with lair_process(tmp_path_factory.mktemp("db") / "lair.db") as url:
        yield url


def screenshot(page, path: Path, full_page: bool = True) -> None:
    """Save a PNG of ``page`` at ``path`` (folders created as needed)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(path), full_page=full_page)


def open_card(page, node, phone: bool) -> str:
    """Open ``node``'s card as a player would (a long-press on a phone, a hover with the mouse
    coming from the corner on a desktop) and return its text (the table's ``.card-pop``)."""
    node.scroll_into_view_if_needed()
    if phone:
        node.dispatch_event("touchstart")
        page.wait_for_timeout(550)
        node.dispatch_event("touchend")
    else:
        page.mouse.move(0, 0)
        node.hover()
    card = page.locator(".card-pop")
    card.wait_for(timeout=3000)
    return card.inner_text()
