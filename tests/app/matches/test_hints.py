"""Hints in the service (issue 17, item 6, "A hint that cannot cheat"): the hard bot's choice
for the asking seat, decided in the bot pool's worker processes from what that seat may know;
on by default, off by the host's choice; each use recorded by the service (not in the engine's
log), public in every view, the replay and the record file.

The searches use a fixed iteration budget and salt (``tests.app.conftest.hints_client``).
"""
from __future__ import annotations

import json

import pytest
from sqlalchemy import func, insert, select, update

from app.matches.errors import ServiceError
from app.models import ActionRow, HintUseRow, Match
from engines import registry
from engines.base import Rng
from tests.app.conftest import create, named, new_client


def two_players(client, hints: str | None = None) -> tuple[str, object]:
    """An Evil Corp. match (hidden tiles: hints must not see them) of Ann (host, seat 0, who
    plays first) and Bob (seat 1), started; ``hints``: the host's pace form value, if sent."""
    named(client, "Ann")
    mid = create(client, game="evil_corp", players=2, first_player=0)
    if hints is not None:
        form = {"pace": "live", "hints": ["off"] + (["on"] if hints == "on" else [])}
        assert client.post(f"/m/{mid}/pace", data=form, follow_redirects=False
                           ).status_code == 303
    bob = named(new_client(client), "Bob")
    bob.post(f"/m/{mid}/seat", data={"seat": "1"})
    client.post(f"/m/{mid}/start")
    return mid, bob


def user_id(client) -> str:
    from app.identity import read_user_id
    return read_user_id(client.cookies, client.app.state.settings)


def hint(client, mid: str, version: int = 0):
    service = client.app.state.service
    return client.portal.call(service.hint, mid, user_id(client), version)


def test_a_hint_is_a_legal_action_of_the_asking_seat_and_changes_nothing(hints_client):
    """The hint is one of the seat's legal actions at that version, with a one-line reason;
    the match's state, version and action log are as before, and the use is recorded (seat,
    version, time) in ``hint_uses``, not in the engine's log."""
    client = hints_client
    mid, _bob = two_players(client)
    service = client.app.state.service
    before = client.portal.call(service.snapshot, mid).match
    state, version = json.dumps(before.state, sort_keys=True), before.version
    engine = registry.get("evil_corp")
    got = hint(client, mid)
    assert got.version == 0
    assert got.action in engine.legal_actions(before.state, 0)
    assert isinstance(got.reason, str) and "\n" not in got.reason and got.reason.endswith(".")
    assert "12 imagined games" in got.reason  # searched (tests.app.conftest.HINT_ITERATIONS)
    after = client.portal.call(service.snapshot, mid)
    assert json.dumps(after.match.state, sort_keys=True) == state
    assert after.match.version == version
    assert not any("hint" in e["text"].lower() for e in after.match.state["log"])

    async def rows():
        async with service.sm() as s:
            actions = await s.scalar(select(func.count()).select_from(ActionRow)
                                     .where(ActionRow.match_id == mid))
            uses = (await s.execute(select(HintUseRow.seat, HintUseRow.version)
                                    .where(HintUseRow.match_id == mid))).all()
        return actions, [tuple(u) for u in uses]
    assert client.portal.call(rows) == (0, [(0, 0)])
    assert [(u.seat, u.version) for u in after.hint_uses] == [(0, 0)]


def test_indistinguishable_states_get_the_same_hint(hints_client):
    """Issue 17 "It cannot cheat, provably", through the service: the match's state replaced by
    one the asking seat cannot tell apart (its hidden tiles resampled with ``determinize``, the
    engines' harness's check) gets the very same hint and reason."""
    client = hints_client
    mid, _bob = two_players(client)
    service = client.app.state.service
    engine = registry.get("evil_corp")
    real = client.portal.call(service.snapshot, mid).match.state
    first = hint(client, mid)
    other = engine.determinize(real, 0, Rng(99))
    assert other != real and engine.view(other, 0) == engine.view(real, 0)

    async def swap():
        async with service.sm() as s:
            await s.execute(update(Match).where(Match.id == mid).values(state=other))
            await s.commit()
        service.forget(mid)
    client.portal.call(swap)
    assert client.portal.call(service.snapshot, mid).match.state == other
    second = hint(client, mid)
    assert (second.action, second.reason) == (first.action, first.reason)


