// The board: loads the game's renderer (an ES module: static/games/<game>/renderer.js, else the
// fallback), hands it the table API (docs/renderer-contract.md) and calls update(view) for each
// view. A renderer that fails to load or to draw never hides a legal action: every action it
// did not draw goes to the prompt bar. After a redraw the keyboard keeps its place, and when the
// player's prompt arrives the place where they decide is brought into view.

import {motion} from "../motion.js";
import {callHook as rendererHook, placesOnBoard, rendererWords, scoreIconOf} from "../renderer-hooks.js";
import {act, busy, isLegal, label, legalActions} from "./actions.js";
import {logWords} from "./log.js";
import {canon, cfg, dom, FALLBACK_RENDERER, S, seatColor, seatName, seatShape, you} from "./state.js";
import {toast} from "./toasts.js";

/** What the renderer drew as clickable on the board (canonical keys), and what it asked to show
 *  in the prompt bar anyway; both are reset before each update(). */
export const claims = {claimed: new Set(), forced: new Set(), secondary: new Set()};

let renderer = null;
let boardErrorShown = false;
let onClaim = () => {};

/** The `table` object handed to the renderer's mount() (docs/renderer-contract.md). */
export const tableApi = Object.freeze({
  /** Send one of view.legal_actions (deep-equal); anything else is refused (false). */
  act(action) { return act(action); },
  actions() { return legalActions(); },
  label(action) { return label(action); },
  find(pred) { return legalActions().filter(pred); },
  seatColor,
  seatName,
  /** The renderer draws `action` as a clickable place: the prompt bar leaves it out. */
  claim(action) {
    claims.claimed.add(canon(action));
    onClaim();
  },
  /** Draw `actions`' buttons in the prompt bar as side choices (not the main, coloured ones):
   *  e.g. Covil's "Buy a Power Relic" while the decision is on the map. */
  secondary(actions) {
    for (const a of actions || []) claims.secondary.add(canon(a));
    onClaim();
  },
  /** Keep `actions` in the prompt bar even though the board draws them too. */
  showInPromptBar(actions) {
    for (const a of actions || []) claims.forced.add(canon(a));
    onClaim();
  },
  /** Scroll the least so that first..last lies below the status bar (revealBelowBar). */
  revealBelowBar,
  /** Whether a node lies wholly in the window below the status bar (inViewBelowBar). */
  inViewBelowBar,
  // Read-only extras.
  you,
  seatShape,
  view() { return S.view; },
  busy,
});

/** Load and mount the renderer; `claimed` is called (batched) whenever it claims an action. */
export async function loadRenderer(claimed) {
  onClaim = claimed;
  let mod = null;
  try {
    mod = await import(cfg.rendererUrl);
  } catch (e) {
    console.error("table: renderer failed to load", e);
    toast("The game board could not be loaded; showing a plain view instead.", "warn");
    mod = await import(FALLBACK_RENDERER);
  }
  dom.board.replaceChildren();
  try {
    mod.mount(dom.board, tableApi);
  } catch (e) {
    console.error("table: renderer mount failed", e);
    toast("The game board failed to start; use the buttons in the bar above.", "warn");
  }
  renderer = mod;
  // A move the renderer would have confirmed (its optional `askFirst(view, action)`: `{text,
  // yes, no}` or null): the prompt bar asks before it is sent (actions.js, prompt.js).
  S.askFirst = (a) => {
    const q = callHook("askFirst", S.view, a);
    return q && typeof q.text === "string" && q.text.trim() ? q : null;
  };
  S.words = labelText;  // labels of actions name places in the renderer's words
  // The header names a round as the rulebook does (Covil plays four Days): one word
  // everywhere on the table, not "Round 1" above a panel that says "Day 1 of 4"; and its
  // score (Covil's "Victory points"): the phone's line of scores says it (seats.js).
  ({roundWord: S.roundWord, scoreWord: S.scoreWord} = rendererWords(mod));
}

export function hasRenderer() {
  return renderer !== null;
}

