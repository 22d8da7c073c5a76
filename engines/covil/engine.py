"""The Covil engine: the contract of engines.base.Engine glued to the rules modules."""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from engines.base import Engine, IllegalAction, Rng, event, public_copy

from . import combat, core, data, dummy, effects, phases, rules_help, scoring, turn, view
from .data import RULES, card, relic

_BOARD = data.BOARDS


class CovilOptions(BaseModel):
    """Match options.

    ``board``: "A" (Water Town, up to 4 players) or "B" (Desert Town, 2-3 players). Solo
    always uses the Desert town map (board B) as "Evil Prevails" says, whatever ``board`` is.
    ``dummies``: solo only, the number of dummy players (1 or 2).
    ``dummy_next_to_you``: solo only, each dummy fortress goes next to yours.
    """

    model_config = ConfigDict(extra="forbid")
    board: Literal["A", "B"] = Field(
        "A", title="Board",
        description=f"{_BOARD['A']['name']}: up to {_BOARD['A']['max_players']} players; "
                    f"{_BOARD['B']['name']}: up to {_BOARD['B']['max_players']} players. "
                    f"Solo always uses the {_BOARD['B']['name']} map.",
        # the waiting room shows what solo plays; the lobby and the room name each board as
        # its map does (boards.yaml), never by its letter (new-user trial: "Board: A")
        json_schema_extra={"solo_value": "B", "names": {b: d["name"] for b, d in data.BOARDS.items()}})
    dummies: int = Field(1, ge=1, le=2, title="Dummy players (solo)",
                         description="How many engine-played dummy players a solo game has.")
    dummy_next_to_you: bool = Field(False, title="Dummy fortress next to yours (solo)",
                                    description="Harder solo: dummy fortresses go next to yours.")


_FRAME_TEXT = {
    "place": "Choose a starting zone (spiral) for the fortress and 2 troops",
    "turn": "Your afternoon turn: acquire a Minion, free actions, lie down one troop",
    "pay": "Pay for the Minion: add Minions or Power Relics, then confirm",
    "aim": "Choose the target of the attack",
    "free_attack": "Free attack: choose the attacking troop and the Minion to exhaust",
    "effect": "Choose how the ability applies",
    "combat": "Respond to the attack: exhaust a defensive Minion and/or activate Power Relics",
    "retreat": "Your troop lost: choose the zone it retreats to",
}


def _turn_text(state: dict, f: dict) -> str:
    """The afternoon turn's prompt, naming only the steps still open (rulebook, Phase 2: "2.1
    Acquire a Minion", "2.2 free actions", "2.3 lie down one troop"): a Minion acquired or a
    troop laid down drops out (the table review: the prompt listed both after the log showed
    them done). Prompts are not stored: no rules version."""
    can_lay = not f["lay"] and core.any_standing(state, f["owner"])
    steps = ([] if f["acq"] else ["acquire a Minion"]) + ["free actions"] + \
        (["lie down one troop"] if can_lay else [])
    if not can_lay:  # (turn.turn_actions: the turn may end)
        return f"Your afternoon turn: {', '.join(steps)}, or end your turn"
    return f"Your afternoon turn: {', '.join(steps)}"


_DISPLAY_NAMES: dict[str, str] = {
    **{cid: c["name"] for cid, c in data.CARDS.items()},
    **{rid: r["name"] for rid, r in data.RELICS.items()},
}


