"""Hidden information: Power Relic hands secret (counts public), deck orders secret, active
relics public; determinize redeals what the viewer cannot know."""
from engines.base import Rng
from engines.covil import ENGINE

from .helpers import act, placed, set_hand


def test_views_show_own_hand_only_and_counts_to_everyone():
    """Power Relics: players keep them in their hands (secret); the number is public."""
    s = placed(3)
    set_hand(s, 1, ["P05", "P06"])
    v0 = ENGINE.view(s, 0)["game"]["owners"]
    v1 = ENGINE.view(s, 1)["game"]["owners"]
    spec = ENGINE.view(s, None)["game"]["owners"]
    assert v0[1]["hand"] is None and v0[1]["hand_count"] == 2
    assert v1[1]["hand"] == ["P05", "P06"]
    assert spec[1]["hand"] is None and spec[0]["hand"] is None
    assert ENGINE.view(s, None, reveal=True)["game"]["owners"][1]["hand"] == ["P05", "P06"]
    assert "P05" not in str(ENGINE.view(s, 0)["log"])


def test_active_relics_are_public():
    """Power Relics: an activated relic is face up for everyone."""
    s = placed(2)
    set_hand(s, 0, ["P17"])
    s = act(s, 0, {"type": "activate", "relic": "P17"})
    assert ENGINE.view(s, 1)["game"]["owners"][0]["active"] == ["P17"]
    assert "P17" in ENGINE.view(s, None)["game"]["relics"]


def test_determinize_redeals_other_hands_and_decks_keeping_own_hand():
    """determinize: other hands, the relic deck and the Mercenary deck are resampled; the
    viewer's own hand and every public count stay."""
    s = placed(3)
    changed = 0
    for i in range(20):
        d = ENGINE.determinize(s, 0, Rng(i))
        assert d["own"][0]["hand"] == s["own"][0]["hand"]
        assert [len(p["hand"]) for p in d["own"]] == [len(p["hand"]) for p in s["own"]]
        assert ENGINE.view(d, 0) == ENGINE.view(s, 0)
        changed += d["own"][1]["hand"] != s["own"][1]["hand"]
        assert sorted(d["mdeck"] + d["mbox"]) == sorted(s["mdeck"] + s["mbox"])
        ENGINE.check_invariants(d)
    assert changed >= 15


def test_describe_gives_rulebook_labels():
    """describe(): short labels with the rulebook's words."""
    s = placed(2)
    labels = [ENGINE.describe(s, a) for a in ENGINE.legal_actions(s, 0)]
    assert "Lie down a troop in H: move to A" in labels
    assert "Buy a Power Relic" in labels


def test_determinize_keeps_a_pending_payment_consistent():
    """determinize during another seat's payment: its offered relics stay in its (redealt) hand."""
    s = placed(2)
    from .helpers import take_card
    take_card(s, "W7")
    s["pool"].append("W7")
    set_hand(s, 0, ["P03", "P05"])
    s = act(s, 0, {"type": "acquire", "card": "W7"})
    s = act(s, 0, {"type": "pay_relic", "relic": "P05"})
    for i in range(10):
        d = ENGINE.determinize(s, 1, Rng(i))
        f = d["stack"][-1]
        assert all(r in d["own"][0]["hand"] for r in f["relics"])
        assert ENGINE.view(d, 1) == ENGINE.view(s, 1)
        d2 = ENGINE.apply(d, 0, {"type": "pay_minion", "slot": 1})[0]
        ENGINE.check_invariants(d2)


def test_standing_shows_public_victory_points_and_hides_relic_gold():
    """Final Scoring: "Score 5 VP if your fortress is not destroyed. Score one VP for each gold
    left in your Treasury, shown in your acquired Minions' costs and shown in Power Relics that
    are still in your hand." The table shows each seat's VP if the game ended now; the gold on a
    hidden hand is counted only for its owner (another seat sees the same score whatever the
    hand holds)."""
    from engines.covil import scoring
    s = placed(3)
    set_hand(s, 1, ["P05", "P06"])
    full = scoring.breakdown(s, 1)
    assert full["relics"] > 0
    public = full["total"] - full["relics"]
    for viewer in (0, 2, None):
        v = ENGINE.view(s, viewer)
        assert v["seats"][1]["score"] == public
        assert v["game"]["owners"][1]["vp"] == public
    assert ENGINE.view(s, 1)["game"]["owners"][1]["vp"] == full["total"]
    set_hand(s, 1, ["P01", "P02"])
    assert ENGINE.view(s, 0)["seats"][1]["score"] == scoring.breakdown(s, 1)["total"] - scoring.breakdown(s, 1)["relics"]
    assert [x["score"] for x in ENGINE.view(s, 0)["seats"]] == [
        scoring.breakdown(s, o)["total"] - scoring.breakdown(s, o)["relics"] for o in range(3)]
