// The seat panels: name, shape and colour, badges, presence dot, whose turn, score, clocks and
// absences (view.pace, app/matches/pace.py), the vote to hand an absent player's seat to a bot,
// and the seat's public info from the view. Also the Resign dialog, worded from the pace facts.

import {el} from "../dom.js";
import {renderPairs} from "../kv.js";
import {titlesToCards} from "../legend.js";
import {motion} from "../motion.js";
import {scoreIcon, seatBoard, seatScore} from "./board.js";
import {$, cfg, dom, kvCtx, paceSeat, postForm, S, seatColor, seatName, turnOf} from "./state.js";
import {drawPhoneScores, seatScoreOf} from "./phone-scores.js";
import {seatShapeMark} from "./seat-style.js";

const SEAT_FIXED_KEYS = ["seat", "name", "bot", "level", "connected", "host", "color", "colour", "score"];

let voteShown = "";  // which seats offered a replacement vote at the last seat render

export function renderSeats() {
  const v = S.view;
  const seats = Array.isArray(v.seats) ? v.seats : [];
  const {waiting, me} = turnOf();
  const prev = S.prevView;
  const before = motion.snapshot(dom.seats);  // the player boards' numbers flash when they change
  const panels = seats.map((s, i) => {
    const seat = typeof s.seat === "number" ? s.seat : i;
    const panel = el("section", {class: `seat-panel seat-${seat}`, dataset: {seat: String(seat)},
                                 "aria-label": seatName(seat)});
    panel.style.setProperty("--seat-color", seatColor(seat));
    if (seat === me) panel.classList.add("is-you");
    if (waiting.includes(seat)) panel.classList.add("is-waiting");

    const dot = el("span", {class: "dot"}, el("span", {class: "sr-only"}));
    const head = el("header", {class: "seat-head"},
      seatShapeMark(seat),
      el("span", {class: "seat-name"}, seatName(seat)),
      seat === me ? el("span", {class: "badge badge-you"}, "you") : null,
      s.host ? el("span", {class: "badge badge-host", title: "Host"}, "host") : null,
      s.bot ? el("span", {class: "badge badge-bot", title: s.level ? `Played by a bot (level: ${s.level})` : "Played by a bot"}, "bot") : null,
      dot);
    panel.append(head);
    setDot(panel, S.presence.seats.has(seat) ? S.presence.seats.get(seat) : !!s.connected);

    const ps = paceSeat(seat);
    if (waiting.includes(seat) && !v.result) {
      // a player with no table open is not thinking: the table waits for them to come back
      // (a bot thinks; a person is simply on the move)
      const text = seat === me ? "Your move" : awayFor(ps) !== null ? "Their move (away)" : s.bot ? "Thinking…" : "Their move";
      panel.append(el("p", {class: "seat-waiting"}, text));
    }
    if (ps.resigned) {
      panel.classList.add("is-resigned");
      head.insertBefore(el("span", {class: "badge badge-resigned", title: "This player resigned"}, "resigned"), dot);
    }
    if (ps.left !== null && ps.left !== undefined && !v.result) {
      panel.append(el("p", {class: "seat-clock", dataset: {seat: String(seat)}, title: clockTitle()},
        el("span", {class: "clock-icon", "aria-hidden": "true"}, "⏱"), " ",
        el("span", {class: "clock-time"}, "")));
    }
    if (awayFor(ps) !== null && !v.result) {
      panel.append(el("p", {class: "seat-away muted", dataset: {seat: String(seat)},
                            title: "No table of this player is open"}, ""));
    }
    if (canVote(seat, ps)) panel.append(voteForm(seat, ps));
    const prevSeat = prev && prev.seats ? prev.seats[i] : null;
    const {score, note, title} = scoreOf(seat, s);
    if (score !== null) {
      panel.append(el("p", {class: "seat-score", title}, el("span", {class: "muted"}, "Score "),
        el("strong", {dataset: {key: "score", count: `seat-${seat}-score`}}, String(score)),
        note ? el("span", {class: "seat-score-note muted"}, ` ${note}`) : null));
    }
    // The game's player board (resources as pictures with counts), else the facts as words.
    const board = seatBoard(seat);
    const info = Object.keys(s).filter((k) => !SEAT_FIXED_KEYS.includes(k));
    let details = null;
    if (board) {
      // each picture's words as a card on hover, focus or long-press (a touch screen shows no
      // native tooltip: review item 4)
      titlesToCards(board);
      details = board;
    }
    else if (info.length) details = renderPairs(s, kvCtx(), {skip: SEAT_FIXED_KEYS, prev: prevSeat});
    if (details) {
      details.classList.add("seat-details");
      details.id = `seat-details-${seat}`;
      panel.append(foldButton(seat, details.id), details);
    }
    return panel;
  });
  dom.seats.replaceChildren(...panels);
  fitSeats();
  motion.play(dom.seats, before);
  renderPhoneScores(seats);
  voteShown = voteKey();
  tickClocks();
}

