// The prompt bar: what the viewer is asked (with a "?" link to the rules section), and a button
// for every legal action the board did not draw. It never hides the board (issue 14, item 7):
// it is BGA's status bar at the top of the table (sticky while the page scrolls; the board
// starts below it), the CSS keeps it within a quarter of the window, a long list of choices goes
// into one compact menu ("Choose: N choices"), grouped by kind, that opens inside the bar (on a
// phone: as a sheet right below it, over the board) and scrolls inside itself, bar and menu
// together within the quarter, the prompt's words whole at the bar's top; when the
// buttons still do not fit that quarter, or a phone's one row of buttons, the least-used ones
// ("Suggest a move", side actions) join the menu ("More: …") rather than hide below the bar's
// edge; and it hides when it has nothing to offer (a spectator, a finished match) but its toasts.

import {closeOnPressOutside, el, PHONE} from "../dom.js";
import {humanize} from "../kv.js";
import {act, busy, isLegal, label} from "./actions.js";
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
// A window turned or resized across the phone width: the bar's room changed, lay it out again.
PHONE.addEventListener("change", () => { if (S.view) renderPrompt(); });
/** A menu would hold one choice only, whose label is this short at most: its button instead. */
const LONE_CHARS = 10;
/** Kinds of action that stay in the bar (a way out, or the end of a step), whatever the count. */
const KEEP_IN_BAR = new Set(["undo", "cancel", "done", "pass", "skip", "end_turn", "confirm", "finish"]);

let queued = false;
let menuOpen = false;     // the player opened the menu: it stays open for the same choices
let menuKey = null;       // ... which are these
let placed = [];          // [action, button] of the last renderPrompt

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
  // A move the renderer asks about first (actions.js): the bar asks, with its two answers.
  const ask = question(v);
  if (ask) text = ask.text;
  dom.promptText.textContent = text;
  askRow = ask ? askButtons(ask) : null;
  // (meanwhile no "Suggest a move": the question is the bar's one matter, on one row)
  dom.promptBar.classList.toggle("asking", !!ask);
  if (ask) {
    place();
    return;
  }
  // Rules help: "?" opens the rules-summary section the prompt comes from, in a new tab so the
  // table (and its socket) stays as it is.
  const rule = !v.result && v.prompt && v.prompt.text ? v.prompt.rule : null;
  if (typeof rule === "string" && rule) {
    // (with the prompt's last word, never alone on a line: review 9, Evil Corp.'s phone Night)
    const last = text.match(/\S+$/);
    if (last) dom.promptText.textContent = text.slice(0, last.index);
    dom.promptText.append(el("span", {class: "rule-tail", style: {whiteSpace: "nowrap"}}, last ? last[0] : "", " ", el("a", {
      class: "rule-link", href: `/rules/${encodeURIComponent(cfg.game)}#${encodeURIComponent(rule)}`,
      target: "_blank", rel: "noopener", title: "Rules for this step", "aria-label": "Rules for this step",
    }, "?")));
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
  placed = pairs;
  place();
}

/** The question of a move that asks first (S.asking), while it is for this view and still
 *  legal; else none (and forgotten). */
let askRow = null;  // the question's two buttons while it is asked
function question(v) {
  const q = S.asking;
  if (q && !v.result && q.version === v.version && isLegal(q.action)) return q;
  S.asking = null;
  return null;
}

/** The question's answers, the bar's only buttons meanwhile: "no" (a side choice, first) takes
 *  the question back; "yes" sends the move. */
function askButtons(q) {
  const no = el("button", {type: "button", class: "btn action-btn btn-secondary", dataset: {confirm: "no"},
    onclick: () => { S.asking = null; renderPrompt(); }}, q.no || "Cancel");
  const yes = el("button", {type: "button", class: "btn action-btn", dataset: {confirm: "yes", action: JSON.stringify(q.action)},
    onclick: () => act(q.action, true)}, q.yes || label(q.action));
  yes.disabled = busy() || !isOpen();
  return [no, yes];
}
document.addEventListener("lair:ask", () => renderPrompt());

/** Lay the bar out again with the buttons of the last renderPrompt: "Suggest a move" came or
 *  went (hint.js), the window changed size. */