def test_hints_refuse_spectators_seats_not_prompted_stale_views_and_when_off(hints_client):
    """Typed refusals, nothing recorded: a spectator (``spectator``), a seat not prompted
    (``not_your_seat``), a view of another version (``stale``); with hints off (the host's
    pace form) ``hints_off``."""
    client = hints_client
    mid, bob = two_players(client)
    stranger = named(new_client(client), "Cy")
    for who, version, code in ((stranger, 0, "spectator"), (bob, 0, "not_your_seat"),
                               (client, 1, "stale")):
        with pytest.raises(ServiceError) as err:
            hint(who, mid, version)
        assert err.value.code == code
    assert client.portal.call(client.app.state.service.snapshot, mid).hint_uses == []

    off = new_client(client)
    mid_off, _ = two_players(off, hints="off")
    with pytest.raises(ServiceError) as err:
        hint(off, mid_off)
    assert err.value.code == "hints_off"


def test_the_host_turns_hints_off_before_the_start_and_on_is_the_default(client):
    """The waiting room's pace form: hints on by default (a form without the field keeps them
    on), the checkbox unticked turns them off, and the summary says so."""
    named(client, "Ann")
    mid = create(client, game="evil_corp", players=2)
    service = client.app.state.service
    settings = lambda: client.portal.call(service.snapshot, mid).match.settings or {}  # noqa: E731
    assert settings().get("hints", True) is True
    page = client.get(f"/m/{mid}").text
    assert 'name="hints" value="on" id="hints" checked' in page
    client.post(f"/m/{mid}/pace", data={"pace": "live"})
    assert settings()["hints"] is True
    client.post(f"/m/{mid}/pace", data={"pace": "live", "hints": "off"})
    assert settings()["hints"] is False
    page = client.get(f"/m/{mid}").text
    assert 'id="hints" checked' not in page and "hints off" in page
    client.post(f"/m/{mid}/pace", data={"pace": "live", "hints": ["off", "on"]})
    assert settings()["hints"] is True
    bob = named(new_client(client), "Bob")
    assert bob.post(f"/m/{mid}/pace", data={"pace": "live", "hints": "off"},
                    follow_redirects=False).status_code == 403


def test_a_rules_version_without_a_search_bot_has_no_hints(client):
    """The toy game has no search spec: its views say ``hints: false`` and asking is refused
    (``hints_off``) instead of falling back on a bot that could read the real state."""
    named(client, "Ann")
    mid = create(client)
    bob = named(new_client(client), "Bob")
    bob.post(f"/m/{mid}/seat", data={"seat": "1"})
    client.post(f"/m/{mid}/start")
    with pytest.raises(ServiceError) as err:
        hint(client, mid)
    assert err.value.code == "hints_off"
    view = client.get(f"/matches/{mid}/replay?step=0").json()["view"]
    assert view["hints"] is False and view["hint_uses"] == []


def _finished_with_hints(client) -> str:
    """A finished toy match with two hint uses written as the service writes them (toy has no
    search bot; the record is what is tested here)."""
    from tests.app.matches.test_records_import import finished_match
    mid = finished_match(client)
    service = client.app.state.service

    async def add():
        async with service.sm() as s:
            await s.execute(insert(HintUseRow), [{"match_id": mid, "seat": 0, "version": 0},
                                                 {"match_id": mid, "seat": 1, "version": 2}])
            await s.commit()
        service.forget(mid)
    client.portal.call(add)
    return mid


