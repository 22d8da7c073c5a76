// The header: title, match status, round and phase, whose turn it is (with an opt-in chime
// when it becomes yours), and how many spectators watch.

import {closeOnPressOutside, el, PHONE, sv} from "../dom.js";
import {humanize, seatChip} from "../kv.js";
import {cfg, dom, kvCtx, root, S, seatName, turnOf} from "./state.js";

export function renderHeader() {
  const v = S.view;
  const h = v.header || {};
  const title = (v.match && v.match.title) || cfg.title;
  dom.title.textContent = title;
  const status = (v.match && v.match.status) || root.dataset.status || "";
  dom.status.textContent = status;
  dom.status.dataset.status = status;

  // A finished match says it is over once, in its Final result (and the status badge): not
  // also "Over" here and "Match over" beside it (the first-time review, "Worst problems" 8).
  const bits = [];
  if (h.round !== null && h.round !== undefined) bits.push(`${S.roundWord} ${h.round}`);
  if (h.phase && !v.result) bits.push(humanize(h.phase));
  dom.roundPhase.textContent = bits.join(" · ");
  dom.roundPhase.title = dom.roundPhase.textContent;

  drawTurn();
  const {myTurn} = turnOf();
  if (myTurn && document.body.dataset.yourTurn === "false") chime();
  document.body.dataset.yourTurn = myTurn ? "true" : "false";
  document.title = `${myTurn ? "▶ Your turn · " : ""}${title} · Lair`;
  fitPace();
}

/** Whose turn, in words ("Waiting for ■ Ana", "Your turn · also waiting for ■ Ana and ▲ Bo"),
 *  its whole words in its tooltip as well (the screen reader reads the text itself). A phone's
 *  narrow column (beside Key and More) reads the line whole, a name never cut: the words as
 *  they are when they fit one line, else shorter words around the names ("Turn: ■ Ana", "Your
 *  turn · also ■ Ana and ▲ Bo") over up to two lines, a long name wrapping; with more names than
 *  that holds, how many ("Your turn · also 3 others"), the names a tap away (#turn-full). The
 *  review's "Waiting for ■ Ha…" cut the name with "…" on one line (the fourth new-user trial's
 *  six stacked lines of names were the other end). */
function drawTurn() {
  const v = S.view;
  if (!v) return;
  const {waiting, me, myTurn} = turnOf();
  const others = myTurn ? waiting.filter((s) => s !== me) : waiting;
  const forms = !PHONE.matches || v.result || !others.length ? [0] : others.length > 1 ? [0, 1, 2] : [0, 1];
  // (the same words at the same width fit the same way: measured again only when they change,
  // as each measure forces a layout)
  const key = `${PHONE.matches}|${innerWidth}|${dom.spectators.hidden}|${!!v.result}|${myTurn}|${others.map(seatName)}`;
  if (key === turnFitted.key) {
    turnLine(dom.turn, v, others, myTurn, turnFitted.form);
  } else {
    for (const form of forms) {
      turnLine(dom.turn, v, others, myTurn, form);
      turnFitted = {key, form};
      if (form === forms[forms.length - 1] || turnLines() <= (form === 0 ? 1 : 2)) break;
    }
  }
  const full = turnFitted.form ? turnLine(el("span"), v, others, myTurn, 0).textContent.trim() : dom.turn.textContent.trim();
  dom.turn.dataset.full = full;
  const words = dom.turn.querySelector(".turn-text");
  if (words) words.title = full;
  if (turnFull && !turnFull.hidden && turnFull.dataset.from === "turn") turnFull.textContent = full;
}
let turnFitted = {key: null, form: 0};

/** Draw whose turn into `box` (returned) in `form` (0: the whole words, 1: shorter words around
 *  the names, 2: how many names); `others`: the seats waited for besides the viewer. */
function turnLine(box, v, others, myTurn, form) {
  box.replaceChildren();
  box.classList.toggle("your-turn", myTurn);
  const words = el("span", {class: "turn-text"});
  const names = () => (form === 2 ? [`${others.length} ${myTurn ? "others" : "players"}`] : joinChips(others));
  if (v.result) {
    // (for a screen reader: this line is the one announced when the match ends)
    words.append(el("span", {class: "sr-only"}, "The match is over."));
  } else if (myTurn) {
    box.append(el("strong", {class: "your-turn-flag"}, "Your turn"));
    if (others.length) words.append(form ? " · also " : " · also waiting for ", ...names());
  } else if (others.length) {
    words.append(form ? "Turn: " : "Waiting for ", ...names());
  }
  if (words.childNodes.length) box.append(words);
  return box;
}

