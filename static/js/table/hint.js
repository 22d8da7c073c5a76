// "Suggest a move" (issue 17, item 6; docs/wire.md "Hints"): a button in the prompt bar for a
// seated player whose prompt it is, while the match allows hints (view.hints). The server
// answers this socket only with the hard bot's choice from the seat's own view (a "hint"
// frame) or a typed error; the board then highlights the places the suggested action touches
// (the renderer's hintPlaces) with its one-line reason, and the player plays it by clicking
// them as usual ("Play it" sends it at once) or dismisses it. Everyone else learns only that a
// hint was used (view.hint_uses, drawn in the log by hint-log.js).

import {actionNodes, el, PHONE} from "../dom.js";
import {act, busy, isLegal, label, uuid} from "./actions.js";
import {hintPlaces, hintText, revealBelowBar, roomBelowBar, visibleBand} from "./board.js";
import {fitPrompt, showInMenu} from "./prompt.js";
import {dom, promptKey, S, turnOf} from "./state.js";
import {clearCode, toast} from "./toasts.js";
import {tagAnchor} from "./tags.js";
import {isOpen, send} from "./wire.js";

/** The server answers every request (a hint or an error); past this the request is given up
 *  (a socket that dropped meanwhile gets no answer). */
const ANSWER_TIMEOUT_MS = 30_000;
const HIT = "hint-hit";
const ANCHOR = "hint-anchor";  // a static place made the anchor of its "Suggested" tag
const SVGNS = "http://www.w3.org/2000/svg";

let asked = null;  // {ref, version, timer} while the hint is thought over
let shown = null;  // {version, action, reason}: the suggestion on screen
let off = false;   // the server said hints are off here (the view says so too from then on)
let lit = [];      // the elements carrying the highlight now
let whyOpen = false;  // the phone's "Why?" shows the suggestion's reason (until the next one)
// The version since which the viewer's decision is the one on screen: a view of another seat's
// move that leaves the viewer's prompt as it was (a team-mate's, in a simultaneous frame) does
// not move it on; a change of prompt or the viewer's own move (a view while our action is in
// flight) does. A suggestion for a version at or after it is still for this decision.
let since = null;
let sinceKey = null;

function noteDecision() {
  const v = S.view;
  if (!v) return;
  const key = promptKey();
  if (since === null || key !== sinceKey || busy()) {
    since = v.version;
    sinceKey = key;
  }
}

/** Whether a suggestion for `version` is for the decision on screen now. */
function current(version, action) {
  const v = S.view;
  return !!v && version >= since && version <= v.version && isLegal(action);
}

const ask = el("button", {type: "button", class: "btn hint-ask", id: "hint-ask", onclick: () => request()},
  "Suggest a move");
const answer = el("div", {class: "hint-answer", id: "hint-answer", role: "status", hidden: true});
const box = el("div", {class: "hint-box", id: "hint-box", hidden: true}, ask, answer);
dom.promptBar.append(box);

/** Whether the viewer may ask now: a seated player prompted in a running match with hints. */
function askable() {
  const v = S.view;
  return !!(v && v.hints && !off && !v.result && turnOf().myTurn && (v.legal_actions || []).length);
}

/** Draw the button and the answer for the current view (table.js calls it after each view
 *  and on a change of the connection). A suggestion is dropped once the viewer's decision
 *  changed (their prompt, their own move) or its move is no longer legal: the position it was
 *  for is gone. */
