"""Covil's small marks in words (first-time review, docs/table-review.md "Worst problems" 7), on the
real table, 1366×768 with a mouse and 375×812 by touch.

The review found, unworded: the red "5" discs on the fortresses (their hit points), the spirals,
the small red figure in the town (a Rebel), the seat panel's "Evil Scepter" pill, and the Power
Relic cards in hand, which showed a cost and a picture but no effect. Now each says what it is:

- under the map a line of its marks, each drawn as on the map with a word beside it ("hit
  points", "starting spiral", "Rebel"), and its rulebook words as a card on hover (mouse) or
  long-press (touch);
- the seat panel's pill reads "Evil Scepter: first player", the hall's head names the Evil
  Scepter and the fortress's hit points in words;
- every Power Relic card in hand shows its Instant Ability and its Troop Bonus in words, the
  small cards of the desktop too.

Screenshot: tests/browser/artifacts/covil-marks-<size>.png.
"""
from __future__ import annotations

import pytest

from tests.browser.test_covil_table_clicks import AFTERNOON_SEED, _to_afternoon
from tests.browser.test_full_match import fill_and_start
from tests.browser.test_layout import DESKTOP_768, PHONE_812, new_table
from tests.chromium import ARTIFACTS, open_card, screenshot
from tests.table_clicks import Clicks

pytestmark = pytest.mark.e2e

#: each mark's word beside it, and words its card must hold (the rulebook's)
MARKS = {"hit points": "repairs 1", "starting spiral": "2 starter troops", "Rebel": "retaliate"}


# Each meeple's figure height on the map (px), and the zone letters and fortress hit points any
# meeple's figure covers.
TROOPS_JS = """() => {
  const figs = [...document.querySelectorAll("#board .cv-map .cv-troops [data-motion-key] path")]
    .filter((p) => !p.closest(".seat-mark")).map((p) => p.getBoundingClientRect());
  const marks = [...document.querySelectorAll("#board .cv-map .cv-zone-letter circle, #board .cv-map .cv-hp-badge circle")]
    .map((c) => [c.closest(".cv-zone-letter") ? "letter " + c.parentNode.textContent : "hit points", c.getBoundingClientRect()]);
  const cut = (a, b) => Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left)) * Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));
  return {heights: figs.map((r) => Math.round(r.height * 10) / 10),
          covers: marks.filter(([, m]) => figs.some((f) => cut(f, m) > 4)).map(([w]) => w)};
}"""


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_covil_marks_say_what_they_are(browser, lair_server, size):
    phone = size == "phone"
    page = new_table(browser, lair_server, PHONE_812 if phone else DESKTOP_768, "covil", 2, bots=False)
    try:
        fill_and_start(page, seed=AFTERNOON_SEED)
        # before her fortress is placed the hall's head says so (it read "— ♥5 hit points")
        page.wait_for_selector("#board .cv-hall.mine .hd")
        head = page.locator("#board .cv-hall.mine .hd").inner_text()
        assert "no fortress yet" in head and "—" not in head and "hit points" not in head, head
        _to_afternoon(page, Clicks(), phone, shots=False)
        page.mouse.move(1, 1)
        # the troops read clearly (a new-user trial: ~12 px on the 330 px map at 1366×768): every
        # meeple's figure at least 20 px tall, over no zone letter and no fortress's hit points
        troops = page.evaluate(TROOPS_JS)
        print("meeples:", troops["heights"], "covering:", troops["covers"])
        assert troops["heights"] and min(troops["heights"]) >= 20, troops
        assert not troops["covers"], troops
        # the map's marks, in words under the map: one per kind of mark the map shows
        items = page.locator("#board .cv-map .cv-marks [role=listitem]")
        words = [t.strip().split("\n")[-1] for t in items.all_inner_texts()]  # (after the "5" of the drawn disc)
        assert sorted(words) == sorted(MARKS), words
        assert page.locator("#board .cv-map svg .cv-hp-badge").count(), "a fortress on the map shows its hit points"
        for i, word in enumerate(words):
            item = items.nth(i)
            assert item.locator("svg").count() == 1, f"the mark {word!r} is not drawn beside its word"
            card = open_card(page, item, phone)
            assert MARKS[word] in card, (word, card)
            page.mouse.move(1, 1)
            page.keyboard.press("Escape")
            page.locator(".card-pop").wait_for(state="detached")
        # the seat panel's pill and the hall's head say what the Scepter and the red heart are
        panel = page.locator(".seat-board .sb-tag", has_text="Evil Scepter")
        assert panel.count() and panel.first.inner_text() == "Evil Scepter: first player", panel.all_inner_texts()
        head = page.locator("#board .cv-hall.mine .hd").inner_text()
        assert "Evil Scepter" in head and "hit points" in head, head
        # every Power Relic in hand: its Instant Ability and its Troop Bonus in words
        relics = page.locator("#board .cv-hand .cv-card.relic")
        assert relics.count() >= 1
        for i in range(relics.count()):
            text = relics.nth(i).inner_text()
            assert "Instant:" in text and "Bonus:" in text, text
        page.locator("#board .cv-map").scroll_into_view_if_needed()
        screenshot(page, ARTIFACTS / f"covil-marks-{size}.png", full_page=False)
        assert page.js_errors == []
    finally:
        page.context.close()
