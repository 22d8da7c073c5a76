"""The engine contract shared by every game, and the helpers more than one game uses.

See ``docs/design.md`` ("The engine contract"). A game is one :class:`Engine` subclass instance,
registered in :mod:`engines.registry`. Engines are pure: no I/O, no clock, no global RNG. Every
piece of randomness comes from :class:`Rng`, whose whole state is one integer kept inside the game
state, so the same seed and the same actions always give the same state.

State shape conventions (every game):

- ``state["rng"]``: int, the RNG state (never shown in a view).
- ``state["log"]``: list of events ``{"text", "to", "irreversible"}``; ``to`` is ``"all"`` or a
  list of seats; ``"spectators": True`` lets spectators read an event addressed to seats (the
  public wording of a private event, for every seat but its owner).
- ``state["players"]``: int, the number of seats.
- ``state["stack"]``: the decision stack (list of frames, top last). A frame is a dict with at
  least ``"kind"`` and ``"seats"`` (list of seats that must still decide). Games may use other
  structures where they read better, but ``prompts()`` is always the truth about who is waited for.
"""
from __future__ import annotations

from typing import Any, Callable, ClassVar, Iterable, Sequence

import orjson
from pydantic import BaseModel, ConfigDict

Action = dict[str, Any]
State = dict[str, Any]
Event = dict[str, Any]

#: Automatic steps ``Engine.apply`` may run before it decides the rules are looping.
STEP_CAP = 10_000

_MASK64 = (1 << 64) - 1


class IllegalAction(Exception):
    """An action the rules do not allow now.

    ``reason`` is shown to the acting player only; it must never name hidden information
    (another seat's hand, the bag's order).
    """

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def same_types(legal: Any, given: Any) -> bool:
    """Whether ``given``, already ``== legal``, also has ``legal``'s JSON types all through:
    Python's ``==`` confuses ``1``, ``1.0`` and ``True``, and a state that took a client's
    ``2.0`` or ``true`` for a legal ``2`` or ``1`` would hold a float (a crash later) or a bool.
    Only the equal legal action is walked, so the depth is that of a legal action's."""
    if type(legal) is not type(given):
        return False
    if isinstance(legal, dict):
        return all(same_types(v, given[k]) for k, v in legal.items())
    if isinstance(legal, list):
        return all(same_types(a, b) for a, b in zip(legal, given))
    return True


def is_listed(legal: list[Action], action: Any) -> bool:
    """Whether ``action`` is one of ``legal``, JSON types included (:func:`same_types`). The
    first equal action is found at C speed (``list.index``); the others are looked at only
    when it differs in type (a ``1.0`` for a ``1``: rare)."""
    try:
        first = legal.index(action)
    except ValueError:
        return False
    return same_types(legal[first], action) or any(
        other == action and same_types(other, action) for other in legal[first + 1:])


class RulesLoop(RuntimeError):
    """Raised when automatic resolution exceeds :data:`STEP_CAP` (a bug in the rules code)."""


class Rng:
    """SplitMix64: a tiny, fully specified PRNG whose whole state is one 64-bit integer.

    Python only promises ``random.random()`` across versions, not ``shuffle``/``randrange``, so
    the engines use this instead. Usage inside ``apply``::

        rng = Rng(state["rng"]); rng.shuffle(bag); state["rng"] = rng.state
    """

    __slots__ = ("state",)

    def __init__(self, state: int):
        self.state = int(state) & _MASK64

    def next64(self) -> int:
        """Return the next 64-bit unsigned integer."""
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Uniform integer in ``[0, n)`` (rejection sampling, no modulo bias). ``n`` >= 1."""
        if n <= 0:
            raise ValueError("below() needs n >= 1")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def choice(self, seq: Sequence[Any]) -> Any:
        """One element of a non-empty sequence."""
        return seq[self.below(len(seq))]

    def shuffle(self, items: list[Any]) -> None:
        """Fisher–Yates shuffle in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def shuffled(self, items: Iterable[Any]) -> list[Any]:
        """A shuffled copy."""
        out = list(items)
        self.shuffle(out)
        return out


