"""Position builders for Covil rule tests. They move components (never create them), so
``ENGINE.check_invariants`` still holds on the positions they build."""
from __future__ import annotations

from engines.covil import ENGINE

CARD_PLACES = ("pool", "mdeck", "mdiscard", "mbox", "obox")
RELIC_PLACES = ("rdeck", "rdiscard")


def new(players: int = 2, board: str = "A", dummies: int = 1, adjacent: bool = False,
        seed: int = 0) -> dict:
    return ENGINE.setup(players, {"board": board, "dummies": dummies,
                                  "dummy_next_to_you": adjacent}, seed)


def act(s: dict, seat: int, action: dict) -> dict:
    """Apply a legal action (raises IllegalAction otherwise)."""
    return ENGINE.apply(s, seat, action)[0]


def placed(players: int = 2, board: str = "A", forts=("H", "K", "M", "L"), dummies: int = 1,
           seed: int = 0) -> dict:
    """A game after the starting zones were chosen (Day 1 afternoon, owner 0 to play)."""
    s = new(players, board, dummies, seed=seed)
    while s["phase"] == "place":
        f = s["stack"][-1]
        s = act(s, f["seats"][0], {"type": "place", "zone": forts[f["owner"]]})
    return s


def take_card(s: dict, cid: str) -> str:
    for place in CARD_PLACES:
        if cid in s[place]:
            s[place].remove(cid)
            return cid
    for p in s["own"]:
        for i, m in enumerate(p["hall"]):
            if m["id"] == cid:
                del p["hall"][i]
                return cid
    raise KeyError(cid)


def set_hall(s: dict, o: int, ids: list[str], ex=0) -> None:
    """Give owner ``o`` exactly these Minions (``ids[0]`` is the Dark Overlord)."""
    old = [m["id"] for m in s["own"][o]["hall"]]
    s["own"][o]["hall"] = []
    for c in old:
        if c not in ids:
            (s["obox"] if c.startswith("O") else s["mbox"]).append(c)
    exs = ex if isinstance(ex, list) else [ex] * len(ids)
    hall = []
    for c, e in zip(ids, exs):
        if c not in old:
            take_card(s, c)
        hall.append({"id": c, "ex": e})
    s["own"][o]["hall"] = hall


def take_relic(s: dict, rid: str) -> str:
    for place in RELIC_PLACES:
        if rid in s[place]:
            s[place].remove(rid)
            return rid
    for p in s["own"]:
        for key in ("hand", "active"):
            if rid in p[key]:
                p[key].remove(rid)
                return rid
    raise KeyError(rid)


def set_hand(s: dict, o: int, rids: list[str]) -> None:
    s["rdeck"][:0] = s["own"][o]["hand"]
    s["own"][o]["hand"] = []
    for r in rids:
        take_relic(s, r)
    s["own"][o]["hand"] = list(rids)


def top_deck(s: dict, rids: list[str]) -> None:
    """Put relics on top of the deck; ``rids[0]`` is drawn (or flipped) first."""
    for r in rids:
        take_relic(s, r)
    s["rdeck"].extend(reversed(rids))


def set_troops(s: dict, o: int, troops: list) -> None:
    """``troops``: ``[(zone, standing), ...]``."""
    s["own"][o]["troops"] = [{"z": z, "up": up} for z, up in troops]


def turn(s: dict, o: int) -> None:
    """Make it owner ``o``'s afternoon turn with an empty stack below."""
    s["phase"] = "afternoon"
    s["cur"] = o
    seat = s["own"][o]["seat"]
    s["stack"] = [{"kind": "turn", "seats": [] if seat is None else [seat], "owner": o,
                   "acq": False, "lay": False}]


def legal(s: dict, seat: int) -> list[dict]:
    return ENGINE.legal_actions(s, seat)


def types(s: dict, seat: int) -> set[str]:
    return {a["type"] for a in legal(s, seat)}