// ----- desktops: every seat's panel head in the window (review 7, problem 4) -------------------
// Wide windows keep the seats' column in view while the page scrolls (sticky under the prompt
// bar, lair.css), as tall as the window leaves it below the column's place at the top of the
// page, so that it is whole both there and scrolled. When the panels are taller than that (3-4
// seats at 1366x768), the column goes compact: each panel's head, score and whose turn it is stay,
// and the player boards stay open while they fit: first the one last opened with its "Details"
// button (at first yours, else the first seat the game waits for), then the others in seat
// order; the rest fold behind their "Details". A board folded with its button stays folded.

let preferSeat = null;     // the board opened last with its button (null: the default)
const foldedByHand = new Set();  // boards folded with their button

function foldButton(seat, controls) {
  const b = el("button", {type: "button", class: "seat-fold", "aria-controls": controls,
                          "aria-expanded": "true", title: `Show or hide ${seatName(seat)}'s player board`},
    el("span", {class: "seat-fold-mark", "aria-hidden": "true"}, "▾"), " Details");
  b.addEventListener("click", () => {
    if (b.getAttribute("aria-expanded") === "true") {
      foldedByHand.add(seat);
      if (preferSeat === seat) preferSeat = null;
    } else {
      foldedByHand.delete(seat);
      preferSeat = seat;
    }
    fitSeats();
  });
  return b;
}

function defaultOpenSeat() {
  const {waiting, me} = turnOf();
  if (me !== null) return me;
  return waiting.length ? waiting[0] : null;
}

/** Lay the seats' column out for the window (see above); again on every redraw and resize. */
export function fitSeats() {
  const col = dom.seats;
  if (!col) return;
  const panels = [...col.querySelectorAll(":scope > .seat-panel")];
  const setOpen = (p, on) => {
    p.classList.toggle("folded", !on);
    const b = p.querySelector(":scope > .seat-fold");
    if (b) {
      b.setAttribute("aria-expanded", on ? "true" : "false");
      b.firstChild.textContent = on ? "▾" : "▸";
    }
  };
  col.style.removeProperty("--seats-max");
  col.classList.remove("compact");
  for (const p of panels) setOpen(p, true);
  if (getComputedStyle(col).position !== "sticky") return;
  const body = col.parentElement.getBoundingClientRect();
  const pad = parseFloat(getComputedStyle(col.parentElement).paddingTop) || 0;
  const restTop = body.top + window.scrollY + pad;  // the column's top with the page at its top
  const room = Math.max(160, Math.floor(window.innerHeight - restTop - pad));
  col.style.setProperty("--seats-max", `${room}px`);
  const fits = () => col.scrollHeight <= col.clientHeight + 1;
  if (fits() && !foldedByHand.size) return;
  col.classList.add("compact");
  for (const p of panels) setOpen(p, false);
  const first = preferSeat !== null ? preferSeat : defaultOpenSeat();
  const order = panels.slice().sort((a, b) =>
    (Number(b.dataset.seat) === first) - (Number(a.dataset.seat) === first));
  for (const p of order) {
    const seat = Number(p.dataset.seat);
    if (foldedByHand.has(seat) || !p.querySelector(":scope > .seat-details")) continue;
    setOpen(p, true);
    // (the board opened with its button stays open even when it does not fit: the column
    // then scrolls within itself)
    if (!fits() && seat !== preferSeat) setOpen(p, false);
  }
}