/** The renderer's optional hook `name(...args)` (renderer-hooks.js): undefined also before
 *  the first view. */
function callHook(name, ...args) {
  return S.view ? rendererHook(renderer, "table", name, ...args) : undefined;
}

/** The seat's player board for its seat panel, drawn by the renderer's optional
 *  `seatBoard(seat, view)`: a node, or null when the renderer has none or it fails (the panel
 *  then lists the seat's facts as words). */
export function seatBoard(seat) {
  return callHook("seatBoard", seat, S.view) || null;
}

/** The seat's score for its seat panel while the match runs, by the renderer's optional
 *  `seatScore(seat, view)`: `{value, note, title}` (what the viewer's own view counts, a short
 *  note beside it, its words on hover), or null: the view's public `score` alone. */
export function seatScore(seat) {
  return callHook("seatScore", seat, S.view) || null;
}

/** The game's words for how a finished match ended, for its Final result (the renderer's
 *  optional `resultReason(view)`: Evil Corp.'s "Ana reached the 2 victory tokens needed to
 *  win."), or null. */
export function resultReason() {
  const r = callHook("resultReason", S.view);
  return typeof r === "string" && r.trim() ? r : null;
}

/** The game's picture of its score (a victory point, a victory token), drawn by the
 *  renderer's optional `scoreIcon()`: a node, or null (the words `scoreWord` then say it). */
export function scoreIcon() {
  return S.view ? scoreIconOf(renderer, "table") : null;
}

/** The log's words for `text` (a stored log line), by the renderer's optional
 *  `logText(text, view)`: places a line names by a board-dependent number get their name as
 *  on the board. Unchanged without one. */
export function logText(text) {
  return logWords(renderer, text, S.view);
}

/** The words of an action's label (`text`: the server's), by the renderer's optional
 *  `labelText(text, view)`, else its `logText` (a button must tell places apart where a log
 *  line may name them as the board does); unchanged without either. */
export function labelText(text) {
  if (!renderer || typeof renderer.labelText !== "function") return logText(text);
  return callHook("labelText", text, S.view) || text;
}

/** The words of the suggestion ("Suggest a move", hint.js) for an action's label `text`, by
 *  the renderer's optional `hintText(text, view)`: the board highlights the suggested places,
 *  so the words may leave out what only tells two alike apart (review 8, problem 4: Drops of
 *  Evil's "(the 2nd of 2 alike, from the top left)"); else the label's words (labelText). */
export function hintText(text) {
  // (callHook answers undefined without the hook, a view or a renderer)
  return callHook("hintText", text, S.view) || labelText(text);
}

/** The renderer's words for the viewer's prompt (its optional `promptText(view)`): one
 *  instruction that says where to click on its board, instead of the server's general one;
 *  null without. */
export function boardPromptText() {
  const t = callHook("promptText", S.view);
  return typeof t === "string" && t.trim() ? t : null;
}

/** The board's elements that the renderer's optional place hook `hook(...args)` returns
 *  (`logPlaces`, `hintPlaces`), kept to those drawn on the board now; [] without the hook,
 *  without a view, or when it fails. */
function boardPlaces(hook, ...args) {
  return S.view ? placesOnBoard(dom.board, renderer, "table", hook, ...args) : [];
}

/** The board's elements that the log line `text` names (the renderer's optional
 *  `logPlaces(text, view)`), highlighted while the line is hovered or focused; [] without. */
export function logPlaces(text) {
  return boardPlaces("logPlaces", text, S.view);
}

/** The board's elements that the suggested `action` (one of view.legal_actions) touches: what
 *  to click to play it, and a first step's pick (the renderer's optional `hintPlaces(view,
 *  action)`); [] without. */
export function hintPlaces(action) {
  return boardPlaces("hintPlaces", S.view, action);
}

/** Where the board's pieces are now (motion.snapshot): taken by the table before it changes
 *  anything for a new view, so measuring them forces no layout of the half-drawn page. */
