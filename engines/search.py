"""The search bot every game shares (issue 17): determinized Monte Carlo search over the seat's
legal actions, with truncated rollouts and the game's evaluation.

One decision (:func:`decide`):

1. Only one legal action, or a micro-step of a long forced sequence (the game's
   :attr:`SearchSpec.searchable` says no: Drops of Evil's Brewing, a Covil payment): the game's
   greedy bot finishes it, on a determinized sample (so it too reads only what the seat may know).
2. Otherwise, until the budget is spent, one iteration: draw a sample of the hidden information
   with ``engine.determinize(state, seat, rng)``, pick a root action by UCB1, apply it with the
   trusted apply, let every seat play the game's rollout policy for at most
   :attr:`SearchSpec.depth` decisions, and score the result with the game's evaluation, as a
   gain over the position before the move squashed to ``[0, 1]`` (``0.5`` = no change). The
   most visited action is played.

Why flat (root-only) statistics over determinized samples rather than a tree (ISMCTS): with
``apply`` at 30-50 us and a sample at 100-200 us, a 1 s budget gives a few thousand iterations at
most; spread over a tree of 10-40 actions per node they leave the deeper nodes nearly unvisited,
while at the root they sharpen the choice between the 10-40 first actions. Root statistics are
also what makes the bot's choice a function of the seat's view alone (every iteration starts from
a fresh sample, never from a subtree built on one world: no strategy fusion across samples).

The bot cannot cheat: it never reads the real state except through ``determinize`` (canonical:
equal for states the seat cannot tell apart, checked by the engines' harness) and
``legal_actions(state, seat)`` (part of the seat's view); its RNG is seeded from the seat's view
(:func:`public_seed`) and a salt (a fixed number in tests and benchmarks, OS randomness in the
server), never from the match seed or the state's RNG.

Budgets (:class:`Budget`): CPU seconds of the deciding thread (``time.thread_time``; default 1 s)
and/or a fixed number of iterations (tests, benchmarks).
"""
from __future__ import annotations

import hashlib
import math
import time
from dataclasses import dataclass, field
from typing import Any, Callable

import orjson

from engines.base import Action, BotFn, Engine, Rng, State

_MASK64 = (1 << 64) - 1


@dataclass(frozen=True)
class Budget:
    """How long a decision may think: ``seconds`` of the thread's CPU time (``None``: no time
    limit) and/or ``iterations`` (``None``: no count limit); at least one must be set. ``salt``:
    mixed into the view-derived seed (``None``: OS randomness, the server's choice; an int:
    reproducible, for tests and benchmarks)."""

    seconds: float | None = 1.0
    iterations: int | None = None
    salt: int | None = None

    def __post_init__(self) -> None:
        if self.seconds is None and self.iterations is None:
            raise ValueError("a budget needs seconds or iterations")


#: The server's default: 1 s of CPU per decision.
DEFAULT_BUDGET = Budget()


@dataclass(frozen=True)
class SearchSpec:
    """What the search needs from a game.

    - ``evaluate(state, seat) -> float``: how good ``state`` is for ``seat`` (higher is better;
      e.g. estimated points minus the best opponent's), reading only public parts of the state
      or parts a sample gives (the search evaluates samples only).
    - ``scale``: evaluation units for a clear advantage: an iteration's reward is
      ``1 / (1 + exp(-(value - base + bias(action)) / scale))`` where ``base`` is the
      evaluation of a sample of the position before the move (so rewards spread around 0.5
      whatever the evaluation's absolute size).
    - ``bias(action) -> float``: a small preference in evaluation units (the greedy bots'
      own: e.g. pass only when nothing useful is left); default none.
    - ``greedy``: the game's greedy bot (micro-steps, forced sequences).
    - ``searchable(engine, state, seat) -> bool``: whether this decision is a real one to search
      (default: always); ``False`` hands it to ``greedy``.
    - ``rollout(engine, state, seat, actions, rng) -> Action``: the cheap policy every seat plays
      in rollouts; it must not undo (take back, cancel) forever: rollouts are also cut at
      ``depth`` decisions.
    - ``width``: search only this many root actions, the best by one ply (the evaluation after
      each on one sample, plus ``bias``); ``None``: all of them.
    - ``depth``: decisions played after the root action before the evaluation.
    - ``horizon(state) -> Hashable``: a rollout stops as soon as this changes from its value
      before the root action (e.g. the phase, or the round: the end of a stretch whose outcome
      the evaluation reads well); ``None``: only ``depth`` cuts.
    """

    evaluate: Callable[[State, int], float]
    scale: float
    greedy: BotFn
    searchable: Callable[[Engine, State, int], bool] = lambda engine, state, seat: True
    rollout: Callable[[Engine, State, int, list, Rng], Action] | None = None
    depth: int = 0
    horizon: Callable[[State], Any] | None = None
    bias: Callable[[Action], float] | None = None
    width: int | None = None
    exploration: float = 0.7
    extra: dict[str, Any] = field(default_factory=dict)