export function fitPrompt() {
  if (S.view) place();
}

/** The buttons into the bar (and its menu), then, while the bar's content does not fit its
 *  quarter of the window with the menu closed (issue 14, item 7: no choice may hide in an
 *  overflow that scrolls without a cue), the least-used ones join the menu one after the other:
 *  "Suggest a move" first, then the side actions, the bar's first button last. */
function place() {
  const active = document.activeElement;
  const held = active && dom.promptBar.contains(active) ? active : null;
  const focus = focusedKey(dom.promptActions, "button") || (held && held.tagName === "SUMMARY" ? "summary" : null);
  homeAsk();
  // (a question: its two answers alone in the row, never in a menu)
  if (askRow) {
    dom.promptActions.replaceChildren(...askRow);
    numberButtons();
    cue();
    return;
  }
  let out = null;
  for (let spill = 0; ; spill++) {
    out = layout(placed, spill);
    dom.promptActions.replaceChildren(...out.nodes);
    if (!out.more || !overflows()) break;
  }
  // The menu the player opened stays open while it holds the same things.
  if (!out.details || out.key !== menuKey) menuOpen = false;
  menuKey = out.key;
  if (out.details && menuOpen) out.details.open = true;
  restoreFocus(dom.promptActions, focus);
  if (held && held.isConnected && document.activeElement !== held && !held.closest("details:not([open]) > :not(summary)")) {
    held.focus({preventScroll: true});
  }
  numberButtons();
  cue();
}

/** Whether the bar's content is taller than the bar (which then scrolls inside), or its row of
 *  buttons wider than the bar (a phone keeps them to one row: lair.css), or, on a phone with a
 *  suggestion shown, its buttons (Play it, Dismiss, Why?) on a row apart from the bar's: two
 *  rows of buttons and the suggestion's words took 197 px, a quarter of a 375×812 screen, and
 *  with the header, the scores and the last move over a third of it (the screenshot review,
 *  Drops of Evil's Placement): the bar's buttons then wait in its "N more" menu, one tap away,
 *  and come back when the suggestion goes. */
function overflows() {
  const row = dom.promptActions;
  return dom.promptBar.scrollHeight > dom.promptBar.clientHeight + 1 || row.scrollWidth > row.clientWidth + 1 ||
    (PHONE.matches && hintRowApart());
}

/** A phone's suggestion buttons and the bar's row of buttons on two rows. */
function hintRowApart() {
  const hint = dom.promptBar.querySelector("#hint-answer:not([hidden]) .hint-buttons > .btn");
  const row = dom.promptActions;
  if (!hint || !row.children.length) return false;
  const a = hint.getBoundingClientRect(), b = row.getBoundingClientRect();
  return a.height > 0 && b.height > 0 && Math.abs(a.top - b.top) > 4;
}

// "Suggest a move" (hint.js draws it in its box in the bar): after the bar's buttons, in their
// row, or in the menu when the bar is full; back home before each layout.
let askNode = null;
let askHome = null;
function homeAsk() {
  askNode = askNode || document.getElementById("hint-ask");
  askHome = askHome || document.getElementById("hint-box");
  if (askNode && askHome && askNode.parentNode !== askHome) askHome.prepend(askNode);
}
function askShown() {
  return !!(askNode && askHome && !askNode.hidden && !askHome.hidden);
}

/** A cue that the bar scrolls (an open menu longer than the bar): a fade and "more below" at
 *  its bottom edge while there is more below (.bar-cue, lair.css). */
function cue() {
  // Measured once per frame, when the frame lays the page out anyway: measured at once, after
  // every view's redraw, it forced a second layout of the whole table per view.
  if (cueQueued) return;
  cueQueued = true;
  requestAnimationFrame(() => {
    cueQueued = false;
    const bar = dom.promptBar;
    bar.classList.toggle("scrolls-down", bar.scrollTop + bar.clientHeight < bar.scrollHeight - 2);
  });
}
let cueQueued = false;
dom.promptBar.append(el("div", {class: "bar-cue", "aria-hidden": "true"}, el("span", {}, "▾ more below")));
dom.promptBar.addEventListener("scroll", cue, {passive: true});
// A window of another height gives the bar another quarter: lay it out again (once a frame).
let resizing = false;
addEventListener("resize", () => {
  if (resizing) return;
  resizing = true;
  requestAnimationFrame(() => {
    resizing = false;
    fitPrompt();
    const open = openMenu();
    if (open && !PHONE.matches) fitMenu(open);
  });
});
if (document.fonts && document.fonts.ready) document.fonts.ready.then(() => fitPrompt());

