"""Pace (issue 7 items 2 and 3): live and turn-based matches, time banks, the clock timer,
resigning, replacement by vote, webhooks. Time is a fake clock on the service: nothing sleeps."""
from __future__ import annotations

import html
import json
from datetime import timedelta

import pytest

from app.matches import pace
from app.matches.errors import ServiceError
from app.models import utcnow
from engines import registry
from tests.app.conftest import create, named, new_client
from tests.app.realtime.test_live import act, recv
from tests.app.toy3 import TOY3
from tests.csrf import as_browser


@pytest.fixture(autouse=True, scope="module")
def toy3():
    registry.register(TOY3)
    yield
    registry.ENGINES.pop(TOY3.id, None)


class FakeClock:
    """The service's ``now``: starts at the real time, moves only when told."""

    def __init__(self):
        self.t = utcnow()

    def __call__(self):
        return self.t

    def advance(self, **kw) -> None:
        self.t += timedelta(**kw)


@pytest.fixture
def clock(client):
    fake = FakeClock()
    client.app.state.service.now = fake
    return fake


def service(client):
    return client.app.state.service


def call(client, fn, *args, **kw):
    return client.portal.call(lambda: fn(*args, **kw))


def snap(client, mid):
    return call(client, service(client).snapshot, mid)


def table(client, game="toy", names=("Ann", "Bob"), start=True, bots=(), **pace_form):
    """A match of ``game``: the client hosts in seat 0, one browser per other name, a bot in
    each seat of ``bots``; ``pace_form`` goes to the waiting room's pace form."""
    named(client, names[0])
    mid = create(client, game, len(names) + len(bots))
    others = []
    for seat, name in enumerate(names[1:], start=1):
        other = named(new_client(client), name)
        assert other.post(f"/m/{mid}/seat", data={"seat": str(seat)},
                          follow_redirects=False).status_code == 303
        others.append(other)
    for seat in bots:
        client.post(f"/m/{mid}/bot", data={"seat": str(seat), "bot": "random"})
    if pace_form:
        r = client.post(f"/m/{mid}/pace", data={k: str(v) for k, v in pace_form.items()},
                        follow_redirects=False)
        assert r.status_code == 303, r.text
    if start:
        assert client.post(f"/m/{mid}/start", follow_redirects=False).status_code == 303
    return mid, others


def submit(client, mid, seat, action, id_=None):
    s = snap(client, mid)
    user = s.seats[seat].user_id
    return call(client, service(client).submit, mid, seat, id_ or f"t{s.match.version}-{seat}",
                s.match.version, action, actor=user)


# ----- the pure clock rules ----------------------------------------------------------------------

def test_advance_charges_only_the_prompted_seats_and_adds_the_increment():
    s = pace.PaceSettings(bank_minutes=1, increment_seconds=5)
    clocks = pace.start_clocks(s, [0, 1], 3, 100.0)
    assert clocks["banks"] == {"0": 60.0, "1": 60.0, "2": 60.0} and clocks["new"] == [0, 1]
    # seat 0 acts after 10 s in a simultaneous frame; seat 1 is still thinking
    clocks = pace.advance(s, clocks, [0, 1], [1], 0, set(), 110.0)
    assert clocks["banks"]["0"] == 55.0 and clocks["since"] == {"1": 100.0}
    assert clocks["new"] == []
    # seat 1 acts after 30 s in all; seat 2 is prompted for the first time
    clocks = pace.advance(s, clocks, [1], [2], 1, set(), 130.0)
    assert clocks["banks"] == {"0": 55.0, "1": 35.0, "2": 60.0} and clocks["new"] == [2]
    assert pace.next_deadline(s, clocks, {0, 1, 2}) == 190.0
    assert pace.next_deadline(s, clocks, {0, 1}) is None  # seat 2 is a bot's: no clock
    # an undo earns no increment
    again = pace.advance(s, clocks, [2], [2], 2, set(), 140.0, increment=False)
    assert again["banks"]["2"] == 50.0 and again["since"] == {"2": 140.0}