let fitQueued = false;
function fitSoon() {
  if (fitQueued) return;
  fitQueued = true;
  requestAnimationFrame(() => { fitQueued = false; fitSeats(); });
}
window.addEventListener("resize", fitSoon);
// (the header and the prompt bar above the column change its place at the top of the page)
if (window.ResizeObserver) {
  const watch = new ResizeObserver(fitSoon);
  for (const id of ["table-header", "prompt-bar"]) if ($(id)) watch.observe($(id));
}
if (document.fonts && document.fonts.ready) document.fonts.ready.then(fitSoon);

/** A seat's score as its seat panel says it (phone-scores.js), the renderer's `seatScore`
 *  asked through the table's hook. */
function scoreOf(seat, s) {
  return seatScoreOf(S.view, seat, s, seatScore);
}

/** Phones: every seat's score under the header's row, on one line or two (phone-scores.js). */
function renderPhoneScores(seats) {
  drawPhoneScores(dom.phoneScores, S.view, seats, {seatName, seatScore, scoreIcon, scoreWord: S.scoreWord});
}

/** The presence dot of a seat panel: green (connected, or a bot), hollow (not connected), or
 *  grey with a question while this page itself is not connected to the server (then nobody's
 *  presence is known). */
export function setDot(panel, connected) {
  const dot = panel.querySelector(".dot");
  if (!dot) return;
  const bot = panel.querySelector(".badge-bot");
  const unknown = !S.online;
  const on = !unknown && (!!connected || !!bot);
  dot.classList.toggle("unknown", unknown);
  dot.classList.toggle("online", on);
  dot.classList.toggle("offline", !on && !unknown);
  const text = unknown ? "unknown while you are offline" : on ? "connected" : "not connected";
  dot.title = text.charAt(0).toUpperCase() + text.slice(1);
  dot.firstChild.textContent = text;
  panel.classList.toggle("is-offline", !on && !unknown);
}

/** Redraw every seat's presence dot (after a "presence" message or a change of our socket). */
export function refreshDots() {
  for (const panel of dom.seats.querySelectorAll(".seat-panel")) {
    setDot(panel, S.presence.seats.get(Number(panel.dataset.seat)));
  }
}

/** A "presence" message: who is connected now, how many watch. */
export function onPresence(msg) {
  for (const s of msg.seats || []) S.presence.seats.set(Number(s.seat), !!s.connected);
  if (typeof msg.spectators === "number") S.presence.spectators = msg.spectators;
  refreshDots();
}

/** Presence as a new view tells it. */
export function presenceFromView(v) {
  S.presence = {seats: new Map((v.seats || []).map((s, i) => [i, !!s.connected])),
                spectators: v.match && typeof v.match.spectators === "number" ? v.match.spectators : S.presence.spectators};
}

// ----- pace: clocks, absent players, votes (view.pace, app/matches/pace.py) -------------------

function sinceView() {
  return (performance.now() - S.viewAt) / 1000;
}

function awayFor(ps) {
  return ps.away === null || ps.away === undefined ? null : ps.away + sinceView();
}

function clockTitle() {
  const p = S.view.pace || {};
  if (p.pace === "turn") return `Time left for this move (${p.turn_hours} h per move)`;
  return p.increment ? `Time bank (+${p.increment} s per move)` : "Time bank";
}

