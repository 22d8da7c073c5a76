"""The Drops of Evil engine (rulebook: /work/shared/rulebooks/drops-of-evil.txt).

Phases: Placement (turns) -> Gathering (automatic) -> Brewing (one simultaneous frame) ->
Income (automatic, Income Assistants prompted) -> End of the Round; three rounds.
"""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from engines.base import Engine, Rng, public_copy

from . import brewing, income, placement, rules_help
from .bots import BOTS, SPEC
from .data import (
    ASSISTANTS,
    BAG_TYPES,
    BOARDS,
    CELL_VIAL,
    COLUMN_SLOTS,
    D_SLOTS,
    NAMES,
    POOL_TYPES,
    TOX_MAX,
    TOX_TYPES,
    VIAL_CELLS,
)
from .labels import cell_label, space_label
from .setup import assistant_at, setup_state
from .view import game_view, seat_views, token_view


def _place_words() -> dict[str, str]:
    """The coordinates the stored labels carry (labels.py: "Gathering space (3,2)", "Vial F
    (2,3)", "four-arrow space (4,3)") in words: "(3,2)" reads "(column 3, row 2)"; a Toad's
    "four-arrow space (4,3)" (named by the top-left of the four spaces it points to) reads
    "four-arrow space between columns 4-5, rows 3-4". Whole tokens only (the namer's rule), so
    the stored texts keep their codes. A Cat's "double-arrow space 1" has no board-independent
    wording (its number depends on the board) and stays as it is."""
    from .data import B_COLS, B_ROWS, BOARDS
    cols = max([B_COLS] + [b["cols"] for b in BOARDS.values()])
    rows = max([B_ROWS] + [b["rows"] for b in BOARDS.values()])
    out = {f"({c},{r})": f"(column {c}, row {r})" for c in range(1, cols + 1) for r in range(1, rows + 1)}
    out.update({f"four-arrow space ({c},{r})": f"four-arrow space between columns {c}-{c + 1}, rows {r}-{r + 1}"
                for c in range(1, cols) for r in range(1, rows)})
    return out


_PLACE_WORDS = _place_words()

class Options(BaseModel):
    """``side``: small Forest board side, used only with 2 players (A regular, B variant)."""

    model_config = ConfigDict(extra="forbid")
    side: Literal["A", "B"] = Field(
        "A", title="Small Forest side (2 players)",
        description="Setup: with 2 players, side A (regular) or side B (variant) of the small "
                    "Forest board; 3 and 4 players use the large Forest.",
        json_schema_extra={"players": [2]})  # the waiting room shows it only where it applies