def test_a_record_keeps_its_hints_through_export_and_import(client):
    """The record file lists the hint uses (seat, version, time); imported, its replay lists
    them step by step like the original match's; exported again, they are still there. A
    record file made before hints (no ``hints``) still imports."""
    client.app.state.limiter.items["records"] = []  # uploads: validation, not the limit
    mid = _finished_with_hints(client)
    record = client.get(f"/matches/{mid}/record").json()
    assert [(h["seat"], h["version"]) for h in record["hints"]] == [(0, 0), (1, 2)]
    assert all(isinstance(h["at"], str) for h in record["hints"])
    r = client.post("/records", files={"record": ("r.json", json.dumps(record).encode(),
                                                  "application/json")}, follow_redirects=False)
    assert r.status_code == 303, r.text
    rid = r.headers["location"].rsplit("/", 1)[1]
    assert client.get(f"/records/{rid}/record").json()["hints"] == record["hints"]
    for step in (0, 1, 2, 3):
        original = client.get(f"/matches/{mid}/replay?step={step}").json()["view"]
        copy = client.get(f"/records/{rid}/replay?step={step}").json()["view"]
        assert copy["hint_uses"] == original["hint_uses"]
        assert [u["version"] for u in copy["hint_uses"]] == [v for v in (0, 2) if v <= step]
        assert copy["hints"] is False
    texts = client.get(f"/records/{rid}/replay?step=3").json()["view"]["hint_uses"]
    assert texts[0]["text"].endswith("asked for a hint at move 1")
    assert "action" not in texts[0]

    old = {k: v for k, v in record.items() if k != "hints"}
    r = client.post("/records", files={"record": ("old.json", json.dumps(old).encode(),
                                                  "application/json")}, follow_redirects=False)
    assert r.status_code == 303, r.text
    old_id = r.headers["location"].rsplit("/", 1)[1]
    assert old_id != rid
    assert client.get(f"/records/{old_id}/record").json()["hints"] == []

    bad = dict(record, hints=[{"seat": 5, "version": 0}])
    r = client.post("/records", files={"record": ("bad.json", json.dumps(bad).encode(),
                                                  "application/json")}, follow_redirects=False)
    assert r.status_code == 422 and "hint" in r.text


def test_the_reason_never_says_the_chosen_move_scores_below_the_next_best():
    """The search chooses the move it tried most (engines.search.decide), which need not have
    the best mean: the reason then gives the chosen move's score alone, not a comparison that
    reads as a contradiction ("score 56 against 57 for the next best"). In a player's words, no
    ratings (review 8, new-user trial 6: "rated 85, the next best 83; 50 = no better off" read
    as jargon)."""
    from app.matches.hints import reason

    base = {"choices": 5, "searched": True, "considered": 5, "iterations": 200}
    below = reason({**base, "score": 0.56, "next_score": 0.57})
    assert below == "Best of 5 moves over 200 imagined games: it leaves you better off.", below
    above = reason({**base, "score": 0.61, "next_score": 0.57})
    assert above == ("Best of 5 moves over 200 imagined games, a little ahead of the next best: "
                     "it leaves you better off."), above
    clear = reason({**base, "score": 0.40, "next_score": 0.30})
    assert clear == ("Best of 5 moves over 200 imagined games, clearly ahead of the next best: "
                     "every move leaves you worse off, this one least."), clear
    assert not any(c.isdigit() for c in clear.replace("5 moves", "").replace("200 imagined", "")), clear


def test_the_reason_never_reads_score_65_against_65():
    """Scores that round to the same number are a tie in words, not "score 65 against 65 for
    the next best" (seen in a Drops of Evil hint and a Covil one)."""
    from app.matches.hints import reason

    base = {"choices": 5, "searched": True, "considered": 5, "iterations": 200}
    tie = reason({**base, "score": 0.652, "next_score": 0.648})
    assert tie is not None and "against" not in tie
    assert "level with the next best" in tie, tie


def test_a_team_mate_moving_meanwhile_does_not_make_the_hint_stale(hints_client):
    """Evil Corp.'s team-mates move at once (a simultaneous frame): while Ann thinks, or while
    her hint is searched, Cy (her team-mate, often a bot) moves. Her position is unchanged, so
    the hint stands: it is given for the current version and recorded there. Once Ann herself
    moved, a view from before her move is stale again (as a late action would be)."""
    client = hints_client
    service = client.app.state.service
    engine = registry.get("evil_corp")
    named(client, "Ann")
    mid = create(client, game="evil_corp", players=4, first_player=0)
    others = []
    for seat, name in ((1, "Bob"), (2, "Cy"), (3, "Dee")):
        other = named(new_client(client), name)
        other.post(f"/m/{mid}/seat", data={"seat": str(seat)})
        others.append(other)
    cy = others[1]
    client.post(f"/m/{mid}/start")

    def state():
        return client.portal.call(service.snapshot, mid).match

    assert set(engine.prompts(state().state)) == {0, 2}, "team 1 (seats 1 and 3) plays at once"

    real = service.hints.pool.hint

    async def cy_moves_first(*args, **kwargs):
        """The search, once Cy has moved."""
        # a pass: it leaves Ann every move she had (a monster of Cy's could take her cell)
        await service.submit(mid, 2, "cy0", 0, {"type": "pass"}, actor=user_id(cy))
        return await real(*args, **kwargs)

    # Cy moves while Ann's hint is searched
    service.hints.pool.hint = cy_moves_first
    try:
        got = hint(client, mid, 0)
    finally:
        service.hints.pool.hint = real
    after = client.portal.call(service.snapshot, mid)
    assert got.version == after.match.version == 1
    assert got.action in engine.legal_actions(after.match.state, 0)
    assert [(u.seat, u.version) for u in after.hint_uses] == [(0, 1)]

    # her view from before Cy's move still holds her position: she may ask on it
    again = hint(client, mid, 0)
    assert again.version == 1 and again.action in engine.legal_actions(after.match.state, 0)

    # Ann moves: a view from before her move is stale
    client.portal.call(service.submit, mid, 0, "ann1", 1, got.action)
    for version in (0, 1):
        with pytest.raises(ServiceError) as err:
            hint(client, mid, version)
        assert err.value.code == "stale"
    assert len(client.portal.call(service.snapshot, mid).hint_uses) == 2


