"""THE per-viewer view: the engine's view plus what the service knows (names, presence, pace).

Every view a person reads is built here: the live table's (``live_views``, pushed by
app.realtime.hub), the waiting room's (``lobby_view``), a replay step's (``replay_view``,
also of an imported record) and the operator's (``build_view``, a spectator's view). Only
``engine.view(state, viewer)`` decides what a viewer may know; this module adds public facts
(seat names, bots, host, connection, clocks, votes) and never reads hidden parts of the
state. Who is connected comes in as data (:class:`Presence`), not from the sockets.
"""
from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from app.matches import hints, pace
from app.matches.service import Snapshot
from app.matches.snapshot import seat_name
from engines import registry
from engines.base import Engine
from engines.levels import level_of
from engines.records import UNDO


@dataclass(frozen=True)
class Presence:
    """Who is at a match's table now, as data (app.realtime.presence counts the sockets).

    ``connected``: seats with an open socket (in any process); ``spectators``: the number of
    spectator sockets; ``left_at``: seat -> when (epoch s) its last socket closed;
    ``since``: when the counting began (epoch s; an absent seat not seen since is away since
    then)."""

    connected: frozenset[int] = frozenset()
    spectators: int = 0
    left_at: Mapping[int, float] = field(default_factory=dict)
    since: float = 0.0

    def away_since(self, seat: int) -> float | None:
        """Since when (epoch s) ``seat`` has no socket open, or None while it has one."""
        if seat in self.connected:
            return None
        return self.left_at.get(seat, self.since)


#: Nobody connected (replays, records, tests).
NOBODY = Presence()


def build_view(engine: Engine, snap: Snapshot, state: dict, version: int, viewer: int | None,
               *, presence: Presence = NOBODY, reveal: bool = False) -> dict:
    """The view sent to ``viewer`` (seat or None for a spectator) at ``version``.

    Shape: the engine view (docs/design.md, "The engine contract") with ``version`` set, ``labels`` (one per legal action),
    seats augmented with ``name``/``bot``/``level``/``host``/``connected``, ``match``
    (``{id, game, title, status, players, spectators, spectator_chat_open}``), ``hints``
    (players may ask for one now) and ``hint_uses`` (:func:`hint_uses`, up to ``version``).
    """
    return build_views(engine, snap, state, version, [viewer], presence=presence,
                       reveal=reveal)[viewer]


def build_views(engine: Engine, snap: Snapshot, state: dict, version: int,
                viewers: Iterable[int | None], *, presence: Presence = NOBODY,
                reveal: bool = False, log_from: int = 0) -> dict[int | None, dict]:
    """``{viewer: build_view(..., viewer, ...)}`` for several viewers of one version: the
    engine computes what every viewer sees once (``Engine.views``), and each log event gets its
    seat names once, not once per viewer. Views may share parts that are equal for all
    viewers: encode them, do not change them in place.

    ``log_from``: the views' ``log`` holds only what each viewer may read of the state's
    events from that index on (the socket holds the rest: app.realtime.hub), so a move costs
    the new events, not the whole log, per viewer."""
    m = snap.match
    undo_for = snap.can_undo if not reveal and state is m.state else None
    others = _others_wordings(state["log"], log_from, len(snap.seats))
    used = hint_uses(snap, version)
    # the state's index of each event the views may hold: where each hint's line goes
    placed = [u for u in used if u.get("log_at") is not None and u["log_at"] >= log_from]
    index = {id(e): i for i, e in enumerate(state["log"][log_from:], log_from)} if placed else {}
    if log_from:
        state = dict(state, log=state["log"][log_from:])  # a shallow copy: nothing changes
    views = engine.views(state, viewers, reveal=reveal)
    online = presence.connected
    names = seat_names(snap)
    labels = [seat_label(info) for info in snap.seats]
    names_key = tuple(names)
    # id(event) -> (event, its named copy), for this call only: the engines' views hold the
    # state's own event objects, so each is named once, not once per viewer. Holding the event
    # keeps its id from being reused by another object meanwhile.
    named_events: dict[int, tuple[dict, dict]] = {}

    game_named = game_namer(engine)

    def named(event: dict) -> dict:
        copy = dict(event, text=game_named(_named(event["text"], names_key)))
        if id(event) in others:
            copy["others"] = True
        hit = named_events[id(event)] = (event, copy)
        return hit[1]

    match = {"id": m.id, "game": m.game, "title": engine.title, "status": m.status,
             "players": m.players, "spectators": presence.spectators,
             "spectator_chat_open": bool(m.spectator_chat_open)}
    hints_on = m.status == "active" and hints.available(engine, m.settings)
    for viewer, view in views.items():
        view["version"] = version
        # seat references by name, as in the log ("Attack Morgana's troop", not "Player 1's")
        view["labels"] = [game_named(_named(engine.describe(state, a), names_key))
                          for a in view["legal_actions"]]
        if undo_for is not None and undo_for(viewer):
            view["legal_actions"].append(dict(UNDO))
            view["labels"].append("Undo my last move")
        for info, name, seat_view in zip(snap.seats, labels, view["seats"]):
            for k, v in seat_view.items():
                if isinstance(v, str):
                    seat_view[k] = game_named(v)
            seat_view.update(name=name, bot=bool(info.bot), level=level_of(info.bot),
                             host=info.user_id == m.host_id and info.user_id is not None,
                             connected=bool(info.bot) or info.seat in online)
        hits = named_events.get
        at = _lines_at(view["log"], index, placed)
        view["log"] = [hit[1] if (hit := hits(id(e))) is not None else named(e)
                       for e in view["log"]]
        if view.get("prompt") and isinstance(view["prompt"].get("text"), str):
            view["prompt"] = dict(view["prompt"],
                                  text=game_named(_named(view["prompt"]["text"], names_key)))
        view["match"] = dict(match)
        view["hints"] = hints_on
        view["hint_uses"] = [_public_use(u, at) for u in used]
    return views