def seed_state(seed: int) -> int:
    """Turn a user-facing seed (any int) into an initial RNG state."""
    return Rng(seed).next64()


def clone(state: State) -> State:
    """Copy of a JSON state to change freely (orjson round trip: ~8x faster than
    ``copy.deepcopy``). The log's events are shared, not copied: a logged event is never
    changed (engines only append), and copying a long log cost more than the rest of the
    state on every move."""
    log = state.get("log")
    if not isinstance(log, list):
        return orjson.loads(orjson.dumps(state))
    new = orjson.loads(orjson.dumps({k: v for k, v in state.items() if k != "log"}))
    new["log"] = list(log)
    return new


def public_copy(state: State, viewer: int | None) -> State:
    """A copy of ``state`` whose log keeps only the events ``viewer`` may read (the start of
    every :meth:`Engine.determinize`: another seat's private events are hidden information).
    Engines only append to the log, so a shorter log never changes what the rules do."""
    new = clone(dict(state, log=[]))
    new["log"] = visible_log(state.get("log", []), viewer)
    return new


def event(text: str, to: str | list[int] = "all", irreversible: bool = False, **extra: Any) -> Event:
    """Build a log event. ``to`` is ``"all"`` or a list of seats that may read it."""
    ev = {"text": text, "to": to if to == "all" else sorted(to), "irreversible": irreversible}
    ev.update(extra)
    return ev


def visible_log(log: list[Event], viewer: int | None, reveal: bool = False) -> list[Event]:
    """The events ``viewer`` may read. Spectators (``viewer=None``) read the ``"all"`` events
    and those marked ``"spectators": True``: the public wording of a private event, addressed
    to every seat but its owner ("Player 1 drew 5 tile(s)" beside the owner's "You drew ...")."""
    if reveal:
        return list(log)
    if viewer is None:
        return [e for e in log if e["to"] == "all" or e.get("spectators")]
    return [e for e in log if e["to"] == "all" or viewer in e["to"]]


class NoOptions(BaseModel):
    """Options model for a game without options."""

    model_config = ConfigDict(extra="forbid")