def test_a_hint_the_pool_gave_up_on_is_busy_and_nothing_is_recorded(hints_client, monkeypatch):
    """A hint that found no free search worker within the pool's ``hint_wait`` (``PoolBusy``:
    the bots' searches kept the workers busy) is the wire's ``busy`` (503: ask again), never a
    weaker level's move; no use is recorded."""
    from app.matches.botpool import PoolBusy
    from app.matches.errors import ErrorCode

    client = hints_client
    mid, _bob = two_players(client)
    service = client.app.state.service

    async def busy(*args, **kwargs):
        raise PoolBusy("no search worker came free in 10 s")
    monkeypatch.setattr(service.hints.pool, "hint", busy)
    with pytest.raises(ServiceError) as err:
        hint(client, mid)
    assert (err.value.code, err.value.status) == (ErrorCode.BUSY, 503)
    assert client.portal.call(service.snapshot, mid).hint_uses == []


def test_the_table_links_the_replay_so_far(client):
    """New-user trial (session 13): mid-match, the replay was reachable only by typing its
    address. The table's log heading links it (a new tab: the table stays live)."""
    mid, _bob = two_players(client)
    page = client.get(f"/m/{mid}").text
    assert f'class="log-replay" href="/m/{mid}/replay"' in page and "Replay so far" in page
    assert client.get(f"/m/{mid}/replay").status_code == 200


def test_each_view_says_where_a_hints_line_goes_in_its_log(hints_client):
    """The new-user trial: a table opened after a hint was asked drew its line at the end of
    the log, the live table's lines carrying no move. The use keeps how long the match's log
    was (``log_at``), and each view says where its line goes among that viewer's own lines
    (``line``): after the lines there were when it was asked, before the later moves' lines,
    for the players (who read private lines) and a spectator alike; an incremental view
    counts from its ``log_from``, and one from after the use leaves it out (the client keeps
    the place it had)."""
    from app.matches.views import build_views
    client = hints_client
    mid, bob = two_players(client)
    service = client.app.state.service
    engine = registry.get("evil_corp")
    viewers = [0, 1, None]

    def views(log_from: int = 0):
        snap = client.portal.call(service.snapshot, mid)
        return snap, build_views(engine, snap, snap.match.started_state, snap.match.version,
                                 viewers, log_from=log_from)

    snap, at_ask = views()
    got = hint(client, mid)
    snap = client.portal.call(service.snapshot, mid)
    assert [u.log_at for u in snap.hint_uses] == [len(snap.match.state["log"])]
    client.portal.call(service.submit, mid, 0, "ann0", 0, got.action)  # she plays on
    snap, later = views()
    for viewer in viewers:
        (use,) = later[viewer]["hint_uses"]
        assert "log_at" not in use
        assert use["line"] == len(at_ask[viewer]["log"]), viewer
        assert len(later[viewer]["log"]) > use["line"], "her move's lines come after it"
    # a socket holding the log as it was when the hint was asked gets the rest: counted
    # from there
    start = snap.hint_uses[0].log_at
    _snap, delta = views(log_from=start)
    assert all(delta[v]["hint_uses"][0]["line"] == 0 for v in viewers)
    # ... and one that holds more than that is not told again
    _snap, after = views(log_from=start + 1)
    assert all("line" not in after[v]["hint_uses"][0] for v in viewers)