def _lines_at(log: list[dict], index: dict[int, int], placed: list[dict]) -> dict[int, int]:
    """``{id(use): line}`` for each use of ``placed``: how many events of ``log`` (a viewer's
    view of the state's log from some index on) the state held before the use's ``log_at``,
    i.e. where its line goes among that view's log lines. An event the engine's view copied
    (not in ``index``) counts where it stands, after the ones before it."""
    if not placed:
        return {}
    positions, last = [], -1
    for e in log:
        last = index.get(id(e), last)
        positions.append(last)
    return {id(u): bisect_left(positions, u["log_at"]) for u in placed}


def _public_use(use: dict, at: dict[int, int]) -> dict:
    """A use as a viewer's view lists it (docs/wire.md ``hint_uses``): ``line``, where its line
    goes among the view's log lines, when it is among them; never ``log_at`` (the whole log's
    length, every seat's events: not the viewer's business)."""
    out = {k: v for k, v in use.items() if k != "log_at"}
    if (line := at.get(id(use))) is not None:
        out["line"] = line
    return out


def hint_uses(snap: Snapshot, upto: int) -> list[dict]:
    """The hints asked for at versions up to ``upto``, oldest first: ``[{"seat", "version",
    "at", "log_at", "text"}]`` ("Ann asked for a hint at move 12": move ``version + 1``, the
    move the hint was for). Never what was suggested. ``log_at`` (the whole log's length then,
    or None) stays on the server: each view says instead where the line goes among its own
    lines (``build_views``)."""
    names = seat_names(snap)
    return [dict(use.as_dict(), log_at=use.log_at,
                 text=f"{names[use.seat] if use.seat < len(names) else '?'} "
                      f"asked for a hint at move {use.version + 1}")
            for use in snap.hint_uses if use.version <= upto]


def live_views(engine: Engine, snap: Snapshot, viewers: Iterable[int | None],
               presence: Presence, now: float, *, log_from: int = 0
               ) -> dict[int | None, dict]:
    """The live table's views of the match as committed (``snap.match.state``): ``build_views``
    plus ``pace`` (:func:`table_facts`) and, once the match is finished, the stored result
    (:func:`_stored_result`). ``now``: epoch s (the clocks and away timers)."""
    m = snap.match
    facts = table_facts(snap, presence, now)
    views = build_views(engine, snap, m.started_state, m.version, viewers, presence=presence,
                        log_from=log_from)
    for view in views.values():
        view["pace"] = facts
        if m.status == "finished" and m.result:  # ranks after resignations
            _stored_result(view, m.result)
    return views


