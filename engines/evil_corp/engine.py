"""The Evil Corp. engine: glue between the contract (engines.base.Engine) and the rules modules."""
from __future__ import annotations

from typing import ClassVar

from pydantic import BaseModel, ConfigDict, Field

from engines.base import Engine, Rng

from . import data, day, effects, night, rules_help, views
from .setup import setup as _setup
from .state import SEAT_NAMES, board_tiles, cell_names, seats_of, side_of

#: The choice frames' kinds as a stored log line of rules versions 1 and 2 words them ("no
#: possible choice for hire fx"), where that reads as a code. A one-word kind ("remove") is
#: named only after "choice for": the word alone is also the log's English. Version 3 writes
#: the reason in words (effects.SKIPPED); these stay for the older versions' stored lines
#: (version 1 has no names of its own and reads these: app.matches.views.game_namer).
_FRAME_WORDS = {"hire fx": "a hire", "opp discard": "the opponent's discard",
                "discard supply": "a discard from the supply", "move pick": "a monster to move",
                "move dest": "a cell to move to", "queue ability": "an applicant's ability",
                "flip tile": "a monster tile to flip", "flip demon": "a demon to flip",
                "return to bag": "a monster to return to the bag",
                "choose opponent": "an opponent to choose",
                "choice for remove": "choice for a monster to remove from the game",
                "choice for send": "choice for a monster to send to the discard",
                "choice for summon": "choice for a demon to summon"}


def _display_names() -> dict[str, str]:
    names = {tid: t["name"] for tid, t in data.TYPES.items()} | _FRAME_WORDS
    for face in data.SIDES:
        for c in cell_names(face):
            kind, _, n = c.partition("-")
            if n:
                names[c] = f"{kind} cell {n}"
    return names


_DISPLAY_NAMES = _display_names()


class EvilCorpOptions(BaseModel):
    """Options: Balance of Power ("give the weaker participant 4 gold coins at the start of the
    game": the seat, or None) and the first player (None = random)."""

    model_config = ConfigDict(extra="forbid")
    balance_of_power_seat: int | None = Field(
        default=None, ge=0, le=3, title="Balance of Power",
        description="The weaker participant's seat gets 4 gold coins at the start (optional).",
        json_schema_extra={"none": "nobody"})  # the words for None in the lobby and the room
    first_player: int | None = Field(default=None, ge=0, le=3, title="First player",
                                     description="Random when not chosen.",
                                     json_schema_extra={"none": "drawn at the start"})