class CovilEngine(Engine):
    """Covil: The Dark Overlords (1-4 players; solo against engine-played dummy players)."""

    id = "covil"
    title = "Covil: The Dark Overlords"
    rules_help = rules_help
    min_players = 1
    max_players = 4
    version = 2
    options = CovilOptions

    def parse_options(self, players: int, raw) -> BaseModel:
        opts = super().parse_options(players, raw)
        if players > 1 and players > data.BOARDS[opts.board]["max_players"]:
            raise ValueError(f"Board {opts.board} fits at most "
                             f"{data.BOARDS[opts.board]['max_players']} players")
        return opts

    # ----- setup and automatic steps --------------------------------------------------------
    def _setup(self, players: int, options: CovilOptions, seed: int) -> dict:
        from .setup import build

        board = "B" if players == 1 else options.board
        return build(players, board, options.dummies, options.dummy_next_to_you, seed)

    def _step(self, state: dict) -> bool:
        if state["result"] is not None:
            return False
        stack = state["stack"]
        if stack:
            f = stack[-1]
            if f["seats"]:
                if f["kind"] == "combat" and not self._combat_choices(state, f):
                    combat.done(state, f)
                    return True
                return False
            if f["kind"] == "turn":
                dummy.take_turn(state)
            elif f["kind"] == "combat":
                dummy.respond(state)
            elif f["kind"] == "retreat":
                dummy.retreat(state)
            else:  # pragma: no cover
                raise AssertionError(f"frame {f['kind']} without seats")
            return True
        if state["phase"] == "end":
            state["result"] = scoring.result(state)
            state["log"].append(event("Final scoring: " + ", ".join(
                f"{core.name(state, int(o))} {b['total']} VP"
                for o, b in state["result"]["breakdown"].items()) + ".", irreversible=True))
            return False
        return phases.step(state)

    # ----- prompts and legal actions ---------------------------------------------------------

    def _prompts(self, state: dict) -> dict[int, dict]:
        if state["result"] is not None or not state["stack"]:
            return {}
        f = state["stack"][-1]
        text = _FRAME_TEXT[f["kind"]]
        if f["kind"] == "place" and core.is_dummy(state, f["owner"]):
            text = f"Place the fortress and 2 troops of {core.name(state, f['owner'])}"
        elif f["kind"] == "combat":
            a, d = combat.attack_strength(state, f), combat.defense_strength(state, f)
            if f["side"] == "atk":
                text = f"Raise the stakes (attack {a} vs defence {d}): activate Power Relics or pass"
            else:
                text = f"{text} (attack {a} vs defence {d})"
        elif f["kind"] == "effect":
            text = f"{text}: {f['do'].replace('_', ' ')}"
        elif f["kind"] == "turn":
            text = _turn_text(state, f)
        return {s: {"kind": f["kind"], "text": text} for s in f["seats"]}

    def _combat_choices(self, state: dict, f: dict) -> list[dict]:
        o = combat.side_owner(f)
        out: list[dict] = []
        if combat.may_activate(state, f):
            out += [{"type": "activate", "relic": r}
                    for r in dict.fromkeys(sorted(state["own"][o]["hand"]))]
        out += [{"type": "defend", "slot": i} for i in combat.defend_options(state, f)]
        if out or (o is not None and not core.is_dummy(state, o) and combat.may_activate(state, f)
                   and self._can_buy(state, o)):
            out.append({"type": "done"})
        return out

    def _can_buy(self, state: dict, o: int) -> bool:
        return state["own"][o]["gold"] >= core.relic_price(state, o) and core.relics_left(state)

    def legal_actions(self, state: dict, seat: int | None) -> list[dict]:
        if seat is None or state["result"] is not None or seat >= state["players"]:
            return []
        out: list[dict] = []
        f = state["stack"][-1] if state["stack"] else None
        if f is not None and seat in f["seats"]:
            k = f["kind"]
            if k == "place":
                out = [{"type": "place", "zone": z} for z in phases.place_options(state, f["owner"])]
            elif k == "turn":
                out = turn.turn_actions(state, f)
            elif k == "pay":
                out = turn.pay_options(state, f)
            elif k == "aim":
                out = effects.aim_options(state, f) + [{"type": "cancel"}]
            elif k == "free_attack":
                out = effects.attack_declarations(state, f["owner"], free=True) + [{"type": "skip"}]
            elif k == "effect":
                out = effects.effect_options(state, f)
                out.append({"type": "skip" if f["source"] == "relic" else "cancel"})
            elif k == "combat":
                out = self._combat_choices(state, f) or [{"type": "done"}]
            elif k == "retreat":
                out = [{"type": "retreat", "to": z} for z in combat.retreat_options(state, f)]
        if self._can_buy(state, seat):
            out.append({"type": "buy_relic"})
        return out

    # ----- applying actions ------------------------------------------------------------------
    # Complex on purpose: one branch per action type of the rulebook; the dispatch reads as
    # the list of actions.
    def _apply(self, state: dict, seat: int, a: dict) -> None:  # noqa: C901
        t = a["type"]
        f = state["stack"][-1] if state["stack"] else None
        o = f["owner"] if f is not None and "owner" in f else seat
        if t == "buy_relic":
            p = state["own"][seat]
            p["gold"] -= core.relic_price(state, seat)
            core.draw_relics(state, seat, 1, "bought for gold")
            return
        k = f["kind"]
        if t == "place":
            phases.place(state, a["zone"])
        elif t in ("move", "rest", "repair", "gold", "attack") and k == "turn":
            turn.apply_troop_action(state, o, a)
        elif t == "attack":  # free attack declaration
            state["stack"].append(effects.aim_frame(state, o, a, free=True))
        elif t == "target":
            turn.apply_target(state, a)
        elif t == "acquire":
            turn.start_acquire(state, o, a["card"])
        elif t == "pay_minion":
            f["minions"].append(a["slot"])
        elif t == "pay_relic":
            f["relics"].append(a["relic"])
        elif t == "confirm":
            turn.confirm(state)
        elif t == "cancel":
            if k == "effect":
                effects.cancel_effect(state)
            else:
                state["stack"].pop()
        elif t == "skip":
            state["stack"].pop()
        elif t == "activate":
            if k == "combat":
                f["acted"] = True
                effects.activate(state, combat.side_owner(f), a["relic"])
            else:
                effects.activate(state, o, a["relic"])
        elif t == "command":
            effects.command(state, o, a["slot"])
        elif t == "effect":
            effects.apply_effect(state, a)
        elif t == "defend":
            combat.defend(state, f, a["slot"])
        elif t == "done":
            combat.done(state, f)
        elif t == "retreat":
            combat.retreat(state, a["to"])
        elif t == "end_turn":
            state["stack"].pop()
        else:  # pragma: no cover
            raise IllegalAction("Unknown action.")

    # ----- results, views, hidden information --------------------------------------------
    def result(self, state: dict) -> dict | None:
        """The stored result; solo games get a ``tiebreak`` sentence naming the outcome and the
        dummies' scores (the generic client shows ranks of seats only, so the dummies would be
        invisible otherwise). Computed here, not stored, so the final state is unchanged."""
        r = state["result"]
        if r is None or state["players"] != 1 or "dummy_scores" not in r:
            return r
        outcome = "you won" if r["won"] else "shared victory" if r["shared"] else "you lost"
        dummies = ", ".join(f"{core.name(state, int(o))} {vp} VP"
                            for o, vp in r["dummy_scores"].items())
        text = f"Solo: {outcome} \u2014 you {r['scores']['0']} VP; {dummies}."
        if any(vp == r["scores"]["0"] for vp in r["dummy_scores"].values()):
            text += " Equal VP, so the tie breakers decided: " + scoring.TIEBREAK_TEXT.split(
                "ties: ", 1)[-1] + "."
        return {**r, "tiebreak": text}

    def _seat_views(self, state: dict, viewer, reveal: bool) -> list[dict]:
        return view.seat_views(state, viewer, reveal)

    def _header(self, state: dict, prompts: dict) -> dict:
        h = super()._header(state, prompts)
        h["day"] = state["day"]
        return h

    def _game_view(self, state: dict, viewer, reveal: bool) -> dict:
        return view.game_view(state, viewer, reveal)

    def _game_views(self, state: dict, viewers: list, reveal: bool) -> dict:
        return view.game_views(state, viewers, reveal)

    def determinize(self, state: dict, viewer: int | None, rng: Rng) -> dict:
        """Redeal what ``viewer`` cannot know: the Power Relic deck and every other hand
        (including the dummies' face-down relics), and the Mercenary deck with the cards left
        in the box. Counts, the viewer's own hand and everything face up are kept. Pools are
        sorted before they are shuffled: the sample never depends on the real hidden order."""
        s = public_copy(state, viewer)
        others = [p for p in s["own"] if viewer is None or p["seat"] != viewer]
        pool = sorted(list(s["rdeck"]) + [r for p in others for r in p["hand"]])
        rng.shuffle(pool)
        for p in others:
            k = len(p["hand"])
            p["hand"], pool = pool[:k], pool[k:]
        s["rdeck"] = pool
        for f in s["stack"]:
            # relics already offered as payment by a redealt owner are among its new hand
            if f["kind"] == "pay" and s["own"][f["owner"]] in others:
                f["relics"] = list(s["own"][f["owner"]]["hand"][:len(f["relics"])])
        merc = sorted(s["mdeck"] + s["mbox"])
        rng.shuffle(merc)
        s["mdeck"], s["mbox"] = merc[:len(s["mdeck"])], merc[len(s["mdeck"]):]
        s["rng"] = rng.next64()
        return s

    def display_names(self) -> dict[str, str]:
        """Every Minion type id and Power Relic id with its name (data/*.yaml): the log and the
        labels keep the ids the rules wrote; the views show these names (README.md)."""
        return _DISPLAY_NAMES

    # Complex on purpose: one line of log text per action type.
    def describe(self, state: dict, a: dict) -> str:  # noqa: C901
        t = a["type"]
        if t == "place":
            return f"Place fortress in {a['zone']}"
        if t == "move":
            return f"Lie down a troop in {a['from']}: move to {a['to']}"
        if t == "rest":
            return f"Lie down a troop in {a['from']}: rest {self._slot_name(state, a['slot'])}"
        if t == "repair":
            return f"Lie down a troop in {a['from']}: repair your fortress"
        if t == "gold":
            return f"Lie down a troop in {a['from']}: gain 1 gold"
        if t == "attack":
            return (f"{a['kind'].title()} attack from {a['from']} exhausting "
                    f"{self._slot_name(state, a['slot'])}{self._strength_note(state, a)}")
        if t == "target":
            who = core.name(state, a["owner"])
            if a.get("fortress"):
                return f"Attack {who}'s fortress in {a['zone']}{self._strength_note(state, a)}"
            return (f"Attack {who}'s {'standing' if a['up'] else 'lying'} troop in {a['zone']}"
                    f"{self._strength_note(state, a)}")
        if t == "acquire":
            return f"Acquire {card(a['card'])['name']}"
        if t == "pay_minion":
            return f"Pay with {self._slot_name(state, a['slot'])}"
        if t == "pay_relic":
            return f"Pay with Power Relic {a['relic']} ({relic(a['relic'])['gold']} gold)"
        if t == "activate":
            return f"Activate Power Relic {a['relic']}"
        if t == "command":
            return f"Command: exhaust {self._slot_name(state, a['slot'])}"
        if t == "defend":
            return f"Defend: exhaust {self._slot_name(state, a['slot'])}"
        if t == "effect":
            if "slot" in a:
                return f"Rest {self._slot_name(state, a['slot'])}"
            if "rebel" in a:
                return "Add a Rebel" if a["rebel"] > 0 else "Remove a Rebel"
            if "to" in a:
                return f"Move troop from {a['from']} to {a['to']}"
            return "Repair your fortress"
        if t == "retreat":
            return f"Retreat to {a['to']}"
        if t == "buy_relic":
            return "Buy a Power Relic"
        return {"confirm": "Confirm payment", "cancel": "Cancel", "skip": "Skip",
                "done": "Done responding", "end_turn": "End turn"}.get(t, t)

    def _strength_note(self, state: dict, a: dict) -> str:
        """" (strength N)" for an attack choice (issue 14 item 8: every attack choice shows the
        strength it will have; Attack > Attacking strength). An ``attack`` declaration has no
        target yet: a conditional Aftershock bonus is named beside it ("5, or 6 with its
        Aftershock"). A ``target`` choice reads the top ``aim`` frame: the exact strength."""
        top = state["stack"][-1] if state["stack"] else None
        if not top or "owner" not in top:
            return ""
        if a["type"] == "attack":
            o, frm, kind, slot = top["owner"], a["from"], a["kind"], a["slot"]
            tgt = {"zone": frm, "up": True}
        elif top["kind"] == "aim":
            o, frm, kind, slot = top["owner"], top["from"], top["akind"], top["slot"]
            tgt = a
        else:
            return ""
        hall = state["own"][o]["hall"]
        if slot >= len(hall):
            return ""
        fort = bool(tgt.get("fortress"))
        f = {"att": o, "from": frm, "akind": kind, "acard": hall[slot]["id"], "def": None,
             "dz": tgt["zone"], "dup": None if fort else tgt["up"],
             "target": "fortress" if fort else "troop", "guarded": False}
        s = combat.attack_strength(state, f)
        if a["type"] == "attack":
            bonus = combat.aftershock(state, f).get("bonus", 0)
            base = s - combat._aftershock_bonus(state, f)
            if bonus:
                return f" (strength {base}, or {base + bonus} with its Aftershock)"
            return f" (strength {base})"
        return f" (strength {s})"

    def _slot_name(self, state: dict, slot: int) -> str:
        f = state["stack"][-1] if state["stack"] else None
        o = combat.side_owner(f) if f and f["kind"] == "combat" else (f or {}).get("owner", 0)
        hall = state["own"][o]["hall"]
        return card(hall[slot]["id"])["name"] if slot < len(hall) else f"slot {slot}"

    def check_invariants(self, state: dict) -> None:
        relics = sorted(state["rdeck"] + state["rdiscard"]
                        + [r for p in state["own"] for r in p["hand"] + p["active"]])
        assert relics == sorted(data.RELIC_IDS), "Power Relics not conserved"
        cards = (state["pool"] + state["mdeck"] + state["mdiscard"] + state["mbox"] + state["obox"]
                 + [m["id"] for p in state["own"] for m in p["hall"]])
        assert len(cards) == len(set(cards)), "a Minion card is in two places"
        n_dummies = len(state["own"]) - state["players"]
        assert len(cards) == 46 + 5 * state["players"] - 0 * n_dummies, "Minions not conserved"
        assert 0 <= state["rebels"] <= RULES["rebels_total"]
        for o, p in enumerate(state["own"]):
            assert 0 <= p["gold"] <= core.treasury_cap(state, o), "gold out of range"
            assert 0 <= p["hp"] <= RULES["max_hp"]
            assert p["dead"] == (p["hp"] == 0)
            assert len(p["troops"]) <= RULES["troops_per_player"]
            assert 1 <= len(p["hall"]) <= RULES["hall_slots"] + 1
            assert card(p["hall"][0]["id"])["kind"] == "overlord"
            assert all(m["ex"] in (0, 1, 2) for m in p["hall"])