def table_facts(snap: Snapshot, presence: Presence, now: float) -> dict:
    """The public pace facts added to every live view as ``view["pace"]`` (app.matches.pace):
    clocks, and per seat ``resigned``, ``away`` (seconds, None while connected or a bot),
    the replacement ``votes`` (voter seats) and ``needed``, and ``resign_ends`` (that
    seat's resignation would end the match now). ``now``: epoch s."""
    m = snap.match
    settings = pace.settings_of(m.settings)
    facts = pace.public(settings, m.clocks, m.players,
                        {i.seat for i in snap.seats if i.bot}, now)
    humans = {i.seat for i in snap.seats if i.user_id is not None}
    resigned = [i.seat for i in snap.seats if i.resigned_at is not None]
    teams = registry.get(m.game, m.engine_version).teams if m.game in registry.ENGINES \
        else {}
    since = (m.clocks or {}).get("since") or {}
    for info, entry in zip(snap.seats, facts["seats"]):
        away = presence.away_since(info.seat) if info.seat in humans else None
        votes = info.votes or {}
        current = "since" in votes and votes.get("since") == since.get(str(info.seat))
        entry.update(resigned=info.resigned_at is not None,
                     away=None if away is None else round(max(0.0, now - away), 1),
                     votes=votes.get("voters", []) if current else [],
                     needed=pace.votes_needed(humans, info.seat) if info.seat in humans
                     else None,
                     # whether this seat resigning now ends the match (the dialog says so)
                     resign_ends=pace.last_side(m.players, teams,
                                                resigned + [info.seat]) is not None)
    return facts


def _stored_result(view: dict, result: dict) -> None:
    """The match's stored result wins over the engine's: resigned seats rank last, and a match
    ended by resignation has no engine result at all (nobody is prompted any more)."""
    view["result"] = result
    view["legal_actions"], view["labels"], view["prompt"] = [], [], None
    if isinstance(view.get("header"), dict):
        view["header"] = dict(view["header"], waiting_for=[])


def lobby_view(snap: Snapshot, presence: Presence) -> dict:
    """The waiting room of an open match: ``{status, seats: seats_summary, pace:
    pace.describe}``."""
    m = snap.match
    return {"status": m.status, "seats": seats_summary(snap, presence),
            "pace": pace.describe(pace.settings_of(m.settings))}


def replay_view(engine: Engine, snap: Snapshot, state: dict, written_at: Sequence[int],
                step: int, steps: int, viewer: int | None, *, reveal: bool,
                final_result: dict | None) -> dict:
    """A replay endpoint's answer ``{"step", "steps", "view"}``: the view at ``step`` of
    ``steps`` (``state``: the state after ``step`` actions), read-only (no legal actions,
    labels or prompt; the table's spectator-chat setting is no part of a replay) and, at the
    last step, the stored ``final_result`` when there is one: a match ended by resignations
    ranks as the service (or the record) says, which the engine's own result does not know.

    ``written_at``: for each event of ``state["log"]``, the step that wrote it
    (``replays.step_at``); every event of the view's log carries it as ``step``, so the
    replay marks the lines of the move shown and a click on a line goes to its move. The
    engine still decides which events the viewer reads: the steps go only with those."""
    if len(written_at) != len(state["log"]):
        raise ValueError(f"{len(written_at)} steps for {len(state['log'])} log events")
    # copies: the state (the replayer's, kept for later steps) is never changed
    state = dict(state, log=[dict(e, step=k) for e, k in zip(state["log"], written_at)])
    view = build_view(engine, snap, state, step, viewer, reveal=reveal)
    view["legal_actions"], view["labels"], view["prompt"] = [], [], None
    view["hints"] = False  # nobody asks in a replay; the uses so far are listed
    if step == steps and final_result:
        view["result"] = final_result
    view["match"].pop("spectator_chat_open", None)
    return {"step": step, "steps": steps, "view": view}


def _others_wordings(log: list[dict], start: int, players: int) -> set[int]:
    """Ids of the events from ``log[start:]`` that are the rest of the table's wording of a
    private event beside them. The engines word a private event in the second person for its
    seats ("You drew Thug, Mole") and log, just before or after it, the public wording for
    exactly all the other seats ("Player 1 drew 2 tile(s)"). The views mark those ``others:
    true``, so the table does not tag them private ("only you" when two play, where "all the
    others" is one seat) and a replay that shows every event can tell the two apart."""
    out: set[int] = set()
    everyone = set(range(players))
    last = len(log) - 1
    for i in range(start, len(log)):
        to = log[i]["to"]
        if to == "all" or log[i]["text"].startswith("You "):
            continue
        for j in (i - 1, i + 1):
            if 0 <= j <= last:
                near = log[j]["to"]
                if near != "all" and log[j]["text"].startswith("You ") \
                        and not set(near) & set(to) and set(near) | set(to) == everyone:
                    out.add(id(log[i]))
                    break
    return out


