// Replay: steps through a match's action log with the game's renderer (read-only table); the
// log and the result are drawn with the live table's own modules.

import {motion} from "./motion.js";
import {callHook, placesOnBoard, rendererWords, scoreIconOf} from "./renderer-hooks.js";
import {drawHintUses} from "./table/hint-log.js";
import {drawLines, drawLog, logWords, wholeTop, wireLogHover} from "./table/log.js";
import {drawPhoneScores} from "./table/phone-scores.js";
import {resultParts} from "./table/result.js";
import {seatColor, seatNameIn, seatShape} from "./table/seat-style.js";

const root = document.getElementById("replay");
const replayApi = root.dataset.replayApi || `/matches/${root.dataset.matchId}/replay`;
const watch = root.dataset.watch;
let steps = Number(root.dataset.steps);
let step = 0;
let renderer = null;
let current = null;
let focusStep = null;  // a log line was used to go to this move: focus its line once drawn

const seatName = (s) => seatNameIn(current, s);
const seatCount = () => (current && Array.isArray(current.seats) ? current.seats.length : 0);
/** A read-only table API (docs/renderer-contract.md): nothing can be played in a replay. */
const table = Object.freeze({
  act: () => false, actions: () => [], label: () => "", find: () => [], claim() {},
  showInPromptBar() {}, secondary() {}, seatColor, seatName, seatShape, you: () => null, view: () => current,
  busy: () => false,
});

function text(node, value) { node.textContent = value; return node; }

/** The log and the result, drawn by the table's own code: a finished match's replay shows
 *  every seat's events, each tagged with whose it was ("only Ana", "all but Ana"); a running
 *  match's, what the viewer's seat may read (a spectator: the public lines). The lines of the
 *  move shown are marked in the log and repeated under the controls ("what happened"). */
function drawLogAndResult(view, shown) {
  const revealed = !!(view.match && view.match.status === "finished");
  const ctx = {you: view.you ?? null, seats: seatCount(), seatName, revealed,
               reword: (t) => logWords(renderer, t, view), places: true};
  const box = document.getElementById("log");
  drawLog(box, view.log, {...ctx, jump: true});
  drawHintUses(box, view.hint_uses, view.version);  // who asked for hints
  markMove(box, shown);
  if (focusStep === shown) {  // a line was used to come here: the keyboard stays on its move's line
    focusStep = null;
    const line = box.querySelector(":scope > li.log-current");
    if (line && !box.contains(document.activeElement)) line.focus({preventScroll: true});
  }
  text(document.getElementById("now-step"), shown ? `Move ${shown}:` : "Setup:");
  const [lines, note] = moveLines(view.log, shown);
  drawLines(document.getElementById("now-lines"), lines, ctx, note);
  const panel = document.getElementById("result");
  panel.hidden = !view.result;
  if (view.result) {
    const reason = callHook(renderer, "replay", "resultReason", view);
    panel.replaceChildren(...resultParts(view.result, {seatName, seatColor, seatShape, seats: seatCount()},
      typeof reason === "string" && reason.trim() ? reason : null));
  } else {
    panel.replaceChildren();
  }
}

/** What the move box shows for move `shown` of `log` (the viewer's events, each with its
 *  `step`): `[events, note]`. The move's own lines; a move that wrote none the viewer may read
 *  (a pick in the middle of an action, another seat's secret) shows the latest line before it,
 *  saying so. */
function moveLines(log, shown) {
  const events = Array.isArray(log) ? log.filter((e) => e && Number.isInteger(e.step)) : [];
  const own = events.filter((e) => e.step === shown);
  if (own.length) return [own, null];
  const before = events.filter((e) => e.step < shown).slice(-1);
  if (!before.length) return [[], "Nothing in the log yet."];
  const at = before[0].step;
  return [before, `No line of its own; the latest before it (${at ? `move ${at}` : "the setup"}):`];
}

/** Mark (class `log-current`) the log's lines of move `shown` and scroll the log box, not the
 *  page, so that they are in view: the newest of them at the bottom when they do not all fit. */
function markMove(box, shown) {
  let first = null, last = null;
  for (const li of box.querySelectorAll(":scope > li[data-step]")) {
    const on = Number(li.dataset.step) === shown;
    li.classList.toggle("log-current", on);
    if (on) li.setAttribute("aria-current", "step"); else li.removeAttribute("aria-current");
    if (on) { first = first || li; last = li; }
  }
  if (!first) return;
  box.style.maxHeight = "";  // (its full height: wholeTop below cuts it short again)
  const at = box.getBoundingClientRect().top - box.scrollTop;
  const top = first.getBoundingClientRect().top - at, bottom = last.getBoundingClientRect().bottom - at;
  if (bottom - top > box.clientHeight || bottom > box.scrollTop + box.clientHeight) {
    box.scrollTop = Math.max(0, bottom - box.clientHeight);
  } else if (top < box.scrollTop) {
    box.scrollTop = top;
  }
  // a whole line at its top, the bottom kept (review 8, problem 10)
  wholeTop(box);
}