def test_turn_based_limit_and_public_clock():
    s = pace.PaceSettings(pace="turn", turn_hours=24, bank_minutes=5)
    assert s.bank is None and s.move_limit == 86400
    clocks = pace.start_clocks(s, [1], 2, 0.0)
    assert "banks" not in clocks
    assert pace.deadlines(s, clocks, {0, 1}) == {1: 86400.0}
    view = pace.public(s, clocks, 2, set(), 3600.0)
    assert view["seats"] == [{"left": None, "running": False},
                             {"left": 82800.0, "running": True}]
    assert view["pace"] == "turn" and view["turn_hours"] == 24


def test_resignation_ranks():
    result = {"ranks": [[2], [0, 1], [3]], "scores": {"0": 5}}
    assert pace.rank_resigned_last(result, [1, 2])["ranks"] == [[0], [3], [2], [1]]
    assert pace.last_side(3, {}, [0]) is None
    assert pace.last_side(3, {}, [0, 2]) == [1]
    teams = {4: [[0, 2], [1, 3]]}
    assert pace.last_side(4, teams, [0, 1]) is None
    assert pace.last_side(4, teams, [0, 2]) == [1, 3]
    r = pace.resigned_result(4, teams, [0, 2], ["A", "B", "C", "D"])
    assert r["ranks"] == [[1, 3], [2], [0]] and r["resigned"] == [0, 2]
    assert pace.votes_needed({0, 1, 2}, 2) == 2 and pace.votes_needed({0, 1}, 1) == 1
    assert pace.votes_needed({0, 1, 2, 3}, 3) == 2


# ----- waiting room --------------------------------------------------------------------------------

def test_host_sets_the_pace_in_the_waiting_room(client):
    mid, (bob,) = table(client, start=False)
    page = client.get(f"/m/{mid}").text
    assert 'id="pace-form"' in page and "Live · no clock" in page
    assert 'id="pace-form"' not in bob.get(f"/m/{mid}").text
    assert "Only the host" in bob.post(f"/m/{mid}/pace", data={"pace": "turn"}).text
    refused = bob.post(f"/m/{mid}/pace", data={"pace": "turn", "webhook": "ftp://x"})
    assert refused.status_code == 403 and "Only the host" in refused.text
    hook = "https://example.com/hooks/secret-part"
    r = client.post(f"/m/{mid}/pace", data={"pace": "live", "bank_minutes": "10",
                                             "increment_seconds": "5", "webhook": hook,
                                             "replace_after_minutes": "3"},
                    follow_redirects=False)
    assert r.status_code == 303
    stored = snap(client, mid).match.settings
    assert stored["bank_minutes"] == 10 and stored["webhook"] == hook
    summary = "Live · 10 min per player + 5 s per move"
    assert summary in client.get(f"/m/{mid}").text
    bob_page = bob.get(f"/m/{mid}").text
    assert summary in bob_page and "webhook on" in bob_page
    assert "secret-part" not in bob_page  # the URL may hold a token: the host's only
    assert hook in client.get(f"/m/{mid}").text


@pytest.mark.parametrize("form, message", [
    ({"webhook": "ftp://example.com/x"}, "http:// or https://"),
    ({"webhook": "javascript:alert(1)"}, "http:// or https://"),
    ({"webhook": "http://127.0.0.1:9/x"}, "public address"),
    ({"bank_minutes": "-1"}, "bank minutes"),
    ({"turn_hours": "0", "pace": "turn"}, "turn hours"),
    ({"pace": "blitz"}, "pace"),
])
def test_bad_pace_settings_are_refused_and_change_nothing(client, form, message):
    mid, _ = table(client, start=False)
    before = snap(client, mid).match.settings
    r = client.post(f"/m/{mid}/pace", data={"pace": "live", "replace_after_minutes": "7",
                                             **form})
    assert r.status_code == 400 and message in r.text
    assert snap(client, mid).match.settings == before
    # the waiting room again, the form as typed (nothing to type again) with the reason
    assert 'id="pace-error"' in r.text and 'id="pace-form"' in r.text
    assert 'name="replace_after_minutes" id="replace-after" min="0" max="20160" value="7"' \
        in r.text
    if "webhook" in form:
        assert f'value="{html.escape(form["webhook"])}"' in r.text


