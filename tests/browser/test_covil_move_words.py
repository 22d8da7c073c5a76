"""Covil's troop move in words that are true at each moment (first-time review, docs/table-review.md
"Worst problems" 3), on the real table by real clicks, 1366×768 with a mouse and 375×812 by touch.

The review found the phone's prompt "Move: tap a troop ringed in white, then a zone outlined in
white." while no zone was outlined (the zones appear once a troop is picked), a long two-part
prompt on the desktop, the troop actions as big red buttons ("1 Lie down a troop in H: rest
Goblin King", red as "Play it" and "Resign"), the suggestion "Lie down a troop in H: move to A"
(lying down and moving in one phrase) and a bare "Cancel" during a Command's move. Now:

- before a pick the prompt asks for one of your troops ringed in white, and no zone is outlined;
- after the pick it asks for a zone outlined in white, or the troop again, and the zones are
  outlined; the troop tapped again drops the pick and the first words come back;
- the troop actions read as one action each ("Lie down a troop in H to gain 1 gold"), and their
  buttons look like choices (the bar's neutral colour), not like "End turn";
- the picked troop's other actions (rest, repair, gain gold) are buttons in the row under the map
  ("Troop in H:"), each the legal action: on a phone the bar holds none of them (new-user trial:
  its "Choose…" sheet, opened for one, covered the troops the prompt asked to tap), and a troop
  action takes two taps, the troop and its action; a desktop's bar keeps them too;
- a Squire's Command (a move of one of your troops) has "Cancel the move", which takes the
  Command back; acquiring a Minion has "Cancel the payment".

Screenshots: tests/browser/artifacts/covil-move-{before,picked,command}-<size>.png.
"""
from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.browser.test_covil_table_clicks import AFTERNOON_SEED, _to_afternoon
from tests.browser.test_full_match import fill_and_start
from tests.browser.test_layout import DESKTOP_768, PHONE_812, new_table
from tests.chromium import ARTIFACTS, screenshot
from tests.table_clicks import Clicks, actions, click, click_action

pytestmark = pytest.mark.e2e

#: What the bar's buttons look like (every one, the closed menu's too): words, classes, colour.
BUTTONS_JS = """() => [...document.querySelectorAll('#prompt-actions button[data-action]')].map((b) => ({
  type: JSON.parse(b.dataset.action).type, text: b.textContent.replace(/^\\d/, ''),
  secondary: b.classList.contains('btn-secondary'),
  bg: getComputedStyle(b).backgroundColor}))"""

#: The colour of the bar's main buttons (and of "Play it" and "Resign"): lair.css --accent.
ACCENT_JS = """() => {
  const probe = document.createElement('div');
  probe.style.background = 'var(--accent)';
  document.body.append(probe);
  const bg = getComputedStyle(probe).backgroundColor;
  probe.remove();
  return bg;
}"""

#: (an action that does nothing now says so: this seed's Treasury is full, 5 of 5)
IDLE = r"( \((Treasury full, no gold gained|fortress at full health, nothing to repair)\))?"
TROOP_ACTION = re.compile(r"^Lie down a troop in [A-Z] to (rest .+|gain 1 gold|repair your fortress)" + IDLE + "$")


def _prompt(page) -> str:
    return page.locator("#prompt-text").inner_text().removesuffix("?").strip()


def _prompt_becomes(page, words: str) -> str:
    """The prompt's words once they are ``words`` (10 s at most: a cancel's view may come a
    moment after the click's pending mark cleared, on a loaded run); else what they are."""
    try:
        page.wait_for_function("(w) => document.getElementById('prompt-text').innerText"
                               ".replace(/\\?$/, '').trim() === w", arg=words, timeout=10_000)
    except PlaywrightTimeout:
        pass
    return _prompt(page)