export function boardSnapshot() {
  return motion.snapshot(dom.board);
}

/** Draw the current view on the board; what moved slides from `before` (a boardSnapshot(),
 *  else taken now). */
export function runRenderer(before = null) {
  claims.claimed = new Set();
  claims.forced = new Set();
  claims.secondary = new Set();
  if (!renderer || !S.view) return;
  const focus = focusedKey(dom.board, "[data-action], [data-pick]");
  before = before || boardSnapshot();
  try {
    renderer.update(S.view);
    restoreFocus(dom.board, focus);
    motion.play(dom.board, before);
  } catch (e) {
    // A broken board must not hide any legal action: everything goes to the prompt bar.
    console.error("table: renderer update failed", e);
    claims.claimed = new Set();
    if (!boardErrorShown) toast("Part of the board could not be drawn; every move is still in the bar above.", "warn");
    boardErrorShown = true;
  }
}

/** The element holding focus inside `box`, as a selector that finds its redrawn twin. */
export function focusedKey(box, selector) {
  const a = document.activeElement;
  const hit = a && box.contains(a) && a.closest ? a.closest(selector) : null;
  if (!hit) return null;
  if (hit.dataset.action !== undefined) return `[data-action="${CSS.escape(hit.dataset.action)}"]`;
  if (hit.dataset.pick !== undefined) return `[data-pick="${CSS.escape(hit.dataset.pick)}"]`;
  return null;
}

/** Redrawing replaced the focused element: keep the keyboard user's place. */
export function restoreFocus(box, key) {
  if (!key || box.contains(document.activeElement)) return;
  const twin = box.querySelector(key);
  if (twin && !twin.disabled) twin.focus();
}

// ----- "what you act on is on screen" (issue 14, item 6) -------------------------------------

/** The place on the board where the player decides now, as [first, last, wish]: the element
 *  the renderer marked with `data-prompt-focus` (and, when the place spans several, the last
 *  one marked `data-prompt-focus-end`), else the first legal place it drew (a [data-action] or
 *  [data-pick]); `wish` is what it marked `data-prompt-focus-wish` (shown too when it still
 *  fits: Covil's payment panel above the cards to pay with), else null; [null, null, null]
 *  when there is none. */
export function decisionPlace() {
  const first = dom.board.querySelector("[data-prompt-focus]") ||
    dom.board.querySelector("[data-action], [data-pick], .legal");
  if (!first) return [null, null, null];
  return [first, dom.board.querySelector("[data-prompt-focus-end]") || first,
    dom.board.querySelector("[data-prompt-focus-wish]")];
}

/** How much of the window's bottom a board element fixed there covers (px): a renderer's
 *  bottom bar, marked `data-fixed-bottom` (Drops of Evil's "Done brewing" on a phone); 0
 *  without one, or while it is not fixed (the desktop draws it in place). */
function bottomCover() {
  const b = dom.board.querySelector("[data-fixed-bottom]");
  if (!b || getComputedStyle(b).position !== "fixed") return 0;
  const r = b.getBoundingClientRect();
  return r.height ? Math.max(0, window.innerHeight - r.top) : 0;
}

/** The phone's last-move line (table.html #last-move-box), which sticks under the status bar:
 *  its box, or null where it is not shown (desktops; no log line yet). */
function lastMoveBox() {
  const box = dom.lastMoveBox;
  if (!box) return null;
  const r = box.getBoundingClientRect();
  return r.height ? r : null;
}

/** The phone's sticky block (table.html #table-top: the scores, the status bar, the last
 *  move): its box, or null where it is no box (desktops: the status bar alone sticks). */
function topBlock() {
  const box = dom.tableTop;
  if (!box) return null;
  const r = box.getBoundingClientRect();
  return r.height ? r : null;
}

/** The height the status bar and the last-move line under it (phones: the whole sticky block
 *  they are part of, the scores too) take at the top of the window once the page has scrolled
 *  (they stick there). */
