"""Every request body is capped (issue 13, item 2): forms at ``FORM_MAX_BYTES``, the record
upload at ``RECORD_MAX_BYTES`` (plus its multipart envelope), whether the client declares the
size (``Content-Length``: refused before the body is read) or not (chunked: counted as it
arrives), with a 413 that says the limit, and nothing stored."""
from __future__ import annotations

import json

from tests.app.conftest import named


def chunked(data: bytes, size: int = 4096):
    """The body as a generator: httpx sends it chunked, without a Content-Length."""
    for i in range(0, len(data), size):
        yield data[i:i + size]


def test_a_form_body_over_the_limit_is_refused_with_or_without_content_length(client):
    named(client, "Ann")
    huge = b"name=" + b"x" * 40_000 + b"&next=/"
    form = {"content-type": "application/x-www-form-urlencoded"}
    r = client.post("/name", content=huge, headers={**form, "accept": "text/html"},
                    follow_redirects=False)
    assert r.status_code == 413 and "at most 16 kB" in r.text and "<html" in r.text.lower()
    r = client.post("/name", content=chunked(huge),
                    headers={**form, "accept": "application/json"}, follow_redirects=False)
    assert "content-length" not in r.request.headers
    assert r.status_code == 413 and r.json()["detail"].endswith("at most 16 kB can be sent here.")
    # a multipart form on a form route: the same limit
    r = client.post("/matches", files={"game": (None, "toy"), "pad": ("x.bin", b"x" * 40_000)},
                    follow_redirects=False)
    assert r.status_code == 413
    # nothing changed: the name is still Ann's, and an ordinary form still works
    assert "Ann" in client.get("/").text
    r = client.post("/name", data={"name": "Bea", "next": "/"}, follow_redirects=False)
    assert r.status_code == 303


def test_a_record_upload_gets_the_record_limit_not_the_form_limit(client):
    from tests.app.matches.test_records_import import imported_id, toy_record_with_undo

    record = json.dumps(toy_record_with_undo()).encode()
    padded = json.dumps({**toy_record_with_undo(), "pad": "x" * 100_000}).encode()
    assert len(padded) > 16_384  # above the form limit, within the record limit
    r = client.post("/records", content=padded, headers={"content-type": "application/json"},
                    follow_redirects=False)
    assert r.status_code != 413
    r = client.post("/records", content=chunked(record),
                    headers={"content-type": "application/json"}, follow_redirects=False)
    assert imported_id(r)
    r = client.post("/records", content=chunked(b"x" * 400_000),
                    headers={"content-type": "application/json"}, follow_redirects=False)
    assert r.status_code == 413 and "This record cannot be opened" in r.text
    assert "A record file is at most 256 kB." in r.text


def test_every_refused_body_is_counted_and_logged_once(client, caplog):
    """Seen live: of 66 bodies refused, only the 18 with a Content-Length reached
    ``lair_limit_hits_total{limit="body_too_large"}`` and the log; a chunked body refused
    while a route read its form was neither (the attack the metric is there to show)."""
    import logging

    from app.telemetry.metrics import LIMIT_HITS

    named(client, "Ann")
    huge = b"name=" + b"x" * 40_000 + b"&next=/"
    form = {"content-type": "application/x-www-form-urlencoded"}
    hits = LIMIT_HITS.labels("body_too_large")
    before = hits._value.get()
    with caplog.at_level(logging.INFO, logger="lair.http"):
        assert client.post("/name", content=huge, headers=form).status_code == 413
        assert client.post("/name", content=chunked(huge), headers=form).status_code == 413
    assert hits._value.get() - before == 2
    logged = [r for r in caplog.records if getattr(r, "event", None) == "body_too_large"]
    assert len(logged) == 2 and all(r.limit == 16_384 for r in logged)
