// The one small DOM helper shared by the table, the replay viewer and the game renderers.
// Builds DOM with createElement/textContent only: view data comes from the server and is never
// parsed as HTML.

import {canon} from "./table/seat-style.js";

export const SVGNS = "http://www.w3.org/2000/svg";

/** Phone widths: where lair.css lays the table out for a small screen (its
 *  `@media (max-width: 720px)` rules); `.matches` is read at the moment it matters. */
export const PHONE = matchMedia("(max-width: 720px)");

/** "A tap elsewhere closes it", for a panel, sheet or choice open over the page: while
 *  `isOpen()`, a press (mouse, touch or pen) on an element for which `isInside(target)` is false
 *  calls `close()`. The listener runs in the capture phase and does not stop the press, which
 *  then does what it does there (a tap on a board's place both closes the sheet and plays).
 *  `target` is the pressed Element, or null. */
export function closeOnPressOutside(isOpen, isInside, close) {
  document.addEventListener("pointerdown", (ev) => {
    if (!isOpen()) return;
    const t = ev.target instanceof Element ? ev.target : null;
    if (!isInside(t)) close();
  }, {capture: true});
}

/** Set attributes: `class`, `dataset` (object), `style` (object, custom properties too, or string); booleans as flags;
 *  undefined/null/false are skipped; `on<event>` with a function adds a listener. */
export function setAttrs(node, attrs = {}) {
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") node.setAttribute("class", v);
    else if (k === "dataset") Object.assign(node.dataset, v);
    else if (k === "style" && typeof v === "object") {
      // custom properties ("--fill") need setProperty; plain ones work either way
      for (const [prop, val] of Object.entries(v)) {
        if (prop.startsWith("--")) node.style.setProperty(prop, val);
        else node.style[prop] = val;
      }
    }
    else if (k.startsWith("on") && typeof v === "function") node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  return node;
}

function append(node, children) {
  for (const c of children.flat(Infinity)) {
    if (c === undefined || c === null || c === false) continue;
    node.append(c instanceof Node ? c : String(c));
  }
  return node;
}

/** An HTML element: el("span", {class: "x", title: "y"}, "text", child, [more, children]). */
export function el(tag, attrs = {}, ...children) {
  return append(setAttrs(document.createElement(tag), attrs), children);
}

/** The action a board element plays when clicked: its `data-action` (the renderer contract's
 *  mark of a clickable legal target) parsed, or null when it has none or it is not JSON. */
export function actionOf(node) {
  const text = node && node.dataset ? node.dataset.action : undefined;
  if (text === undefined) return null;
  try {
    return JSON.parse(text);
  } catch (e) {
    return null;
  }
}

/** The elements inside `box` that play `action` when clicked: those whose `data-action` is
 *  deep-equal to it. */
export function actionNodes(box, action) {
  if (!box || !action) return [];
  const key = canon(action);
  return [...box.querySelectorAll("[data-action]")].filter((n) => {
    const a = actionOf(n);
    return a !== null && canon(a) === key;
  });
}

/** An SVG element, same shape as el(): sv("circle", {cx: 4, cy: 4, r: 3}). */
export function sv(tag, attrs = {}, ...children) {
  return append(setAttrs(document.createElementNS(SVGNS, tag), attrs), children);
}

// ----- full card on hover (mouse) or long-press (touch) ------------------------------------------
let pop = null;
let popAnchor = null;   // the piece whose card is shown
let pressTimer = null;
// A redraw can remove the piece under the pointer (no mouseleave follows): while a card is
// shown, watch the document and take the card down once its piece is gone.
let watcher = null;

function hideCard() {
  if (pop) pop.remove();
  pop = null;
  popAnchor = null;
  if (watcher) watcher.disconnect();
  watcher = null;
}

function showCard(anchor, build) {
  hideCard();
  const card = build();
  if (!card) return;
  pop = el("div", {class: "card-pop", role: "tooltip"}, card);
  popAnchor = anchor;
  document.body.append(pop);
  const r = anchor.getBoundingClientRect();
  const w = pop.offsetWidth, h = pop.offsetHeight;
  let x = r.right + 8, y = r.top;
  if (x + w > window.innerWidth - 4) x = Math.max(4, r.left - w - 8);
  if (y + h > window.innerHeight - 4) y = Math.max(4, window.innerHeight - h - 4);
  pop.style.left = `${x + window.scrollX}px`;
  pop.style.top = `${y + window.scrollY}px`;
  watcher = new MutationObserver(() => { if (!anchor.isConnected) hideCard(); });
  watcher.observe(document.body, {childList: true, subtree: true});
}

/** Show the node returned by `build()` (a full card: every number and the ability text, in
 *  rulebook words) while a mouse rests on `node`, while the keyboard's focus is on it, or after
 *  a 450 ms touch press; a tap elsewhere, leaving, or clicking it (a pick, a move) hides it.
 *  A tap is no hover: it never opens the card (table review item 10: the card of a tapped
 *  tile stayed over the board it was to be played on), nor does the focus a click or a
 *  redraw gives a piece (only the keyboard's, `:focus-visible`). With `clickShows`, a click or a
 *  tap shows the card instead (a piece with nothing to do on a click: the card says why).
 *  With `touch: false` the card opens for the mouse and the keyboard only: a small mark on a
 *  piece (a number in a tile's corner) whose long-press should open the piece's own card.
 *  Returns `node`. */
