// Phones: the sticky block at the top of the window (table.html #table-top: the scores, the
// prompt bar, the last move) as small as it can be, and saying the round once the header has
// scrolled away (issue 14, item 7; docs/table-review.md, review 8, worst problems 1 and 9).
// Desktops: the round in the sticky prompt bar once the header has scrolled away (#bar-round;
// review 9, worst problem 5).
//
// - The last move is read as a sentence (review 9, worst problem 1: beside the scores it was
//   cut to "Easy bot 3 p…", "Morgana acquires Sha…", and on a phone no log is in view): beside
//   the scores' last line (four seats: their second line; two short names) only when the whole
//   line fits there, else on a row of its own under the prompt bar, wrapping to a second line
//   when it needs one (over the board's edge: holdRow); once on its row it stays there.
//   Measured after each view and when the scores' line changes size.
// - Once the header's round and phase are out of the window (the table brings the place to
//   decide into view: Evil Corp.'s round box went half under the block, or off the screen),
//   the block says them in a chip (#last-move-round): beside the scores' last line where it
//   fits (the move's own row keeps its width for the move), else leading the move.

import {PHONE} from "../dom.js";
import {dom} from "./state.js";

/** Between the last seat's score and what sits beside it (px). */
const GAP = 12;

/** Put the last-move line beside the scores when it fits there whole, or on its own row; the
 *  round and phase in their chip (see above). */
export function placeLastMove() {
  const box = dom.lastMoveBox, block = dom.tableTop, scores = dom.phoneScores;
  if (!box || !block || !scores) return;
  // (the block's height before this call moves anything: what holdRow's room is measured from)
  const before = block.getBoundingClientRect().height;
  const chip = document.getElementById("last-move-round");
  for (const node of [chip, document.getElementById("bar-round")]) {
    if (node && dom.roundPhase) node.textContent = dom.roundPhase.textContent;
  }
  box.classList.remove("beside");
  block.classList.remove("round-beside");
  if (!PHONE.matches || !box.getBoundingClientRect().height) return;
  const seats = scores.querySelectorAll(".ps-seat");
  const last = seats[seats.length - 1];
  if (!last) return;
  const s = scores.getBoundingClientRect(), l = last.getBoundingClientRect(), t = block.getBoundingClientRect();
  const right = s.right - parseFloat(getComputedStyle(scores).paddingRight || "0");
  if (l.bottom > s.bottom + 0.5) return;
  block.style.setProperty("--lm-left", `${l.right + GAP - t.left}px`);
  block.style.setProperty("--lm-top", `${(l.top + l.bottom) / 2 - t.top}px`);
  if (!box.classList.contains("expanded") && !block._lairOwnRow) {
    box.classList.add("beside");
    if (fitsWhole(box)) return;
    box.classList.remove("beside");
  }
  holdRow(block, before);
  // the move on its own row: the round beside the scores where it fits (placed from the row's
  // box, which lies over the board's edge: lair.css), else leading the move
  const away = block.classList.contains("header-away") && chip && chip.textContent.trim();
  if (away && chip.getBoundingClientRect().width <= right - l.right - GAP) {
    block.style.setProperty("--lm-chip-top", `${(l.top + l.bottom) / 2 - box.getBoundingClientRect().top}px`);
    block.classList.add("round-beside");
  }
}

/** The move on its own row keeps it for the page's life, one line's room in the block; a second
 *  line lies over the board's top edge (lair.css `.lm-row`): a row that came and went, or grew
 *  and shrank with each move's words, moved the whole page under the finger (Drops' placement:
 *  ±18 px between two taps; new-user trial 6, "nothing may move under the pointer"). `before`:
 *  the block's height (px) before placeLastMove moved the line off the scores' row. */
function holdRow(block, before) {
  if (block._lairOwnRow) return;
  block._lairOwnRow = true;
  block.classList.add("lm-row");
  // (the row's room, taken once: on a scrolled page what lies under the block keeps its place in
  // the window — the table may just have brought the place to decide into view there)
  const grown = block.getBoundingClientRect().height - before;
  if (grown > 0 && window.scrollY > 0) window.scrollBy({top: grown, behavior: "instant"});
}

/** Whether the last-move line's words (and its round chip) show whole in its box, on one line
 *  (beside, the box keeps to one line and clips: lair.css). */
function fitsWhole(box) {
  return box.scrollWidth <= box.clientWidth + 0.5;
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
      const away = !e.isIntersecting || e.intersectionRatio < 0.99;
      if (away === dom.tableTop.classList.contains("header-away")) return;
      dom.tableTop.classList.toggle("header-away", away);
      placeLastMove();  // (the chip came or went: the room beside the scores changed)
    }, {threshold: [0, 0.99, 1]}).observe(round);
  }
}
