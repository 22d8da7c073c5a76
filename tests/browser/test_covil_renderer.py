"""Browser test of the Covil renderer (static/games/covil/renderer.js), marked ``e2e``.

A tiny FastAPI app (uvicorn thread) serves /static and a harness page importing the renderer
with a stub ``table`` whose actions go to /api/act (the real engine, hot-seat: the view of the
lowest seat the game waits for); unclaimed legal actions become prompt-bar buttons. Complete
solo and 3-player games are played through real clicks on [data-pick] / [data-action] /
prompt-bar buttons; at every step every legal action must be reachable and every clickable
board element legal. Screenshots: tests/browser/artifacts/covil_*.png.
Run: ``.venv/bin/python -m pytest tests/engines/covil -m e2e -q``.
"""
from __future__ import annotations

import json
import random

import pytest

from tests.chromium import ARTIFACTS
from tests.renderer_harness import Game, canon, check_reachable, harness_server

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def server():
    from engines.covil import ENGINE
    with harness_server(ENGINE, "Covil", "covil") as served:
        yield served


def _origin(a: dict) -> str:
    return canon({k: v for k, v in a.items() if k != "to"})


def _check_reachable(page, legal: list[dict]):
    # a move's destinations show once its origin is picked
    return check_reachable(page, legal, lambda a, picks: "to" in a and _origin(a) in picks)


def _wait_step(page, step: int):
    page.locator(f"body[data-step='{step}']").wait_for(state="attached", timeout=10_000)


def _choose(game: Game, rng: random.Random) -> dict:
    legal = game.engine.legal_actions(game.state, game.seat())
    pool = [a for a in legal if a["type"] not in ("cancel", "buy_relic")] or legal
    for kind, p in (("done", 0.7), ("end_turn", 0.6), ("target", 0.9), ("confirm", 0.9)):
        hits = [a for a in pool if a["type"] == kind]
        if hits and rng.random() < p:
            return rng.choice(hits)
    board_first = [a for a in pool if a["type"] in ("place", "move", "retreat", "target",
                                                     "acquire", "activate", "defend", "effect")]
    if board_first and rng.random() < 0.8:
        return rng.choice(board_first)
    return rng.choice(pool)


def _click(page, action: dict, board: list[str], prompt: set[str]):
    k = canon(action)
    if k in prompt:
        page.locator(f"#prompt button[data-prompt='{k}']").click()
        return "prompt"
    if k not in board:
        page.locator(f"#board [data-pick='{_origin(action)}']").first.click()
    page.locator(f"#board [data-action='{json.dumps(action, separators=(',', ':'))}']").first.click()
    return "board"


#: labelText of a repairing Power Relic's activation and a troop's gold, by hit points and gold.
IDLE_JS = """async ([relic, text]) => {
  const R = await import("/static/games/covil/renderer.js");
  const view = (hp, gold) => ({you: 0, game: {stack: [], relics: {P12: {name: relic, text}},
    owners: [{owner: 0, seat: 0, hp, destroyed: false, fortress: "H", gold, cap: 5}]}});
  const say = (t, hp, gold) => R.labelText(t, view(hp, gold));
  return [say(`Activate Power Relic ${relic}`, 5, 2), say(`Activate Power Relic ${relic}`, 4, 2),
          say("Lie down a troop in H: gain 1 gold", 5, 5), say("Lie down a troop in H: gain 1 gold", 5, 4)];
}"""


def _idle_words(page) -> None:
    """New-user trial: a defense Power Relic's "repair 1" activated at full health was spent
    without a word. Its label (the hand card's, the bar's) says it does nothing now, from the
    view's hit points; so does a troop's gold at the Treasury's cap; else the words are as before."""
    from engines.covil.text import relic_text
    got = page.evaluate(IDLE_JS, ["Mason's Hammer", relic_text("P12")])
    assert got == ["Activate Power Relic Mason's Hammer (fortress at full health, nothing to repair)",
                   "Activate Power Relic Mason's Hammer",
                   "Lie down a troop in H to gain 1 gold (Treasury full, no gold gained)",
                   "Lie down a troop in H to gain 1 gold"], got


def _play(page, game: Game, url: str, players: int, seed: int, options: dict, tag: str):
    game.new(players, seed, options)
    page.goto(f"{url}/harness.html")
    _wait_step(page, 0)
    if players == 1:
        _idle_words(page)
    rng = random.Random(seed)
    counts = {"board": 0, "prompt": 0}
    shot_combat = False
    while game.engine.result(game.state) is None:
        step = game.step
        legal = game.engine.legal_actions(game.state, game.seat())
        board, picks, prompt = _check_reachable(page, legal)
        if not shot_combat and any(f["kind"] == "combat" for f in game.state["stack"]):
            shot_combat = True
            page.screenshot(path=str(ARTIFACTS / f"covil_{tag}_combat.png"), full_page=True)
        action = _choose(game, rng)
        counts[_click(page, action, board, prompt)] += 1
        _wait_step(page, step + 1)
        assert page.locator("body[data-illegal]").count() == 0
    _check_reachable(page, [])
    page.screenshot(path=str(ARTIFACTS / f"covil_{tag}_final.png"), full_page=True)
    assert counts["board"] > 0 and counts["prompt"] > 0, counts
    return counts


@pytest.mark.parametrize("players,seed,options,tag", [
    (1, 3, {"dummies": 1}, "solo"),
    (3, 5, {"board": "B"}, "3p"),
])
def test_full_game_through_clicks(browser, server, players, seed, options, tag):
    """Renderer contract: a complete game played through real clicks (solo and 3 players)."""
    game, url = server
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    _play(page, game, url, players, seed, options, tag)
    assert not errors, errors
    page.close()
