// A seat's score as its seat panel says it, and the phone's line of every seat's score under
// the header (the live table, seats.js, and the replay, replay.js).

import {el} from "../dom.js";
import {seatShapeMark} from "./seat-style.js";

/** A seat's score as its seat panel says it: `{score, note, title}`, score null when the view
 *  has none. A finished match's result scores, with the game's note when it still holds
 *  (`final`: Evil Corp.'s "of 2", so that the finished page says "Score 2 of 2" as the table
 *  did; the first-time review, "Worst problems" 8); while it runs, the game's own words (the
 *  renderer's `seatScore(seat)` as `ownScore`: Covil counts the viewer's hidden Power Relics
 *  for their own seat and says what the others see; Evil Corp. its side's victory tokens),
 *  else the seat's public `score` (`s`, the view's seat). */
export function seatScoreOf(view, seat, s, ownScore) {
  const scores = view.result && view.result.scores ? view.result.scores : null;
  if (scores) {
    const score = scores[seat] ?? scores[String(seat)];
    const own = score === undefined ? null : ownScore(seat);
    const lasts = own && own.final && own.value === score;
    return {score: score === undefined ? null : score, note: lasts && own.note ? own.note : null,
            title: lasts && own.title ? own.title : null};
  }
  const own = ownScore(seat);
  const score = own && own.value !== undefined ? own.value : s.score;
  return {score: score === undefined ? null : score, note: own && own.note ? own.note : null,
          title: own && own.title ? own.title : null};
}

/** Phones: every seat's score under the header in `box` (issue 14, "Q4 who is winning": at
 *  375×812 a first-time reviewer saw no score on the first screen; the seat panels lie far below
 *  the board). The game's picture of its score (`scoreIcon()`, else its word `scoreWord`) once,
 *  then each seat's shape in its colour, its whole name and its number, as its seat panel says
 *  it (seatScoreOf): on one line when they fit, else on two (lair.css). Its words whole
 *  ("Victory points: Morgana 17 (others see 15), …") are its label and its title; on the table
 *  a tap shows them under the header (header.js). Hidden on desktops (lair.css). */
export function drawPhoneScores(box, view, seats, {seatName, seatScore, scoreIcon, scoreWord}) {
  if (!box) return;
  const items = [], words = [];
  seats.forEach((s, i) => {
    const seat = typeof s.seat === "number" ? s.seat : i;
    const {score, note} = seatScoreOf(view, seat, s, seatScore);
    if (score === null) return;
    items.push(el("span", {class: "ps-seat", dataset: {seat: String(seat)}},
      seatShapeMark(seat), shortName(seatName(seat)), el("b", {class: "ps-n"}, String(score))));
    words.push(`${seatName(seat)} ${score}${note ? ` ${note}` : ""}`);
  });
  if (!items.length) {
    box.replaceChildren();
    box.removeAttribute("aria-label");
    box.title = "";
    return;
  }
  const icon = scoreIcon();
  if (icon) icon.setAttribute("aria-hidden", "true");
  const lead = el("span", {class: "ps-lead", "aria-hidden": "true"}, icon || `${scoreWord}:`);
  // (the seats wrap beside the picture, which stands once at the start of both lines)
  box.replaceChildren(lead, el("span", {class: "ps-seats"}, ...items));
  box.title = `${scoreWord}: ${words.join(", ")}`;
  box.setAttribute("aria-label", box.title);
}

/** A seat's name for the line. Cut with "…" only when longer than half the line (lair.css: a
 *  name of some 20 letters at 375 px; a tap shows it whole), a short last word ("Easy bot 3":
 *  its number) kept whole after the "…", so that such names read "Long name… 2", "Long
 *  name… 3", not twice "Long name…". */
function shortName(name) {
  const m = /^(.+?)( \S{1,3})$/.exec(name);
  // (the whole name is the cut part's tooltip as well)
  return el("span", {class: "ps-name"}, el("span", {class: "ps-head", title: name}, m ? m[1] : name),
    m ? el("span", {class: "ps-tail"}, m[2]) : null);
}
