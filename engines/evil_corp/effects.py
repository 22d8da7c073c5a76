"""Abilities: spawn, activated and demon effects as ops run from a decision stack.

Rulebook sections: "Monster Abilities", "Demon Abilities", "Ability Symbols", "Summoning a Demon",
"Raid" (loot, power stone), "Port".

Frames on ``state["stack"]`` (top last):

- ``{"kind": "fx", "seats": [], "actor": seat, "src": tile|None, "ops": [op, ...]}`` -- automatic:
  ``step`` runs its ops one by one (ops: see ``OPS``); an op that needs a decision pushes a choice
  frame above it.
- choice frames ``{"kind": <one of CHOICES>, "seats": [seat], "actor": seat, "src", ...}`` -- the
  named seat must answer with one of ``options(state, frame)``; the frame pops and the fx frame
  below resumes. Choice frames never hold hidden tile ids (determinize may redeal supplies).
"""
from __future__ import annotations

from engines.base import Rng, event

from . import data
from .state import (
    SEAT_NAMES,
    available_boards,
    board_tiles,
    draw,
    fear_of,
    funds,
    half_of,
    kind,
    locate,
    opponents,
    pay,
    price_words,
    protected,
    remove_from_supply,
    side_name,
    side_of,
    to_discard,
)


def log(state: dict, text: str, **kw) -> None:
    state["log"].append(event(text, **kw))


def expand(ops: list[dict]) -> list[dict]:
    """Split single-choice ops with a multiplier ``n`` into ``n`` ops (chosen one at a time)."""
    out = []
    for op in ops:
        if op["op"] in SINGLE_CHOICE and op.get("n", 1) > 1:
            out += [dict(op, n=1) for _ in range(op["n"])]
        else:
            out.append(dict(op))
    return out


def push_fx(state: dict, actor: int, ops: list[dict], src: int | None = None) -> None:
    """Queue ops to be applied for ``actor`` (resolved by the automatic step)."""
    state["stack"].append({"kind": "fx", "seats": [], "actor": actor, "src": src,
                           "ops": expand(ops)})


#: Why a choice frame with no option skips its effect, in words (the log's line).
SKIPPED = {"flip_tile": "no opponent's monster tile to flip",
           "flip_demon": "no demon to flip",
           "discard_supply": "no monster behind the screen to discard",
           "opp_discard": "no monster behind the opponent's screen to discard",
           "return_to_bag": "no monster in the discard pile to put back into the bag",
           "remove": "no monster to remove from the game",
           "move_pick": "no monster to move",
           "move_dest": "no free cell to move the monster to",
           "send": "no monster to send to the discard pile",
           "choose_opponent": "no opponent to choose",
           "hire_fx": "no affordable applicant",
           "queue_ability": "no applicant's ability to use",
           "summon": "no demon to summon"}


def push_choice(state: dict, frame: dict) -> None:
    """Push a choice frame if it has any option; otherwise the effect fizzles (logged)."""
    frame.setdefault("src", None)
    if options(state, frame):
        state["stack"].append(frame)
    else:
        log(state, f"{SEAT_NAMES[frame['actor']]}'s effect is skipped: {SKIPPED[frame['kind']]}.")


# ----- queue (Hire a Monster) ------------------------------------------------------------------
def draw_corp(state: dict) -> int | None:
    """Draw a tile from the "Evil Corp." bag (``None`` when it is empty: the cell stays empty)."""
    bag = state["corp_bag"]
    if not bag:
        return None
    rng = Rng(state["rng"])
    t = bag.pop(rng.below(len(bag)))
    state["rng"] = rng.state
    log(state, f"New applicant in the queue: {data.label(t)}.", irreversible=True)
    return t


def hire_price(state: dict, slot: int) -> int:
    """Hire cost plus the "With a raise to the salary" surcharge of the cell."""
    return data.TILES[state["queue"][slot]]["cost"] + data.SURCHARGE[slot]