// Clicks move the target at once; requests run one at a time and the latest target wins, so
// fast clicking never loses steps.
let target = null;
let loading = false;
function go(n) {
  target = Math.max(0, Math.min(steps, n));
  text(document.getElementById("step"), `${target} / ${steps}`);
  if (!loading) pump();
}
async function pump() {
  loading = true;
  try {
    while (target !== null && target !== step) {
      const before = step;
      await show(target);
      if (step === before) break;  // the server refused: stay where we are
    }
  } finally {
    loading = false;
  }
}
const cur = () => (target === null ? step : target);

async function show(n) {
  const q = new URLSearchParams({ step: String(n) });
  if (watch) q.set("watch", watch);
  const res = await fetch(`${replayApi}?${q}`);
  if (!res.ok) { text(document.getElementById("replay-note"), await res.text()); return; }
  const data = await res.json();
  step = data.step; steps = data.steps; current = data.view;
  const slider = document.getElementById("slider");
  slider.max = String(steps);
  slider.value = String(step);
  text(document.getElementById("replay-note"), current.match.status === "finished"
    ? "The match is over: all hidden information is revealed."
    : "The match is still running: you see only what your seat may know.");
  if (!renderer) {
    renderer = await import(root.dataset.rendererUrl);
    renderer.mount(document.getElementById("board"), table);
  }
  const before = motion.snapshot(document.getElementById("board"));
  renderer.update(current);
  motion.play(document.getElementById("board"), before);
  drawLogAndResult(current, step);
  drawScores(current);
  logHover.refresh();
  nowHover.refresh();
  const places = moveLines(current.log, step)[0].filter((e) => e.step === step).flatMap((e) => placesOf(e.text));
  markPlaces(places);
  if (drawn) showPlace(places);
  drawn = true;
  // Only now is the step fully drawn: the counter (and data-shown, for tests) say so.
  text(document.getElementById("step"), `${cur()} / ${steps}`);
  root.dataset.shown = String(step);
}

let drawn = false;  // a step was drawn before (the page opens where it is, at its top)

const phone = () => matchMedia("(max-width: 720px)").matches;

/** Mark the board's `places` where the move shown happened (class `move-shown`: the look of a
 *  hovered log line's places, lair.css), and only them. */
function markPlaces(places) {
  for (const n of document.querySelectorAll("#board .move-shown")) n.classList.remove("move-shown");
  for (const n of places) n.classList.add("move-shown");
}

/** What stays in the window while the board scrolls (lair.css): `{part, bar}`, the element at
 *  its top (desktops: the controls, the scores and the move box; phones: the move box) and the
 *  height of the controls fixed at its bottom (phones; 0 on desktops). */
function stuckParts() {
  const onPhone = phone();
  return {part: document.querySelector(onPhone ? "#replay-now" : ".replay-header"),
          bar: onPhone ? document.querySelector(".replay-controls").getBoundingClientRect().height : 0};
}

/** The place where the move shown happened (the renderer's `logPlaces` of its lines) into view
 *  between what stays at the window's top and bottom (stuckParts), when none of it is there
 *  (review 7, problem 6: "Move 57: Morgana brews Bat Wing into Vial F" over the Forest; review 9,
 *  problem 9: a phone's move on a board below the first screen). The least scroll. `places`:
 *  the board's elements (renderer `logPlaces`). */
