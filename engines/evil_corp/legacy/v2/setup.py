"""Game Setup (rulebook "Game Setup", steps 1-8) and the per-board setup reused at night."""
from __future__ import annotations

from engines.base import Rng, event, seed_state

from . import data
from .state import board_layout, empty_half, side_name


def board_setup(board: dict, face: str) -> None:
    """Setup step 6 on one board (also "Receiving a Victory Token": flip, then set up again):
    loot, power stone, fear marker in the centre (derived from the tiles), cargo, conquest tokens
    on the shields nearest their owners."""
    f = data.SIDES[face]
    board["face"] = face
    board["cells"] = [empty_half(face), empty_half(face)]
    board["loot"] = True
    board["stone"] = None
    board["cargo"] = dict(f["cargo"])
    board["conquest"] = [data.CONQUEST_STEPS, data.CONQUEST_STEPS]


def setup(players: int, opts, seed: int) -> dict:
    """Build the initial state (shape in state.py). Supplies are drawn by the first Day phase."""
    rng = Rng(seed_state(seed))
    halves, _ = board_layout(players)
    nsides = 2 if players in (2, 4) else 3
    corp_bag = list(range(data.HIRED_COUNT))
    queue = []
    for _ in data.SURCHARGE:  # step 2: draw 5, one at a time, from the top cell down
        queue.append(corp_bag.pop(rng.below(len(corp_bag))))
    bag_spec = data.STARTING_BAGS[players]
    pools = {t: list(ids) for t, ids in data.STARTING_IDS.items()}
    sides = []
    for _ in range(nsides):
        bag = []
        for t, n in bag_spec.items():
            bag += [pools[t].pop(0) for _ in range(n)]
        sides.append({"gold": 0, "magic": 0, "bag": sorted(bag), "discard": [], "vp": 0})
    unused = sorted(i for ids in pools.values() for i in ids)
    boards = []
    for hv in halves:
        b = {"halves": list(hv)}
        board_setup(b, "A")
        boards.append(b)
    first = opts.first_player if opts.first_player is not None else rng.below(players)
    state = {
        "rng": rng.state, "log": [], "players": players, "round": 1, "phase": "day",
        "nsides": nsides, "sides": sides,
        "seats": [{"supply": [], "shown": [], "passed": False} for _ in range(players)],
        "boards": boards, "queue": queue, "corp_bag": sorted(corp_bag), "queue_discard": [],
        "demons": [True] * len(data.DEMONS), "box": [], "unused": unused,
        "first": first % nsides if players == 4 else first,
        "turn": None, "stack": [], "winner": None, "need_draw": True,
    }
    state["players"] = players
    state["log"].append(event(f"{side_name(state, state['first'])} has the first player token."))
    if opts.balance_of_power_seat is not None:
        side = opts.balance_of_power_seat % 2 if players == 4 else opts.balance_of_power_seat
        state["sides"][side]["gold"] += data.BALANCE_GOLD
        state["log"].append(event(f"Balance of Power: {side_name(state, side)} receives "
                                  f"{data.BALANCE_GOLD} gold."))
    return state
