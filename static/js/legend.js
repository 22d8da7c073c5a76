// A game's key and its small icons' cards (issue 14, items 1 and 4): every small icon a board
// draws says what it is in rulebook words on hover (mouse), keyboard focus or long-press (touch),
// and each game shows a "? Key" panel listing its pictures for first-timers. Shared by the three
// renderers (and so by the live table, the replay and the renderer harness).

import {attachCard, el} from "./dom.js";

/** Which keys the player opened (by id): a redraw of the board keeps a key open. */
const openKeys = new Set();

/** The "? Key" panel: a small toggle that opens a list of the game's pictures with their
 *  names and rulebook words. `id` names it (its open state survives redraws); `rows`:
 *  `[[iconNode or null, name, words], …]`. Returns a <details> element. */
export function keyPanel(id, rows, {title = "Key: what the pictures on this board mean"} = {}) {
  const box = el("details", {class: "legend-key", dataset: {legend: id}, open: openKeys.has(id)},
    el("summary", {class: "legend-toggle", title},
      el("span", {class: "legend-q", "aria-hidden": "true"}, "?"), " Key"),
    el("div", {class: "legend-body", role: "list", "aria-label": title},
      rows.map(([icon, name, words]) => el("div", {class: "legend-row", role: "listitem"},
        el("span", {class: "legend-icon"}, icon),
        el("span", {class: "legend-words"}, el("b", {}, name), words ? ` \u2014 ${words}` : "")))),
    // on a phone the list is a sheet over the board, opened from the header: a way to close it
    el("button", {type: "button", class: "btn legend-close", onclick: () => { box.open = false; }}, "Close the key"));
  box.addEventListener("toggle", () => { if (box.open) openKeys.add(id); else openKeys.delete(id); });
  return box;
}

/** The card of a small icon: its picture (a copy of `icon`, if given), its name and words. */
function smallCard(icon, name, words) {
  return el("div", {class: "legend-card"},
    el("div", {class: "legend-card-head"}, icon ? icon.cloneNode(true) : null, el("b", {}, name)),
    words ? el("div", {}, words) : null);
}

/** `node` (a small icon, or a group of them) shows `name` and `words` as a card on hover, focus
 *  or long-press; it also gets them as its accessible name when it has none. `options` go to
 *  attachCard (`touch: false`: a mark on a piece, whose long-press opens the piece's card).
 *  Returns `node`. */
export function iconCard(node, name, words = "", options = {}) {
  if (!node.getAttribute("aria-label")) node.setAttribute("aria-label", words ? `${name}: ${words}` : name);
  const icon = node.matches("svg") ? node : node.querySelector("svg");
  return attachCard(node, () => smallCard(icon, name, words), options);
}

/** Every element inside `box` with a `title` (outside SVG drawings, whose <title> the browser
 *  shows) shows its words as a card on hover, focus or long-press too: a native tooltip never
 *  shows on a touch screen. The title moves to aria-label (when there is none). */
export function titlesToCards(box) {
  for (const node of box.querySelectorAll("[title]")) {
    if (node.closest("svg") || node.closest(".legend-key") || node.matches("summary, button, a, input, select")) continue;
    const text = node.getAttribute("title");
    node.removeAttribute("title");
    if (!node.hasAttribute("aria-label")) node.setAttribute("aria-label", text);
    const icon = node.querySelector("svg");
    attachCard(node, () => smallCard(icon, text, ""));
  }
}