def hire_slots(state: dict, seat: int) -> list[int]:
    side = side_of(state, seat)
    return [k for k, t in enumerate(state["queue"])
            if t is not None and hire_price(state, k) <= funds(state, side)]


def take_from_queue(state: dict, slot: int) -> int:
    """Take the tile of a cell; tiles above shift down; a new one is drawn into the top cell."""
    q = state["queue"]
    t = q[slot]
    for i in range(slot, 0, -1):
        q[i] = q[i - 1]
    q[0] = draw_corp(state)
    return t


def hire(state: dict, seat: int, slot: int, to_screen: bool = False) -> None:
    """Hire a Monster: pay, put the tile into the bag (or behind the screen), shift the queue."""
    side = side_of(state, seat)
    price = hire_price(state, slot)
    paid = price_words(state, side, price)
    pay(state, side, price)
    t = take_from_queue(state, slot)
    if to_screen:
        st = state["seats"][seat]
        st["supply"].append(t)
        st["shown"].append(t)  # everyone saw which tile went behind the screen
        log(state, f"{SEAT_NAMES[seat]} hires {data.label(t)} for {paid} and puts it behind "
                   f"the screen.")
    else:
        state["sides"][side]["bag"].append(t)
        state["sides"][side]["bag"].sort()
        log(state, f"{SEAT_NAMES[seat]} hires {data.label(t)} for {paid} and puts it into the "
                   f"bag.")


# ----- helpers on board targets -----------------------------------------------------------------
def _dests(state: dict, seat: int, tile: int) -> list[tuple[int, int, str]]:
    """Free cells of the mover's halves on its available boards a tile may be moved to
    (only blue monsters into a demon portal; never a no-fortress monster into a fortress)."""
    side = side_of(state, seat)
    t = data.TILES[tile]
    loc = locate(state, tile)
    up = True
    if loc:
        up = state["boards"][loc[0]]["cells"][loc[1]][loc[2]]["up"]
    out = []
    for b in available_boards(state, seat):
        h = half_of(state, b, side)
        for c, slot in state["boards"][b]["cells"][h].items():
            if slot is not None:
                continue
            if kind(c) == "portal" and t["colour"] != "blue":
                continue
            if kind(c) == "fortress" and up and data.passive(t, "no_fortress"):
                continue
            out.append((b, h, c))
    return out


def _remove_slot(state: dict, b: int, h: int, c: str) -> int:
    t = state["boards"][b]["cells"][h][c]["t"]
    state["boards"][b]["cells"][h][c] = None
    return t


def port_cargo(state: dict, seat: int, b: int, tile: int) -> None:
    """Port: take the coins of the cargo cell matching the monster's colour."""
    bd = state["boards"][b]
    key = "yellow" if data.TILES[tile]["colour"] == "yellow" else "redblue"
    n = bd["cargo"][key]
    if n:
        bd["cargo"][key] = 0
        state["sides"][side_of(state, seat)]["gold"] += n
        log(state, f"{SEAT_NAMES[seat]} takes {n} gold from the "
                   f"{'yellow' if key == 'yellow' else 'red/blue'} port cargo of board {b + 1}.")


def move_tile(state: dict, seat: int, tile: int, b: int, h: int, c: str) -> None:
    """Move a tile on the boards (fear follows the tiles; port cargo applies; no loot, stone or
    demon for a moved tile)."""
    ob, oh, oc = locate(state, tile)
    slot = state["boards"][ob]["cells"][oh][oc]
    state["boards"][ob]["cells"][oh][oc] = None
    state["boards"][b]["cells"][h][c] = slot
    log(state, f"{SEAT_NAMES[seat]} moves {data.label(tile)} to {c} of board {b + 1}.")
    if kind(c) == "port":
        port_cargo(state, seat, b, tile)


# ----- ops -------------------------------------------------------------------------------------
SINGLE_CHOICE = {"discard_from_supply", "discard_to_bag", "remove_from_game", "move_own",
                 "send_to_discard"}


