"""The waiting room says what each bot level plays like (issue 17, item 5: levels offered in the
waiting room; issue 14, item 10: one waiting-room design that offers them)."""
from __future__ import annotations

import re

from tests.app.conftest import create, named, new_client


def _levels(page: str) -> dict[str, str]:
    block = page.split('id="bot-levels"', 1)[1].split("</details>", 1)[0]
    return dict(re.findall(r"<dt>([^<]+)</dt><dd>([^<]+)</dd>", block))


def test_the_host_reads_what_each_bot_level_plays_like(client):
    named(client, "Host")
    mid = create(client, game="covil")
    page = client.get(f"/m/{mid}").text
    levels = _levels(page)
    assert list(levels) == ["Easy", "Normal", "Hard", "Overlord"]
    assert "random" in levels["Easy"] and "one step ahead" in levels["Normal"]
    assert "several moves ahead" in levels["Hard"] and "never sees hidden" in levels["Hard"]
    assert "Dummy Player" in levels["Overlord"]  # the solo rules' own name
    # every bot menu's options carry the same line as a tooltip
    menus = re.findall(r'<select name="bot".*?</select>', page, re.S)
    assert len(menus) == 2  # the empty seat's and "fill the empty seats"
    for menu in menus:
        titles = re.findall(r'<option value="(\w+)"[^>]*? title="([^"]*)"', menu)
        assert [kind for kind, _ in titles] == ["easy", "normal", "hard", "overlord"]
        assert all(title for _kind, title in titles)


def test_a_guest_sees_no_bot_menus_and_no_level_list(client):
    named(client, "Host")
    mid = create(client, game="covil")
    guest = named(new_client(client), "Guest")
    page = guest.get(f"/m/{mid}").text
    assert 'id="bot-levels"' not in page and 'name="bot"' not in page


def test_a_guest_reads_the_levels_once_a_bot_sits_at_the_table(client):
    """A friend in the waiting room saw "Bot: Hard" with no word on what it means (the
    new-user recheck): once a bot is seated, everyone gets the list, and the bot's seat line
    carries its level's line."""
    named(client, "Host")
    mid = create(client, game="covil", players=3)
    client.post(f"/m/{mid}/bot", data={"seat": "2", "bot": "hard"})
    guest = named(new_client(client), "Guest")
    page = guest.get(f"/m/{mid}").text
    assert list(_levels(page)) == ["Easy", "Normal", "Hard", "Overlord"]
    assert re.search(r'<strong title="Looks several moves ahead[^"]*">Bot: Hard</strong>', page)