class DropsOfEvil(Engine):
    """Drops of Evil for 2-4 seats; options: :class:`Options`. State shape: see ``setup.py``;
    view and actions: see ``VIEW.md``. Bots: ``random`` (registry) and ``greedy``."""

    id = "drops_of_evil"
    title = "Drops of Evil"
    rules_help = rules_help
    static_view_keys = ("geometry", "bonus_layout")
    min_players = 2
    max_players = 4
    version = 2
    options = Options
    bots = BOTS
    search_spec = SPEC

    def _setup(self, players: int, options: Options, seed: int) -> dict:
        return setup_state(players, options.side, seed)

    # ----- who and what -----------------------------------------------------------------------

    def _prompts(self, state: dict) -> dict[int, dict]:
        phase = state["phase"]
        if phase == "placement":
            seat = placement.current_seat(state)
            a = state["alch"][seat]
            if a["pending"]:
                return {seat: {"kind": "seer", "text": "Seer: put "
                               f"{NAMES[a['pending'][-1]['drawn'][0]]} on a Gathering space"}}
            if state["acted"]:
                return {seat: {"kind": "after_placement",
                               "text": "Activate your Assistant or end your turn"}}
            return {seat: {"kind": "placement", "text": "Place one of your Action pawns"}}
        if phase == "brewing":
            out = {}
            for s, done in enumerate(state["done"]):
                if done:
                    continue
                a = state["alch"][s]
                if a["pending"] and a["pending"][-1]["kind"] == "distiller_bonus":
                    out[s] = {"kind": "distiller_bonus", "text": "Choose a Distiller Bonus token"}
                elif a["pending"]:
                    out[s] = {"kind": "rebrew", "text": "Re-Brewer: choose where the "
                              "Ingredient goes"}
                else:
                    out[s] = {"kind": "brewing", "text": "Place your Resources, then Done"}
            return out
        if phase == "income":
            return {s: {"kind": "income", "text": "Use your Income Assistant?"}
                    for s in state["income_wait"]}
        return {}

    def legal_actions(self, state: dict, seat: int | None) -> list[dict]:
        if seat is None:
            return []
        phase = state["phase"]
        if phase == "placement":
            return placement.legal(state, seat)
        if phase == "brewing":
            return brewing.legal(state, seat)
        if phase == "income":
            return income.legal(state, seat)
        return []

    def _apply(self, state: dict, seat: int, action: dict) -> None:
        {"placement": placement.apply, "brewing": brewing.apply,
         "income": income.apply}[state["phase"]](state, seat, action)

    def _step(self, state: dict) -> bool:
        return placement.step(state) or brewing.step(state) or income.step(state)

    def result(self, state: dict) -> dict | None:
        return income.result(state)

    # ----- views ------------------------------------------------------------------------------
    def _seat_views(self, state: dict, viewer: int | None, reveal: bool) -> list[dict]:
        return seat_views(state)

    def _game_view(self, state: dict, viewer: int | None, reveal: bool) -> dict:
        return game_view(state, viewer, reveal)

    def _game_views(self, state: dict, viewers: list, reveal: bool) -> dict:
        # Everything on the board is public (only the bag's order is hidden, and never shown):
        # one board for every viewer.
        board = game_view(state, None, reveal)
        return {viewer: board for viewer in viewers}

    def determinize(self, state: dict, viewer: int | None, rng: Rng) -> dict:
        """Only the bag's order is hidden: reshuffle it (and the future draws' RNG). The bag is
        sorted before the shuffle: the sample never depends on the real order."""
        new = public_copy(state, viewer)
        new["bag"] = sorted(new["bag"])
        rng.shuffle(new["bag"])
        new["rng"] = rng.next64()
        return new

    # ----- labels -----------------------------------------------------------------------------
    def display_names(self) -> dict[str, str]:
        """Assistant and Recipe tile ids (``AS07``, ``R3``) with their names: the rules already
        write names into the log and the labels; this keeps any id that reaches a text readable."""
        from .data import RECIPES
        return {**{k: v["name"] for k, v in ASSISTANTS.items()},
                **{k: v["name"] for k, v in RECIPES.items()},
                **_PLACE_WORDS}

    def describe(self, state: dict, action: dict) -> str:
        t = action["type"]
        if t == "place":
            if action["pawn"] == "coin":
                aid = assistant_at(state, action["space"])
                return f"Hire {ASSISTANTS[aid]['name']} with your Coin Pouch"
            return f"Place {NAMES[action['pawn']]} on {space_label(action['space'])}"
        if t == "brew":
            return f"Brew {NAMES[action['res']]} into {cell_label(action['cell'])}"
        if t == "take_back":
            return f"Take back the Resource in {cell_label(action['cell'])}"
        if t == "bonus":
            tok = state["layout"][action["slot"]]
            return f"Take the Bonus token {token_view(tok)['label']}"
        if t == "assistant":
            aid = action["assistant"]
            extra = ""
            if "target" in action:
                extra = f" on {space_label(action['target'])}"
            elif "space" in action:
                extra = f": {NAMES[action['pawn']]} to {space_label(action['space'])}"
            elif "cell" in action:
                extra = f": move the Ingredient in {cell_label(action['cell'])}"
            elif "res" in action:
                extra = f": {NAMES[action['res']]}"
            elif "worms" in action:
                extra = f": return {action['worms']} Worm(s)"
            elif "rats" in action:
                extra = f": capture {action['rats']} Rat(s)"
            return f"Activate {ASSISTANTS[aid]['name']}{extra}"
        labels = {
            "end_turn": "End your turn",
            "seer_put": f"Put the drawn Resource on {space_label(action.get('space', 'g-0-0'))}",
            "cheese": "Use 1 Cheese: capture 1 Rat",
            "spend_worms": f"Spend the {action.get('token', '')[-1:]}-Worm token",
            "alternative": f"Gain 1 {NAMES.get(action.get('gain', ''), '')} instead of the "
                           "Assistant's ability",
            "rebrew": f"Move it to {cell_label(action['cell'])}" if "cell" in action else "",
            "cancel": "Cancel",
            "done": "Done brewing",
            "skip": "Do not use the Assistant",
        }
        return labels.get(t, t)

    # ----- invariants -------------------------------------------------------------------------
    def check_invariants(self, state: dict) -> None:
        """Resource conservation (bag + Forest + pools + Alchilabs + discards = box after
        removal + tokens created by Extra Resources/Assistants), ranges, pawns."""
        count = {t: 0 for t in POOL_TYPES + ["rat"]}
        for t in state["bag"]:
            count[t] += 1
        for content in state["forest"].values():
            for t, n in content.items():
                assert n > 0
                count[t] += n
        for a in state["alch"]:
            for t, n in a["pool"].items():
                assert n >= 0, (t, n)
                count[t] += n
            for t in a["brewer"].values():
                count[t] += 1
            count["mushroom"] += a["dist"]
            count["rat"] += a["free"] + a["captured"]
            for frame in a["pending"]:
                for t in frame.get("drawn", []):
                    count[t] += 1
            assert a["free"] >= 0 and a["captured"] >= 0 and a["cheese"] >= 0
            assert a["score"] >= 0
            assert all(0 <= a["tox"][t] <= TOX_MAX for t in TOX_TYPES)
            assert 0 <= a["dlock"] <= a["dist"]
            assert len(set(a["taken"])) == len(a["taken"])
            for cell in a["brewer"]:
                vial = [a["brewer"][c] for c in VIAL_CELLS[CELL_VIAL[cell]] if c in a["brewer"]]
                assert len({t for t in vial if t != "spider"}) == 1, "one type per Vial"
        count["worm"] += state["worms"]
        for t in count:
            expected = state["initial"].get(t, 0) + state["extra"][t] - state["discard"][t]
            assert count[t] == expected, (t, count[t], expected)
        pawns_out = {}
        for space, (s, p) in state["pawns"].items():
            assert BOARDS[state["board"]]["kind"][space] == p
            pawns_out.setdefault(s, []).append(p)
        for s, a in enumerate(state["alch"]):
            assert sorted(a["home"] + pawns_out.get(s, [])) == sorted(
                ["crow", "cat", "toad", "snake", "coin"])
        assert len(state["layout"]) == sum(map(len, COLUMN_SLOTS.values())) + sum(
            map(len, D_SLOTS.values()))
        assert set(state["bag"]) <= set(BAG_TYPES)
        assert all(aid in ASSISTANTS for aid in state["assistants"])