# Complex on purpose: one branch per op of the cards' effects (rulebook, card effects).
def run_op(state: dict, fx: dict, op: dict) -> None:  # noqa: C901
    """Apply one op of an fx frame (may push a choice frame)."""
    seat, src = fx["actor"], fx["src"]
    side = side_of(state, seat)
    name = op["op"]
    n = op.get("n", 1)
    base = {"seats": [seat], "actor": seat, "src": src}
    if name == "gain_gold":
        state["sides"][side]["gold"] += n
        log(state, f"{SEAT_NAMES[seat]} receives {n} gold.")
    elif name == "pay_gold":
        p = min(n, funds(state, side))
        paid = price_words(state, side, p)
        pay(state, side, p)
        log(state, f"{SEAT_NAMES[seat]} pays {paid}.")
    elif name == "flip_opponent_tile":
        push_choice(state, {"kind": "flip_tile", **base})
    elif name == "flip_demon":
        push_choice(state, {"kind": "flip_demon", **base})
    elif name == "draw_to_screen":
        draw(state, seat, n)
    elif name == "draw_then_discard":
        draw(state, seat, n)
        fx["ops"][0:0] = [{"op": "discard_from_supply"} for _ in range(n)]
    elif name == "discard_from_supply":
        push_choice(state, {"kind": "discard_supply", **base})
    elif name == "discard_to_bag":
        push_choice(state, {"kind": "return_to_bag", **base})
    elif name == "remove_from_game":
        push_choice(state, {"kind": "remove", "optional": bool(op.get("optional")), **base})
    elif name == "move_self":
        if src is not None and locate(state, src):
            push_choice(state, {"kind": "move_dest", "tile": src, **base})
    elif name == "move_own":  # "move 2 of your monster tiles": two different tiles
        push_choice(state, {"kind": "move_pick", "moved": list(fx.get("moved", [])), **base})
    elif name == "send_to_discard":
        push_choice(state, {"kind": "send", "max_fear": op["max_fear"],
                            "optional": bool(op.get("optional")), **base})
    elif name == "discard_self":
        loc = locate(state, src) if src is not None else None
        if loc:
            b, h, c = loc
            _remove_slot(state, b, h, c)
            to_discard(state, state["boards"][b]["halves"][h], src)
            log(state, f"{SEAT_NAMES[seat]} discards {data.label(src)}.")
    elif name in ("opponent_reveals", "opponent_draws", "opponent_discards"):
        opps = opponents(state, seat)
        then = {"op": name, "n": n}
        if len(opps) == 1:
            opponent_chosen(state, seat, src, opps[0], then)
        else:
            push_choice(state, {"kind": "choose_opponent", "then": then, **base})
    elif name in ("hire_to_bag", "hire_to_screen"):
        push_choice(state, {"kind": "hire_fx", "to_screen": name == "hire_to_screen", **base})
    elif name == "use_queue_ability":
        push_choice(state, {"kind": "queue_ability", **base})
    elif name == "raid":
        raid_bonus(state, seat, op["board"], src)
    elif name == "port":
        port_cargo(state, seat, op["board"], src)
    elif name == "summon":
        push_choice(state, {"kind": "summon", "ss": op["ss"], **base})
    else:  # pragma: no cover - data error
        raise ValueError(f"unknown op {name}")


def raid_bonus(state: dict, seat: int, b: int, tile: int) -> None:
    """Raid: loot (first red: printed fear in gold) and power stone (first blue), once a round."""
    bd = state["boards"][b]
    colour = data.TILES[tile]["colour"]
    side = side_of(state, seat)
    if colour == "red" and bd["loot"]:
        bd["loot"] = False
        g = data.TILES[tile]["fear"]
        state["sides"][side]["gold"] += g
        log(state, f"{SEAT_NAMES[seat]} plunders board {b + 1}: loot of {g} gold.")
    if colour == "blue" and bd["stone"] is None:
        bd["stone"] = side
        log(state, f"{side_name(state, side)} takes the power stone of board {b + 1}.")