/** The words of the viewer's prompt: the renderer's (its optional `promptText(view)`, which
 *  may say where on the board to click, and the step of a pick under way) else the server's. */
function promptWords(v) {
  const own = boardPromptText();
  return own || v.prompt.text;
}

// The bar's height, for scrolling that keeps clear of it (CSS scroll-padding-top) and for the
// renderers that keep a place in view below it; the phone's last-move line's (0 where it is not
// shown: desktops, a match with no log yet); and the phone's sticky block's, which holds the
// scores, the bar and the last move (0 on desktops, where it is no box: lair.css).
const heights = () => {
  const px = (node) => (node ? Math.ceil(node.getBoundingClientRect().height) : 0);
  const root = document.documentElement.style;
  root.setProperty("--prompt-bar-h", `${px(dom.promptBar)}px`);
  root.setProperty("--last-move-h", `${px(dom.lastMoveBox)}px`);
  root.setProperty("--table-top-h", `${px(dom.tableTop)}px`);
};
const sizes = new ResizeObserver(heights);
for (const node of [dom.promptBar, dom.lastMoveBox, dom.tableTop]) if (node) sizes.observe(node);

/** The bar's buttons: up to BAR_MAX of them (and BAR_CHARS of labels) in the bar; beyond that,
 *  the kinds of action with several choices go into the menu (grouped by kind) and the one-off
 *  ones (Done, Undo…) stay. Then `spill` more things join the menu, to make room (place()):
 *  "Suggest a move", the side actions (last first, the ways out and ends of a step after the
 *  rest), the bar's first button last. Returns the bar's nodes, its menu (or null) and whether
 *  anything is left to spill. */
