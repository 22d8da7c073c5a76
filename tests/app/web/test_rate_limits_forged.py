"""Forged requests do not spend an address's rate budget (issue 13, item 3; app/web/ratelimits.py,
``app.web.csrf.could_pass``).

A page on another site can make a visitor's browser post forms here. The CSRF guard refuses
them (403), and they must not count against the per-address limits either: otherwise the
attacker's page uses up the budget of the visitor's whole household (every browser behind the
same router) for new names, matches and uploads.
"""
from __future__ import annotations

from fastapi.testclient import TestClient

from app.main import create_app
from tests.app.conftest import named, new_client, release_cancelled_connections
from tests.csrf import as_browser

#: What a browser adds to a form posted by a page of another site.
CROSS_SITE = {"origin": "https://evil.example", "sec-fetch-site": "cross-site"}


def test_forged_posts_beyond_the_limit_leave_the_budget_to_genuine_ones(settings):
    app = create_app(settings.model_copy(update={"rate_identities": "2/hour",
                                                 "rate_matches": "2/hour",
                                                 "rate_records": "1/hour"}))
    with as_browser(TestClient(app, base_url="http://testserver")) as client:
        # forged "new name" forms: from another site, or with no token / another's token
        forged = TestClient(app, base_url="http://testserver")
        forged.portal = client.portal
        for _ in range(4):
            r = forged.post("/name", data={"name": "Mallory", "next": "/"}, headers=CROSS_SITE,
                            follow_redirects=False)
            assert r.status_code == 403, r.status_code
            assert "lair_user" not in r.cookies
        r = forged.post("/name", data={"name": "Mallory", "next": "/"},
                        follow_redirects=False)
        assert r.status_code == 403  # no token at all
        r = forged.post("/name", data={"name": "Mallory", "next": "/"},
                        headers={"x-csrf-token": "made-up"}, follow_redirects=False)
        assert r.status_code == 403  # a token not bound to this sender
        # the genuine ones from the same address still get their two new names
        named(client, "Ann")
        named(new_client(client), "Bob")
        r = new_client(client).post("/name", data={"name": "Cy", "next": "/"},
                                    follow_redirects=False)
        assert r.status_code == 429  # the limit itself still holds

        # forged "new match" forms from the signed-in visitor's browser (its cookies sent)
        for _ in range(4):
            r = client.post("/matches", data={"game": "toy", "players_toy": "2"},
                            headers=CROSS_SITE, follow_redirects=False)
            assert r.status_code == 403
        r = client.post("/matches", data={"game": "toy", "players_toy": "2"},
                        headers={"x-csrf-token": "made-up"}, follow_redirects=False)
        assert r.status_code == 403
        for _ in range(2):
            r = client.post("/matches", data={"game": "toy", "players_toy": "2"},
                            follow_redirects=False)
            assert r.status_code == 303, r.text
        r = client.post("/matches", data={"game": "toy", "players_toy": "2"},
                        follow_redirects=False)
        assert r.status_code == 429

        # a forged upload with the visitor's identity cookie is refused and not counted
        for _ in range(3):
            r = client.post("/records", files={"record": ("r.json", b"{}", "application/json")},
                            headers=CROSS_SITE, follow_redirects=False)
            assert r.status_code == 403
        r = client.post("/records", files={"record": ("r.json", b"{}", "application/json")},
                        follow_redirects=False)
        assert r.status_code == 422  # counted and read: a bad record, not a rate refusal
        r = client.post("/records", files={"record": ("r.json", b"{}", "application/json")},
                        follow_redirects=False)
        assert r.status_code == 429
        release_cancelled_connections(client)


def test_a_cross_site_upload_without_cookies_is_refused_and_not_counted(settings):
    """A browser sends no SameSite cookie with another site's form, so a forged upload arrives
    anonymous: it is refused (403) before its body is read and leaves the address's uploads to
    genuine senders; a client that says nothing of its origin (curl) still uploads without a
    token (a live re-trial on two processes found the anonymous forged upload counted)."""
    app = create_app(settings.model_copy(update={"rate_records": "1/hour"}))
    with TestClient(app, base_url="http://testserver") as anonymous:
        for _ in range(3):
            r = anonymous.post("/records", files={"record": ("r.json", b"{}", "application/json")},
                               headers=CROSS_SITE, follow_redirects=False)
            assert r.status_code == 403, r.status_code
        r = anonymous.post("/records", files={"record": ("r.json", b"{}", "application/json")},
                           follow_redirects=False)
        assert r.status_code == 422  # counted and read: a bad record, not a rate refusal
        r = anonymous.post("/records", content=b"{}", follow_redirects=False)
        assert r.status_code == 429
        release_cancelled_connections(anonymous)