def opponent_chosen(state: dict, seat: int, src, opp: int, then: dict) -> None:
    """Continue an "opponent ..." op once the opponent is known."""
    name, n = then["op"], then["n"]
    log(state, f"{SEAT_NAMES[seat]} chooses {SEAT_NAMES[opp]}.")
    if name == "opponent_draws":
        draw(state, opp, n, why=f" ({SEAT_NAMES[seat]}'s ability)")
    elif name == "opponent_discards":
        push_choice(state, {"kind": "opp_discard", "seats": [opp], "actor": seat, "src": src})
    else:
        reveal_step(state, seat, src, opp, n)


def reveal_step(state: dict, seat: int, src, opp: int, left: int) -> None:
    """The opponent reveals ``left`` more tiles of his choice (all if he has no more)."""
    st = state["seats"][opp]
    hidden = [t for t in st["supply"] if t not in st["shown"]]
    if left <= 0 or not hidden:
        return
    if len(hidden) <= left:
        st["shown"].extend(hidden)
        log(state, f"{SEAT_NAMES[opp]} reveals {', '.join(data.label(t) for t in hidden)}.",
            irreversible=True)
        return
    state["stack"].append({"kind": "reveal", "seats": [opp], "actor": seat, "src": src,
                           "opp": opp, "left": left})


# ----- choices ---------------------------------------------------------------------------------
def _dedupe(tiles: list[int], shown: list[int] | None = None) -> list[int]:
    """One representative (lowest id) per (tile type, shown) so equivalent choices appear once."""
    seen, out = set(), []
    for t in sorted(tiles):
        key = (data.TILES[t]["id"], shown is not None and t in shown)
        if key not in seen:
            seen.add(key)
            out.append(t)
    return out


# Complex on purpose: one branch per kind of choice frame, the legal answers of each.
def options(state: dict, fr: dict) -> list[dict]:  # noqa: C901
    """Legal answers to a choice frame (for the seats it names)."""
    k = fr["kind"]
    seat = fr["actor"]
    side = side_of(state, seat)
    out: list[dict] = []
    if k == "flip_tile":
        for b in available_boards(state, seat):
            for h in (0, 1):
                if state["boards"][b]["halves"][h] == side:
                    continue
                for c, slot in state["boards"][b]["cells"][h].items():
                    if slot and slot["up"] and not protected(state, b, h, c, side):
                        out.append({"type": "flip", "board": b, "half": h, "cell": c})
    elif k == "flip_demon":
        out = [{"type": "flip_demon", "demon": i} for i in range(len(state["demons"]))]
    elif k == "discard_supply":
        st = state["seats"][seat]
        out = [{"type": "discard", "tile": t} for t in _dedupe(st["supply"], st["shown"])]
    elif k == "opp_discard":
        st = state["seats"][fr["seats"][0]]
        out = [{"type": "discard", "tile": t} for t in _dedupe(st["supply"], st["shown"])]
    elif k == "return_to_bag":
        out = [{"type": "return", "tile": t} for t in _dedupe(state["sides"][side]["discard"])]
    elif k == "remove":
        st = state["seats"][seat]
        out = [{"type": "remove", "tile": t} for t in _dedupe(st["supply"], st["shown"])]
        out += [{"type": "remove", "tile": t} for t in _dedupe(state["sides"][side]["discard"])]
        boards = available_boards(state, seat)  # "only the 2 settlement boards available"
        out += [{"type": "remove", "tile": slot["t"]} for b, h, c, slot in board_tiles(state)
                if state["boards"][b]["halves"][h] == side and b in boards]
        if fr.get("optional") and out:
            out.append({"type": "skip"})
    elif k == "move_pick":
        for b in available_boards(state, seat):
            h = half_of(state, b, side)
            for c, slot in state["boards"][b]["cells"][h].items():
                if slot and slot["t"] not in fr.get("moved", ()) \
                        and _dests(state, seat, slot["t"]):
                    out.append({"type": "pick", "board": b, "half": h, "cell": c})
    elif k == "move_dest":
        out = [{"type": "move", "board": b, "half": h, "cell": c}
               for b, h, c in _dests(state, seat, fr["tile"])]
    elif k == "send":
        for b in available_boards(state, seat):
            for h in (0, 1):
                for c, slot in state["boards"][b]["cells"][h].items():
                    if (slot and fear_of(state, b, h, c) <= fr["max_fear"]
                            and not protected(state, b, h, c, side)):
                        out.append({"type": "send", "board": b, "half": h, "cell": c})
        if fr.get("optional") and out:
            out.append({"type": "skip"})
    elif k == "choose_opponent":
        out = [{"type": "opponent", "seat": s} for s in opponents(state, seat)]
    elif k == "reveal":
        st = state["seats"][fr["opp"]]
        out = [{"type": "reveal", "tile": t}
               for t in _dedupe([t for t in st["supply"] if t not in st["shown"]])]
    elif k == "hire_fx":
        out = [{"type": "hire", "slot": s} for s in hire_slots(state, seat)]
        if out:
            out.append({"type": "skip"})
    elif k == "queue_ability":
        for s, t in enumerate(state["queue"]):
            if t is not None and any(o["op"] not in ("use_queue_ability", "move_self", "discard_self")
                                     for o in data.TILES[t]["activated"]):
                out.append({"type": "use", "slot": s})
        if out:
            out.append({"type": "skip"})
    elif k == "summon":
        for d, up in enumerate(state["demons"]):
            if up and funds(state, side) >= demon_price(d, fr["ss"]):
                out.append({"type": "summon", "demon": d})
        out.append({"type": "skip"})
    return out