class EvilCorpEngine(Engine):
    """Evil Corp. for 2, 3 or 4 players (4 = two teams of two: seats 0+2 against 1+3)."""

    id = "evil_corp"
    title = "Evil Corp."
    rules_help = rules_help
    static_view_keys = ("catalog",)
    min_players = 2
    max_players = 4
    version = 3
    options = EvilCorpOptions
    teams: ClassVar[dict[int, list[list[int]]]] = {4: [[0, 2], [1, 3]]}

    def parse_options(self, players, raw):
        opts = super().parse_options(players, raw)
        for k in ("balance_of_power_seat", "first_player"):
            v = getattr(opts, k)
            if v is not None and v >= players:
                raise ValueError(f"{k} must be a seat below {players}")
        return opts

    def _setup(self, players, options, seed):
        return _setup(players, options, seed)

    # ----- who decides -------------------------------------------------------------------------

    def _prompts(self, state):
        if state["phase"] == "over":
            return {}
        top = state["stack"][-1] if state["stack"] else None
        if top is not None:
            if top["kind"] == "fx":
                return {}
            if top["kind"] == "keep":
                return {s: {"kind": "keep", "text": "Night: keep your fortress monster "
                            "(pay or free) or discard it"} for s in top["seats"]}
            return {s: {"kind": top["kind"], "text": effects.LABELS[top["kind"]]}
                    for s in top["seats"]}
        if state["phase"] == "day" and state["turn"]:
            return {s: {"kind": "turn", "text": "Your turn: put a monster into play, activate a "
                        "monster, hire a monster or pass"} for s in day.turn_seats(state)}
        return {}

    def legal_actions(self, state, seat):
        if seat is None or state["phase"] == "over":
            return []
        top = state["stack"][-1] if state["stack"] else None
        if top is not None:
            if seat not in top["seats"]:
                return []
            if top["kind"] == "keep":
                return night.keep_options(state, top, seat)
            return effects.options(state, top)
        if state["phase"] == "day" and seat in day.turn_seats(state):
            return day.legal(state, seat)
        return []

    def _apply(self, state, seat, action):
        top = state["stack"][-1] if state["stack"] else None
        if top is not None and top["kind"] == "keep":
            night.keep_resolve(state, seat, action)
        elif top is not None:
            effects.resolve(state, seat, action)
        else:
            day.apply(state, seat, action)

    def _step(self, state):
        if state["phase"] == "over":
            return False
        if state["stack"]:
            return effects.step(state)
        if state["phase"] == "day":
            if state["need_draw"]:
                day.start_day(state)
                return True
            return day.advance(state)
        return night.step(state)

    # ----- result ------------------------------------------------------------------------------
    @staticmethod
    def side_tiles(state, side):
        """Every monster of a side still in the game: bag, discard, supplies, board halves."""
        sd = state["sides"][side]
        out = list(sd["bag"]) + list(sd["discard"])
        for s in seats_of(state, side):
            out += state["seats"][s]["supply"]
        out += [slot["t"] for b, h, c, slot in board_tiles(state)
                if state["boards"][b]["halves"][h] == side]
        return out

    def tiebreak_key(self, state, side):
        """Victory Conditions: (sum of hire costs + magic coins, sum of fear strength)."""
        ts = self.side_tiles(state, side)
        return (sum(data.TILES[t]["cost"] for t in ts) + state["sides"][side]["magic"],
                sum(data.TILES[t]["fear"] for t in ts))

    def result(self, state):
        if state["phase"] != "over":
            return None
        winners = state["winner"]

        def key(side):
            claim = side in winners
            return (1 if claim else 0, 0 if claim else state["sides"][side]["vp"],
                    *self.tiebreak_key(state, side))

        order = sorted(range(state["nsides"]), key=key, reverse=True)
        ranks: list[list[int]] = []
        prev = None
        for side in order:
            k = key(side)
            if ranks and k == prev:
                ranks[-1] += seats_of(state, side)
            else:
                ranks.append(list(seats_of(state, side)))
            prev = k
        ranks = [sorted(r) for r in ranks]
        return {"ranks": ranks,
                "scores": {str(s): state["sides"][side_of(state, s)]["vp"]
                           for s in range(state["players"])},
                "tiebreak": "Several claimants: sum of hire costs of all their monsters + magic "
                            "coins, then sum of fear strength" if len(winners) > 1 else ""}

    # ----- views -------------------------------------------------------------------------------
    def _seat_views(self, state, viewer, reveal):
        return views.seat_views(state, viewer, reveal)

    def _game_view(self, state, viewer, reveal):
        return views.game_view(state, viewer, reveal, self.prompts(state))

    def _game_views(self, state, viewers, reveal):
        # Only the screens (a seat's own supply) depend on the viewer: the rest is built once.
        board = views.game_view(state, None, reveal, self.prompts(state))
        return {viewer: dict(board, screens=views.screens(state, viewer, reveal))
                for viewer in viewers}

    def determinize(self, state, viewer, rng: Rng):
        return views.determinize(state, viewer, rng)

    # ----- labels ------------------------------------------------------------------------------
    def display_names(self):
        """Monster names by type id and the numbered cells' names (VIEW.md, "Names")."""
        return _DISPLAY_NAMES

    def describe(self, state, action):
        t = action.get("type")
        top = state["stack"][-1] if state["stack"] else None
        if t == "play":
            return (f"Put {data.label(action['tile'])} into play: {action['cell']} of board "
                    f"{action['board'] + 1}")
        if t == "activate":
            return f"Activate the monster in {action['cell']} of board {action['board'] + 1}"
        if t == "hire":
            k = action["slot"]
            tile = state["queue"][k]
            return f"Hire {data.label(tile)} for {effects.hire_price(state, k)} gold"
        if t == "pass":
            return "Pass"
        if t == "skip":
            return "Skip"
        if t in ("flip", "send", "pick", "move"):
            verb = {"flip": "Flip", "send": "Send to discard", "pick": "Move",
                    "move": "Move here:"}[t]
            slot = state["boards"][action["board"]]["cells"][action["half"]][action["cell"]]
            what = data.label(slot["t"]) + " in " if slot else ""
            return f"{verb} {what}{action['cell']} of board {action['board'] + 1}"
        if t == "flip_demon":
            d = action["demon"]
            return f"Flip {data.DEMONS[d]['name']}"
        if t == "summon":
            d = action["demon"]
            lv = effects.demon_level(top["ss"]) + 1 if top and top["kind"] == "summon" else "?"
            return f"Summon {data.DEMONS[d]['name']} (level {lv})"
        if t in ("discard", "return", "remove", "reveal"):
            verb = {"discard": "Discard", "return": "Return to bag", "remove": "Remove from game",
                    "reveal": "Reveal"}[t]
            return f"{verb} {data.label(action['tile'])}"
        if t == "opponent":
            return f"Choose {SEAT_NAMES[action['seat']]}"
        if t == "use":
            return f"Use the ability of {data.label(state['queue'][action['slot']])}"
        if t == "keep":
            return (f"Keep the fortress monster of board {action['board'] + 1} "
                    + ("(pay)" if action["pay"] else "(free)"))
        if t == "release":
            return f"Discard the fortress monster of board {action['board'] + 1}"
        return super().describe(state, action)

    # ----- invariants --------------------------------------------------------------------------
    def check_invariants(self, state):
        seen: list[int] = list(state["queue_discard"]) + list(state["corp_bag"]) + list(
            state["box"]) + list(state["unused"])
        seen += [t for t in state["queue"] if t is not None]
        for sd in state["sides"]:
            seen += sd["bag"] + sd["discard"]
            assert sd["gold"] >= 0 and sd["magic"] >= 0, "negative coins"
            assert 0 <= sd["vp"] <= data.VICTORY_TOKENS
        for st in state["seats"]:
            seen += st["supply"]
            assert all(t in st["supply"] for t in st["shown"]), "shown tile not in supply"
        seen += [slot["t"] for *_, slot in board_tiles(state)]
        assert sorted(seen) == list(range(data.TILE_COUNT)), "monster tiles not conserved"
        assert sum(sd["magic"] for sd in state["sides"]) <= data.MAGIC_COINS
        assert sum(sd["vp"] for sd in state["sides"]) <= data.VICTORY_TOKENS
        for bd in state["boards"]:
            assert all(0 <= c <= data.CONQUEST_STEPS for c in bd["conquest"])
            assert all(v >= 0 for v in bd["cargo"].values())
            for h in (0, 1):
                for c, slot in bd["cells"][h].items():
                    if slot and c == "portal":
                        assert data.TILES[slot["t"]]["colour"] == "blue", "non-blue in portal"