@lru_cache(maxsize=None)
def game_namer(engine: Engine):
    """``text -> text`` with every whole-word code of ``engine.display_names()`` (a catalogue
    id "B07", a cell id "raid-1") replaced by its display name; the identity for a game
    without names. The stored texts keep their codes: only what viewers read changes.
    Names are presentation, not rules: an earlier rules version frozen before its game had
    names (``engines/<game>/legacy/``) reads the live version's names for the same codes."""
    names = engine.display_names()
    if not names and engine.id in registry.ENGINES:
        names = registry.ENGINES[engine.id].display_names()
    if not names:
        return lambda text: text
    # longest first, so that "SR1" is not read as "SR" + "1"; a code never touches a letter,
    # digit or hyphen ("raid-1" is not "raid-10", "B07" not part of "AB07")
    pattern = re.compile(r"(?<![\w-])(" + "|".join(
        re.escape(k) for k in sorted(names, key=len, reverse=True)) + r")(?![\w-])")

    @lru_cache(maxsize=1 << 14)
    def named(text: str) -> str:
        return pattern.sub(lambda m: names[m.group(1)], text)
    return named


def seat_names(snap: Snapshot) -> list[str]:
    """The name the log and the prompts give every seat: its player's own name, also while a
    bot plays for that player (the log must not rename the player's earlier moves; the seat
    list says a bot plays: :func:`seat_label`)."""
    return [seat_name(info) for info in snap.seats]


def seat_label(info) -> str:
    """The seat list's name for a seat: the log's name, and which bot plays for an away
    player ("Fritz (greedy bot)")."""
    if info.bot and info.away_name:
        return f"{info.away_name} ({info.bot} bot)"
    return seat_name(info)


_PLAYER = re.compile(r"\bPlayer ([1-9])\b")


def name_players(text: str, names: list[str | None]) -> str:
    """Replace the engines' seat references ("Player 2" = seat 1, their convention in event
    and prompt texts) with the seat's display name."""
    return _named(text, tuple(names))


@lru_cache(maxsize=1 << 16)
def _named(text: str, names: tuple[str | None, ...]) -> str:
    # Cached: every viewer's view repeats the same log lines after every move.
    def sub(m: re.Match) -> str:
        i = int(m.group(1)) - 1
        name = names[i] if 0 <= i < len(names) else None
        return name or m.group(0)
    return _PLAYER.sub(sub, plurals(text))  # counts first: a seat's name may end in a digit


#: "<count> <up to three words>(s)", the engines' way of writing a count in their texts; not
#: the number of a seat or a team ("Player 1 own(s) 2 victory tokens": a verb).
_COUNTED = re.compile(r"(?<!Player )(?<!Team )(?<!Side )\b(\d+)((?: [A-Za-z-]+){1,3})\(s\)")


@lru_cache(maxsize=1 << 12)
def plurals(text: str) -> str:
    """Resolve the engines' "N word(s)" for the reader: "1 tile", "5 tiles", "2 Power Relics".
    The stored texts keep "(s)" (changing them would change every stored state); only what
    viewers read is resolved. Other "(s)" (a verb, a word with no count before it) stay."""
    if "(s)" not in text:
        return text
    return _COUNTED.sub(lambda m: m.group(1) + m.group(2) + ("" if m.group(1) == "1" else "s"),
                        text)


def seats_summary(snap: Snapshot, presence: Presence = NOBODY) -> list[dict]:
    """Public seat list for the waiting room: ``[{seat, name, bot, level, host, connected,
    empty}]`` (``level``: ``easy``/``normal``/``hard`` for a bot seat, else ``None``)."""
    online = presence.connected
    return [{"seat": i.seat, "name": i.name, "bot": i.bot, "level": level_of(i.bot),
             "host": i.user_id is not None and i.user_id == snap.match.host_id,
             "connected": i.seat in online, "empty": i.user_id is None and i.bot is None}
            for i in snap.seats]