export function renderHint() {
  const v = S.view;
  noteDecision();
  if (shown && !current(shown.version, shown.action)) shown = null;
  if (asked && !isOpen()) endAsk();  // its answer would have come on the socket that dropped
  const can = askable();
  box.hidden = !can && !shown;
  ask.hidden = !can || !!shown;
  ask.disabled = !!asked || !isOpen();
  ask.textContent = asked ? "Thinking…" : "Suggest a move";
  ask.setAttribute("aria-busy", asked ? "true" : "false");
  document.body.dataset.hint = asked ? "asked" : shown ? "shown" : can ? "ready" : "none";
  if (!shown) {
    answer.hidden = true;
    answer.replaceChildren();
  } else {
    const action = shown.action;
    answer.hidden = false;
    answer.classList.toggle("why-open", whyOpen);
    // (a phone shows the reason on a tap of "Why?": with it, the words, the suggestion and
    // its buttons did not fit the bar's quarter of the window; lair.css)
    const why = shown.reason ? el("button", {type: "button", class: "btn btn-small btn-secondary hint-why",
      "aria-expanded": String(whyOpen), "aria-controls": "hint-reason", onclick: () => toggleWhy(why)},
    whyOpen ? "Hide why" : "Why?") : null;
    answer.replaceChildren(
      el("span", {class: "hint-label"}, "Suggestion: ", el("b", {}, label(action, hintText))),
      shown.reason ? el("span", {class: "hint-reason", id: "hint-reason"}, shown.reason) : null,
      el("span", {class: "hint-buttons"},
        el("button", {type: "button", class: "btn btn-small action-btn hint-play", disabled: busy() || !isOpen(),
                      onclick: () => act(action)}, "Play it"),
        el("button", {type: "button", class: "btn btn-small btn-secondary hint-dismiss", onclick: dismiss}, "Dismiss"),
        why));
    foldReason();
  }
  // The button or the answer came or went: the bar lays its buttons out again (a full bar
  // keeps "Suggest a move" in its menu; prompt.js).
  fitPrompt();
  light();
}

/** A desktop's suggestion keeps to one line (review 8, problem 4: the reason on two lines
 *  beside it, with a two-line prompt, took 17 % of a 1366×768 window): the reason stays beside
 *  the suggestion and its buttons when all of them fit on one line, else it waits behind
 *  "Why?" as on a phone (class why-folds, lair.css). Measured with the reason shown. */
function foldReason() {
  answer.classList.remove("why-folds");
  if (PHONE.matches || answer.hidden || !shown || !shown.reason) return;
  const nodes = [...answer.querySelectorAll(":scope > .hint-label, :scope > .hint-reason, :scope > .hint-buttons")];
  const parts = nodes.map((n) => n.getBoundingClientRect()).filter((r) => r.height);
  if (parts.length < 2) return;
  const top = Math.min(...parts.map((r) => r.top)), bottom = Math.max(...parts.map((r) => r.bottom));
  // one line: no part below another (they are centred on their row), no words wrapped
  const rows = bottom - top > Math.max(...parts.map((r) => r.height)) + 1;
  if (rows || nodes.slice(0, 2).some((n) => lineCount(n) > 1)) answer.classList.add("why-folds");
}

/** How many lines the words of `node` take on screen. */
function lineCount(node) {
  const range = document.createRange();
  range.selectNodeContents(node);
  const bottoms = [...range.getClientRects()].filter((q) => q.width && q.height).map((q) => q.bottom).sort((a, b) => a - b);
  return bottoms.filter((b, i) => i === 0 || b - bottoms[i - 1] > 4).length;
}
// (a window of another width: the reason may fit beside the suggestion, or no longer)
window.addEventListener("resize", () => {
  if (!shown) return;
  foldReason();
  fitPrompt();
});

/** The phone's "Why?": shows or hides the suggestion's reason (in place: the button keeps the
 *  focus), and the bar shows the answer's end. */
function toggleWhy(button) {
  whyOpen = !whyOpen;
  answer.classList.toggle("why-open", whyOpen);
  button.textContent = whyOpen ? "Hide why" : "Why?";
  button.setAttribute("aria-expanded", String(whyOpen));
  fitPrompt();
  showAnswer();
}

function request() {
  const v = S.view;
  if (!askable() || asked || !v) return;
  const ref = uuid();
  if (!send({type: "hint", ref, version: v.version})) {
    toast("Not connected: no hint was asked. Reconnecting…", "warn", "hint");
    return;
  }
  asked = {ref, version: v.version, timer: setTimeout(() => { endAsk(); renderHint(); }, ANSWER_TIMEOUT_MS)};
  shown = null;
  renderHint();
}

function endAsk() {
  if (asked) clearTimeout(asked.timer);
  asked = null;
}

function dismiss() {
  shown = null;
  renderHint();
  ask.focus();
}

/** A "hint" frame: the suggestion for our request, shown if the viewer's decision is still the
 *  one it was searched for (else the player asks again). */
