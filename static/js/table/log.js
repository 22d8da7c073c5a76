// The match log (docs/design.md "The table in the browser"): one line per event, each addressed
// event tagged with who could read it. Shared by the live table and the replay viewer.
//
// ctx: {you: seat | null, seats: number of seats, seatName(seat) -> string,
//       revealed: true in a finished match's replay (every seat's events are shown),
//       reword(text) -> the renderer's words (logWords), places: lines focusable (wireLogHover),
//       jump: a replay's lines, each a way to its move (focusable by Tab)}

import {el} from "../dom.js";
import {callHook} from "../renderer-hooks.js";
import {canon} from "./seat-style.js";

/** The log's words for the stored line `text`: `renderer`'s optional `logText(text, view)`
 *  (docs/renderer-contract.md: places named as the board shows them, counts mended), `text`
 *  itself without one, without a view, or when it fails. The live table (board.js) and the
 *  replay both word their lines with it. */
export function logWords(renderer, text, view) {
  return (view && callHook(renderer, "log", "logText", text, view)) || text;
}

/** One <li> for log event `e` (a string or {text, to?, others?, step?}); `fresh` marks it
 *  new. A replay's events carry `step`, the move that wrote them (app/matches/views.py
 *  replay_view): the line keeps it as `data-step`. */
export function logEntry(e, ctx, fresh = false) {
  const stored = typeof e === "string" ? e : e && e.text !== undefined ? String(e.text) : canon(e);
  const text = ctx.reword ? ctx.reword(stored) : stored;
  const step = e && Number.isInteger(e.step) ? e.step : null;
  // tabindex -1: a click or a tap focuses the line, which shows where it happened (wireLogHover);
  // 0 for a replay's line, which Tab reaches: Enter on it goes to its move
  const focus = ctx.jump && step !== null ? "0" : ctx.places ? "-1" : null;
  const li = el("li", {class: fresh ? "log-entry new" : "log-entry", tabindex: focus});
  li._lairText = stored;
  if (step !== null) {
    li.dataset.step = String(step);
    if (ctx.jump) li.title = step ? `Go to move ${step}` : "Go to the setup";
  }
  const to = e && Array.isArray(e.to) ? e.to : null;
  // Tag who could read an addressed event, from the viewer's side: "Only you", "You & Ana"
  // (a team), none when every seat but one reads it (the missing seat got its own wording:
  // `others`, marked by the server, app/matches/views.py _others_wordings). A replay (no seat)
  // shows every seat's events, so each says whose it was: "Only Ana", "All but Ana". Shown as
  // written, in sentence case (lair.css .log-tag: capitals read as shouting).
  // A spectator (no seat, nothing revealed) reads only public lines (engines/base.py
  // visible_log: the public wordings marked for spectators): no tag, they are for everyone.
  const me = ctx.you ?? null;
  if (me === null && !ctx.revealed) {
    li.append(el("span", {class: "log-text"}, text));
    return li;
  }
  const n = ctx.seats || 0;
  const name = ctx.seatName;
  const mine = to && me !== null && to.includes(me);
  const restOfTable = !!(e && e.others) || (to && to.length > 1 && to.length >= n - 1);
  if (to && !(mine && restOfTable)) {
    li.classList.add("private");
    const others = to.filter((s) => s !== me).map(name);
    const left = [...Array(n).keys()].filter((s) => !to.includes(s)).map(name);
    const tagText = mine && to.length === 1 ? "Only you" : mine ? `You & ${others.join(", ")}`
      : e.others && left.length ? `All but ${left.join(", ")}`
      : `Only ${to.map(name).join(", ")}`;
    li.append(el("span", {class: "log-tag", title: `Seen by ${to.map(name).join(", ")}`}, tagText), " ");
    if (mine) li.classList.add("to-you");
  }
  li.append(el("span", {class: "log-text"}, text));
  return li;
}

/** Hovering or focusing a line of the log `box` highlights (class `log-hit`) the board's
 *  elements `placesOf(storedText)` names: where another seat's move happened (issue 14,
 *  item 5). */
export function wireLogHover(box, placesOf) {
  let lit = [];
  let line = null;  // the line hovered or focused now
  const clear = () => {
    for (const n of lit) n.classList.remove("log-hit");
    lit = [];
  };
  const light = () => {
    clear();
    if (!line || !box.contains(line)) return;
    lit = placesOf(line._lairText || line.textContent);
    for (const n of lit) n.classList.add("log-hit");
  };
  const show = (ev) => {
    line = ev.target.closest ? ev.target.closest("li.log-entry") : null;
    light();
  };
  box.addEventListener("mouseover", show);
  box.addEventListener("focusin", show);
  box.addEventListener("mouseleave", () => { line = null; clear(); });
  box.addEventListener("focusout", (ev) => { if (!box.contains(ev.relatedTarget)) { line = null; clear(); } });
  // the board was drawn again under a hovered line: light its places in the new drawing
  return {refresh: () => { if (line) light(); }};
}