/** How many lines whose turn takes. */
function turnLines() {
  const h = dom.turn.getBoundingClientRect().height;
  const line = parseFloat(getComputedStyle(dom.turn).lineHeight) || 18;
  return Math.round(h / line);
}
window.addEventListener("resize", drawTurn);
if (document.fonts && document.fonts.ready) document.fonts.ready.then(() => { turnFitted.key = null; drawTurn(); });

/** On a desktop row without room for every word, the round and whose turn wrap to a second
 *  line rather than be cut (lair.css); the pace ("Live · no clock") steps aside first when
 *  that saves the line: it is the header's least-used words. (The waiting room says it whole;
 *  a clock shows on each seat.) Phones lay the header out their own way (lair.css): untouched
 *  there. */
function fitPace() {
  const pace = document.getElementById("pace-summary");
  if (!pace) return;
  const meta = pace.parentElement;
  // (the same words at the same width fit the same way: measured again only when they change,
  // not at every view, as each measure forces a layout)
  const header = meta.parentElement;
  const key = `${PHONE.matches}|${innerWidth}|${dom.spectators.hidden}|${header.textContent}`;
  if (key === fitted) return;
  fitted = key;
  pace.classList.remove("squeezed");
  if (PHONE.matches) return;
  const tall = meta.getBoundingClientRect().height;
  pace.classList.add("squeezed");
  if (meta.getBoundingClientRect().height > tall - 2) pace.classList.remove("squeezed");  // no line saved
}
let fitted = null;
window.addEventListener("resize", fitPace);

/** "Ana", "Ana and Bo", "Ana, Bo and Cy" as seat chips. */
export function joinChips(seats) {
  const out = [];
  seats.forEach((s, i) => {
    if (i) out.push(i === seats.length - 1 ? " and " : ", ");
    out.push(seatChip(s, kvCtx()));
  });
  return out;
}

/** An eye (the spectators' count on a phone is the eye and the number). */
function eye() {
  return sv("svg", {class: "spect-eye", viewBox: "0 0 24 16", width: 20, height: 14, "aria-hidden": "true"},
    sv("path", {d: "M1 8 C5 1 19 1 23 8 C19 15 5 15 1 8 Z", fill: "none", stroke: "currentColor", "stroke-width": 2}),
    sv("circle", {cx: 12, cy: 8, r: 3.5, fill: "currentColor"}));
}

export function renderSpectators() {
  const n = S.presence.spectators || 0;
  // "3 watching" on desktop; the eye and "3" on a phone (the word is hidden there: CSS)
  dom.spectators.replaceChildren(eye(), el("span", {class: "spect-n"}, String(n)), el("span", {class: "spect-word"}, " watching"));
  dom.spectators.title = `${n} ${n === 1 ? "spectator" : "spectators"} watching`;
  dom.spectators.setAttribute("aria-label", dom.spectators.title);
  dom.spectators.dataset.count = String(n);
  dom.spectators.hidden = n === 0;  // a line of header saved (phones) when nobody watches
  drawTurn();  // the count took or gave back room
  fitPace();
}

// ----- turn notification sound (opt-in, remembered per browser) --------------------------------

const soundToggle = document.getElementById("sound-toggle");
if (soundToggle) {
  soundToggle.checked = localStorage.getItem("lair.sound") === "on";
  soundToggle.addEventListener("change", () => {
    localStorage.setItem("lair.sound", soundToggle.checked ? "on" : "off");
    if (soundToggle.checked) chime();
  });
}

/** Two short soft notes when it becomes your turn (Web Audio; no file to download). */
function chime() {
  if (!soundToggle || !soundToggle.checked) return;
  try {
    const ctx = chime.ctx || (chime.ctx = new AudioContext());
    [660, 880].forEach((f, i) => {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      const t = ctx.currentTime + i * 0.16;
      osc.frequency.value = f;
      gain.gain.setValueAtTime(0.0001, t);
      gain.gain.exponentialRampToValueAtTime(0.15, t + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, t + 0.15);
      osc.connect(gain).connect(ctx.destination);
      osc.start(t);
      osc.stop(t + 0.16);
    });
  } catch (e) {
    console.warn("table: no sound", e);
  }
}

