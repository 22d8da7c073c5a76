"""The match-wide stand-in level (issue 17, item 5): "a match-wide level for time-outs and
takeovers (a pace setting, default normal)". The host picks it in the waiting room's pace form;
every bot that takes a seat over (a time-out, a vote, the host handing a seat) plays at it, and
the seat list shows the stand-in's level."""
from __future__ import annotations

from tests.app.matches.test_pace import call, clock, service, snap, submit, table, toy3  # noqa: F401
from tests.app.realtime.test_live import recv


def test_the_stand_in_level_is_a_pace_setting_shown_to_the_host_only(client):
    mid, (bob,) = table(client, start=False)
    assert snap(client, mid).match.settings is None or \
        snap(client, mid).match.settings.get("stand_in", "normal") == "normal"
    page = client.get(f"/m/{mid}").text
    assert 'id="stand-in"' in page and 'value="normal" selected' in page
    assert 'id="stand-in"' not in bob.get(f"/m/{mid}").text
    r = client.post(f"/m/{mid}/pace", data={"pace": "live", "stand_in": "hard"},
                    follow_redirects=False)
    assert r.status_code == 303
    assert snap(client, mid).match.settings["stand_in"] == "hard"
    assert "stand-in bots hard" in bob.get(f"/m/{mid}").text  # every player reads the summary
    refused = client.post(f"/m/{mid}/pace", data={"pace": "live", "stand_in": "genius"})
    assert "stand in" in refused.text
    assert snap(client, mid).match.settings["stand_in"] == "hard"  # unchanged


def test_a_time_out_hands_the_seat_to_the_stand_in_level(client, clock):  # noqa: F811 (fixture)
    mid, _ = table(client, pace="live", bank_minutes=1, stand_in="easy")
    svc = service(client)
    submit(client, mid, 0, {"type": "bid", "n": 3})
    clock.advance(seconds=61)
    call(client, svc.expire_due)
    call(client, svc.drain)
    s = snap(client, mid)
    assert s.seats[1].bot == "easy" and s.seats[1].away_user_id is not None
    with client.websocket_connect(f"/ws/matches/{mid}") as ws:
        seats = recv(ws, "view")["view"]["seats"]
        assert seats[1]["level"] == "easy"  # the seat list shows the stand-in's level


def test_a_vote_hands_the_seat_to_the_stand_in_level(client, clock):  # noqa: F811 (fixture)
    mid, (bob, cid) = table(client, "toy3", ("Ann", "Bob", "Cid"), replace_after_minutes=5,
                            stand_in="hard")
    submit(client, mid, 0, {"type": "take", "n": 1})
    submit(client, mid, 1, {"type": "take", "n": 1})
    clock.advance(minutes=6)
    client.post(f"/m/{mid}/vote", data={"seat": "2"})
    bob.post(f"/m/{mid}/vote", data={"seat": "2"})
    assert snap(client, mid).seats[2].bot == "hard"


def test_the_host_hands_a_seat_to_the_stand_in_level_unless_naming_a_bot(client):
    mid, (bob, cid) = table(client, "toy3", ("Ann", "Bob", "Cid"), stand_in="easy")
    page = client.get(f"/m/{mid}").text
    assert 'value="easy" selected' in page  # the host's form offers the stand-in level first
    assert client.post(f"/m/{mid}/replace", data={"seat": "1"},
                       follow_redirects=False).status_code == 303
    assert client.post(f"/m/{mid}/replace", data={"seat": "2", "bot": "normal"},
                       follow_redirects=False).status_code == 303
    s = snap(client, mid)
    assert s.seats[1].bot == "easy" and s.seats[2].bot == "normal"