export function onHint(msg) {
  if (!asked || msg.ref !== asked.ref) return;
  endAsk();
  noteDecision();
  if (current(msg.version, msg.action)) {
    shown = {version: msg.version, action: msg.action, reason: typeof msg.reason === "string" ? msg.reason : null};
    whyOpen = false;
    renderHint();
    // The suggestion in the bar, then the highlighted place on the board.
    showAnswer();
    const onBoard = lit.filter((n) => dom.board.contains(n));
    for (const n of onBoard) revealSideways(n);
    showPlaces(onBoard);
    return;
  }
  toast("The table moved on while the hint was thought over; ask again.", "info", "hint");
  renderHint();
}

/** Scroll the prompt bar (it holds a quarter of the window, then scrolls inside) to show the
 *  suggestion whole with the prompt's words above it: a phone's bar draws the answer right
 *  under the words (lair.css), so at its top both show. When they do not both fit, the bar
 *  scrolls the least that shows the answer's end, to a line's top: a line above the answer
 *  shows whole or not at all. (It scrolled to its end: the words were cut in half at its top
 *  edge, the new-user trial at 375×812.) */
function showAnswer() {
  const bar = dom.promptBar;
  bar.scrollTop = 0;
  const top = bar.getBoundingClientRect().top + bar.clientTop;
  const a = answerBox();
  // (with more below the answer, the bar's "more below" cue covers its bottom edge: prompt.js)
  const more = bar.scrollHeight - (a.bottom - top) > parseFloat(getComputedStyle(bar).paddingBottom) + 2;
  const cue = more ? bar.querySelector(".bar-cue > span") : null;
  const need = a.bottom - top - bar.clientHeight + (cue ? cue.getBoundingClientRect().height : 0);
  if (need <= 0) return;
  // where a scroll may stop above the answer: the top of a line of words, of a button, of
  // the answer (from the bar's top)
  const stops = [a.top - top];
  const walk = document.createTreeWalker(bar, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    const e = n.parentElement;
    if (!e || answer.contains(e) || !n.textContent.trim()) continue;
    const box = e.closest("button, summary");
    if (box) {
      stops.push(box.getBoundingClientRect().top - top);
      continue;
    }
    const range = document.createRange();
    range.selectNodeContents(n);
    for (const q of range.getClientRects()) if (q.height) stops.push(q.top - top);
  }
  const fit = stops.filter((t) => t >= need && t <= a.top - top);
  // (an answer taller than the bar shows from its top)
  bar.scrollTop = Math.ceil(fit.length ? Math.min(...fit) : a.top - top);
}

/** The box the answer's parts take in the bar: its own, or (a phone's bar lays the parts out
 *  in its rows, lair.css: the answer has no box of its own there) the union of theirs. */
function answerBox() {
  const own = answer.getBoundingClientRect();
  if (own.height) return own;
  const parts = [...answer.querySelectorAll(".hint-label, .hint-reason, .hint-buttons > *")]
    .map((n) => n.getBoundingClientRect()).filter((r) => r.height);
  if (!parts.length) return own;
  const top = Math.min(...parts.map((r) => r.top)), bottom = Math.max(...parts.map((r) => r.bottom));
  return {top, bottom, height: bottom - top};
}

/** Bring the suggested places (the renderer's order: what plays the move, a pick, where it
 *  lands) into view below the bar: all of them when they fit in the window together, else
 *  where the move lands (the last), with the first too when that fits. (Only the first was
 *  brought into view: Evil Corp.'s suggestion lit a monster behind the screen, in view, and
 *  the cell of a settlement board it goes to, below the window: the new-user trial, 1366×768.)
 *  A place that plays the move by itself (a button) already whole in view is enough. */