function layout(pairs, spill = 0) {
  const max = PHONE.matches ? BAR_MAX.phone : BAR_MAX.desktop;
  const chars = PHONE.matches ? BAR_CHARS.phone : BAR_CHARS.desktop;
  const length = (list) => list.reduce((n, [, b]) => n + b.textContent.length, 0);
  const long = ([a, b]) => PHONE.matches && b.textContent.length > PHONE_LONG_LABEL && !KEEP_IN_BAR.has((a && a.type) || "");
  const byType = new Map();
  for (const [a, b] of pairs) {
    const t = (a && a.type) || "";
    if (!byType.has(t)) byType.set(t, []);
    byType.get(t).push([a, b]);
  }
  let bar = [], menu = [];
  if (pairs.length <= max && length(pairs) <= chars && !pairs.some(long)) {
    bar = [...byType];
  } else {
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
    // a menu of one short choice saves nothing: buttons, then (in the order given)
    if (count < 2 && !menu.some(([, l]) => l.some(long))) {
      bar = [...byType];
      menu = [];
    }
  }
  // To make room: what may still join the menu, least used first. (A phone's one row: the
  // longest of the side actions first, the bar's first one too: Covil's "Lie down a troop in
  // L: gain 1 gold" first, it took the room of "Buy a Power Relic" and the menu's toggle.)
  const rest = bar.slice(1);
  const wide = ([, l]) => l.reduce((n, [, b]) => n + b.textContent.length, 0);
  // (a phone's "Undo" before the other ways out and ends of a step: "Suggest a move" comes
  // between them, below)
  const order = PHONE.matches
    ? [...bar.filter(([t]) => !KEEP_IN_BAR.has(t)).sort((a, b) => wide(b) - wide(a)),
       ...bar.filter(([t]) => t === "undo"), ...bar.filter(([t]) => KEEP_IN_BAR.has(t) && t !== "undo").reverse()]
    : [...rest.filter(([t]) => !KEEP_IN_BAR.has(t)).reverse(),
       ...rest.filter(([t]) => KEEP_IN_BAR.has(t)).reverse(), ...bar.slice(0, 1)];
  const ask = askShown();
  const candidates = (ask ? 1 : 0) + order.length;
  // "Suggest a move" joins the menu first, but on a phone only after the side actions and
  // "Undo": one tap reaches it there too (new-user trial: Covil's Afternoon put it behind
  // "3 more", while the other games showed it in the row)
  const askAt = ask ? (PHONE.matches ? order.filter(([t]) => !KEEP_IN_BAR.has(t) || t === "undo").length : 0) : Infinity;
  const hintIn = spill > askAt;
  const moved = order.slice(0, Math.max(0, spill > askAt ? spill - 1 : spill));
  bar = bar.filter((k) => !moved.includes(k));
  menu = [...menu, ...moved.reverse()];
  const more = spill < candidates;
  const asking = ask && !hintIn ? [askNode] : [];  // "Suggest a move" ends the row
  // a menu of one short choice ("Pass") saves no room: its button rather than "1 more"
  const lone = menu.length === 1 && menu[0][1].length === 1 && menu[0][1][0][1].textContent.length <= LONE_CHARS;
  if ((!menu.length || (spill > 0 && lone)) && !hintIn) return {nodes: [...pairs.map(([, b]) => b), ...asking], details: null, more, key: null};  // (in the order given)
  const count = menu.reduce((n, [, l]) => n + l.length, 0);
  const choices = count === 1 ? "1 choice" : `${count} choices`;
  // (a phone's one row of buttons has little room for the toggle: "12 more", "Suggest a move"
  // counted; its sheet says what it holds)
  const toggle = spill === 0 ? `Choose: ${choices}`
    : PHONE.matches ? `${count + (hintIn ? 1 : 0)} more`
    : hintIn ? (count ? `More: ${choices}, Suggest` : "More: Suggest a move") : `More: ${choices}`;
  const key = canon([menu.map(([, l]) => l.map(([a]) => a)), hintIn]);
  const groups = menu.map(([t, list]) => el("div", {class: "action-group", role: "group", "aria-label": humanize(t || "other")},
    menu.length > 1 || hintIn ? el("span", {class: "action-group-label"}, `${humanize(t || "other")} (${list.length})`) : null,
    list.map(([, b]) => b)));
  if (hintIn) groups.push(el("div", {class: "action-group", role: "group", "aria-label": "Help"}, askNode));
  const summary = el("summary", {class: "btn action-menu-toggle"}, toggle);
  // (the open menu scrolls inside: a cue at its bottom edge while more lies below; a phone's
  // sheet is named for screen readers, its toggle in the bar reads "Close" meanwhile)
  const cueNode = el("div", {class: "menu-cue", "aria-hidden": "true"}, el("span", {}, "▾ more below"));
  const body = el("div", {class: "action-menu-body", role: "group",
                          "aria-label": spill === 0 ? `Choose: ${choices}` : "More choices"}, groups, cueNode);
  body.addEventListener("scroll", () => sheetCue(body), {passive: true});
  const details = el("details", {class: "action-menu"}, summary, body);
  // a phone's sheet goes once a choice in it is made (it covers the board the move changes)
  details.addEventListener("click", (ev) => {
    if (PHONE.matches && ev.target.closest(".action-menu-body button[data-action], .action-menu-body #hint-ask")) {
      closeMenu();  // (the one open now: a choice may have laid the bar out again)
    }
  });
  details.addEventListener("toggle", () => {
    menuOpen = details.open;
    // a phone's open sheet takes the room of the bar's row: its other buttons wait (lair.css)
    // and the toggle, left beside the prompt's words, closes it
    summary.textContent = details.open && PHONE.matches ? "Close" : toggle;
    numberButtons();
    if (details.open && PHONE.matches) placeSheet();
    else if (details.open) fitMenu(details);
    cue();
  });
  return {nodes: [...bar.flatMap(([, l]) => l.map(([, b]) => b)), ...asking, details], details, more, key};
}

// ----- a phone's menu: a compact sheet below the bar ------------------------------------------