def demon_level(ss: int) -> int:
    """Summoning a Demon: the level (0-based) that corresponds to the summoning strength."""
    lv = 0
    for i, L in enumerate(data.LEVELS):
        if ss >= L["min_ss"]:
            lv = i
    return lv


def demon_price(d: int, ss: int) -> int:
    L = data.DEMONS[d]["levels"][demon_level(ss)]
    return L.get("pay", 0) if ss == L.get("pay_if_ss", ss) else 0


# Complex on purpose: one branch per kind of choice frame, applying its answer.
def resolve(state: dict, seat: int, action: dict) -> None:  # noqa: C901
    """Apply an answer to the top choice frame (already checked legal)."""
    fr = state["stack"].pop()
    k = fr["kind"]
    actor, src = fr["actor"], fr["src"]
    side = side_of(state, actor)
    t = action.get("type")
    if t == "skip":
        log(state, f"{SEAT_NAMES[seat]} skips.")
        return
    if k == "flip_tile":
        slot = state["boards"][action["board"]]["cells"][action["half"]][action["cell"]]
        slot["up"] = False
        log(state, f"{SEAT_NAMES[actor]} flips {data.label(slot['t'])} on board "
                   f"{action['board'] + 1} inactive side up.")
    elif k == "flip_demon":
        d = action["demon"]
        state["demons"][d] = not state["demons"][d]
        log(state, f"{SEAT_NAMES[actor]} flips {data.DEMONS[d]['name']} "
                   f"{'active' if state['demons'][d] else 'inactive'} side up.")
    elif k in ("discard_supply", "opp_discard"):
        owner = seat
        remove_from_supply(state, owner, action["tile"])
        to_discard(state, side_of(state, owner), action["tile"])
        log(state, f"{SEAT_NAMES[owner]} discards {data.label(action['tile'])} from the supply.",
            irreversible=True)
    elif k == "return_to_bag":
        sd = state["sides"][side]
        sd["discard"].remove(action["tile"])
        sd["bag"].append(action["tile"])
        sd["bag"].sort()
        log(state, f"{SEAT_NAMES[actor]} returns {data.label(action['tile'])} from the discard "
                   f"pile to the bag.")
    elif k == "remove":
        tile = action["tile"]
        st = state["seats"][actor]
        if tile in st["supply"]:
            remove_from_supply(state, actor, tile)
            where = "behind the screen"
        elif tile in state["sides"][side]["discard"]:
            state["sides"][side]["discard"].remove(tile)
            where = "in the discard pile"
        else:
            b, h, c = locate(state, tile)
            _remove_slot(state, b, h, c)
            where = f"on board {b + 1}"
        state["box"].append(tile)
        log(state, f"{SEAT_NAMES[actor]} removes {data.label(tile)} from the game (it was "
                   f"{where}).", irreversible=where == "behind the screen")
    elif k == "move_pick":
        slot = state["boards"][action["board"]]["cells"][action["half"]][action["cell"]]
        state["stack"].append({"kind": "move_dest", "seats": [actor], "actor": actor, "src": src,
                               "tile": slot["t"]})
    elif k == "move_dest":
        move_tile(state, actor, fr["tile"], action["board"], action["half"], action["cell"])
        fx = state["stack"][-1] if state["stack"] else None
        if fx is not None and fx["kind"] == "fx":  # the ability's next move picks another tile
            fx.setdefault("moved", []).append(fr["tile"])
    elif k == "send":
        b, h, c = action["board"], action["half"], action["cell"]
        tile = _remove_slot(state, b, h, c)
        owner = state["boards"][b]["halves"][h]
        to_discard(state, owner, tile)
        log(state, f"{SEAT_NAMES[actor]} sends {data.label(tile)} to the discard pile of "
                   f"{side_name(state, owner)}.")
    elif k == "choose_opponent":
        opponent_chosen(state, actor, src, action["seat"], fr["then"])
    elif k == "reveal":
        opp = fr["opp"]
        state["seats"][opp]["shown"].append(action["tile"])
        log(state, f"{SEAT_NAMES[opp]} reveals {data.label(action['tile'])}.", irreversible=True)
        reveal_step(state, actor, src, opp, fr["left"] - 1)
    elif k == "hire_fx":
        hire(state, actor, action["slot"], to_screen=fr["to_screen"])
    elif k == "queue_ability":
        t = state["queue"][action["slot"]]
        log(state, f"{SEAT_NAMES[actor]} applies the activated ability of {data.label(t)} from "
                   f"the applicant queue.")
        push_fx(state, actor, [o for o in data.TILES[t]["activated"]
                               if o["op"] not in ("use_queue_ability", "move_self", "discard_self")])
    elif k == "summon":
        d = action["demon"]
        price = demon_price(d, fr["ss"])
        paid = price_words(state, side, price)
        if price:
            pay(state, side, price)
        state["demons"][d] = False
        lv = demon_level(fr["ss"])
        log(state, f"{SEAT_NAMES[actor]} summons {data.DEMONS[d]['name']} at level {lv + 1} "
                   f"(summoning strength {fr['ss']})" + (f", paying {paid}." if price else "."))
        push_fx(state, actor, data.DEMONS[d]["levels"][lv]["ops"])
    else:  # pragma: no cover
        raise ValueError(k)


