// Phones: the sticky block at the top of the window (table.html #table-top: the scores, the
// prompt bar, the last move) as small as it can be, and saying the round once the header has
// scrolled away (issue 14, item 7; docs/table-review.md, review 8, worst problems 1 and 9).
//
// - The last-move line sits beside the scores when their last line leaves it room (four seats:
//   their second line; two short names), instead of a row of its own under the prompt bar: the
//   header and the block took a quarter of the first screen. Measured after each view and when
//   the scores' line changes size; a tap that opens the line whole gives it its row again.
// - Once the header's round and phase are out of the window (the table brings the place to
//   decide into view: Evil Corp.'s round box went half under the block, or off the screen),
//   the last-move line starts with them (#last-move-round). It keeps its width: nothing moves.

import {PHONE} from "../dom.js";
import {dom} from "./state.js";

/** The room the line needs beside the scores (px): "Round 1 · Brewing", "Last:" and some words
 *  of the move (a tap shows it whole). */
const MIN_ROOM = 200;
/** Between the last seat's score and the line (px). */
const GAP = 12;

/** Put the last-move line beside the scores, or on its own row (see above); the round and
 *  phase in its chip. */
export function placeLastMove() {
  const box = dom.lastMoveBox, block = dom.tableTop, scores = dom.phoneScores;
  if (!box || !block || !scores) return;
  const chip = document.getElementById("last-move-round");
  if (chip && dom.roundPhase) chip.textContent = dom.roundPhase.textContent;
  box.classList.remove("beside");
  if (!PHONE.matches || box.classList.contains("expanded") || !box.getBoundingClientRect().height) return;
  const seats = scores.querySelectorAll(".ps-seat");
  const last = seats[seats.length - 1];
  if (!last) return;
  const s = scores.getBoundingClientRect(), l = last.getBoundingClientRect(), t = block.getBoundingClientRect();
  const right = s.right - parseFloat(getComputedStyle(scores).paddingRight || "0");
  if (right - l.right - GAP < MIN_ROOM || l.bottom > s.bottom + 0.5) return;
  block.style.setProperty("--lm-left", `${l.right + GAP - t.left}px`);
  block.style.setProperty("--lm-top", `${(l.top + l.bottom) / 2 - t.top}px`);
  box.classList.add("beside");
}

if (dom.tableTop && dom.phoneScores) {
  // the scores' line changes size (a wider score, the window turned): measured again
  new ResizeObserver(() => placeLastMove()).observe(dom.phoneScores);
  if (document.fonts && document.fonts.ready) document.fonts.ready.then(() => placeLastMove());
  // the header's round and phase in the window, wholly, or not
  const round = dom.roundPhase;
  if (round && "IntersectionObserver" in window) {
    new IntersectionObserver((entries) => {
      const e = entries[entries.length - 1];
      dom.tableTop.classList.toggle("header-away", !e.isIntersecting || e.intersectionRatio < 0.99);
    }, {threshold: [0, 0.99, 1]}).observe(round);
  }
}