/** Draw the log again from its start (the words of its lines changed: a renderer arrived). */
export function redrawLog(box, log, ctx) {
  box._lairLog = null;
  box.replaceChildren();
  drawLog(box, log, {...ctx, noFresh: true});
}

/** Draw `log` (a list of events) into the <ol> `box`, appending only what is new since the
 *  last call on the same box and rebuilding when the past changed (an undo shortens the log).
 *  Keeps the box scrolled to the bottom when it was there. */
export function drawLog(box, log, ctx) {
  const entries = Array.isArray(log) ? log : [];
  const held = box._lairLog || {count: 0, last: null};
  const atBottom = atLogBottom(box) || held.count === 0;
  let count = held.count;
  if (entries.length < count || (count && canon(entries[count - 1]) !== held.last)) {
    box.replaceChildren();
    count = 0;
  }
  const fresh = count > 0 && !ctx.noFresh;
  for (let i = count; i < entries.length; i++) box.append(logEntry(entries[i], ctx, fresh));
  box._lairLog = {count: entries.length, last: entries.length ? canon(entries[entries.length - 1]) : null};
  if (atBottom) {
    box.scrollTop = box.scrollHeight;
    wholeTop(box);
  }
  fadeTop(box);
}

/** The log `box` keeps the bottom edge of what it shows now and starts on a whole line: its
 *  height is cut short by the part of the line its top edge would cut (review 8, problem 10:
 *  the first visible line was cut mid-entry in nearly every desktop table and replay shot).
 *  At most one line shorter than its CSS height; the reader's own scrolling is left alone. */
export function wholeTop(box) {
  if (!box || !box.isConnected) return;
  const end = box.scrollTop + box.clientHeight;
  if (box.style.maxHeight) box.style.maxHeight = "";
  const full = box.clientHeight;
  if (!full || box.scrollHeight <= full + 1) return;
  const top = Math.max(0, Math.min(end, box.scrollHeight) - full);
  box.scrollTop = top;
  if (top < 1) return;
  const origin = box.getBoundingClientRect().top + box.clientTop - box.scrollTop;
  for (const li of box.children) {
    if (!li.getClientRects().length) continue;
    const y = li.getBoundingClientRect().top - origin;
    if (y < top - 0.5) continue;
    if (y - top > 0.5) box.style.maxHeight = `${Math.max(0, Math.ceil(full - (y - top)))}px`;
    box.scrollTop = y;
    return;
  }
}

/** A log box scrolled down from its first line shades its top edge a little: it reads as
 *  "more above" (review 7, problem 10); the line there stays readable (wholeTop keeps it
 *  whole). Follows the box's scrolling from the first call on. */
export function fadeTop(box) {
  if (!box._lairFade) {
    box._lairFade = true;
    box.addEventListener("scroll", () => box.classList.toggle("more-above", box.scrollTop > 1), {passive: true});
  }
  box.classList.toggle("more-above", box.scrollTop > 1);
}

/** Whether the log `box` shows its newest line (the reader has not scrolled up from it); from
 *  the first call on, it stays there while it is drawn smaller or its lines wrap anew: the
 *  prompt bar above growing to two rows after the log was drawn left the newest line cut at
 *  the box's edge, and every later line below it (fresh-eyes review: "the log is stuck above
 *  the newest line"). Only the reader's scrolling unpins it. */
export function atLogBottom(box) {
  if (box._lairPinned === undefined) {
    box._lairPinned = true;
    box.addEventListener("scroll", () => {
      box._lairPinned = nearBottom(box);
    }, {passive: true});
    if (typeof ResizeObserver === "function") {
      // (the whole first line set once a frame: its height changed by wholeTop is observed
      // again, and comes out the same)
      let queued = false;
      new ResizeObserver(() => {
        if (!box._lairPinned) return;
        box.scrollTop = box.scrollHeight;
        if (queued) return;
        queued = true;
        requestAnimationFrame(() => {
          queued = false;
          // (the reader may have scrolled up since the resize, its scroll event not yet
          // dispatched: the box is then far from its bottom, and stays where the reader is)
          if (box._lairPinned && nearBottom(box)) {
            box.scrollTop = box.scrollHeight;
            wholeTop(box);
          }
        });
      }).observe(box);
    }
  }
  return box._lairPinned || nearBottom(box);
}

/** Whether `box` is scrolled to within a line or two (48 px) of its bottom: the reader still
 *  follows the newest lines. */
function nearBottom(box) {
  return box.scrollHeight - box.scrollTop - box.clientHeight < 48;
}

/** Draw `entries` (log events) as the only lines of `box` (an <ol>): a few lines shown apart
 *  from the log, e.g. the newest move under a phone's prompt bar or the move a replay shows;
 *  `note` (a string), when given, goes first as a line of its own, in muted words. */
export function drawLines(box, entries, ctx, note = null) {
  const lines = (Array.isArray(entries) ? entries : []).map((e) => logEntry(e, {...ctx, jump: false}));
  if (note) lines.unshift(el("li", {class: "log-entry log-none"}, note));
  box.replaceChildren(...lines);
}