function topCover() {
  const block = topBlock();
  if (block) return block.height;
  const lm = lastMoveBox();
  return dom.promptBar.getBoundingClientRect().height + (lm ? lm.height : 0);
}

/** The part of the window not under the status bar and the last-move line under it (phones),
 *  nor a board's bar fixed at the bottom: [top, bottom] in viewport pixels. The bar sits at the
 *  top of the table and sticks to the top of the window once the page scrolls. */
export function visibleBand() {
  const bar = dom.promptBar.getBoundingClientRect();
  let top = bar.height && bar.bottom > 0 ? Math.min(bar.bottom, window.innerHeight) : 0;
  const lm = lastMoveBox();
  if (lm && lm.bottom > top) top = Math.min(lm.bottom, window.innerHeight);
  const block = topBlock();
  if (block && block.bottom > top) top = Math.min(block.bottom, window.innerHeight);
  return [top, window.innerHeight - bottomCover()];
}

/** Whether `node` lies wholly in the window below the status bar. */
export function inViewBelowBar(node) {
  const r = node.getBoundingClientRect();
  const [top, bottom] = visibleBand();
  return r.top >= top && r.bottom <= bottom;
}

/** The height of the window below the status bar once the page has scrolled (the bar sticks to
 *  the top of the window then). */
export function roomBelowBar() {
  return window.innerHeight - topCover() - bottomCover();
}

/** The page's scroll at which the status bar reaches the top of the window and sticks there:
 *  where it is now when it is not stuck, else the bottom of the table's header above it. */
function barStickY() {
  const r = topBlock() || dom.promptBar.getBoundingClientRect();
  if (r.top > 0.5 || window.scrollY === 0) return Math.max(0, r.top + window.scrollY);
  const header = document.getElementById("table-header");
  return header ? Math.max(0, header.getBoundingClientRect().bottom + window.scrollY) : 0;
}

/** Scroll the page the least so that `first`..`last` (elements; `last` defaults to `first`)
 *  lies below the fixed status bar and above the bottom of the window: the top of `first`
 *  when it cannot all fit. With `wish` (an element, above or below) the span reaches it too
 *  when that still fits (Evil Corp.: every fear track with the place to decide; Covil: the
 *  payment panel above the cards to pay with). Smooth, or at once with
 *  `prefers-reduced-motion`. Returns the pixels scrolled (0: it was in view). Shared by the
 *  table and the renderers (`table.revealBelowBar`, docs/renderer-contract.md). */
export function revealBelowBar(first, last = first, wish = null) {
  if (!first || !first.isConnected) return 0;
  let a = first.getBoundingClientRect();
  let b = (last && last.isConnected ? last : first).getBoundingClientRect();
  const room = roomBelowBar();
  if (wish && wish.isConnected) {
    const w = wish.getBoundingClientRect();
    if (Math.max(w.bottom, b.bottom) - Math.min(a.top, w.top) <= room - 16) {
      if (w.bottom > b.bottom) b = w;
      if (w.top < a.top) a = w;
    }
  }
  const top = Math.min(a.top, b.top), bottom = Math.max(a.bottom, b.bottom);
  const [bandTop, bandBottom] = visibleBand();
  // (scrolling down, the bar sticks to the top of the window: the band then starts at its
  // height, not where it is now)
  const stuckTop = topCover();
  let dy = 0;
  // (8 px under the bar; less when only that keeps the whole span in the window: Evil Corp.'s
  // phone screen and two boards missed by 5 px)
  const span = bottom - top, pad = span > room ? 8 : Math.max(0, Math.min(8, room - span));
  if (top < bandTop || span > room - 8) dy = top - Math.max(bandTop, stuckTop) - pad;
  else if (bottom > bandBottom) dy = bottom - bandBottom + 8;
  // a scroll past the page's end does not happen: count only what the page can scroll
  const max = document.scrollingElement.scrollHeight - window.innerHeight;
  dy = Math.round(Math.max(-window.scrollY, Math.min(dy, max - window.scrollY)));
  // A scroll that would stop with the header half out of the window goes on until the bar
  // sticks (the new-user trial: a phone header cut 19-38 px): until then the bar moves with the
  // page, so the span keeps its place under the bar and only gains room at the bottom.
  const stick = barStickY();
  const y = window.scrollY + dy;
  if (dy && y > 0 && y < stick && stick <= max) dy = Math.round(stick - window.scrollY);
  if (dy) dy = keepWhole(dy, top, bottom, max);
  if (dy) {
    const reduce = matchMedia("(prefers-reduced-motion: reduce)").matches;
    window.scrollBy({top: dy, behavior: reduce ? "auto" : "smooth"});
  }
  return dy;
}