def test_pace_is_set_only_before_the_start_and_kept_by_a_rematch(client):
    mid, _ = table(client, pace="turn", turn_hours=48)
    assert "already started" in client.post(f"/m/{mid}/pace", data={"pace": "live"}).text
    call(client, service(client).resign, mid, snap(client, mid).seats[0].user_id)
    new = client.post(f"/m/{mid}/rematch", follow_redirects=False).headers["location"]
    assert snap(client, new.rsplit("/", 1)[1]).match.settings["turn_hours"] == 48


# ----- clocks ---------------------------------------------------------------------------------------

def test_time_bank_runs_for_prompted_seats_and_is_in_every_view(client, clock):
    mid, (bob,) = table(client, pace="live", bank_minutes=1, increment_seconds=5)
    m = snap(client, mid).match
    assert m.deadline is not None and m.clocks["since"].keys() == {"0", "1"}
    clock.advance(seconds=10)
    submit(client, mid, 0, {"type": "bid", "n": 1})  # seat 1 still bids: its clock runs
    m = snap(client, mid).match
    assert m.clocks["banks"]["0"] == 55.0 and list(m.clocks["since"]) == ["1"]
    clock.advance(seconds=20)
    watcher = new_client(client)
    with watcher.websocket_connect(f"/ws/matches/{mid}") as ws:
        v = recv(ws, "view")["view"]
        assert v["pace"]["pace"] == "live" and v["pace"]["bank"] == 60.0
        assert v["pace"]["seats"][0] == {"left": 55.0, "running": False, "resigned": False,
                                         "away": pytest.approx(30.0, abs=1), "votes": [],
                                         "needed": 1, "resign_ends": True}
        assert v["pace"]["seats"][1]["left"] == 30.0 and v["pace"]["seats"][1]["running"]
        assert "webhook" not in json.dumps(v["pace"])


def test_out_of_time_seat_goes_to_a_bot_and_the_player_can_come_back(client, clock):
    mid, (bob,) = table(client, pace="live", bank_minutes=1)
    svc = service(client)
    submit(client, mid, 0, {"type": "bid", "n": 3})
    clock.advance(seconds=59)
    assert call(client, svc.expire_due) is not None
    assert snap(client, mid).seats[1].user_id is not None  # one second left
    with client.websocket_connect(f"/ws/matches/{mid}") as ann:
        recv(ann, "view")
        clock.advance(seconds=2)
        call(client, svc.expire_due)
        notice = recv(ann, "notice")
        assert notice["text"].startswith("Bob ran out of time: a bot plays the seat")
        call(client, svc.drain)
    s = snap(client, mid)
    # the stand-in is the normal level (issue 17; the toy game has no greedy: it plays random)
    assert s.seats[1].bot == "normal" and s.seats[1].away_user_id is not None
    assert s.match.version >= 2  # the bot made Bob's bid
    with new_client(client).websocket_connect(f"/ws/matches/{mid}") as ws:
        clocks = recv(ws, "view")["view"]["pace"]["seats"]
        assert clocks[1]["left"] is None and not clocks[1]["running"]  # bots have no clock
        assert clocks[0]["left"] is not None
    assert any(line.name == "Lair" and "ran out of time" in line.text
               for line in call(client, svc.chat_history, mid))
    # Bob takes the seat back; a spent bank is topped up to the grace minute
    assert bob.post(f"/m/{mid}/reclaim", follow_redirects=False).status_code == 303
    m = snap(client, mid).match
    assert m.clocks["banks"]["1"] >= pace.GRACE_SECONDS


async def no_look() -> None:
    """A clock timer's look that finds no deadline (the timer then sleeps its longest)."""
    return None