/** "1:05:09", "4:32", "0:07" (live banks) */
function formatClock(seconds) {
  const t = Math.max(0, Math.ceil(seconds));
  const h = Math.floor(t / 3600), m = Math.floor((t % 3600) / 60), s = t % 60;
  const ss = String(s).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
}

/** "2 d 3 h", "23 h 59 min", "12 min", "40 s" (move limits, absences) */
function formatDuration(seconds) {
  const t = Math.max(0, Math.floor(seconds));
  const d = Math.floor(t / 86400), h = Math.floor((t % 86400) / 3600), m = Math.floor((t % 3600) / 60);
  if (d) return `${d} d ${h} h`;
  if (h) return `${h} h ${m} min`;
  if (m) return `${m} min`;
  return `${t} s`;
}

function tickClocks() {
  const v = S.view;
  if (!v || !v.pace) return;
  const turnBased = v.pace.pace === "turn";
  for (const box of dom.seats.querySelectorAll(".seat-clock")) {
    const ps = paceSeat(Number(box.dataset.seat));
    const left = ps.running ? ps.left - sinceView() : ps.left;
    box.querySelector(".clock-time").textContent = turnBased
      ? `${formatDuration(left)} left` : formatClock(left);
    box.classList.toggle("running", !!ps.running);
    box.classList.toggle("low", !!ps.running && left < (turnBased ? 3600 : 30));
    box.classList.toggle("out", left <= 0);
    box.dataset.left = String(Math.max(0, Math.round(left)));
  }
  for (const p of dom.seats.querySelectorAll(".seat-away")) {
    const away = awayFor(paceSeat(Number(p.dataset.seat)));
    p.textContent = away !== null && away >= 60 ? `Away for ${formatDuration(away)}` : "";
  }
  // An absence crossed the match's limit since the last view: offer the vote.
  if (voteKey() !== voteShown) renderSeats();
}

/** May the viewer vote to hand `seat` to a bot now? (the server checks it again) */
function canVote(seat, ps) {
  const v = S.view;
  const limit = v && v.pace ? v.pace.replace_after : null;
  const {waiting, me} = turnOf();
  const away = awayFor(ps);
  return !!limit && !v.result && me !== null && me !== seat && !paceSeat(me).resigned &&
    waiting.includes(seat) && away !== null && away >= limit && ps.needed;
}

function voteKey() {
  const v = S.view;
  if (!v || !Array.isArray(v.seats)) return "";
  return v.seats.map((_, i) => (canVote(i, paceSeat(i)) ? "1" : "0")).join("");
}

function voteForm(seat, ps) {
  const votes = Array.isArray(ps.votes) ? ps.votes : [];
  const count = `${votes.length}/${ps.needed}`;
  if (votes.includes(turnOf().me)) {
    return el("div", {class: "seat-vote"},
      el("p", {class: "muted"}, `You voted to hand this seat to a bot (${count}).`));
  }
  return el("div", {class: "seat-vote"},
    postForm(`/m/${encodeURIComponent(cfg.matchId)}/vote`,
      el("input", {type: "hidden", name: "seat", value: String(seat)}),
      el("button", {class: "btn btn-small", type: "submit", id: `vote-${seat}`,
                    title: "The player can take the seat back when they return"},
         `Vote: a bot plays ${seatName(seat)} (${count})`)));
}

setInterval(tickClocks, 250);

// The resign button asks first (a native modal dialog; "Keep playing" closes it).
{
  const button = $("resign");
  const dialog = $("resign-dialog");
  if (button && dialog && dialog.showModal) button.addEventListener("click", () => {
    // Worded from the latest view: another player's resignation may have changed the outcome.
    const text = $("resign-text");
    const seat = turnOf().me;
    if (text && seat !== null && S.view && S.view.pace) {
      text.textContent = paceSeat(seat).resign_ends ? text.dataset.ends : text.dataset.bot;
    }
    dialog.showModal();
  });
}
