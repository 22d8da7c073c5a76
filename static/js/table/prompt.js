// The prompt bar: what the viewer is asked (with a "?" link to the rules section), and a button
// for every legal action the board did not draw. It never hides the board (issue 14, item 7):
// it is BGA's status bar at the top of the table (sticky while the page scrolls; the board
// starts below it), the CSS keeps it within a quarter of the window, a long list of choices goes
// into one compact menu ("Choose: N choices"), grouped by kind, that opens inside the bar, and
// it hides when it has nothing to offer (a spectator, a finished match) but its toasts.

import {el} from "../dom.js";
import {humanize} from "../kv.js";
import {act, busy, label} from "./actions.js";
import {boardPromptText, claims, focusedKey, hasRenderer, restoreFocus} from "./board.js";
import {canon, cfg, dom, S, turnOf} from "./state.js";
import {isOpen} from "./wire.js";

/** How many buttons the bar shows before the rest go into the menu (phones have less room), and
 *  how many characters of labels: long labels wrap the bar onto many rows (Covil's attacks
 *  "Ranged attack from J exhausting Bully (strength 0, or 1 with its Aftershock)"). */
const BAR_MAX = {desktop: 8, phone: 5};
const BAR_CHARS = {desktop: 150, phone: 70};
/** On a phone a button longer than this (Covil's attacks name the Minion and the strength)
 *  fills the bar on its own: it waits in the menu, even as its only choice (a way out or the
 *  end of a step, KEEP_IN_BAR, stays). */
const PHONE_LONG_LABEL = 34;
const PHONE = matchMedia("(max-width: 720px)");
// A window turned or resized across the phone width: the bar's room changed, lay it out again.
PHONE.addEventListener("change", () => { if (S.view) renderPrompt(); });
/** Kinds of action that stay in the bar (a way out, or the end of a step), whatever the count. */
const KEEP_IN_BAR = new Set(["undo", "cancel", "done", "pass", "skip", "end_turn", "confirm", "finish"]);

let queued = false;
let menuOpen = false;     // the player opened the menu: it stays open for the same choices
let menuKey = "";         // ... which are these

/** Redraw the bar once, after the renderer's claims of this task. */
export function queuePrompt() {
  if (queued) return;
  queued = true;
  queueMicrotask(() => {
    queued = false;
    renderPrompt();
  });
}

export function renderPrompt() {
  const v = S.view;
  if (!v) return;
  const {waiting, me, myTurn} = turnOf();
  dom.promptBar.classList.toggle("your-turn", myTurn && !v.result);
  // Nothing to offer: a spectator (the header says whose turn it is) or a finished match (the
  // result panel says so). A player keeps the bar between turns ("Waiting for …"), so the board
  // does not jump down when their turn comes.
  dom.promptBar.classList.toggle("is-idle", !!v.result || me === null);

  let text;
  if (v.result) text = "The match is over.";
  else if (v.prompt && v.prompt.text) text = promptWords(v);
  else if (me === null) text = "You are watching this match.";
  else if (waiting.length) text = "Waiting for other players…";
  else text = "";
  // Moves are sent only while connected (nothing is queued): say so rather than promise.
  if (!v.result && !isOpen()) text = text ? `${text} (offline: no move can be sent until the connection is back)` : "Offline…";
  dom.promptText.textContent = text;
  // Rules help: "?" opens the rules-summary section the prompt comes from, in a new tab so the
  // table (and its socket) stays as it is.
  const rule = !v.result && v.prompt && v.prompt.text ? v.prompt.rule : null;
  if (typeof rule === "string" && rule) {
    dom.promptText.append(" ", el("a", {
      class: "rule-link", href: `/rules/${encodeURIComponent(cfg.game)}#${encodeURIComponent(rule)}`,
      target: "_blank", rel: "noopener", title: "Rules for this step", "aria-label": "Rules for this step",
    }, "?"));
  }

  const pairs = [];
  if (hasRenderer()) {
    for (const a of v.legal_actions || []) {
      const k = canon(a);
      if (claims.claimed.has(k) && !claims.forced.has(k)) continue;
      const b = el("button", {type: "button", class: "btn action-btn", dataset: {action: JSON.stringify(a)},
                              onclick: () => act(a)}, label(a));
      if (a && (a.type === "cancel" || a.type === "undo" || claims.secondary.has(k))) b.classList.add("btn-secondary");
      b.disabled = busy() || !isOpen();
      pairs.push([a, b]);
    }
  }
  const focus = focusedKey(dom.promptActions, "button") || (dom.promptActions.contains(document.activeElement) &&
    document.activeElement.tagName === "SUMMARY" ? "summary" : null);
  dom.promptActions.replaceChildren(...layout(pairs));
  restoreFocus(dom.promptActions, focus);
  numberButtons();
}