def public_seed(engine: Engine, state: State, seat: int) -> int:
    """A 64-bit seed from what ``seat`` may know: a hash of its view (which holds the state's
    version). Two states the seat cannot tell apart give the same seed."""
    view = engine.view(state, seat)
    digest = hashlib.blake2b(orjson.dumps(view, option=orjson.OPT_SORT_KEYS),
                             digest_size=8).digest()
    return int.from_bytes(digest, "big")


def search_rng(engine: Engine, state: State, seat: int, budget: Budget) -> Rng:
    """The search's RNG: the view's seed mixed with the budget's salt (OS randomness if none)."""
    import secrets

    salt = secrets.randbits(64) if budget.salt is None else budget.salt
    return Rng(public_seed(engine, state, seat) ^ (salt * 0x9E3779B97F4A7C15 & _MASK64))


def sample(engine: Engine, state: State, seat: int, rng: Rng) -> State:
    """One determinized sample for ``seat``, without a log (rollouts do not read it, and a
    long log would make every copy slower)."""
    det = engine.determinize(state, seat, rng)
    det["log"] = []
    return det


def random_rollout(engine: Engine, state: State, seat: int, actions: list, rng: Rng) -> Action:
    """The default rollout policy: uniform among the legal actions."""
    return rng.choice(actions)


def sampled_greedy(k: int, evaluate: Callable[[State, int], float],
                   skip: frozenset = frozenset({"take_back", "cancel"})):
    """A rollout policy: among up to ``k`` of the mover's actions drawn at random (none that
    undoes), the one whose result ``evaluate`` scores best for the mover -- a cheap model of an
    opponent who looks one move ahead (the normal bot does that with every action).

    Its ``step`` attribute plays the same choice as a rollout step (:func:`decide` uses it): it
    returns the state after the chosen action -- the copy it already evaluated, instead of
    applying the action once more -- and ``state`` itself, changed in place, when there was only
    one action to play."""
    from engines.base import clone

    def choose(engine: Engine, state: State, seat: int, actions: list,
               rng: Rng) -> tuple[Action, State | None]:
        pool = [a for a in actions if a.get("type") not in skip] or actions
        if len(pool) > k:
            # The same draws as ever; an action drawn twice is evaluated once (ties keep the
            # first: the choice is the same).
            pool = [pool[i] for i in dict.fromkeys([rng.below(len(pool)) for _ in range(k)])]
        if len(pool) == 1:
            return pool[0], None
        best, best_v, best_s = pool[0], None, None
        for a in pool:
            s = clone(state)
            engine.apply_trusted(s, seat, a)
            v = evaluate(s, seat)
            if best_v is None or v > best_v:
                best, best_v, best_s = a, v, s
        return best, best_s

    def policy(engine: Engine, state: State, seat: int, actions: list, rng: Rng) -> Action:
        return choose(engine, state, seat, actions, rng)[0]

    def step(engine: Engine, state: State, seat: int, actions: list, rng: Rng) -> State:
        action, after = choose(engine, state, seat, actions, rng)
        if after is None:
            engine.apply_trusted(state, seat, action)
            return state
        return after

    policy.step = step  # type: ignore[attr-defined]
    return policy


def _squash(value: float, scale: float) -> float:
    x = max(-30.0, min(30.0, value / scale))
    return 1.0 / (1.0 + math.exp(-x))


def _widest(engine: Engine, spec: SearchSpec, det: State, seat: int,
            actions: list[Action]) -> list[Action]:
    """The :attr:`SearchSpec.width` most promising of ``actions`` by one ply on the sample
    ``det`` (the evaluation after each, plus its bias), in their legal order: the budget is
    spent on the moves worth telling apart, not spread over every placement."""
    from engines.base import clone
    scored = []
    for i, a in enumerate(actions):
        s = clone(det)
        engine.apply_trusted(s, seat, a)
        scored.append((spec.evaluate(s, seat) + (spec.bias(a) if spec.bias else 0.0), -i))
    keep = sorted(sorted(scored, reverse=True)[:spec.width], key=lambda t: -t[1])
    return [actions[-i] for _, i in keep]


