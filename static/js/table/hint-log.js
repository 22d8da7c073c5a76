// Hint uses in the log (issue 17, item 6): at the table and in the replay every viewer reads
// "Ann asked for a hint at move 12" among the log's lines (view.hint_uses, the server's words).
// What was suggested is in no view: only the asking socket ever received it.

import {el} from "../dom.js";
import {atLogBottom, wholeTop} from "./log.js";

/** The key that names one hint use (view.hint_uses) among the others: the seat that asked,
 *  the version it was asked at and when. table.js keeps a use's place in the log by it too. */
export function hintKey(use) {
  return `${use.seat}|${use.version}|${use.at}`;
}

/** Put `uses` (view.hint_uses: [{seat, version, at, text, line?}], oldest first) into the log
 *  `box` that drawLog (log.js) has just drawn for the view of `version`. A use at version v
 *  was asked for move v + 1: where every line says which move wrote it (a replay's:
 *  `data-step`), it goes right before the first line of a later move, after the lines of move
 *  v and before. Elsewhere (the live table's lines carry no move) it goes where the server
 *  says, `line` (how many of the viewer's log lines there were when it was asked), so a table
 *  opened or reloaded later reads it between the right moves (the new-user trial: they all
 *  came last). A use without one (recorded before the server counted) goes after the log
 *  lines there were at its version, as far as this page saw that version; one asked before
 *  that goes where the page first saw a later version: never before its move, and its words
 *  say which move it was. */
export function drawHintUses(box, uses, version) {
  const atBottom = atLogBottom(box);
  for (const old of box.querySelectorAll(":scope > .log-hint")) old.remove();
  const lines = [...box.children];
  const seen = box._lairLogAt || (box._lairLogAt = new Map());  // version -> log lines then
  if (Number.isInteger(version) && !seen.has(version)) seen.set(version, lines.length);
  const drawn = box._lairHints;  // the uses drawn before (null: the first drawing)
  const keys = new Set();
  // a replay opened at its last step saw no earlier version: its lines' moves place each use
  const stepped = lines.length > 0 && lines.every((li) => li.dataset.step !== undefined);
  for (const use of Array.isArray(uses) ? uses : []) {
    const key = hintKey(use);
    keys.add(key);
    const li = el("li", {class: drawn && !drawn.has(key) ? "log-hint new" : "log-hint"},
      el("span", {class: "log-tag hint-tag"}, "Hint"), " ", el("span", {class: "log-text"}, String(use.text || "")));
    const at = stepped ? firstAfter(lines, use.version)
      : Math.min(Number.isInteger(use.line) ? use.line : linesAt(seen, use.version, lines.length),
                 lines.length);
    box.insertBefore(li, lines[at] || null);
  }
  box._lairHints = keys;
  if (atBottom) {
    box.scrollTop = box.scrollHeight;
    wholeTop(box);
  }
}

/** How many log lines there were at `version`, or at the earliest later version seen;
 *  `fallback` when none was. */
function linesAt(seen, version, fallback) {
  let best = null;
  for (const [v, n] of seen) if (v >= version && (best === null || v < best[0])) best = [v, n];
  return best ? best[1] : fallback;
}

/** The index of the first of `lines` (each with `data-step`, in order) written by a move after
 *  move `version` + 1's decision began, i.e. of a step above `version`; `lines.length` when
 *  none is. */
function firstAfter(lines, version) {
  const i = lines.findIndex((li) => Number(li.dataset.step) > version);
  return i < 0 ? lines.length : i;
}