/** The words of the viewer's prompt: the renderer's (its optional `promptText(view)`, which
 *  may say where on the board to click, and the step of a pick under way) else the server's. */
function promptWords(v) {
  const own = boardPromptText();
  return own || v.prompt.text;
}

// The bar's height, for scrolling that keeps clear of it (CSS scroll-padding-top) and for the
// renderers that keep a place in view below it.
new ResizeObserver(() => {
  const h = dom.promptBar.getBoundingClientRect().height;
  document.documentElement.style.setProperty("--prompt-bar-h", `${Math.ceil(h)}px`);
}).observe(dom.promptBar);

/** The bar's buttons: up to BAR_MAX of them (and BAR_CHARS of labels) in the bar; beyond that,
 *  the kinds of action with several choices go into the menu (grouped by kind) and the one-off
 *  ones (Done, Undo…) stay. */
function layout(pairs) {
  const max = PHONE.matches ? BAR_MAX.phone : BAR_MAX.desktop;
  const chars = PHONE.matches ? BAR_CHARS.phone : BAR_CHARS.desktop;
  const length = (list) => list.reduce((n, [, b]) => n + b.textContent.length, 0);
  const long = ([a, b]) => PHONE.matches && b.textContent.length > PHONE_LONG_LABEL && !KEEP_IN_BAR.has((a && a.type) || "");
  if (pairs.length <= max && length(pairs) <= chars && !pairs.some(long)) {
    menuOpen = false;
    return pairs.map(([, b]) => b);
  }
  const byType = new Map();
  for (const [a, b] of pairs) {
    const t = (a && a.type) || "";
    if (!byType.has(t)) byType.set(t, []);
    byType.get(t).push([a, b]);
  }
  const bar = [], menu = [];
  for (const [t, list] of byType) {
    ((list.length === 1 && !long(list[0])) || KEEP_IN_BAR.has(t) ? bar : menu).push([t, list]);
  }
  // Still too many one-off kinds (or too long): the rest of them join the menu too.
  const inBar = () => bar.flatMap(([, l]) => l);
  while ((inBar().length > max || length(inBar()) > chars) && bar.some(([t]) => !KEEP_IN_BAR.has(t))) {
    const i = bar.findLastIndex(([t]) => !KEEP_IN_BAR.has(t));
    menu.unshift(...bar.splice(i, 1));
  }
  const count = menu.reduce((n, [, l]) => n + l.length, 0);
  if (count < 2 && !menu.some(([, l]) => l.some(long))) {  // a menu of one short choice saves nothing: buttons, then
    menuOpen = false;
    return pairs.map(([, b]) => b);
  }
  const key = canon(menu.map(([, l]) => l.map(([a]) => a)));
  if (key !== menuKey) menuOpen = false;
  menuKey = key;
  const details = el("details", {class: "action-menu", open: menuOpen},
    el("summary", {class: "btn action-menu-toggle"}, count === 1 ? "Choose: 1 choice" : `Choose: ${count} choices`),
    el("div", {class: "action-menu-body"},
      menu.map(([t, list]) => el("div", {class: "action-group", role: "group", "aria-label": humanize(t || "other")},
        menu.length > 1 ? el("span", {class: "action-group-label"}, `${humanize(t || "other")} (${list.length})`) : null,
        list.map(([, b]) => b)))));
  details.addEventListener("toggle", () => {
    menuOpen = details.open;
    numberButtons();
    // Opening it from the bottom of the bar: show the choices, not just the toggle.
    if (details.open) details.querySelector(".action-menu-body").scrollIntoView({block: "nearest"});
  });
  return [...bar.flatMap(([, l]) => l.map(([, b]) => b)), details];
}

// ----- shortcut keys (keys.js presses them) ----------------------------------------------------

export const UNDO_KEY = "U";

/** Number the bar's visible buttons 1–9 in screen order, and "U" for Undo. */
export function numberButtons() {
  let n = 0;
  for (const b of dom.promptActions.querySelectorAll("button[data-action]")) {
    delete b.dataset.key;
    b.removeAttribute("aria-keyshortcuts");
    b.removeAttribute("title");
    if (b.closest("details:not([open])")) continue;
    let type = null;
    try { type = JSON.parse(b.dataset.action).type; } catch (e) { /* not an action */ }
    const key = type === "undo" ? UNDO_KEY : (n < 9 ? String(++n) : null);
    if (key === null) continue;
    b.dataset.key = key;
    b.setAttribute("aria-keyshortcuts", key);
    b.title = `Shortcut: ${key}`;
  }
}
