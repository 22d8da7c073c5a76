"""Rules help pages (issue 7, item 5): ``/rules/<game>``, the lobby and table links. The prompt
bar's "?" link in Chromium: tests/browser/test_rules_prompt_link.py."""
from __future__ import annotations

import re
from html import unescape

from app.web.rules import blocks, rules_summary
from app.web.templating import templates
from engines import registry
from tests.app.conftest import create, named, new_client

GAMES = registry.GAME_PACKAGES


def test_text_becomes_paragraphs_and_lists():
    text = "First line\ncontinues.\n\nIntro:\n- one\n- two\n\n- three\nAfter."
    assert blocks(text) == [
        {"kind": "p", "text": "First line continues."},
        {"kind": "p", "text": "Intro:"}, {"kind": "ul", "items": ["one", "two"]},
        {"kind": "ul", "items": ["three"]}, {"kind": "p", "text": "After."}]


def test_summary_text_is_escaped():
    """The data is plain text: markup in it is shown, never interpreted."""
    rules = {"game": "x", "title": "T <b>", "intro": "", "rulebook": "",
             "sections": [{"id": "setup", "title": "Setup", "blocks": blocks(
                 "<script>alert(1)</script>\n- <img src=x>")}],
             "provisional": {"intro": "", "items": ["<i>invented</i>"]}}
    html = templates.get_template("rules.html").render(rules=rules, others=[], user=None)
    assert "<script>alert" not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "<img src=x>" not in html and "<i>invented" not in html


def test_every_game_has_a_rules_page_with_anchors(client):
    for game in GAMES:
        r = client.get(f"/rules/{game}")
        assert r.status_code == 200, game
        summary = rules_summary(game)
        for s in summary["sections"]:
            assert f'id="{s["id"]}"' in r.text and f'href="#{s["id"]}"' in r.text
        assert 'id="provisional-components"' in r.text
        items = re.findall(r"<li>(.*?)</li>",
                           r.text.split('id="provisional-list"')[1].split("</ul>")[0])
        assert [unescape(i) for i in items] == summary["provisional"]["items"]
        assert registry.get(game).title in unescape(r.text)


def test_rules_pages_cover_setup_phases_and_scoring(client):
    text = unescape(client.get("/rules/drops_of_evil").text)
    for words in ("Placement Phase", "Gathering Phase", "Brewing Phase", "Income Phase",
                  "Crows can only be placed on Gathering spaces in the clearing",
                  "the tied player who comes first in turn order wins"):
        assert words in text
    text = unescape(client.get("/rules/evil_corp").text)
    assert "Only a blue monster tile can be placed in the demon portal" in text
    assert "2 victory tokens" in text
    text = unescape(client.get("/rules/covil").text)
    assert "Rebels retaliate" in text and "5 VP for a living fortress" in text


def test_unknown_game_or_game_without_summary_is_404(client):
    assert client.get("/rules/chess").status_code == 404
    assert client.get("/rules/toy").status_code == 404  # the test game has no summary
    assert client.get("/rules/..%2F..%2Fetc%2Fpasswd").status_code == 404


def test_lobby_links_to_the_rules(client):
    named(client, "Morgana")
    html = client.get("/").text
    for game in GAMES:
        assert f'href="/rules/{game}"' in html
    anonymous = new_client(client).get("/").text  # no name yet: the rules are still linked
    assert "Pick a name to start" in anonymous and 'href="/rules/covil"' in anonymous


def test_table_header_opens_the_rules_in_a_new_tab(client):
    named(client, "Host")
    mid = create(client, game="drops_of_evil")
    client.post(f"/m/{mid}/fill", data={"bot": "random"})
    assert client.post(f"/m/{mid}/start", follow_redirects=False).status_code == 303
    html = client.get(f"/m/{mid}").text
    link = re.search(r'<a [^>]*id="rules-link"[^>]*>', html).group(0)
    assert 'href="/rules/drops_of_evil"' in link and 'target="_blank"' in link
    assert 'rel="noopener"' in link