def _shot(page, name: str, phone: bool) -> None:
    page.mouse.move(1, 1)  # (a mouse's pointer left on a piece shows its card)
    screenshot(page, ARTIFACTS / f"covil-move-{name}-{'phone' if phone else 'desktop'}.png", full_page=False)


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_covil_move_says_what_is_true_at_each_moment(browser, lair_server, size):
    phone = size == "phone"
    page = new_table(browser, lair_server, PHONE_812 if phone else DESKTOP_768, "covil", 2, bots=False)
    clicks = Clicks()
    try:
        fill_and_start(page, seed=AFTERNOON_SEED)
        _to_afternoon(page, clicks, phone, shots=False)
        verb = "tap" if phone else "click"
        # (the troop may also rest, repair or gain gold: the pick offers those in the row under the map)
        before = f"Troop action: {verb} one of your troops ringed in white." if phone \
            else f"Troop action: {verb} one of your troops ringed in white, then where it goes or what it does."
        picked = "Tap a zone outlined in white to move, or an action under the map, or the troop again." if phone \
            else ("Click a zone outlined in white to move the troop, or an action under the map (an attack, then "
                  "its target); click the troop again to choose another (or press Esc).")

        # before a pick: one of your troops, ringed; no zone is outlined yet
        assert page.locator("#board [data-pick]").count(), "a troop to move"
        assert _prompt(page) == before, _prompt(page)
        assert page.locator("#board .zone-legal").count() == 0, "a zone is outlined before a troop is picked"

        # the troop actions: one action each in words, drawn as choices, not as the step's end
        buttons = page.evaluate(BUTTONS_JS)
        troop = [b for b in buttons if b["type"] in ("rest", "gold", "repair")]
        # a phone's bar holds none (its menu's sheet covered the troops): the board has them
        assert bool(troop) != phone, buttons
        for b in troop:
            assert TROOP_ACTION.match(b["text"]), b
            assert b["secondary"], ("a troop action looks like the step's main button", b)
        red = page.evaluate(ACCENT_JS)
        assert all(b["bg"] != red for b in troop), ("a choice wears the red of the main buttons", troop, red)
        assert not [b for b in buttons if ": " in b["text"]], ("a label in two parts", buttons)
        _shot(page, "before", phone)

        # the troop picked: now the zones are outlined, and the prompt asks for one
        click(page, "#board [data-pick]", clicks)
        page.wait_for_selector("#board .zone-legal")
        assert _prompt(page) == picked, _prompt(page)
        row = page.locator("#board .cv-attacks .cv-troop-act").evaluate_all(
            "els => els.map((b) => [JSON.parse(b.dataset.action).type, b.textContent])")
        assert row and all(re.match(r"^(Rest .+|Gain 1 gold|Repair your fortress)" + IDLE + "$", t) for _, t in row), row
        # the gold lying down would bring is lost at the cap (5 of 5 here): the button says so
        assert ["gold", "Gain 1 gold (Treasury full, no gold gained)"] in row, row
        # every button whole inside the troop's box (that one stuck out of the map's column)
        spill = page.evaluate("""() => {
          const box = document.querySelector('#board .cv-attacks').getBoundingClientRect();
          return [...document.querySelectorAll('#board .cv-attacks button')]
            .filter((b) => b.getBoundingClientRect().right > box.right + 0.5).map((b) => b.textContent); }""")
        assert not spill, ("a troop's button sticks out of its box", spill)
        if not phone:   # the same actions as the bar's (which keeps them)
            assert sorted(k for k, _ in row) == sorted(b["type"] for b in troop), (row, troop)
        assert page.evaluate(BUTTONS_JS) == buttons, "the bar changed with the pick"
        _shot(page, "picked", phone)
        # the troop tapped again drops the pick: the first words, no zone outlined
        click(page, "#board [data-pick].picked", clicks)
        page.wait_for_function("!document.querySelector('#board .zone-legal')")
        assert _prompt_becomes(page, before) == before, _prompt(page)

        # a Squire's Command moves one of your troops: its Cancel names the move
        command = page.locator("#board .cv-hall.mine .cv-card[data-action*='\"command\"']", has_text="Squire")
        assert command.count(), "the Squire's Command is offered"
        command_action = next(a for a in actions(page) if a["type"] == "command"
                              and f'"slot":{a["slot"]}' in command.first.get_attribute("data-action"))
        click_action(page, command_action, clicks)
        page.wait_for_function("document.body.dataset.yourTurn === 'true' && document.body.dataset.pending !== 'true'")
        # (a move and nothing else)
        move_only = f"Move: {verb} one of your troops ringed in white." if phone \
            else f"Move a troop: {verb} one of your troops ringed in white."
        assert _prompt(page) == move_only, _prompt(page)
        cancel = page.locator("#prompt-actions button[data-action='{\"type\":\"cancel\"}']")
        assert cancel.inner_text().lstrip("0123456789") == "Cancel the move", cancel.inner_text()
        for b in page.evaluate(BUTTONS_JS):
            assert ": " not in b["text"], b
        _shot(page, "command", phone)
        click_action(page, {"type": "cancel"}, clicks)
        page.wait_for_function("document.body.dataset.yourTurn === 'true' && document.body.dataset.pending !== 'true'")
        # the Command is taken back: the turn's move again, the Squire ready
        assert _prompt_becomes(page, before) == before, _prompt(page)
        squire = page.locator("#board .cv-hall.mine .cv-card", has_text="Squire").first
        assert "Ready" in squire.inner_text(), squire.inner_text()

        # acquiring a Minion: its Cancel names the payment (the panel says "cancel the payment")
        click_action(page, next(a for a in actions(page) if a["type"] == "acquire"), clicks)
        page.wait_for_function("document.body.dataset.yourTurn === 'true' && document.body.dataset.pending !== 'true'")
        assert cancel.inner_text().lstrip("0123456789") == "Cancel the payment", cancel.inner_text()
        click_action(page, {"type": "cancel"}, clicks)
        page.wait_for_function("document.body.dataset.yourTurn === 'true' && document.body.dataset.pending !== 'true'")
        assert _prompt_becomes(page, before) == before, _prompt(page)

        # a troop action from the board: the troop, then its action in the row (two taps, no menu)
        clicks.task = "troop action"
        click(page, "#board [data-pick]", clicks)
        act = page.locator("#board .cv-attacks .cv-troop-act", has_text="Gain 1 gold")
        act = act if act.count() else page.locator("#board .cv-attacks .cv-troop-act")
        click_action(page, json.loads(act.first.get_attribute("data-action")), clicks)
        assert not any(a["type"] in ("move", "rest", "gold", "repair", "attack") for a in actions(page))
        assert page.evaluate("!document.querySelector('#board [data-pick]')"), "the troop action is done"
        assert clicks.counts["troop action"] == 2, clicks.counts
        assert page.js_errors == []
    finally:
        page.context.close()