class Engine:
    """Base class of every game engine (docs/design.md, "The engine contract").

    Subclasses set the class attributes and implement the ``_``-prefixed hooks; the public
    methods here enforce the contract (legality check, no mutation of the input, step cap).

    Class attributes: ``id`` (str, package name), ``title``, ``min_players``, ``max_players``,
    ``version`` (int; bump when an old action log would replay differently), ``options``
    (pydantic model class), ``teams`` (optional: ``{players: [[seat, ...], ...]}``).
    """

    id: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    version: ClassVar[int] = 1
    options: ClassVar[type[BaseModel]] = NoOptions
    teams: ClassVar[dict[int, list[list[int]]]] = {}
    #: Keys of ``view["game"]`` whose values are the same for every viewer and never change
    #: during a match (board geometry, a card catalogue): the server sends them to a socket
    #: once, not with every view (docs/design.md, "The wire"). The contract tests check both.
    static_view_keys: ClassVar[tuple[str, ...]] = ()
    #: The game's bots by name (``{"greedy": fn, ...}``: its ``bots`` module), and its search
    #: bot's :class:`engines.search.SearchSpec` (the ``hard`` level: engines.levels), or
    #: ``None``: then ``hard`` plays as the game's greedy bot. Set by each game package on its
    #: engine class, so a frozen rules version keeps the bots of its own copy.
    bots: ClassVar[dict[str, Any]] = {}
    search_spec: ClassVar[Any] = None

    # ----- contract -------------------------------------------------------------------------
    def parse_options(self, players: int, raw: dict | BaseModel | None) -> BaseModel:
        """Validate options (pydantic) for a player count. Raises ``ValueError`` if invalid."""
        if isinstance(raw, BaseModel):
            return raw
        return self.options.model_validate(raw or {})

    def setup(self, players: int, options: dict | BaseModel | None, seed: int) -> State:
        """Initial state for ``players`` seats. Raises ``ValueError`` for a bad count/options."""
        if not self.min_players <= players <= self.max_players:
            raise ValueError(f"{self.title} needs {self.min_players}-{self.max_players} players")
        opts = self.parse_options(players, options)
        state = self._setup(players, opts, seed)
        state.setdefault("log", [])
        state["players"] = players
        self._run_automatic(state)
        return state

    #: The game's rules-help module, or ``None``: it maps each prompt kind to the section of the
    #: game's rules summary it comes from (``PROMPT_RULES``) and words refusals in the rulebook's
    #: terms (``illegal_reason(engine, state, seat, action)``); see ``/rules/<game>``.
    rules_help: Any = None

    def prompts(self, state: State) -> dict[int, dict]:
        """``{seat: {"kind", "text", "rule"}}`` for every seat the game waits for; ``{}`` once
        over. ``rule`` (only with :attr:`rules_help`) is the rules-summary section id the prompt
        comes from. Games implement :meth:`_prompts`, which returns the prompts without it."""
        prompts = self._prompts(state)
        if self.rules_help is None:
            return prompts
        rules = self.rules_help.PROMPT_RULES
        return {s: {**p, "rule": rules[p["kind"]]} for s, p in prompts.items()}

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        """Every legal action for ``seat`` now (finite, concrete, JSON dicts)."""
        raise NotImplementedError

    def apply(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        """Apply a legal action to a copy of ``state``; run automatic steps.

        Returns ``(new_state, new_events)``. Raises :class:`IllegalAction` if ``action`` is not
        in ``legal_actions(state, seat)`` with the very same JSON types (:func:`same_types`:
        ``{"n": 1}``, ``{"n": 1.0}`` and ``{"n": true}`` are three actions, although Python's
        ``==`` takes them for one); ``state`` is never mutated.
        """
        if not isinstance(action, dict) or not is_listed(self.legal_actions(state, seat), action):
            raise IllegalAction(self.illegal_reason(state, seat, action))
        new = clone(state)
        before = len(new["log"])
        self._apply(new, seat, action)
        self._run_automatic(new)
        return new, new["log"][before:]

    def apply_trusted(self, state: State, seat: int, action: Action) -> None:
        """Apply ``action`` to ``state`` **in place**, without the legality check of
        :meth:`apply`, then run the automatic steps (the search bots' apply: they only play
        actions taken from ``legal_actions`` of that very state, and one check per simulated
        move would cost as much as the move itself).

        ``state`` must be the caller's own copy (e.g. from :func:`clone` or :meth:`determinize`);
        an illegal ``action`` gives an undefined state or any exception, never an
        :class:`IllegalAction` promise. Returns ``None``; the new events are appended to
        ``state["log"]`` as in :meth:`apply`."""
        self._apply(state, seat, action)
        self._run_automatic(state)

    def view(self, state: State, viewer: int | None, reveal: bool = False) -> dict:
        """What ``viewer`` (seat, or ``None`` for a spectator) may know; see docs/design.md."""
        return self.views(state, [viewer], reveal)[viewer]

    def views(self, state: State, viewers: Iterable[int | None], reveal: bool = False
              ) -> dict[int | None, dict]:
        """``{viewer: view(state, viewer, reveal)}`` for several viewers at once (the server
        builds every seat's view after each move): what does not depend on the viewer (prompts,
        header, result, the public part of the board: see :meth:`_game_views`) is computed
        once. Parts that do not depend on the viewer may be the same objects in several views:
        callers must not change a view in place (build a new dict instead)."""
        prompts = self.prompts(state)
        header = self._header(state, prompts)
        result = self.result(state)
        viewers = list(dict.fromkeys(viewers))
        games = self._game_views(state, viewers, reveal)
        return {viewer: {
            "version": state.get("version"),
            "you": viewer,
            "seats": self._seat_views(state, viewer, reveal),
            "header": header,
            "prompt": prompts.get(viewer) if viewer is not None else None,
            "legal_actions": self.legal_actions(state, viewer) if viewer is not None else [],
            "log": visible_log(state["log"], viewer, reveal),
            "result": result,
            "game": games[viewer],
        } for viewer in viewers}

    def determinize(self, state: State, viewer: int | None, rng: Rng) -> State:
        """A state the viewer cannot tell from ``state``: hidden parts resampled, the log cut
        to the events the viewer may read (:func:`public_copy`). Pure.

        Canonical: for two states the viewer cannot tell apart (equal views) and two equal
        ``rng``, the results are equal -- hidden pools are sorted before they are shuffled, so
        nothing of the real hidden order can flow into a bot's sample (the engines' harness
        checks it). Games with hidden information override this."""
        return public_copy(state, viewer)

    def result(self, state: State) -> dict | None:
        """``None`` while running, else ``{"ranks": [[seat...]...], "scores": {...}, "tiebreak"}``."""
        raise NotImplementedError

    # ----- helpers for the service and the UI -----------------------------------------------
    def illegal_reason(self, state: State, seat: int, action: Any) -> str:
        """A player-readable reason why ``action`` is refused (reveals nothing hidden); in the
        rulebook's words when the game has a :attr:`rules_help` module."""
        if self.rules_help is not None:
            return self.rules_help.illegal_reason(self, state, seat, action)
        if self.result(state) is not None:
            return "The match is over."
        if seat not in self.prompts(state) and not self.legal_actions(state, seat):
            return "It is not your turn."
        return "That action is not allowed now."

    def describe(self, state: State, action: Action) -> str:
        """A short human label for one of the legal actions (prompt-bar buttons, log, tooltips).

        Games override this with rulebook wording ("Place Crow on C3", "Done brewing").
        """
        return " ".join(f"{v}" for v in action.values())

    def display_names(self) -> dict[str, str]:
        """``{code: display name}`` for the codes a game's stored texts use (catalogue ids such
        as ``"B07"``, cell ids such as ``"raid-1"``): optional, default none. The stored log
        texts and :meth:`describe` keep the codes (changing them is a rules change); the app
        replaces every whole-word code with its name in what viewers read (log, action labels,
        prompt text, seat summaries): ``app.matches.views``. Constant for an engine."""
        return {}

    def check_invariants(self, state: State) -> None:
        """Raise ``AssertionError`` if the state breaks a conservation rule (used by tests)."""

    # ----- hooks for subclasses --------------------------------------------------------------
    def _prompts(self, state: State) -> dict[int, dict]:
        """``{seat: {"kind", "text"}}``: who the game waits for (see :meth:`prompts`)."""
        raise NotImplementedError

    def _setup(self, players: int, options: BaseModel, seed: int) -> State:
        raise NotImplementedError

    def _apply(self, state: State, seat: int, action: Action) -> None:
        """Mutate ``state`` (already a private copy) for a legal action."""
        raise NotImplementedError

    def _step(self, state: State) -> bool:
        """Run one automatic step (mutating); return False when some seat must decide."""
        return False

    def _run_automatic(self, state: State) -> None:
        for _ in range(STEP_CAP):
            if not self._step(state):
                return
        raise RulesLoop(f"{self.id}: more than {STEP_CAP} automatic steps")

    def _seat_views(self, state: State, viewer: int | None, reveal: bool) -> list[dict]:
        return [{"seat": s} for s in range(state["players"])]

    def _header(self, state: State, prompts: dict[int, dict]) -> dict:
        return {"round": state.get("round"), "phase": state.get("phase"),
                "waiting_for": sorted(prompts)}

    def _game_view(self, state: State, viewer: int | None, reveal: bool) -> dict:
        raise NotImplementedError

    def _game_views(self, state: State, viewers: list[int | None], reveal: bool
                    ) -> dict[int | None, dict]:
        """``{viewer: _game_view(state, viewer, reveal)}``. Games override it to compute the
        part every viewer sees once (it must give exactly what ``_game_view`` gives)."""
        return {viewer: self._game_view(state, viewer, reveal) for viewer in viewers}


BotFn = Callable[[Engine, State, int, Rng], Action]


def random_bot(engine: Engine, state: State, seat: int, rng: Rng) -> Action:
    """Pick uniformly among the seat's legal actions (the baseline bot every game has)."""
    return rng.choice(engine.legal_actions(state, seat))
