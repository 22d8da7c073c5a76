// The pieces of a seat's player board (a renderer's optional seatBoard(seat, view):
// docs/renderer-contract.md), shared by the three games so their seat panels look alike:
// resources and pieces as pictures with counts, and short lines of words. Styles: lair.css
// (.seat-board).

import {el} from "./dom.js";

/** The board itself: `parts` are stat() / note() nodes (null skipped). */
export function seatBoardBox(seat, ...parts) {
  return el("div", {class: "seat-board", dataset: {seat: String(seat)}}, ...parts);
}

/** One count: a picture (an SVG node) and a number; `label` is what it counts, in words (the
 *  card on hover or long-press, and what a screen reader says); `key` a stable id, so a changed
 *  number flashes (static/js/motion.js data-count); `word` its short name, written after the
 *  number where the panel has room (review item 4: no icon without a word; hidden on phones,
 *  where the card and the accessible name still say it). */
export function stat(icon, value, label, key, word = null) {
  return el("span", {class: "sb-stat" + (word ? " has-word" : ""), title: label, role: "img", "aria-label": `${label}: ${value}`},
    icon, el("span", {dataset: {count: key}, "aria-hidden": "true"}, String(value)),
    word ? el("span", {class: "sb-word", "aria-hidden": "true"}, word) : null);
}

/** A line of words under the counts ("Boards 1 and 2", "Passed"). */
export function note(...children) {
  return el("p", {class: "sb-note"}, ...children);
}

/** A short dark tag ("passed", "done"). */
export function tag(text, title = null) {
  return el("span", {class: "sb-tag", title}, text);
}