def test_a_move_after_the_deadline_is_refused_before_the_timer_looks(client, clock):
    """Issue 13: the clock timer hands a seat out of time to a bot, but a move can reach the
    service first (the timer's next look, a busy lock). The move is judged with the service's
    clock against the clocks the commit is conditional on: one second after the deadline it is
    refused, nothing is written, and the timer then hands the seat over; one second before, it
    counts. The snapshot is cached (the fast path's) both times."""
    mid, (bob,) = table(client, pace="live", bank_minutes=1)
    svc = service(client)
    # The app's clock timer looks every few seconds: held off here, so that the move reaches
    # the service before any look (CI once saw the timer hand the seat over in between).
    expire_due = svc.expire_due
    svc.expire_due = no_look
    submit(client, mid, 0, {"type": "bid", "n": 3})
    clock.advance(seconds=61)  # Bob's bank ran out a second ago; no timer ran
    assert svc.store.snaps.get(mid) is not None
    before = snap(client, mid).match.version
    with pytest.raises(ServiceError) as refused:
        submit(client, mid, 1, {"type": "bid", "n": 2})
    assert refused.value.code == "not_your_seat" and "time ran out" in str(refused.value)
    assert snap(client, mid).match.version == before and snap(client, mid).seats[1].bot is None
    svc.expire_due = expire_due
    call(client, svc.expire_due)
    call(client, svc.drain)
    assert snap(client, mid).seats[1].bot == "normal"

    mid, (bob,) = table(new_client(client), pace="live", bank_minutes=1)
    submit(client, mid, 0, {"type": "bid", "n": 3})
    clock.advance(seconds=59)
    assert submit(client, mid, 1, {"type": "bid", "n": 2}).applied
    assert snap(client, mid).match.clocks["banks"]["1"] == 1.0


def test_turn_based_deadline_survives_a_restart(client, clock, settings):
    from fastapi.testclient import TestClient

    from app.main import create_app
    from tests.app.conftest import release_cancelled_connections

    mid, _ = table(client, pace="turn", turn_hours=24)
    m = snap(client, mid).match
    assert m.deadline is not None
    assert abs(m.deadline.timestamp() - (clock.t.timestamp() + 86400)) < 1
    # another process (a restart) reads the deadline from the database
    with as_browser(TestClient(create_app(settings), base_url="http://testserver")) as again:
        later = FakeClock()
        later.t = clock.t + timedelta(hours=23)
        again.app.state.service.now = later
        again.portal.call(again.app.state.service.expire_due)
        assert snap(again, mid).seats[0].user_id is not None
        later.advance(hours=2)
        again.portal.call(again.app.state.service.expire_due)
        again.portal.call(again.app.state.service.drain)
        s = snap(again, mid)
        assert s.seats[0].bot and s.seats[1].bot  # both bids were late
        release_cancelled_connections(again)


def test_plain_live_match_has_no_clock(client):
    mid, _ = table(client)
    m = snap(client, mid).match
    assert m.settings is None and m.clocks is None and m.deadline is None
    with client.websocket_connect(f"/ws/matches/{mid}") as ws:
        v = recv(ws, "view")["view"]
        assert v["pace"]["pace"] == "live" and v["pace"]["seats"][0]["left"] is None


# ----- resign -----------------------------------------------------------------------------------------

def test_resign_with_two_seats_ends_the_match_and_the_other_wins(client):
    mid, (bob,) = table(client)
    page = client.get(f"/m/{mid}").text
    assert 'id="resign"' in page and "your opponent wins" in page
    with client.websocket_connect(f"/ws/matches/{mid}") as ann:
        recv(ann, "view")
        r = bob.post(f"/m/{mid}/resign", follow_redirects=False)
        assert r.status_code == 303
        assert recv(ann, "notice")["text"] == "Bob resigned. The match is over."
        v = recv(ann, "view")["view"]
        assert v["result"]["ranks"] == [[0], [1]] and v["result"]["resigned"] == [1]
        assert v["result"]["reason"] == "Resigned: Bob."
        assert v["legal_actions"] == [] and v["header"]["waiting_for"] == []
        assert v["pace"]["seats"][1]["resigned"] is True
        act(ann, v["version"], {"type": "bid", "n": 1})
        assert recv(ann, "error")["code"] == "finished"
    m = snap(client, mid).match
    assert m.status == "finished" and m.finished_at is not None
    assert 'id="resign"' not in client.get(f"/m/{mid}").text
    assert "Only a running match" in bob.post(f"/m/{mid}/resign").text
    assert client.post(f"/m/{mid}/rematch", follow_redirects=False).status_code == 303