function showPlaces(nodes) {
  const boxes = nodes.map((n) => n.getBoundingClientRect()).filter((r) => r.height);
  if (!boxes.length) return;
  const [bandTop, bandBottom] = visibleBand();
  const inView = (r) => r.top >= bandTop - 1 && r.bottom <= bandBottom + 1;
  if (boxes.every(inView)) return;
  const top = Math.min(...boxes.map((r) => r.top)), bottom = Math.max(...boxes.map((r) => r.bottom));
  if (bottom - top <= roomBelowBar() - 16) {
    const at = (edge) => nodes.find((n) => n.getBoundingClientRect()[edge] === (edge === "top" ? top : bottom));
    revealBelowBar(at("top"), at("bottom"));
  } else if (!nodes.some((n) => n.dataset && n.dataset.action !== undefined && inView(n.getBoundingClientRect()))) {
    // (Evil Corp.'s "Hire": its button in the screen's head line in view is enough, its twin
    // in the applicants' queue far below)
    // Where the move lands: the last place that plays it, else the last place. (A renderer
    // lists what plays the move first: Drops of Evil's Assistant to hire, then the Coin Pouch
    // to pick in the pawn tray at the board's top; the page scrolled up to the pouch and the
    // Assistant lay below the window: new-user trial 4.)
    const plays = nodes.filter((n) => n.dataset && n.dataset.action !== undefined);
    const land = plays.length ? plays[plays.length - 1] : nodes[nodes.length - 1];
    revealBelowBar(land, land, nodes.find((n) => n !== land) || null);
  }
}

/** A suggested place inside a box that scrolls sideways (a phone's row of tiles behind the
 *  screen, Drops of Evil's Forest) comes into that box's view: at the box's edge its highlight
 *  was a sliver (new-user recheck). The page itself scrolls by bringIntoView. */
function revealSideways(node) {
  for (let box = node.parentElement; box && box !== dom.board; box = box.parentElement) {
    if (box.scrollWidth <= box.clientWidth + 1) continue;
    const cs = getComputedStyle(box);
    if (!/(auto|scroll)/.test(cs.overflowX)) continue;
    const b = box.getBoundingClientRect(), r = node.getBoundingClientRect();
    // (clear of what the box keeps its ends for: its scroll-padding, Evil Corp.'s "2 more" cues)
    const padL = parseFloat(cs.scrollPaddingLeft) || 0, padR = parseFloat(cs.scrollPaddingRight) || 0;
    let dx = 0;
    if (r.left < b.left + padL) dx = r.left - b.left - Math.max(8, padL);
    else if (r.right > b.right - padR) dx = r.right - b.right + Math.max(8, padR);
    if (dx) box.scrollLeft += dx;
  }
}

/** An "error" frame: true if it answers our hint request (shown as a toast; "hints_off" takes
 *  the button away), false if it is not ours (an action's: actions.js handles it). */
export function hintRefused(msg) {
  if (!asked || !msg.ref || msg.ref !== asked.ref) return false;
  endAsk();
  if (msg.code === "hints_off") off = true;
  clearCode(msg.code);
  toast(msg.message || "No hint could be given.", msg.code === "hints_off" ? "info" : "warn", msg.code);
  renderHint();
  return true;
}

let measure = null;
/** A word's width in px in the tags' font (lair.css "svg .hint-tag text": bold 13 px). */
function wordWidth(word) {
  measure = measure || document.createElement("canvas").getContext("2d");
  measure.font = `700 13px system-ui, -apple-system, "Segoe UI", sans-serif`;
  return measure.measureText(word).width || 66;
}

/** A "Suggested" tag under the SVG piece `node`, drawn last in its drawing (over the other
 *  pieces), as large on screen as the HTML places' tags (13 px), whatever the drawing's scale. */
