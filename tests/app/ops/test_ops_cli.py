"""The ``lair`` command line (issue 8, items 4 and 6): ``lair matches``, ``lair end MATCH``,
``lair remove-chat ID`` and ``lair verify`` (replay every stored match with today's engines)."""
from __future__ import annotations

import asyncio
import importlib
import io
import os
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest
from sqlalchemy import update

from app.db import make_engine
from app.models import Match
from app.ops.cli import main, run
from tests.app.conftest import create, named
from tests.app.realtime.test_live import act, recv, started, view_at
from tests.app.toygame import TOY

#: The store's own behaviour: on every database (tests/app/conftest.py).
pytestmark = pytest.mark.every_database


def lair(url: str, *args: str) -> tuple[int, str]:
    out = io.StringIO()
    status = asyncio.run(run(["--database-url", url, *args], out=out))
    return status, out.getvalue()


def play_two_matches(client) -> tuple[str, str]:
    """A finished toy match (against a bot) and an active one with a chat line."""
    done, _ = started(client, bots=True)
    service = client.app.state.service
    while True:  # Ann (seat 0) always takes the most; the bot answers
        client.portal.call(service.drain)
        m = client.portal.call(service.snapshot, done).match
        if m.status == "finished":
            break
        actions = TOY.legal_actions(m.state, 0)
        if actions:
            client.portal.call(service.submit, done, 0, f"a{m.version}", m.version, actions[-1])
    live, _ = started(client)
    with client.websocket_connect(f"/ws/matches/{live}") as ws:
        view_at(ws, 0)
        act(ws, 0, {"type": "bid", "n": 2}, "b1")
        view_at(ws, 1)
        ws.send_json({"type": "chat", "text": "gg"})
        recv(ws, "chat")
    return done, live


def test_matches_verify_end_and_remove_chat(client, database_url):
    done, live = play_two_matches(client)
    chat_id = client.portal.call(client.app.state.service.chat_history, live)[0].id
    client.__exit__(None, None, None)  # the server is stopped; the shell takes over

    status, out = lair(database_url, "matches", "--status", "all")
    assert status == 0 and done in out and live in out and "2 match(es)" in out
    status, out = lair(database_url, "matches")  # active ones by default
    assert status == 0 and live in out and done not in out

    status, out = lair(database_url, "verify")
    assert status == 0, out
    assert f"{done}" in out and "2 match(es) verified, 0 failed" in out

    status, out = lair(database_url, "remove-chat", str(chat_id))
    assert status == 0 and live in out
    assert lair(database_url, "remove-chat", str(chat_id))[0] == 1

    status, out = lair(database_url, "end", live)
    assert status == 0 and "ended" in out
    status, out = lair(database_url, "end", live)
    assert status == 1 and "already over" in out
    assert lair(database_url, "end", "nosuch")[0] == 1
    status, out = lair(database_url, "matches", "--status", "cancelled")
    assert live in out


def test_verify_catches_a_state_the_log_does_not_give(client, database_url):
    done, live = play_two_matches(client)
    client.__exit__(None, None, None)

    async def tamper():
        engine = make_engine(database_url)
        async with engine.begin() as conn:
            state = (await conn.execute(Match.__table__.select().where(Match.id == live))
                     ).one().state
            state["bids"] = [3, None]  # not what the log says (seat 0 bid 2)
            await conn.execute(update(Match).where(Match.id == live).values(state=state))
        await engine.dispose()

    asyncio.run(tamper())
    status, out = lair(database_url, "verify")
    assert status == 1
    assert f"{live}" in out and "FAILED: replay gives a different state" in out
    assert "1 failed" in out
    status, out = lair(database_url, "verify", done)
    assert status == 0 and "1 match(es) verified, 0 failed" in out


def test_lair_console_script_names_the_cli():
    """``[project.scripts]`` points ``lair`` at the command line's ``main`` (checked even where
    the project is not installed, so a move of the module cannot leave the script dangling)."""
    root = Path(__file__).resolve().parents[3]
    target = tomllib.loads((root / "pyproject.toml").read_text())["project"]["scripts"]["lair"]
    module, _, name = target.partition(":")
    assert getattr(importlib.import_module(module), name) is main


def test_lair_console_script_is_installed(database_url):
    exe = shutil.which("lair", path=str(Path(os.sys.executable).parent))
    assert exe, "pip install -e . registers the lair command"
    out = subprocess.run([exe, "matches", "--status", "all"], capture_output=True, text=True,
                         env={**os.environ, "DATABASE_URL": database_url}, timeout=60)
    assert out.returncode == 0, out.stderr
    assert "0 match(es)" in out.stdout


def test_unusable_database_is_one_clear_line_not_a_traceback(tmp_path, capsys, monkeypatch):
    """An operator running ``lair`` from another directory (the default ``./lair.db`` is
    relative), against an unmigrated database or an unreachable server gets exit status 2 and
    one line on stderr saying what is wrong; a missing SQLite file is not created empty."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DATABASE_URL", raising=False)
    out = io.StringIO()
    assert asyncio.run(run(["matches"], out=out)) == 2
    assert not (tmp_path / "lair.db").exists() and out.getvalue() == ""
    err = capsys.readouterr().err
    assert f"no database file at {tmp_path / 'lair.db'}" in err and "Traceback" not in err

    empty = tmp_path / "empty.db"
    empty.write_bytes(b"")
    assert lair(f"sqlite:///{empty}", "verify")[0] == 2
    assert "not at the migrations' head (it has no schema)" in capsys.readouterr().err

    status, _ = lair("postgresql://lair:s3cret-pw@127.0.0.1:1/lair", "matches")
    err = capsys.readouterr().err
    assert status == 2 and "cannot reach the database" in err
    assert "s3cret-pw" not in err and len(err.strip().splitlines()) == 1


def test_verify_skips_matches_never_started(client, database_url):
    """An open match and one cancelled in the waiting room have no state to replay (stored as
    JSON null): ``lair verify`` must not report them as failures (it did on both databases)."""
    named(client, "Ann")
    create(client)  # stays open
    cancelled = create(client)
    assert client.post(f"/m/{cancelled}/cancel", follow_redirects=False).status_code == 303
    started_id, _ = started(client)
    client.__exit__(None, None, None)

    status, out = lair(database_url, "verify")
    assert status == 0, out
    assert started_id in out and "1 match(es) verified, 0 failed" in out
    status, out = lair(database_url, "verify", cancelled)
    assert status == 0 and "0 match(es) verified" in out


def test_lair_end_reaches_the_open_tables(client, database_url):
    """``lair end`` from a shell while the server runs: the players' tables reload and show the
    match ended — through NOTIFY on PostgreSQL, through the SQLite watcher (app.matches.watch,
    which looks every CLOCK_POLL seconds; here it is asked to look at once) on SQLite."""
    mid, _ = started(client)
    with client.websocket_connect(f"/ws/matches/{mid}") as ws:
        view_at(ws, 0)
        status, out = lair(database_url, "end", mid)
        assert status == 0 and "ended" in out
        outside = client.app.state.outside
        if outside is not None:  # SQLite
            assert client.portal.call(outside.check) == [mid]
        assert recv(ws, "reload")["type"] == "reload"
    assert client.portal.call(client.app.state.service.snapshot, mid).match.status == "cancelled"