# Complex on purpose: the search loop with its budget, candidate filter and statistics; split, the
# tree would travel through every helper.
def decide(engine: Engine, spec: SearchSpec, state: State, seat: int,  # noqa: C901
           budget: Budget = DEFAULT_BUDGET, stats: dict | None = None) -> Action:
    """The hard bot's action for ``seat`` (see the module docstring). ``stats``, when given,
    receives ``{"iterations", "searched", "choices"}`` (``choices``: the forward legal actions)
    and, after a search, ``"considered"`` (the root actions searched), ``"score"`` (the chosen
    action's mean reward, 0..1) and ``"next_score"`` (the best mean reward of the others, or
    None): all read from samples of what the seat may know (the hint's reason,
    app.matches.hints). Raises ``ValueError`` if the seat has no legal action."""
    from engines.levels import forward_actions
    # Never a take-back or a cancel (unless nothing else is legal): a turn stays bounded.
    actions = forward_actions(engine.legal_actions(state, seat))
    if not actions:
        raise ValueError(f"seat {seat} has no legal action")
    if stats is not None:
        stats.update(iterations=0, searched=False, choices=len(actions))
    if len(actions) == 1:
        return actions[0]
    rng = search_rng(engine, state, seat, budget)
    if not spec.searchable(engine, state, seat):
        return spec.greedy(engine, sample(engine, state, seat, rng), seat, rng)
    start = time.thread_time()
    rollout = spec.rollout or random_rollout
    # A policy that evaluates the states after its candidates hands back the chosen one.
    step = getattr(rollout, "step", None)
    first = sample(engine, state, seat, rng)
    base = spec.evaluate(first, seat)
    if spec.width and len(actions) > spec.width:
        actions = _widest(engine, spec, first, seat, actions)
    bias = [spec.bias(a) if spec.bias else 0.0 for a in actions]
    n = [0] * len(actions)
    w = [0.0] * len(actions)
    total = 0
    while True:
        if budget.iterations is not None and total >= budget.iterations:
            break
        if budget.seconds is not None and total and time.thread_time() - start >= budget.seconds:
            break
        if total < len(actions):
            i = total
        else:
            log_t = math.log(total)
            i = max(range(len(actions)), key=lambda k: w[k] / n[k]
                    + spec.exploration * math.sqrt(log_t / n[k]))
        det = sample(engine, state, seat, rng)
        h0 = spec.horizon(det) if spec.horizon is not None else None
        engine.apply_trusted(det, seat, actions[i])
        for _ in range(spec.depth):
            if spec.horizon is not None and spec.horizon(det) != h0:
                break
            prompts = engine.prompts(det)
            if not prompts:
                break
            mover = None
            for s in sorted(prompts):
                acts = engine.legal_actions(det, s)
                if acts:
                    mover = s
                    break
            if mover is None:
                break
            if step is not None:
                det = step(engine, det, mover, acts, rng)
            else:
                engine.apply_trusted(det, mover, rollout(engine, det, mover, acts, rng))
        reward = _squash(spec.evaluate(det, seat) - base + bias[i], spec.scale)
        n[i] += 1
        w[i] += reward
        total += 1
    best = max(range(len(actions)), key=lambda k: (n[k], w[k] / n[k] if n[k] else 0.0, -k))
    if stats is not None:
        others = [w[k] / n[k] for k in range(len(actions)) if k != best and n[k]]
        stats.update(iterations=total, searched=True, considered=len(actions),
                     score=w[best] / n[best] if n[best] else None,
                     next_score=max(others) if others else None)
    return actions[best]


def search_bot(spec: SearchSpec, budget: Budget = DEFAULT_BUDGET) -> BotFn:
    """A :data:`engines.base.BotFn` for the registry: :func:`decide` with ``budget``. The
    ``rng`` argument is not used (the search seeds itself from the seat's view: see
    :func:`search_rng`)."""
    def hard(engine: Engine, state: State, seat: int, rng: Rng) -> Action:
        return decide(engine, spec, state, seat, budget)
    hard.__doc__ = "Search bot (determinized Monte Carlo, see engines.search)."
    hard.spec = spec  # type: ignore[attr-defined]
    return hard