/** What the sticky top covers of the window once it sticks (px): topCover, and on a phone the
 *  last move's second line, which lies over the board's top edge (lair.css `.lm-row`). */
function stuckCover() {
  const block = topBlock(), lm = lastMoveBox();
  return Math.max(topCover(), block && lm ? lm.bottom - block.top : 0);
}

/** `dy` (the scroll revealBelowBar chose, px), changed so that no box the renderer marked
 *  `data-scroll-whole` ends half under the sticky top (Evil Corp.'s status strip: the round,
 *  whose turn, on a phone cut in half by the sticky block above the screen brought into view):
 *  scrolled less so that the box shows whole when the span `top`..`bottom` (viewport px now)
 *  still fits above the window's bottom then, else on until the box lies wholly under the top
 *  (the span, below the box, stays in view). `max`: the page's last scroll. In page
 *  coordinates: at a scroll `y` past barStickY the top covers the page down to `y + cover`;
 *  before it the sticky top is in the flow, above the board, and covers none of it. */
function keepWhole(dy, top, bottom, max) {
  const stick = barStickY(), cover = stuckCover(), now = window.scrollY;
  const end = window.innerHeight - bottomCover();
  for (const box of dom.board.querySelectorAll("[data-scroll-whole]")) {
    const r = box.getBoundingClientRect();
    const y = now + dy, edge = y + cover;
    const a = r.top + now, b = r.bottom + now;  // the box in page coordinates
    if (!r.height || y < stick || a >= edge - 0.5 || b <= edge + 0.5) continue;
    if (a - cover >= stick && bottom + now - (a - cover) <= end + 0.5) dy = Math.floor(a - cover - now);
    else if (top + now >= b - 0.5 && b - cover <= max) dy = Math.ceil(b - cover - now);
  }
  return dy;
}

/** Bring the decision place (decisionPlace) into view below the status bar, when it is not
 *  already. Returns the place's first element (or null). */
export function bringDecisionIntoView() {
  const [first, last, wish] = decisionPlace();
  if (!first) return null;
  revealBelowBar(first, last, wish);
  dom.board.dataset.decision = "shown";
  return first;
}

/** Scroll `place` (an element of the page) into view below the status bar when it is not
 *  already wholly visible there (revealBelowBar of that one element). */
export function bringIntoView(place) {
  revealBelowBar(place);
}

// Renderers attach their own click/Enter handlers; this catches clickable board elements whose
// renderer did not (or a plain Space on a focusable div), and never acts twice: once the
// renderer's handler has acted, an action is pending.
function boardActivate(ev) {
  const target = ev.target.closest ? ev.target.closest("[data-action]") : null;
  if (!target || !dom.board.contains(target) || (target.tagName === "BUTTON" && ev.type === "keydown")) return;
  if (ev.defaultPrevented || busy()) return;
  let action;
  try {
    action = JSON.parse(target.dataset.action);
  } catch (e) {
    return;
  }
  if (!isLegal(action)) return;
  if (ev.type === "keydown") ev.preventDefault();
  act(action);
}

dom.board.addEventListener("click", (ev) => boardActivate(ev));
dom.board.addEventListener("keydown", (ev) => {
  if (ev.key === "Enter" || ev.key === " ") boardActivate(ev);
});