function drawTag(node) {
  const svg = node.ownerSVGElement;
  if (!svg || typeof node.getBBox !== "function") return;
  let box, m, scr;
  try {
    box = node.getBBox();
    m = svg.getScreenCTM().inverse().multiply(node.getScreenCTM());
    scr = svg.getScreenCTM();
  } catch {
    return;  // (not drawn: no box)
  }
  if (!box.width && !box.height) return;
  const at = (x, y) => new DOMPoint(x, y).matrixTransform(m);
  const a = at(box.x, box.y), b = at(box.x + box.width, box.y + box.height);
  const unit = 1 / (Math.hypot(scr.a, scr.b) || 1);  // one screen px in the drawing's units
  const size = 13 * unit, h = 17 * unit;
  const cx = (a.x + b.x) / 2, bottom = Math.max(a.y, b.y);
  // (as wide as its word in the tags' font, with a margin: a fixed width cut it, "Suggestec",
  // on a phone: table review 8)
  const w = (wordWidth("Suggested") + 10) * unit;
  // (one word where two lit pieces lie close, a troop and its zone: two tags overlapped)
  const drawn = [...svg.querySelectorAll(":scope > .hint-tag > rect")].map((r) => r.getBBox());
  if (drawn.some((r) => Math.abs(r.x + r.width / 2 - cx) < w && Math.abs(r.y + r.height / 2 - bottom) < h)) return;
  const g = document.createElementNS(SVGNS, "g");
  g.setAttribute("class", "hint-tag");
  g.setAttribute("aria-hidden", "true");
  const text = document.createElementNS(SVGNS, "text");
  for (const [k, v] of Object.entries({x: cx, y: bottom, "text-anchor": "middle", "dominant-baseline": "central",
    "font-size": size})) text.setAttribute(k, String(v));
  text.textContent = "Suggested";
  const rect = document.createElementNS(SVGNS, "rect");
  for (const [k, v] of Object.entries({x: cx - w / 2, y: bottom - h / 2, width: w, height: h, rx: 6 * unit,
    "stroke-width": 1.5 * unit})) rect.setAttribute(k, String(v));
  g.append(rect, text);
  svg.append(g);
  tagAnchor(g, node);  // (tags.js moves it clear of other tags and the drawing's words)
}

/** Highlight (class hint-hit) the board's places the suggestion touches and its button in the
 *  prompt bar, if it has one there; again after every redraw of the board. */
function light() {
  for (const n of lit) n.classList.remove(HIT, ANCHOR);
  for (const t of dom.board.querySelectorAll(".hint-tag")) t.remove();
  lit = shown ? [...hintPlaces(shown.action), ...actionNodes(dom.promptActions, shown.action)] : [];
  for (const n of lit) n.classList.add(HIT);
  // each lit place on the board says "Suggested" (lair.css "Marks": the blue alone was also the
  // picked tile's colour, and colour alone is no cue): an HTML place in its ::after tag, which
  // the place anchors; an SVG piece in a tag drawn in its drawing
  for (const n of lit) {
    if (!dom.board.contains(n)) continue;
    if (n instanceof SVGElement) drawTag(n);
    else if (getComputedStyle(n).position === "static") n.classList.add(ANCHOR);
  }
  dom.board.dataset.hintPlaces = String(lit.filter((n) => dom.board.contains(n)).length);
  // A suggested choice in the bar's closed menu ("N more" on a phone) lit nothing in sight
  // (new-user trial 4): its toggle is ringed and says it holds the suggestion (lair.css), and
  // opening it brings the lit choice into the sheet's view (below).
  for (const d of dom.promptActions.querySelectorAll("details.action-menu")) {
    const summary = d.querySelector("summary");
    const holds = !!summary && lit.some((n) => d.contains(n) && !summary.contains(n));
    if (!summary) continue;
    summary.classList.toggle("hint-holds", holds);
    if (holds) summary.setAttribute("aria-label", `${summary.textContent}, holds the suggested move`);
    else summary.removeAttribute("aria-label");
  }
}

// The bar's menu opened: its suggested choice comes into the view of the menu (a phone's sheet,
// a desktop's menu scroll inside themselves), once the menu has its size (prompt.js).
dom.promptActions.addEventListener("toggle", (ev) => {
  const d = ev.target;
  if (!shown || !(d instanceof HTMLDetailsElement) || !d.open) return;
  requestAnimationFrame(() => {
    const n = d.querySelector(`.action-menu-body .${HIT}`);
    if (n) showInMenu(n);
  });
}, true);

// The renderer redraws the board for each view and on its own picks (a pawn, a tile), the
// prompt bar its buttons: the highlight goes on the new drawing. Only added or removed nodes count, so light()'s own
// class changes do not wake this up again.
let queued = false;
const ownTag = (n) => n.nodeType === 1 && n.classList.contains("hint-tag");
const relight = new MutationObserver((records) => {
  if (!shown || queued) return;
  // (the tags light() draws in the board's drawings are no redraw)
  if (records.every((r) => [...r.addedNodes, ...r.removedNodes].every(ownTag))) return;
  queued = true;
  queueMicrotask(() => {
    queued = false;
    light();
  });
});
relight.observe(dom.board, {childList: true, subtree: true});
relight.observe(dom.promptActions, {childList: true, subtree: true});