def test_spectator_cannot_resign(client):
    mid, _ = table(client)
    watcher = named(new_client(client), "Wat")
    assert "no seat" in watcher.post(f"/m/{mid}/resign").text
    assert snap(client, mid).match.status == "active"


def test_resign_with_more_seats_a_bot_plays_on_and_the_seat_ranks_last(client):
    mid, (bob, cid) = table(client, "toy3", ("Ann", "Bob", "Cid"))
    assert "A bot plays your seat to the end" in client.get(f"/m/{mid}").text
    with client.websocket_connect(f"/ws/matches/{mid}") as ann:
        assert [e["resign_ends"] for e in recv(ann, "view")["view"]["pace"]["seats"]] == \
            [False, False, False]
    with bob.websocket_connect(f"/ws/matches/{mid}") as bob_ws:
        recv(bob_ws, "view")
        call(client, service(client).resign, mid, snap(client, mid).seats[0].user_id)
        # after Ann's resignation, Bob's or Cid's would end the match: the dialog says so
        while True:
            v = recv(bob_ws, "view")["view"]
            if v["pace"]["seats"][0]["resigned"]:
                break
        assert [e["resign_ends"] for e in v["pace"]["seats"]] == [False, True, True]
    call(client, service(client).drain)
    s = snap(client, mid)
    assert s.match.status == "active" and s.seats[0].bot and s.seats[0].resigned_at
    assert s.match.version == 1  # the bot took Ann's turn
    # a resigned player cannot take the seat back
    assert "Take my seat back" not in client.get(f"/m/{mid}").text
    assert "No seat of yours" in client.post(f"/m/{mid}/reclaim").text
    # Bob and Cid play to the end; whoever wins, Ann ranks last
    while snap(client, mid).match.status == "active":
        s = snap(client, mid)
        seat = TOY3.prompts(s.match.state)
        (turn,) = seat
        if s.seats[turn].bot:
            call(client, service(client).drain)
            continue
        submit(client, mid, turn, {"type": "take", "n": 1})
        call(client, service(client).drain)
    result = snap(client, mid).match.result
    assert result["ranks"][-1] == [0] and result["resigned"] == [0]
    assert sorted(s for g in result["ranks"] for s in g) == [0, 1, 2]


def test_resign_in_a_team_game_ends_it_when_a_whole_team_resigned(client):
    mid, (bob, cid, dan) = table(client, "toy3", ("Ann", "Bob", "Cid", "Dan"))
    svc = service(client)
    users = [i.user_id for i in snap(client, mid).seats]
    assert call(client, svc.resign, mid, users[0]) is False
    call(client, svc.drain)
    assert "The match ends now" in cid.get(f"/m/{mid}").text
    assert call(client, svc.resign, mid, users[2]) is True
    m = snap(client, mid).match
    assert m.status == "finished"
    assert m.result["ranks"] == [[1, 3], [2], [0]]


# ----- replacement by vote ------------------------------------------------------------------------

