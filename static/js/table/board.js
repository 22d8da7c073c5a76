// The board: loads the game's renderer (an ES module: static/games/<game>/renderer.js, else the
// fallback), hands it the table API (docs/renderer-contract.md) and calls update(view) for each
// view. A renderer that fails to load or to draw never hides a legal action: every action it
// did not draw goes to the prompt bar. After a redraw the keyboard keeps its place, and when the
// player's prompt arrives the place where they decide is brought into view.

import {motion} from "../motion.js";
import {act, busy, isLegal, label, legalActions} from "./actions.js";
import {canon, cfg, dom, FALLBACK_RENDERER, S, seatColor, seatName, seatShape, you} from "./state.js";
import {toast} from "./toasts.js";

/** What the renderer drew as clickable on the board (canonical keys), and what it asked to show
 *  in the prompt bar anyway; both are reset before each update(). */
export const claims = {claimed: new Set(), forced: new Set()};

let renderer = null;
let boardErrorShown = false;
let onClaim = () => {};

/** The `table` object handed to the renderer's mount() (docs/renderer-contract.md). */
export const tableApi = Object.freeze({
  /** Send one of view.legal_actions (deep-equal); anything else is refused (false). */
  act(action) { return act(action); },
  actions() { return legalActions(); },
  label,
  find(pred) { return legalActions().filter(pred); },
  seatColor,
  seatName,
  /** The renderer draws `action` as a clickable place: the prompt bar leaves it out. */
  claim(action) {
    claims.claimed.add(canon(action));
    onClaim();
  },
  /** Keep `actions` in the prompt bar even though the board draws them too. */
  showInPromptBar(actions) {
    for (const a of actions || []) claims.forced.add(canon(a));
    onClaim();
  },
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
  S.words = logText;  // labels of actions name places as the log does
}

export function hasRenderer() {
  return renderer !== null;
}

/** The seat's player board for its seat panel, drawn by the renderer's optional
 *  `seatBoard(seat, view)` (docs/renderer-contract.md): a node, or null when the renderer has
 *  none or it fails (the panel then lists the seat's facts as words). */
export function seatBoard(seat) {
  if (!renderer || typeof renderer.seatBoard !== "function" || !S.view) return null;
  try {
    return renderer.seatBoard(seat, S.view) || null;
  } catch (e) {
    console.error("table: seat board failed", e);
    return null;
  }
}

/** The log's words for `text` (a stored log line), by the renderer's optional
 *  `logText(text, view)`: places a line names by a board-dependent number get their name as
 *  on the board. Unchanged without one. */
export function logText(text) {
  if (!renderer || typeof renderer.logText !== "function" || !S.view) return text;
  try {
    return renderer.logText(text, S.view) || text;
  } catch (e) {
    console.error("table: log wording failed", e);
    return text;
  }
}

/** The renderer's words for the viewer's prompt (its optional `promptText(view)`): one
 *  instruction that says where to click on its board, instead of the server's general one;
 *  null without (docs/renderer-contract.md). */
export function boardPromptText() {
  if (!renderer || typeof renderer.promptText !== "function" || !S.view) return null;
  try {
    const t = renderer.promptText(S.view);
    return typeof t === "string" && t.trim() ? t : null;
  } catch (e) {
    console.error("table: prompt wording failed", e);
    return null;
  }
}

/** The board's elements that the renderer's optional place hook `hook(...args)` returns
 *  (`logPlaces`, `hintPlaces`: docs/renderer-contract.md), kept to those drawn on the board now;
 *  [] without the hook, without a view, or when it fails (the table works on without them). */
function boardPlaces(hook, ...args) {
  if (!renderer || typeof renderer[hook] !== "function" || !S.view) return [];
  try {
    return [...(renderer[hook](...args) || [])].filter((n) => n && dom.board.contains(n));
  } catch (e) {
    console.error(`table: ${hook} failed`, e);
    return [];
  }
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

/** Draw the current view on the board. */
export function runRenderer() {
  claims.claimed = new Set();
  claims.forced = new Set();
  if (!renderer || !S.view) return;
  const focus = focusedKey(dom.board, "[data-action], [data-pick]");
  const before = motion.snapshot(dom.board);
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

/** The place on the board where the player decides now: the element the renderer marked with
 *  `data-prompt-focus`, else the first legal place it drew (a [data-action] or [data-pick]). */
export function decisionPlace() {
  return dom.board.querySelector("[data-prompt-focus]") ||
    dom.board.querySelector("[data-action], [data-pick], .legal");
}

/** The part of the window not under the status bar: [top, bottom] in viewport pixels. The bar
 *  sits at the top of the table and sticks to the top of the window once the page scrolls. */
export function visibleBand() {
  const bar = dom.promptBar.getBoundingClientRect();
  const top = bar.height && bar.bottom > 0 ? Math.min(bar.bottom, window.innerHeight) : 0;
  return [top, window.innerHeight];
}

/** Scroll the decision place into view when it is not already wholly visible below the status
 *  bar. Returns the element (or null). */
export function bringDecisionIntoView() {
  const place = decisionPlace();
  if (!place) return null;
  bringIntoView(place);
  dom.board.dataset.decision = "shown";
  return place;
}

/** Scroll `place` (an element of the page) into view when it is not already wholly visible
 *  below the status bar. */
export function bringIntoView(place) {
  const r = place.getBoundingClientRect();
  const [top, bottom] = visibleBand();
  const inView = r.top >= top && r.bottom <= bottom && r.left >= 0 && r.right <= window.innerWidth;
  if (!inView) {
    const smooth = !matchMedia("(prefers-reduced-motion: reduce)").matches;
    // scrollIntoView keeps clear of the sticky bar (the page's scroll-padding-top is its height).
    place.scrollIntoView({block: r.height > (bottom - top) / 2 ? "start" : "center", inline: "nearest",
                          behavior: smooth ? "smooth" : "auto"});
  }
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
