"""Clocks during an outage (issue 13, item 8; app/matches/outage.py): time when nothing was
served (no live process, or the database failing) is charged to nobody. The service's fake
clock stands in for the outage; the clock timer is driven by hand (``tick``)."""
from __future__ import annotations

import pytest
from sqlalchemy import update

from app.models import Heartbeat
from tests.app.matches.test_pace import FakeClock, call, snap, submit, table


@pytest.fixture
def timer(client):
    """The app's clock timer, stopped (the test ticks it) and on a fake clock; outages are
    gaps of more than 15 s (the default; the tests' settings switch it off)."""
    timer = client.app.state.timer
    call(client, timer.stop)
    timer.heartbeats.after = 15.0
    client.app.state.service.now = FakeClock()
    # The next tick beats on the fake clock: the start-up beat was on the real one, some real
    # time before the fake clock's start (70 ms on a busy machine), which a gap would include.
    timer.heartbeats._last = None
    return timer


def serve(client, timer, seconds: int) -> None:
    """``seconds`` of service: the clock moves ``every`` seconds at a time (a whole beat
    period, the longest a serving process waits) and the timer looks each time."""
    step = int(timer.heartbeats.every)
    for _ in range(seconds // step):
        client.app.state.service.now.advance(seconds=step)
        call(client, timer.tick)


def test_a_66_second_outage_does_not_hand_a_60_second_bank_to_a_bot(client, timer):
    """The report: a 66 s server outage handed a player with a 60 s time bank to a bot."""
    clock = client.app.state.service.now
    mid, _ = table(client, pace="live", bank_minutes=1)
    submit(client, mid, 0, {"type": "bid", "n": 3})  # Bob's clock runs (seat 1)
    before = snap(client, mid).match
    call(client, timer.tick)  # served: the heartbeat is now
    clock.advance(seconds=66)  # nothing served for 66 s
    call(client, timer.tick)  # the first look afterwards gives the time back first
    call(client, client.app.state.service.drain)
    after = snap(client, mid)
    assert after.seats[1].user_id is not None and not after.seats[1].bot
    credit = 66 - timer.heartbeats.every
    assert float(after.match.clocks["since"]["1"]) == pytest.approx(
        float(before.clocks["since"]["1"]) + credit, abs=0.01)
    assert after.match.deadline.timestamp() == pytest.approx(
        before.deadline.timestamp() + credit, abs=0.01)
    # Bob has the 55 s his bank held less the 5 s that may have been served: he moves in time
    serve(client, timer, 50)
    assert snap(client, mid).seats[1].user_id is not None
    submit(client, mid, 1, {"type": "bid", "n": 1})
    assert snap(client, mid).match.clocks["banks"]["1"] == pytest.approx(60 - 55, abs=0.01)


def test_time_served_is_still_charged(client, timer):
    """While a process serves (a beat every few seconds), the clock runs as before: 65 s of
    play spends a 60 s bank."""
    mid, _ = table(client, pace="live", bank_minutes=1)
    call(client, timer.tick)
    serve(client, timer, 65)
    call(client, client.app.state.service.drain)
    assert snap(client, mid).seats[0].bot and snap(client, mid).seats[1].bot


def test_two_processes_back_at_once_give_the_time_back_once(client, timer, settings):
    """After an outage, the first process to beat gives the time back; another one (or a second
    look) finds the heartbeat fresh and gives nothing more."""
    from app.matches.outage import Heartbeats

    clock = client.app.state.service.now
    mid, _ = table(client, pace="live", bank_minutes=1)
    call(client, timer.tick)
    clock.advance(seconds=120)
    other = Heartbeats(client.app.state.service, every=5, after=15)
    assert call(client, other.beat) == pytest.approx(115)
    assert call(client, timer.tick) is not None  # the timer's own beat: nothing more
    assert call(client, timer.heartbeats.beat) == 0.0
    since = float(snap(client, mid).match.clocks["since"]["0"])
    assert since == pytest.approx(clock.t.timestamp() - 120 + 115, abs=1)


def test_a_restart_after_an_outage_gives_the_time_back(client, timer):
    """No process was serving: the heartbeat in the database is old when a process starts."""
    service = client.app.state.service
    clock = service.now
    mid, _ = table(client, pace="live", bank_minutes=1)
    before = snap(client, mid).match

    async def beat_long_ago():
        async with service.sm() as s:
            await s.execute(update(Heartbeat).values(beat_at=clock.t.timestamp() - 600))
            await s.commit()

    call(client, timer.tick)
    call(client, beat_long_ago)
    from app.matches.pace.timer import ClockTimer
    restarted = ClockTimer(service, poll=5)  # a new process's timer: its first look
    call(client, restarted.tick)
    assert float(snap(client, mid).match.clocks["since"]["0"]) == pytest.approx(
        float(before.clocks["since"]["0"]) + 595, abs=0.01)


def test_a_move_before_the_first_look_after_an_outage_is_not_charged_for_it(client, timer):
    """Seen live (two processes, the database stopped for 70 s): as the database came back,
    the players' re-sent moves committed before either clock timer had looked, each charging
    its mover the whole outage, and the timers then handed both seats to bots. A move made
    when this process has not beaten for longer than an outage gives the time back first."""
    clock = client.app.state.service.now
    mid, _ = table(client, pace="live", bank_minutes=1)
    submit(client, mid, 0, {"type": "bid", "n": 3})  # Bob's clock runs (seat 1)
    call(client, timer.tick)  # served: the heartbeat is now
    clock.advance(seconds=66)  # nothing served for 66 s
    submit(client, mid, 1, {"type": "bid", "n": 1})  # Bob's move lands before the timer looks
    assert snap(client, mid).match.clocks["banks"]["1"] == pytest.approx(
        60 - timer.heartbeats.every, abs=0.01)
    call(client, timer.tick)
    call(client, client.app.state.service.drain)
    assert not any(s.bot for s in snap(client, mid).seats)
