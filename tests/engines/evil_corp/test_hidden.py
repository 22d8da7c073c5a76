"""Hidden information: screens (supplies), bags, the 4-player partner, events, determinize.

Rulebook: "Gold coins ... must be visible to all", "At any moment ... how many monster tiles remain
in his supply", 4 players: "It is forbidden to show each other the drawn monster tiles", revealed
tiles "remain visible to all other players until the end of the round"."""
from engines.base import Rng
from engines.evil_corp import ENGINE
from tests.engines.harness import playout

from .helpers import act, fresh, give


def test_views_show_own_supply_only_counts_for_others():
    """Day Phase > 4. Pass > Note: everyone sees how many tiles a supply holds, not which."""
    s = ENGINE.setup(2, {}, 5)
    v0 = ENGINE.view(s, 0)
    assert len(v0["game"]["screens"][0]["supply"]) == 5
    assert v0["game"]["screens"][1]["supply"] is None
    assert v0["game"]["screens"][1]["supply_count"] == 5
    assert v0["seats"][1]["Tiles behind screen"] == 5
    spec = ENGINE.view(s, None)
    assert all(x["supply"] is None for x in spec["game"]["screens"])
    assert all(x["bag"] is None for x in spec["game"]["sides"])
    assert spec["game"]["sides"][0]["bag_count"] == 3
    full = ENGINE.view(s, None, reveal=True)
    assert all(x["supply"] is not None for x in full["game"]["screens"])


def test_four_players_partner_supply_hidden():
    """Refresh the Player's Supply (4 players): partners do not see each other's tiles."""
    s = ENGINE.setup(4, {}, 5)
    v0 = ENGINE.view(s, 0)
    assert v0["game"]["screens"][2]["supply"] is None
    assert v0["game"]["screens"][2]["supply_count"] == 4
    draws = [e for e in s["log"] if e["text"].startswith("You drew")]
    assert sorted(tuple(e["to"]) for e in draws) == [(0,), (1,), (2,), (3,)]
    others = [e for e in s["log"] if "drew 4 tile" in e["text"]]
    assert all(len(e["to"]) == 3 for e in others)


def test_determinize_redeals_hidden_tiles_keeps_known():
    """determinize: the other seats' unrevealed supply tiles and the bags are redealt (the partner's
    too with 4 players); the viewer's own supply and revealed tiles stay."""
    for players in (2, 3, 4):
        samples = changed = 0
        rng = Rng(99)

        def check(state, step):
            nonlocal samples, changed
            if step % 9:
                return
            for viewer in [*range(players), None]:
                det = ENGINE.determinize(state, viewer, rng)
                for seat in range(players):
                    assert sorted(det["seats"][seat]["shown"]) == sorted(
                        state["seats"][seat]["shown"])
                    assert len(det["seats"][seat]["supply"]) == len(state["seats"][seat]["supply"])
                if viewer is not None:
                    assert det["seats"][viewer]["supply"] == state["seats"][viewer]["supply"]
                hidden = lambda st: [sorted(x["supply"]) for x in st["seats"]]  # noqa: E731
                samples += 1
                changed += hidden(det) != hidden(state)
                ENGINE.check_invariants(det)

        playout(ENGINE, players, {}, 11, on_state=check)
        assert changed >= samples // 2, (players, changed, samples)


def test_determinize_keeps_revealed_tiles():
    """Ability Symbols (reveal): tiles an opponent revealed are known until the end of the round;
    determinize keeps them in that supply."""
    s = fresh()
    s["seats"][1]["supply"] = [s["sides"][1]["bag"].pop() for _ in range(3)]
    t = give(s, 0, "R01")
    s = act(s, 0, {"type": "play", "tile": t, "board": 0, "cell": "raid-1"})
    shown = sorted(s["seats"][1]["shown"])
    for i in range(10):
        det = ENGINE.determinize(s, 0, Rng(i))
        assert sorted(det["seats"][1]["supply"]) == shown


def test_illegal_action_reason_reveals_nothing():
    """Contract: a refused action names nothing hidden."""
    s = ENGINE.setup(2, {}, 5)
    seat = min(ENGINE.prompts(s))
    other = 1 - seat
    from engines.base import IllegalAction
    try:
        ENGINE.apply(s, other, {"type": "pass"})
    except IllegalAction as e:
        assert "turn" in e.reason
    else:  # pragma: no cover
        raise AssertionError("accepted")


def test_no_log_line_names_a_tile_its_reader_cannot_see():
    """Leak test over the log (issue 15: "the leak test also reads the log"; Day Phase > 4 players:
    "It is forbidden to show each other the drawn monster tiles"; docs/design.md: never put hidden
    information where another seat can read it). In playouts at 2, 3 and 4 players, every log
    line a seat or a spectator reads names only tile types that its own view shows, before or
    after the action (a board, the queue, a public pile, a revealed tile, its own screen)."""
    import json
    import re

    class Enough(Exception):
        pass

    code = re.compile(r"\b(S[BRY]\d?|[BRY]\d\d)\b")
    lines = 0
    for players in (2, 3, 4):
        viewers = [*range(players), None]
        prev: dict = {}

        def check(state, step):
            nonlocal prev, lines
            if step > 120:                                 # beyond the first night: enough lines
                raise Enough
            for viewer in viewers:
                view = ENGINE.view(state, viewer)
                shown = json.dumps({k: x for k, x in view["game"].items()
                                    if k != "catalog"})      # the catalog lists every type
                old = prev.get(viewer, {"n": 0, "shown": ""})
                for e in view["log"][old["n"]:]:
                    if e["to"] == "all" and " discards " in e["text"]:
                        continue      # README 5: public as they are discarded (maybe reshuffled)
                    for c in code.findall(e["text"]):
                        assert f'"{c}"' in shown or f'"{c}"' in old["shown"], (
                            players, viewer, step, e["text"])
                    lines += 1
                prev[viewer] = {"n": len(view["log"]), "shown": shown}

        try:
            playout(ENGINE, players, {}, 31 + players, on_state=check)
        except Enough:
            pass
    assert lines > 100