// On a phone the open menu is a sheet right under the bar, over the board. The bar and the
// sheet together keep to a quarter of the window (issue 14: "the prompt bar never hides the
// board"; the new-user trial's sheet covered 59-79 % of the screen). While it is open the
// bar's row of buttons steps aside (lair.css): the prompt's words, whole, share a row with
// the toggle, which reads "Close"; the sheet gets what the bar leaves of the quarter, its
// visible height ending on a whole choice, and scrolls inside, the "more below" cue on a strip
// of its own under that choice (the fourth new-user trial: a sheet of 127 px showed one row
// of eight, cut mid-word under the cue). It closes by its toggle ("Close"), Escape (keys.js),
// a tap elsewhere or a choice.

/** The least height of a sheet: one choice (a bar taller than its quarter, with toasts, still
 *  leaves a usable sheet). */
const SHEET_MIN = 64;
/** The height of the strip of the sheet's "more below" cue (lair.css .menu-cue on phones). */
const CUE_H = 22;

/** The open menu (or null). */
export function openMenu() {
  return dom.promptActions.querySelector("details.action-menu[open]");
}

/** Close the menu `details`; `refocus`: the keyboard goes back to its toggle. */
export function closeMenu(details = openMenu(), refocus = false) {
  if (!details) return;
  details.open = false;
  menuOpen = false;
  if (refocus) details.querySelector("summary").focus({preventScroll: true});
}

/** The sheet's top: the bar's bottom edge where it is now (CSS --menu-top); its height at most
 *  what the bar leaves of a quarter of the window (CSS --menu-room). When its choices do not all
 *  fit, it starts on a choice's top and ends on a whole choice's bottom, the "more below" cue's
 *  strip under it (first-time review: the first choice cut to a sliver at the sheet's top, as if
 *  under the prompt): from the choice in view at its top, or the one that shows `want` whole
 *  (showInMenu). */
function placeSheet(want = null) {
  const r = dom.promptBar.getBoundingClientRect();
  const top = Math.max(0, Math.floor(r.bottom));
  const room = Math.max(SHEET_MIN, Math.floor(window.innerHeight / 4 - (top - Math.max(0, r.top))));
  document.documentElement.style.setProperty("--menu-top", `${top}px`);
  document.documentElement.style.setProperty("--menu-room", `${room}px`);
  const details = openMenu();
  const body = details && details.querySelector(".action-menu-body");
  if (!body) return;
  body.style.maxHeight = `${wholeChoices(body, room, want)}px`;
  sheetCue(body);
}

/** The height of the sheet `body` within `room`: all of it when it fits; else it scrolls to
 *  start on a choice (the one at its top now, or an earlier one that shows `want` whole) and
 *  ends on the bottom of the last choice that shows whole from there, with the strip of the
 *  "more below" cue under it. */
function wholeChoices(body, room, want = null) {
  const style = getComputedStyle(body);
  const edge = (parseFloat(style.borderBottomWidth) || 0) + (parseFloat(style.borderTopWidth) || 0);
  body.classList.remove("sheet-scrolls");
  if (body.scrollHeight + edge <= room) {
    body.scrollTop = 0;
    return room;
  }
  // (a blank strip at its end as tall as the cue's: the last choices scroll up to a whole view)
  body.classList.add("sheet-scrolls");
  const pad = parseFloat(style.paddingTop) || 0;
  const origin = body.getBoundingClientRect().top + (parseFloat(style.borderTopWidth) || 0) - body.scrollTop;
  const choices = [...body.querySelectorAll("button")].filter((b) => b.getClientRects().length)
    .map((b) => { const q = b.getBoundingClientRect(); return {b, top: q.top - origin, bottom: Math.ceil(q.bottom - origin)}; });
  if (!choices.length) return room;
  const fits = (i, j) => choices[j].bottom - (i ? choices[i].top - pad : 0) + CUE_H + edge <= room;
  let first = Math.max(0, choices.findIndex((c) => c.top - pad >= body.scrollTop - 1));
  const w = want ? choices.findIndex((c) => c.b === want) : -1;
  if (w >= 0 && (w < first || !fits(first, w))) {
    first = w;
    while (first > 0 && fits(first - 1, w)) first--;
  }
  let last = first;
  while (last + 1 < choices.length && fits(first, last + 1)) last++;
  const start = first ? choices[first].top - pad : 0;
  body.scrollTop = start;
  return choices[last].bottom - start + CUE_H + edge;
}