function showPlace(places) {
  if (!places.length) return;
  const {part, bar} = stuckParts();
  const top = part.getBoundingClientRect().bottom, bottom = window.innerHeight - bar;
  const seen = places.some((n) => {
    const r = n.getBoundingClientRect();
    return r.height > 0 && r.top >= top - 1 && r.bottom <= bottom + 1;
  });
  if (seen) return;
  // The least scroll that brings the first place whole into the window below the controls, then
  // no line of words cut at the controls' edge: the page's lines above the board ("The match is
  // over: …", the record's download) go whole under the controls or stay whole below them, where
  // the place stays in view (review 8, problem 10: "The match is over" cut under the move box).
  // (the stuck part's bottom edge after a scroll of d: it sticks at the window's top once the
  // page has scrolled past its place)
  const head = part.getBoundingClientRect().height;
  const edge = (d) => Math.max(head, top - d);
  const pad = 12;
  const r = places[0].getBoundingClientRect();
  let dy = r.top < top + pad || r.height > bottom - head ? r.top - head - pad
    : r.bottom > bottom ? r.bottom - bottom + pad : 0;
  const fits = (d) => r.top - d >= edge(d) - 1 && r.bottom - d <= bottom + 1;
  const words = [...document.querySelectorAll("main.replay > :not(.replay-header):not(.replay-body)")]
    .map((n) => n.getBoundingClientRect()).filter((q) => q.height > 0);
  for (const q of words) {
    if (!(q.top - dy < edge(dy) && q.bottom - dy > edge(dy))) continue;
    // its bottom edge to the stuck part's edge (stuck at the top by then), or its top below it
    const under = q.bottom - head + 1, below = q.top - head - 1;
    if (under > 0 && fits(under)) dy = under;
    else if (fits(below)) dy = below;
  }
  window.scrollTo({top: window.scrollY + dy, behavior: motion.reducedMotion() ? "auto" : "smooth"});
}

// The heights lair.css lays the page out with: desktops, the controls at the top of the window
// (the page's scrolling, the log beside the board); phones, how far the move box sits below the
// header's top (the header sticks that far above the window), its height, and the controls' bar.
const heights = new ResizeObserver(() => {
  const head = document.querySelector(".replay-header"), now = document.getElementById("replay-now");
  const style = document.documentElement.style, px = (n) => `${Math.ceil(n)}px`;
  const onPhone = phone();
  const sticky = !onPhone && getComputedStyle(head).position === "sticky";
  style.setProperty("--replay-head-h", px(sticky ? head.getBoundingClientRect().height : 0));
  const off = now.getBoundingClientRect().top - head.getBoundingClientRect().top;
  style.setProperty("--replay-now-off", `${onPhone ? off : 0}px`);  // (exact: the box whole at the top)
  style.setProperty("--replay-now-h", px(onPhone ? now.getBoundingClientRect().height : 0));
  style.setProperty("--replay-bar-h", px(stuckParts().bar));
});
for (const sel of [".replay-header", "#replay-now", ".replay-controls"]) heights.observe(document.querySelector(sel));

/** Every seat's score at the step shown under the controls, as on the table (phone-scores.js):
 *  on phones one line or two, on desktops a line of its own (lair.css). */
function drawScores(view) {
  const icon = scoreIconOf(renderer, "replay");
  drawPhoneScores(document.getElementById("phone-scores"), view, Array.isArray(view.seats) ? view.seats : [], {
    seatName, seatScore: (seat) => callHook(renderer, "replay", "seatScore", seat, view) || null,
    scoreIcon: () => icon, scoreWord: rendererWords(renderer).scoreWord});
}

// Hovering a log line shows where it happened on the board (the renderer's logPlaces).
const placesOf = (t) =>
  current ? placesOnBoard(document.getElementById("board"), renderer, "replay", "logPlaces", t, current) : [];
const logHover = wireLogHover(document.getElementById("log"), placesOf);
const nowHover = wireLogHover(document.getElementById("now-lines"), placesOf);
// A click on a log line (or Enter on it) goes to the move that wrote it.
const lineStep = (ev) => {
  const li = ev.target.closest ? ev.target.closest("li[data-step]") : null;
  return li && document.getElementById("log").contains(li) ? Number(li.dataset.step) : null;
};
const goToLine = (n) => {
  focusStep = n !== cur() ? n : null;  // the log is drawn again: the focus goes back to its move
  go(n);
};
document.getElementById("log").addEventListener("click", (ev) => {
  const n = lineStep(ev);
  if (n !== null) goToLine(n);
});
document.getElementById("log").addEventListener("keydown", (ev) => {
  const n = ev.key === "Enter" || ev.key === " " ? lineStep(ev) : null;
  if (n === null) return;
  ev.preventDefault();
  goToLine(n);
});
document.getElementById("first").onclick = () => go(0);
// The slider shows the step while dragging and loads it when released (one request, not fifty).
document.getElementById("slider").addEventListener("input", (e) => {
  text(document.getElementById("step"), `${e.target.value} / ${steps}`);
});
document.getElementById("slider").addEventListener("change", (e) => go(Number(e.target.value)));
document.getElementById("prev").onclick = () => go(cur() - 1);
document.getElementById("next").onclick = () => go(cur() + 1);
document.getElementById("last").onclick = () => go(steps);
document.addEventListener("keydown", (e) => {
  if (e.target.tagName === "INPUT") return;  // the slider handles its own arrows
  if (e.key === "ArrowLeft") go(cur() - 1);
  if (e.key === "ArrowRight") go(cur() + 1);
});
show(steps);