// ----- phones: whose turn on one line, its whole words a tap away -------------------------------

// A phone's header keeps to 15 % of the screen: whose turn keeps to one line (lair.css cuts it
// with "…"; the fourth new-user trial read six stacked lines, "Your turn / · also waiting for /
// Morgana, / Hard bot 3 and / Hard bot 4"). A tap on it shows its whole words under the header,
// over the page; another tap, or a tap elsewhere, hides them.
// The line of scores at the top of the sticky block (seats.js) shows its whole words the same
// way, under the block (#scores-full), which stays in the window while the header scrolls away:
// "Victory points: Morgana 17 (others see 15), Easy bot 2 15 + 2 hidden relics".
/** On a tap of `source`, `box` (hidden) shows `words()` (once more: hides them); a tap
 *  elsewhere hides them. */
function wholeWordsOnTap(source, box, words) {
  if (!source || !box) return;
  source.addEventListener("click", () => {
    if (!PHONE.matches) return;
    const again = !box.hidden;
    box.textContent = words();
    box.hidden = again || !box.textContent;
  });
  closeOnPressOutside(() => !box.hidden, (t) => source.contains(t), () => { box.hidden = true; });
}
const turnFull = document.getElementById("turn-full");
if (turnFull) turnFull.dataset.from = "turn";
wholeWordsOnTap(dom.turn, turnFull, () => dom.turn.dataset.full || dom.turn.textContent.trim());
wholeWordsOnTap(dom.phoneScores, dom.scoresFull, () => (dom.phoneScores ? dom.phoneScores.title : ""));

// ----- phones: Links, Resign, Sound and Keys behind "More" --------------------------------------

// They open over the page under the header (lair.css), which keeps its height (the fourth
// new-user trial: a row of its own grew the header by 48 px, past 15 % of the screen). Opened
// by the keyboard, the keyboard goes to the first of them; Escape, a tap elsewhere or More
// closes them.
const toolsToggle = document.getElementById("tools-toggle");
const tools = document.getElementById("table-tools");
if (toolsToggle && tools) {
  const setTools = (open, refocus = false) => {
    tools.classList.toggle("open", open);
    toolsToggle.setAttribute("aria-expanded", String(open));
    if (refocus) toolsToggle.focus({preventScroll: true});
  };
  toolsToggle.addEventListener("click", (ev) => {
    const open = !tools.classList.contains("open");
    setTools(open);
    // (a click by the keyboard has no pointer: detail 0)
    if (open && ev.detail === 0) {
      const first = tools.querySelector("a[href], button, summary, input");
      if (first && first.getBoundingClientRect().width) first.focus({preventScroll: true});
    }
  });
  tools.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape" && tools.classList.contains("open") && !ev.target.closest("dialog")) {
      ev.preventDefault();
      ev.stopPropagation();
      setTools(false, true);
    }
  });
  closeOnPressOutside(() => tools.classList.contains("open") && PHONE.matches,
    (t) => tools.contains(t) || toolsToggle.contains(t), () => setTools(false));
}

// ----- phones: the game's key beside "More" (issue 14, item 7: the phone header) ---------------

// The renderer draws its "? Key" (legend.js keyPanel) on the board; on a phone its toggle there
// is hidden (CSS) and this header button opens and closes it instead: the list then shows as a
// sheet at the bottom of the screen.
const keyToggle = document.getElementById("key-toggle");
if (keyToggle) {
  const legend = () => document.querySelector("#board .legend-key");
  const sync = () => {
    const box = legend();
    keyToggle.hidden = !box;
    keyToggle.setAttribute("aria-expanded", String(!!(box && box.open)));
  };
  keyToggle.addEventListener("click", () => {
    const box = legend();
    if (box) box.open = !box.open;
    sync();
  });
  // the board redraws its key with every view (and the key's own Close button closes it)
  new MutationObserver(sync).observe(document.getElementById("board"), {childList: true, subtree: true, attributes: true, attributeFilter: ["open"]});
  sync();
}