/** Bring the choice `node` of the open menu whole into its view (hint.js: the suggested choice,
 *  on opening): a phone's sheet from a choice's top to a whole choice's bottom (placeSheet), a
 *  desktop's menu scrolled to centre it. */
export function showInMenu(node) {
  const details = openMenu();
  const body = details && details.querySelector(".action-menu-body");
  if (!body || !body.contains(node)) return;
  if (PHONE.matches) {
    placeSheet(node);
    return;
  }
  if (body.scrollHeight <= body.clientHeight) return;
  const b = body.getBoundingClientRect(), r = node.getBoundingClientRect();
  body.scrollTop += Math.round((r.top + r.bottom) / 2 - (b.top + b.bottom) / 2);
}

/** A desktop's open menu opens inside the bar: it gets what the rest of the bar leaves of the
 *  bar's quarter of the window and scrolls inside itself, so the bar itself never scrolls and
 *  the prompt's words stay whole at its top (the new-user trial, Evil Corp.: the bar scrolled
 *  with its long menu and cut the prompt's first line). */
function fitMenu(details) {
  const body = details.querySelector(".action-menu-body");
  if (!body) return;
  body.style.maxHeight = "";
  const bar = dom.promptBar;
  const rest = bar.scrollHeight - body.getBoundingClientRect().height;
  // (the bar's own limit: a quarter of the window, or less for a game that asks it,
  // --prompt-bar-max; the new-user trial 6: Covil's 22 % bar cut an 80 px menu to ~20 px)
  const cap = parseFloat(getComputedStyle(bar).maxHeight);
  const limit = Number.isFinite(cap) ? Math.min(cap, window.innerHeight / 4) : window.innerHeight / 4;
  const room = Math.floor(limit - rest - 1);
  if (body.getBoundingClientRect().height > room) body.style.maxHeight = `${Math.max(Math.min(MENU_MIN, limit / 2), room)}px`;
  bar.scrollTop = 0;
  sheetCue(body);
}
/** The least height of a desktop's open menu: two rows of choices. */
const MENU_MIN = 80;

/** The "more below" cue of the sheet `body` while it has more below its bottom edge. */
function sheetCue(body) {
  if (!body) return;
  // (a phone's scrolled sheet ends on a blank strip for its cue: more below is a choice below it;
  // scrolled to its end with choices above, the strip says so)
  const sheet = body.classList.contains("sheet-scrolls");
  const down = body.scrollTop + body.clientHeight < body.scrollHeight - (sheet ? CUE_H + 10 : 2);
  const up = sheet && !down && body.scrollTop > 2;
  body.classList.toggle("scrolls-down", down || up);
  const words = body.querySelector(".menu-cue > span");
  if (words) words.textContent = up ? "\u25b4 more above" : "\u25be more below";
}
let sheetQueued = false;
const followBar = () => {
  if (sheetQueued || !PHONE.matches || !openMenu()) return;
  sheetQueued = true;
  requestAnimationFrame(() => { sheetQueued = false; placeSheet(); });
};
addEventListener("scroll", followBar, {passive: true});
new ResizeObserver(followBar).observe(dom.promptBar);
// a tap outside the sheet and its toggle closes it (and does what it does there)
closeOnPressOutside(() => PHONE.matches && !!openMenu(), (t) => openMenu().contains(t),
  () => closeMenu(openMenu()));

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
    // (a phone's open sheet: the bar's other buttons step aside meanwhile)
    if (PHONE.matches && openMenu() && !b.closest("details")) continue;
    let type = null;
    try { type = JSON.parse(b.dataset.action).type; } catch (e) { /* not an action */ }
    const key = type === "undo" ? UNDO_KEY : (n < 9 ? String(++n) : null);
    if (key === null) continue;
    b.dataset.key = key;
    b.setAttribute("aria-keyshortcuts", key);
    b.title = `Shortcut: ${key}`;
  }
}