def test_players_vote_an_absent_players_seat_to_a_bot(client, clock):
    mid, (bob, cid) = table(client, "toy3", ("Ann", "Bob", "Cid"), replace_after_minutes=5)
    svc = service(client)
    submit(client, mid, 0, {"type": "take", "n": 1})
    submit(client, mid, 1, {"type": "take", "n": 1})  # now Cid must move, and Cid is away
    clock.advance(minutes=4)
    assert "not been away for 5 min" in client.post(f"/m/{mid}/vote", data={"seat": "2"}).text
    clock.advance(minutes=2)
    with cid.websocket_connect(f"/ws/matches/{mid}") as c:  # connected: no vote
        recv(c, "view")
        assert "not been away" in client.post(f"/m/{mid}/vote", data={"seat": "2"}).text
    clock.advance(minutes=6)
    assert "another player&#39;s seat" in client.post(f"/m/{mid}/vote", data={"seat": "0"}).text
    assert "Nobody waits for Bob" in client.post(f"/m/{mid}/vote", data={"seat": "1"}).text
    with client.websocket_connect(f"/ws/matches/{mid}") as ann:
        recv(ann, "view")
        assert client.post(f"/m/{mid}/vote", data={"seat": "2"},
                           follow_redirects=False).status_code == 303
        v = recv(ann, "view")["view"]
        assert v["pace"]["seats"][2]["votes"] == [0] and v["pace"]["seats"][2]["needed"] == 2
        assert v["pace"]["seats"][2]["away"] >= 300
        assert snap(client, mid).seats[2].user_id is not None  # 1 of 2 votes
        bob.post(f"/m/{mid}/vote", data={"seat": "2"})
        assert "voted a bot in" in recv(ann, "notice")["text"]
        call(client, svc.drain)
    s = snap(client, mid)
    assert s.seats[2].bot and s.seats[2].votes is None and s.match.version >= 3
    assert "Take my seat back" in cid.get(f"/m/{mid}").text
    cid.post(f"/m/{mid}/reclaim")
    assert snap(client, mid).seats[2].user_id is not None


def test_votes_count_for_the_current_prompt_only(client, clock):
    mid, (bob, cid) = table(client, "toy3", ("Ann", "Bob", "Cid"), replace_after_minutes=1)
    clock.advance(minutes=2)  # Ann (seat 0) is prompted and away (her socket never opened)
    bob.post(f"/m/{mid}/vote", data={"seat": "0"})
    assert snap(client, mid).seats[0].votes["voters"] == [1]
    submit(client, mid, 0, {"type": "take", "n": 1})
    submit(client, mid, 1, {"type": "take", "n": 1})
    submit(client, mid, 2, {"type": "take", "n": 1})
    clock.advance(minutes=2)  # Ann is prompted again: Bob's old vote no longer counts
    cid.post(f"/m/{mid}/vote", data={"seat": "0"})
    s = snap(client, mid)
    assert s.seats[0].user_id is not None and s.seats[0].votes["voters"] == [2]


def test_no_vote_without_a_replacement_limit(client, clock):
    mid, (bob, cid) = table(client, "toy3", ("Ann", "Bob", "Cid"))
    clock.advance(hours=5)
    assert "no replacement limit" in bob.post(f"/m/{mid}/vote", data={"seat": "0"}).text


def test_the_address_of_a_refused_form_opens_the_match_page(client):
    """After a refused pace form the address bar shows /m/ID/pace; opening it again (a
    reload after the POST, a bookmark) leads to the match page, not a bare 405."""
    mid, _ = table(client, start=False)
    r = client.get(f"/m/{mid}/pace", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == f"/m/{mid}#pace"
    assert client.get(f"/m/{mid}/seat", follow_redirects=False).headers["location"] == \
        f"/m/{mid}"
    assert client.get(f"/m/{mid}/replay").status_code in (200, 404)  # its own page still


def test_a_solo_waiting_room_offers_no_replacement_vote(client):
    """Trial finding: a Covil solo waiting room offered "Players may vote an absent player's
    seat to a bot after…", meaningless with one player. The field is not shown, and a limit
    sent anyway is not kept (nor shown in the pace summary)."""
    named(client, "Ann")
    solo = create(client, game="covil", players=1)
    page = client.get(f"/m/{solo}").text
    assert 'id="pace-form"' in page and 'id="save-pace"' in page
    assert "replace_after_minutes" not in page and "vote an absent" not in page
    r = client.post(f"/m/{solo}/pace", data={"pace": "live", "replace_after_minutes": "5"},
                    follow_redirects=False)
    assert r.status_code == 303
    assert snap(client, solo).match.settings["replace_after_minutes"] == 0
    assert "replaceable" not in client.get(f"/m/{solo}").text
    # two players: offered as before
    duo = create(client, game="covil", players=2)
    assert "vote an absent player" in client.get(f"/m/{duo}").text