export function attachCard(node, build, {clickShows = false, touch = true} = {}) {
  // (a piece inside another piece with a card, a symbol on a track: the inner card wins)
  const inner = () => pop && popAnchor && popAnchor !== node && node.contains(popAnchor);
  node.addEventListener("pointerenter", (e) => {
    if (e.pointerType === "mouse" && !fingerMouse() && !inner() && !stillMouse(e)) showCard(node, build);
  });
  node.lairCard = build;
  node.addEventListener("pointerleave", (e) => {
    if (e.pointerType !== "mouse") return;
    hideCard();
    // back onto the piece around this one (from a symbol onto its track): that card again
    let up = e.relatedTarget instanceof Element ? e.relatedTarget : null;
    while (up && !up.lairCard) up = up.parentElement;
    if (up && up !== node && up.contains(node)) showCard(up, up.lairCard);
  });
  node.addEventListener("focus", () => { if (node.matches(":focus-visible")) showCard(node, build); });
  node.addEventListener("blur", hideCard);
  // a piece that does nothing when clicked (`clickShows`: a tile that is no choice now) answers
  // a click or a tap with its card, which says why
  node.addEventListener("click", () => { if (clickShows) showCard(node, build); else hideCard(); });
  if (!touch) return node;
  node.addEventListener("touchstart", (e) => {
    if (e.lairCard) return;  // an inner piece's card (the event bubbles up to this one)
    e.lairCard = true;
    clearTimeout(pressTimer);
    pressOpened = null;
    pressTimer = setTimeout(() => { showCard(node, build); pressOpened = node; }, 450);
  }, {passive: true});
  for (const ev of ["touchmove", "touchcancel"]) {
    node.addEventListener(ev, () => clearTimeout(pressTimer), {passive: true});
  }
  // A long-press that opened the card was to read it, not to act: the tap the browser may
  // still make of it (a press shorter than its own long-press) must not also pick or play the
  // piece. Cancelling the touchend stops that click; pressClick() catches it where it comes
  // anyway. (Not passive: only a touchend of a long-press that opened a card is cancelled.)
  node.addEventListener("touchend", (e) => {
    clearTimeout(pressTimer);
    if (pressOpened !== node) return;
    if (e.cancelable) e.preventDefault();
    swallowUntil = Date.now() + 800;
  });
  return node;
}

// A click (a pick, a move: the board is redrawn) closes the card, and the new piece the redraw
// puts under the resting mouse is no new hover: the browser "enters" it without the mouse
// moving (new-user trial: the card stayed open under the mouse after a click). Its card waits
// for the mouse to move.
let clickedAt = null;   // [x, y] of the last mouse click, until the mouse moves from there

/** Whether the mouse event `e` is where the last click left the mouse (no move since). */
function stillMouse(e) {
  if (!clickedAt) return false;
  if (Math.abs(e.clientX - clickedAt[0]) <= 2 && Math.abs(e.clientY - clickedAt[1]) <= 2) return true;
  clickedAt = null;
  return false;
}
document.addEventListener("click", (e) => {
  if (e.detail === 0) return;  // a click by the keyboard (Enter on a button): no mouse there
  clickedAt = [e.clientX, e.clientY];
  hideCard();
}, true);
document.addEventListener("pointermove", (e) => { if (e.pointerType === "mouse") stillMouse(e); }, {passive: true});

// A touch screen's browser makes "mouse" events of a finger too (a tap's compatibility events;
// after the page scrolls, a mouse "entering" whatever now lies under the last tap): none of them
// opens a card. A finger opens one by a long-press only (new-user trial: a card opened under the
// finger after an action).
let touchedAt = -Infinity;
document.addEventListener("touchstart", () => { touchedAt = Date.now(); }, {passive: true, capture: true});
const fingerMouse = () => matchMedia("(hover: none)").matches || Date.now() - touchedAt < 2000;

let pressOpened = null;  // the piece whose card the current touch's long-press opened
let swallowUntil = 0;    // until when a click after that long-press is not an act

/** A click (capture phase, before any piece's own handler) that follows a long-press which
 *  opened a card, on that piece: swallowed. */
function pressClick(e) {
  if (!pressOpened || Date.now() > swallowUntil || !(e.target instanceof Node) || !pressOpened.contains(e.target)) return;
  e.preventDefault();
  e.stopPropagation();
  pressOpened = null;
}
document.addEventListener("click", pressClick, true);

document.addEventListener("touchstart", (e) => {
  if (pop && !pop.contains(e.target)) hideCard();
}, {passive: true});
document.addEventListener("keydown", (e) => { if (e.key === "Escape") hideCard(); });
