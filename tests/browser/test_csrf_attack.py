"""Cross-site forms in a real browser (issue 12 §2 and "Done when: tried again as an attacker
would — cross-site pages in a real browser (another origin and another port)").

"A page on another site can auto-submit ``POST /rejoin/<token>`` and replace a visitor's identity
cookie (login CSRF, confirmed in Chromium), and every state-changing form [...] works when posted
from another origin, another port of the same host included (that is *same-site*: SameSite
cookies do not stop it)." Here a page on another port of the site's host auto-submits the host's
Cancel form and the attacker's own rejoin confirmation in the victim's Chromium (which sends the
victim's cookies along): both are refused with "Reload and try again" and nothing changes.
"""
from __future__ import annotations

import contextlib
import html
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from tests.browser.test_full_match import host_new_match
from tests.chromium import ARTIFACTS, screenshot

pytestmark = pytest.mark.e2e


@contextlib.contextmanager
def attacker_site(pages: dict[str, str]) -> Iterator[str]:
    """A site on another port of 127.0.0.1 serving ``pages`` (path -> HTML); its base URL."""
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 - http.server's naming
            body = pages.get(self.path, "").encode()
            self.send_response(200 if body else 404)
            self.send_header("content-type", "text/html; charset=utf-8")
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def auto_submit(action: str) -> str:
    """An attacker's page that posts a form to ``action`` as soon as it loads."""
    return (f'<form method="post" action="{html.escape(action)}">'
            '<input type="hidden" name="csrf_token" value="guessed"></form>'
            "<script>document.forms[0].submit()</script>")


def test_a_page_on_another_port_cannot_cancel_a_match_or_sign_the_visitor_in(lair_server,
                                                                              browser):
    victim_ctx, mallory_ctx = browser.new_context(), browser.new_context()
    try:
        victim = victim_ctx.new_page()
        host_new_match(victim, lair_server, "Morgana", "covil")
        victim.wait_for_selector("#invite-link")
        waiting = victim.url
        mallory = mallory_ctx.new_page()
        host_new_match(mallory, lair_server, "Mallory", "covil")
        mallory.click("#make-rejoin-link")  # her link for "another device": a seat grant
        mallory_rejoin = mallory.locator("#rejoin-link").input_value()
        assert "/rejoin/" in mallory_rejoin
        pages = {"/cancel": auto_submit(waiting + "/cancel"), "/rejoin": auto_submit(mallory_rejoin)}
        with attacker_site(pages) as evil:
            assert evil.rsplit(":", 1)[0] == lair_server.rsplit(":", 1)[0]  # same host
            for path in ("/cancel", "/rejoin"):
                victim.goto(evil + path)
                victim.wait_for_selector("h1:has-text('Reload and try again')")
                screenshot(victim, ARTIFACTS / f"csrf-refused{path.replace('/', '-')}.png")
                assert victim.url.startswith(lair_server)  # the browser did post it, with cookies
        victim.goto(waiting)
        assert victim.locator("#start").is_visible() and victim.locator("#cancel").is_visible()
        assert "Morgana" in victim.locator("nav").inner_text()  # still herself, not Mallory
        # the site's own Cancel form still works (a real click, the token from the page)
        victim.click("#cancel")
        victim.click("#cancel-confirm")
        victim.wait_for_selector("#start", state="detached")
    finally:
        victim_ctx.close()
        mallory_ctx.close()