def step(state: dict) -> bool:
    """Run the next op of the top fx frame; False when a seat must decide or nothing is pending."""
    if not state["stack"]:
        return False
    top = state["stack"][-1]
    if top["kind"] != "fx":
        return False
    if not top["ops"]:
        state["stack"].pop()
        return True
    run_op(state, top, top["ops"].pop(0))
    return True


LABELS = {
    "flip_tile": "Choose an opponent's monster tile to flip",
    "flip_demon": "Flip 1 demon tile of your choice",
    "discard_supply": "Discard 1 monster tile from your supply",
    "opp_discard": "Discard 1 monster tile from your supply (opponent's ability)",
    "return_to_bag": "Return 1 monster tile from your discard pile to your bag",
    "remove": "Choose 1 of your monster tiles to remove from the game",
    "move_pick": "Choose 1 of your monster tiles to move",
    "move_dest": "Choose a free cell to move the monster to",
    "send": "Choose a monster tile to send to its owner's discard pile",
    "choose_opponent": "Choose an opponent",
    "reveal": "Reveal a monster tile from your supply (opponent's ability)",
    "hire_fx": "Hire 1 monster from the applicant queue",
    "queue_ability": "Apply the activated ability of a monster in the applicant queue",
    "summon": "Summon a demon",
}
