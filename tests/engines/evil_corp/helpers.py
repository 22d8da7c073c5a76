"""Position builders for Evil Corp. rule tests (every tile stays conserved)."""
from __future__ import annotations

from engines.base import clone
from engines.evil_corp import ENGINE, data
from engines.evil_corp.state import half_of, side_of


def fresh(players: int = 2, seed: int = 0, **opts) -> dict:
    """A game at its first Day turn, every supply emptied back into its bag, seat 0 to act."""
    s = ENGINE.setup(players, opts, seed)
    for seat, st in enumerate(s["seats"]):
        sd = s["sides"][side_of(s, seat)]
        sd["bag"] = sorted(sd["bag"] + st["supply"])
        st["supply"], st["shown"] = [], []
    turn(s, 0)
    s["log"] = []
    ENGINE.check_invariants(s)
    return s


def turn(s: dict, seat: int) -> None:
    """Make it ``seat``'s turn (the seat's side, nobody acted yet)."""
    s["turn"] = {"side": side_of(s, seat), "acted": []}
    s["stack"] = []


def take(s: dict, type_id: str, side: int | None = None) -> int:
    """Take one tile of a type out of wherever it is not in play: the side's own bag first, then
    the neutral pools (Evil Corp. bag, unused, box), then other bags."""
    want = [i for i, t in enumerate(data.TILES) if t["id"] == type_id]
    pools = [s["sides"][side]["bag"]] if side is not None else []
    pools += [s["corp_bag"], s["unused"], s["queue_discard"], s["box"]]
    for sd in s["sides"]:
        pools += [sd["bag"], sd["discard"]]
    for pool in pools:
        for t in want:
            if t in pool:
                pool.remove(t)
                return t
    for k, t in enumerate(s["queue"]):
        if t in want:
            s["queue"][k] = None
            return t
    raise AssertionError(f"no free tile of type {type_id}")


def give(s: dict, seat: int, type_id: str) -> int:
    """Put a tile of that type behind the seat's screen."""
    t = take(s, type_id, side_of(s, seat))
    s["seats"][seat]["supply"].append(t)
    return t


def put(s: dict, seat_or_side: int, type_id: str, board: int, cell: str, up: bool = True,
        by_side: bool = False) -> int:
    """Place a tile of that type on the seat's (or side's) half of a board."""
    side = seat_or_side if by_side else side_of(s, seat_or_side)
    t = take(s, type_id, side)
    h = half_of(s, board, side)
    assert s["boards"][board]["cells"][h][cell] is None
    s["boards"][board]["cells"][h][cell] = {"t": t, "up": up}
    return t


def slot(s: dict, side: int, board: int, cell: str) -> dict | None:
    return s["boards"][board]["cells"][half_of(s, board, side)][cell]


def queue_put(s: dict, k: int, type_id: str) -> int:
    """Put a tile of that type into queue cell ``k`` (the previous one goes to the bag)."""
    t = take(s, type_id)
    if s["queue"][k] is not None:
        s["corp_bag"].append(s["queue"][k])
        s["corp_bag"].sort()
    s["queue"][k] = t
    return t


def act(s: dict, seat: int, action: dict) -> dict:
    """Apply a legal action (asserting it is legal) and check invariants."""
    assert action in ENGINE.legal_actions(s, seat), (action, ENGINE.legal_actions(s, seat))
    new, _ = ENGINE.apply(s, seat, action)
    ENGINE.check_invariants(new)
    return new


def kinds(s: dict) -> str | None:
    """Kind of the top decision frame (None if none)."""
    return s["stack"][-1]["kind"] if s["stack"] else None


def copy(s: dict) -> dict:
    return clone(s)


def texts(s: dict, seat=None) -> list[str]:
    return [e["text"] for e in s["log"] if seat is None or e["to"] == "all" or seat in e["to"]]
