"""``lair``: the operator's command line (installed by ``pip install``; ``[project.scripts]``).

    lair matches [--status active|open|finished|cancelled|all]   list matches
    lair end MATCH                                                end an abandoned match
    lair remove-chat MESSAGE_ID                                   remove a chat message
    lair verify [MATCH]                                           replay stored matches
    lair serve                                                    run the site (app/serve.py)

The database is ``DATABASE_URL`` (the same settings as the server) unless ``--database-url`` is
given. Exit status: 0 success, 1 a verification failed or the match/message was not found, 2 bad
usage or a database that cannot be used (unreachable, missing SQLite file, schema not at the
migrations' head: said in one line on stderr; a missing SQLite file is not created). ``end``
also tells running PostgreSQL processes, so open tables reload at once.
Nothing printed contains a seed, a token or hidden game information.

``serve`` runs uvicorn with the options from the settings (``HOST``, ``PORT``, ``WEB_CONCURRENCY``,
the websocket limits, ``FORWARDED_ALLOW_IPS``...: :mod:`app.serve`); it does not migrate (``make
run`` and the container's entry point run ``alembic upgrade head`` first) and returns uvicorn's
exit status.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import sys
from pathlib import Path

from sqlalchemy import func, make_url, select, text

from app.db import make_engine, make_sessionmaker
from app.matches.changes import Cancelled
from app.matches.service import MatchService, ServiceError
from app.models import Match, Seat, User
from app.ops.admin import remove_chat
from app.ops.health import database_revisions, head_revisions
from app.ops.verify import verify_all
from app.realtime.fanout import CHANNEL, payload
from app.settings import Settings


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="lair", description="Operate a Lair site from a shell.")
    p.add_argument("--database-url", help="overrides DATABASE_URL")
    sub = p.add_subparsers(dest="command", required=True)
    m = sub.add_parser("matches", help="list matches by status")
    m.add_argument("--status", default="active",
                   choices=["active", "open", "finished", "cancelled", "all"])
    e = sub.add_parser("end", help="end a match that is not over (it becomes cancelled)")
    e.add_argument("match")
    c = sub.add_parser("remove-chat", help="remove one chat message (id from the admin page)")
    c.add_argument("message", type=int)
    v = sub.add_parser("verify", help="replay every stored match with the current engines")
    v.add_argument("match", nargs="?")
    sub.add_parser("serve", help="run the site with the settings' server options (HOST, PORT...)")
    return p


async def _matches(sm, status: str, out) -> int:
    async with sm() as s:
        seated = (select(Seat.match_id, func.count(Seat.user_id).label("humans"),
                         func.count(Seat.bot).label("bots")).group_by(Seat.match_id).subquery())
        q = (select(Match, User.name, seated.c.humans, seated.c.bots)
             .outerjoin(User, Match.host_id == User.id)
             .outerjoin(seated, seated.c.match_id == Match.id)
             .order_by(Match.updated_at.desc()))
        if status != "all":
            q = q.where(Match.status == status)
        rows = (await s.execute(q)).all()
    print(f"{'match':<10} {'game':<14} {'status':<10} {'seats':<12} {'version':>7}  "
          f"{'updated (UTC)':<16}  host", file=out)
    for m, host, humans, bots in rows:
        seats = f"{humans or 0}p+{bots or 0}b/{m.players}"
        print(f"{m.id:<10} {m.game:<14} {m.status:<10} {seats:<12} {m.version:>7}  "
              f"{m.updated_at:%Y-%m-%d %H:%M}  {host or '-'}", file=out)
    print(f"{len(rows)} match(es)", file=out)
    return 0


async def _end(engine, sm, match_id: str, out) -> int:
    try:
        await MatchService(sm).end(match_id)
    except ServiceError as exc:
        print(f"{match_id}: {exc.message}", file=out)
        return 1
    if engine.dialect.name == "postgresql":  # running servers: reload the players' tables
        async with engine.begin() as conn:
            await conn.execute(text("SELECT pg_notify(:channel, :payload)"), {
                "channel": CHANNEL, "payload": payload("cli", match_id, Cancelled())})
    print(f"{match_id}: ended", file=out)
    return 0


async def _remove_chat(sm, message_id: int, out) -> int:
    match_id = await remove_chat(MatchService(sm), message_id)
    if match_id is None:
        print(f"no chat message {message_id}", file=out)
        return 1
    print(f"chat message {message_id} removed from match {match_id}", file=out)
    return 0


async def _verify(sm, match_id: str | None, out) -> int:
    verdicts = await verify_all(sm, match_id)
    bad = 0
    for v in verdicts:
        line = f"{v.match_id:<10} {v.game:<14} {v.status:<10} v{v.version:<5} "
        line += "ok" if v.ok else f"FAILED: {v.problem}"
        if v.note:
            line += f" ({v.note})"
        print(line, file=out)
        bad += not v.ok
    print(f"{len(verdicts)} match(es) verified, {bad} failed", file=out)
    return 1 if bad else 0


def _missing_sqlite_file(url: str) -> Path | None:
    """The absolute path of a SQLite database file that does not exist (connecting would create
    an empty one, e.g. the relative default ``./lair.db`` from another directory), else None."""
    u = make_url(url)
    if u.get_backend_name() != "sqlite" or not u.database or u.database == ":memory:":
        return None
    path = Path(u.database).resolve()
    return None if path.exists() else path


async def _unusable(engine, url: str) -> str | None:
    """Why the database cannot be used by these commands, or None when it can."""
    shown = make_url(url).render_as_string(hide_password=True)
    try:
        have = await database_revisions(engine)
    except Exception as exc:  # noqa: BLE001 - any failure to connect: say which, not a traceback
        first = (str(exc).splitlines() or [""])[0]
        return f"cannot reach the database {shown} ({type(exc).__name__}: {first})"
    if have != head_revisions():
        return (f"the database {shown} is not at the migrations' head (it has "
                f"{', '.join(sorted(have)) or 'no schema'}): wrong DATABASE_URL, or run "
                "`alembic upgrade head` first")
    return None


async def run(argv: list[str], out=sys.stdout, err=None) -> int:
    """Run one command; returns the exit status (problems with the database go to ``err``,
    default stderr)."""
    err = err or sys.stderr
    args = _parser().parse_args(argv)
    if args.command == "serve":
        print("lair: serve runs from the command line (main), not inside an event loop", file=err)
        return 2
    settings = Settings(**({"database_url": args.database_url} if args.database_url else {}))
    missing = _missing_sqlite_file(settings.async_database_url)
    if missing is not None:
        print(f"lair: no database file at {missing} (DATABASE_URL; the default ./lair.db is "
              "relative to the current directory: run lair where the site runs)", file=err)
        return 2
    engine = make_engine(settings.async_database_url)
    sm = make_sessionmaker(engine)
    try:
        problem = await _unusable(engine, settings.async_database_url)
        if problem is not None:
            print(f"lair: {problem}", file=err)
            return 2
        if args.command == "matches":
            return await _matches(sm, args.status, out)
        if args.command == "end":
            return await _end(engine, sm, args.match, out)
        if args.command == "remove-chat":
            return await _remove_chat(sm, args.message, out)
        return await _verify(sm, args.match, out)
    finally:
        await engine.dispose()


def main(argv: list[str] | None = None) -> int:
    """Console entry point (``lair``)."""
    argv = sys.argv[1:] if argv is None else argv
    args = _parser().parse_args(argv)
    if args.command == "serve":  # uvicorn runs its own event loop (and maybe workers)
        from app.serve import serve

        if args.database_url:  # the app (in each worker) reads its settings from the environment
            os.environ["DATABASE_URL"] = args.database_url
        serve(Settings())
        return 0
    return asyncio.run(run(argv))


if __name__ == "__main__":
    sys.exit(main())
