// Lair's generic table client (DESIGN.md, "The table in the browser"; notes/renderer-contract.md).
//
// Owns the websocket (reconnection with backoff, heartbeat), the header, seat panels, prompt
// bar, log, chat, connection status and final result. The game's renderer (an ES module loaded
// from data-renderer-url) only draws #board: mount(root, table) once, update(view) per view.
//
// Server data is never parsed as HTML: every node is built with createElement/textContent.

import {el, humanize, renderPairs, renderValue, seatChip} from "./kv.js";

const FALLBACK_RENDERER = "/static/js/fallback-renderer.js";
/** Okabe–Ito colours: seats 0–3 as the contract fixes them, then spares. */
export const SEAT_COLORS = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442"];
/** A shape per seat so colour is never the only cue. */
const SEAT_SHAPES = ["●", "▲", "■", "◆", "★", "⬟", "✚"];
const CHAT_MAX = 500;
const BACKOFF_FIRST_MS = 500;
const BACKOFF_CAP_MS = 10_000;
const PENDING_TIMEOUT_MS = 15_000;
const CONNECT_TIMEOUT_MS = 15_000;
/** Above this many prompt-bar buttons, group them by action type. */
const GROUP_OVER = 16;
/** Close codes after which reconnecting cannot help (no such match, no access). */
const FATAL_CLOSE_CODES = new Set([4401, 4403, 4404]);
const SEAT_FIXED_KEYS = ["seat", "name", "bot", "connected", "host", "color", "colour", "score"];

// ----- page configuration (data- attributes put there by templates/table.html) ----------------

const root = document.getElementById("table");
const cfg = {
  matchId: root.dataset.matchId,
  game: root.dataset.game,
  title: root.dataset.title || "Lair",
  you: root.dataset.you === "" || root.dataset.you === undefined ? null : Number(root.dataset.you),
  isHost: root.dataset.isHost === "true",
  rendererUrl: root.dataset.rendererUrl || FALLBACK_RENDERER,
  wsPath: root.dataset.wsPath,
  replayUrl: root.dataset.replayUrl,
  lobbyUrl: root.dataset.lobbyUrl || "/",
  // "table" (a player or the host) or "spectator": which chat channel this page writes to.
  chatRole: root.dataset.chatRole === "spectator" ? "spectator" : "table",
  pingMs: Number(root.dataset.pingMs) || 20_000,
  deadMs: Number(root.dataset.deadMs) || 45_000,
};

const $ = (id) => document.getElementById(id);
const dom = {
  title: $("game-title"), status: $("match-status"), roundPhase: $("round-phase"), turn: $("turn"),
  spectators: $("spectators"), conn: $("conn"), seats: $("seats"), board: $("board"),
  result: $("result"), promptBar: $("prompt-bar"), promptText: $("prompt-text"),
  promptActions: $("prompt-actions"), toasts: $("toasts"), log: $("log"),
  chatMessages: $("chat-messages"), chatForm: $("chat-form"), chatInput: $("chat-input"),
  chatCount: $("chat-count"), chatNote: $("chat-note"),
};

// ----- state ---------------------------------------------------------------------------------

let view = null;            // the latest full view
let prevView = null;        // the one before (for "changed" highlights)
let legalIndex = new Map(); // canonical JSON of a legal action -> its index in view.legal_actions
let pending = null;         // {id, timer} while an action awaits its view or error
let renderer = null;        // the renderer module once mounted
let claimed = new Set();    // canonical keys the renderer drew as clickable on the board
let forced = new Set();     // canonical keys the renderer asked to show in the prompt bar anyway
let promptQueued = false;
let boardErrorShown = false;
let presence = {seats: new Map(), spectators: null};
const chatSeen = new Set();
let logCount = 0;
let logLastKey = null;
let viewAt = 0;             // performance.now() when the view arrived: clocks count from there
let voteShown = "";         // which seats offered a replacement vote at the last seat render

// ----- helpers --------------------------------------------------------------------------------

/** JSON with sorted keys: two deep-equal actions give the same string. */
function canon(value) {
  if (Array.isArray(value)) return `[${value.map(canon).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canon(value[k])}`).join(",")}}`;
  }
  return JSON.stringify(value === undefined ? null : value);
}

/** crypto.randomUUID exists only in secure contexts; a LAN game over plain http still needs ids. */
function uuid() {
  if (crypto.randomUUID) return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

function you() {
  return view && view.you !== undefined ? view.you : cfg.you;
}

function seatCount() {
  return view && Array.isArray(view.seats) ? view.seats.length : 0;
}

function seatColor(seat) {
  return SEAT_COLORS[Number(seat) % SEAT_COLORS.length];
}

function seatName(seat) {
  const s = view && Array.isArray(view.seats) ? view.seats[seat] : null;
  return (s && s.name) || `Seat ${Number(seat) + 1}`;
}

function seatShape(seat) {
  return SEAT_SHAPES[Number(seat) % SEAT_SHAPES.length];
}

const kvCtx = () => ({seatName, seatColor, seatShape, seats: seatCount()});

function label(action) {
  if (!view) return "";
  const i = legalIndex.get(canon(action));
  const labels = Array.isArray(view.labels) ? view.labels : [];
  if (i !== undefined && labels[i]) return String(labels[i]);
  // No label from the service: a readable fallback from the action's own fields.
  return Object.entries(action || {})
    .map(([k, v]) => (k === "type" ? humanize(v) : `${humanize(k)} ${typeof v === "object" ? canon(v) : v}`))
    .join(" · ");
}

function ordinal(n) {
  const s = ["th", "st", "nd", "rd"], v = n % 100;
  return n + (s[(v - 20) % 10] || s[v] || s[0]);
}

function seatTag(seat) {
  return seatChip(seat, kvCtx());
}

// ----- the `table` object handed to the renderer (renderer-contract.md) -----------------------

const table = Object.freeze({
  /** Send one of view.legal_actions (deep-equal); anything else is refused. */
  act(action) { return act(action); },
  actions() { return view ? view.legal_actions || [] : []; },
  label,
  find(pred) { return (view ? view.legal_actions || [] : []).filter(pred); },
  seatColor,
  seatName,
  claim(action) {
    claimed.add(canon(action));
    queuePrompt();
  },
  showInPromptBar(actions) {
    for (const a of actions || []) forced.add(canon(a));
    queuePrompt();
  },
  // Read-only extras (not in the contract, safe for renderers to use).
  you,
  seatShape,
  view() { return view; },
  busy() { return pending !== null; },
});

/** Where the host's rematch waits (set by a "rematch" message), or null. */
let rematchUrl = null;

function act(action) {
  if (!view) return false;
  const i = legalIndex.get(canon(action));
  if (i === undefined) {
    console.warn("table.act: refused, not a legal action", action);
    return false;
  }
  if (pending) return false; // one action in flight at a time: a double click sends once
  if (!isOpen()) {
    toast("Not connected: your move was not sent. Reconnecting…", "warn");
    return false;
  }
  const id = uuid();
  clearToasts("error");
  send({type: "action", id, version: view.version, action: view.legal_actions[i]});
  setPending({id, timer: setTimeout(() => setPending(null), PENDING_TIMEOUT_MS)});
  return true;
}

function setPending(p) {
  if (pending && pending.timer) clearTimeout(pending.timer);
  pending = p;
  const busy = p !== null;
  root.classList.toggle("busy", busy);
  document.body.dataset.pending = busy ? "true" : "false";
  for (const b of dom.promptActions.querySelectorAll("button")) b.disabled = busy;
}

// ----- socket ---------------------------------------------------------------------------------

const conn = {ws: null, attempt: 0, retryTimer: null, pingTimer: null, watchTimer: null, lastSeen: 0,
              fatal: false};

function isOpen() {
  return conn.ws !== null && conn.ws.readyState === WebSocket.OPEN;
}

function send(msg) {
  if (!isOpen()) return false;
  conn.ws.send(JSON.stringify(msg));
  return true;
}

function setWs(state, text) {
  document.body.dataset.ws = state;
  root.classList.toggle("offline", state !== "open");
  dom.conn.dataset.state = state;
  dom.conn.textContent = text;
  dom.conn.title = state === "closed" && !conn.fatal ? "Click to retry now" : "";
}

function connect() {
  clearTimeout(conn.retryTimer);
  conn.retryTimer = null;
  if (conn.fatal || conn.ws) return;
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  setWs("connecting", conn.attempt ? "Reconnecting…" : "Connecting…");
  let ws;
  try {
    ws = new WebSocket(`${proto}//${location.host}${cfg.wsPath}`);
  } catch (e) {
    console.error(e);
    scheduleReconnect();
    return;
  }
  conn.ws = ws;
  conn.lastSeen = Date.now();
  startWatchdog(Math.min(cfg.deadMs, CONNECT_TIMEOUT_MS));
  ws.onopen = () => {
    if (conn.ws !== ws) return;
    conn.lastSeen = Date.now();
    setWs("open", "Connected");
    startWatchdog(cfg.deadMs);
    conn.pingTimer = setInterval(() => send({type: "ping"}), cfg.pingMs);
  };
  ws.onmessage = (ev) => {
    if (conn.ws !== ws) return;
    conn.lastSeen = Date.now();
    handle(ev.data);
  };
  ws.onclose = (ev) => {
    if (conn.ws === ws) dropped(ev.code, ev.reason);
  };
  ws.onerror = () => {}; // a close event always follows
}

/** The socket is gone (closed by either side, or declared dead): clean up and retry. */
function dropped(code, reason) {
  stopHeartbeat();
  conn.ws = null;
  setPending(null);
  renderPrompt();
  if (FATAL_CLOSE_CODES.has(code)) {
    conn.fatal = true;
    setWs("closed", "Disconnected");
    toast(reason || "This table is not available to you.", "error");
    return;
  }
  if (code === 1012) {
    // "Service restart": this server process is being replaced; another one is up already,
    // so come back at once (with a little jitter so a whole room does not arrive together).
    conn.attempt = 0;
    clearTimeout(conn.retryTimer);
    setWs("connecting", "Server restarting, reconnecting…");
    conn.retryTimer = setTimeout(connect, 100 + Math.random() * 400);
    return;
  }
  scheduleReconnect();
}

function scheduleReconnect() {
  const base = Math.min(BACKOFF_CAP_MS, BACKOFF_FIRST_MS * 2 ** conn.attempt);
  const delay = Math.min(BACKOFF_CAP_MS, Math.round(base * (0.75 + Math.random() * 0.5)));
  conn.attempt += 1;
  setWs("closed", `Offline, retrying in ${Math.ceil(delay / 1000)} s`);
  clearTimeout(conn.retryTimer);
  conn.retryTimer = setTimeout(connect, delay);
}

function retryNow() {
  if (conn.ws || conn.fatal) return;
  conn.attempt = 0;
  connect();
}

/** Declare the socket dead when nothing (not even a pong) arrived for `limitMs`: a silent
 *  network drop can leave a socket "open" for minutes, and a connect attempt can hang. */
function startWatchdog(limitMs) {
  stopHeartbeat();
  conn.watchTimer = setInterval(() => {
    if (conn.ws && Date.now() - conn.lastSeen > limitMs) {
      const ws = conn.ws;
      conn.ws = null;
      try { ws.close(4000, "heartbeat timeout"); } catch (e) { /* already closing */ }
      dropped(4000, "");
    }
  }, Math.max(200, Math.min(5000, limitMs / 4)));
}

function stopHeartbeat() {
  clearInterval(conn.pingTimer);
  clearInterval(conn.watchTimer);
  conn.pingTimer = conn.watchTimer = null;
}

function handle(data) {
  let msg;
  try {
    msg = JSON.parse(data);
  } catch (e) {
    console.warn("table: ignoring a non-JSON frame");
    return;
  }
  switch (msg.type) {
    case "view":
      conn.attempt = 0;
      onView(msg.view);
      break;
    case "error":
      onError(msg);
      break;
    case "chat":
      addChat(msg);
      break;
    case "presence":
      onPresence(msg);
      break;
    case "ack":  // our action landed (its view came just before): allow the next one
      if (pending && msg.ref === pending.id) setPending(null);
      break;
    case "pong":
      break;
    case "notice":  // the service tells the table: a resignation, a seat out of time, a vote
      toast(String(msg.text || ""), "info", "notice");
      break;
    case "rematch":  // the host started a rematch: offer the way to its waiting room
      rematchUrl = msg.url;
      toast("The host started a rematch with the same players.", "info");
      renderResult();
      break;
    case "reload":
      location.reload();
      break;
    default:
      console.warn("table: unknown message type", msg.type);
  }
}

// ----- incoming messages ----------------------------------------------------------------------

function onView(v) {
  if (!v || typeof v !== "object") return;
  // The seat this page was drawn for went to a bot (the host, a vote, out of time) or came
  // back (taken back in another tab): the parts the server drew with the page ("Take my seat
  // back", Resign, the chat role) belong to the old role, so draw the page again. Once drawn
  // again the page and the socket agree, so this happens once per change.
  if (v.you !== undefined && (v.you ?? null) !== cfg.you && !v.result) {
    location.reload();
    return;
  }
  if (!completeView(v)) {  // a delta that does not fit what we hold (should not happen)
    resync();
    return;
  }
  prevView = view;
  view = v;
  viewAt = performance.now();
  legalIndex = new Map((v.legal_actions || []).map((a, i) => [canon(a), i]));
  presence = {seats: new Map((v.seats || []).map((s, i) => [i, !!s.connected])),
              spectators: v.match && typeof v.match.spectators === "number" ? v.match.spectators : presence.spectators};
  // A view caused by another seat's move does not end our pending action: its "ack" (or
  // error) does, so a quick second click cannot be built on a version about to be stale.
  const wasMyTurn = document.body.dataset.yourTurn === "true";
  renderHeader();
  renderSeats();
  renderSpectators();
  renderResult();
  renderLog();
  renderChatNote();
  runRenderer();
  if (!wasMyTurn && document.body.dataset.yourTurn === "true" && !v.result) focusPromptBar();
  // Exposed for tests and assistive tooling: the version on screen and whether it is over.
  document.body.dataset.version = String(v.version);
  document.body.dataset.finished = v.result ? "true" : "false";
  const resign = $("resign");
  if (resign) resign.hidden = !!v.result || (me() !== null && paceSeat(me()).resigned);
  // Seat controls rendered with the page make no sense once the match is over.
  for (const box of document.querySelectorAll(".host-controls, .away-notice")) box.hidden = !!v.result;
}

/** Views carry what this socket lacks (DESIGN.md "The wire"): the log from `log_from` on, and
 *  without the game parts named in `kept`, which never change. Fill them in from the view we
 *  hold; false if that view is not the one the delta was made for. */
function completeView(v) {
  const from = Number(v.log_from) || 0;
  if (from > 0) {
    if (!view || !Array.isArray(view.log) || view.log.length !== from) return false;
    v.log = view.log.concat(Array.isArray(v.log) ? v.log : []);
  }
  if (Array.isArray(v.kept) && v.kept.length) {
    if (!view || !view.game || !v.game) return false;
    for (const k of v.kept) {
      if (!(k in view.game)) return false;
      v.game[k] = view.game[k];
    }
  }
  return true;
}

/** Start over on a fresh socket, whose first view is whole. */
function resync() {
  const ws = conn.ws;
  conn.ws = null;
  try { if (ws) ws.close(4000, "resync"); } catch (e) { /* already closing */ }
  stopHeartbeat();
  conn.attempt = 0;
  connect();
}

function me() {
  return you();
}

/** Refusals that say nothing about the move itself: the same move may simply be sent again. */
const RETRYABLE = new Set(["busy", "rate_limited"]);

function onError(msg) {
  if (pending && (!msg.ref || msg.ref === pending.id)) setPending(null);
  const text = msg.message || humanize(msg.code || "error");
  if (RETRYABLE.has(msg.code)) {
    // A short notice (no alert): the prompt is usable again, the player just tries again.
    for (const old of dom.toasts.querySelectorAll(`.toast[data-code="${msg.code}"]`)) old.remove();
    const t = toast(`${text} Your move was not made; you can send it again.`, "warn", msg.code);
    setTimeout(() => t.remove(), 4000);
    return;
  }
  toast(text, "error", msg.code);
}

function onPresence(msg) {
  for (const s of msg.seats || []) presence.seats.set(Number(s.seat), !!s.connected);
  if (typeof msg.spectators === "number") presence.spectators = msg.spectators;
  for (const panel of dom.seats.querySelectorAll(".seat-panel")) {
    setDot(panel, presence.seats.get(Number(panel.dataset.seat)));
  }
  renderSpectators();
}

// ----- header, title --------------------------------------------------------------------------

function renderHeader() {
  const h = view.header || {};
  const title = (view.match && view.match.title) || cfg.title;
  dom.title.textContent = title;
  const status = (view.match && view.match.status) || root.dataset.status || "";
  dom.status.textContent = status;
  dom.status.dataset.status = status;

  const bits = [];
  if (h.round !== null && h.round !== undefined) bits.push(`Round ${h.round}`);
  if (h.phase) bits.push(humanize(h.phase));
  dom.roundPhase.textContent = bits.join(" · ");

  const waiting = Array.isArray(h.waiting_for) ? h.waiting_for : [];
  const me = you();
  const myTurn = me !== null && waiting.includes(me);
  dom.turn.replaceChildren();
  dom.turn.classList.toggle("your-turn", myTurn);
  if (view.result) {
    dom.turn.append("Match over");
  } else if (myTurn) {
    dom.turn.append(el("strong", {class: "your-turn-flag"}, "Your turn"));
    const others = waiting.filter((s) => s !== me);
    if (others.length) dom.turn.append(" · also waiting for ", ...joinChips(others));
  } else if (waiting.length) {
    dom.turn.append("Waiting for ", ...joinChips(waiting));
  }
  if (myTurn && document.body.dataset.yourTurn === "false") chime();
  document.body.dataset.yourTurn = myTurn ? "true" : "false";
  document.title = `${myTurn ? "▶ Your turn · " : ""}${title} · Lair`;
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

function joinChips(seats) {
  const out = [];
  seats.forEach((s, i) => {
    if (i) out.push(i === seats.length - 1 ? " and " : ", ");
    out.push(seatTag(s));
  });
  return out;
}

function renderSpectators() {
  const n = presence.spectators || 0;
  dom.spectators.textContent = `${n} watching`;
  dom.spectators.dataset.count = String(n);
  dom.spectators.hidden = n === 0;  // a line of header saved (phones) when nobody watches
}

// ----- seat panels ----------------------------------------------------------------------------

function renderSeats() {
  const seats = Array.isArray(view.seats) ? view.seats : [];
  const waiting = (view.header && view.header.waiting_for) || [];
  const scores = view.result && view.result.scores ? view.result.scores : null;
  const me = you();
  const panels = seats.map((s, i) => {
    const seat = typeof s.seat === "number" ? s.seat : i;
    const panel = el("section", {class: `seat-panel seat-${seat}`, dataset: {seat: String(seat)},
                                 "aria-label": seatName(seat)});
    panel.style.setProperty("--seat-color", seatColor(seat));
    if (seat === me) panel.classList.add("is-you");
    if (waiting.includes(seat)) panel.classList.add("is-waiting");

    const head = el("header", {class: "seat-head"},
      el("span", {class: "seat-shape", "aria-hidden": "true"}, seatShape(seat)),
      el("span", {class: "seat-name"}, seatName(seat)));
    if (seat === me) head.append(el("span", {class: "badge badge-you"}, "you"));
    if (s.host) head.append(el("span", {class: "badge badge-host", title: "Host"}, "host"));
    if (s.bot) head.append(el("span", {class: "badge badge-bot", title: "Played by a bot"}, "bot"));
    const dot = el("span", {class: "dot"}, el("span", {class: "sr-only"}));
    head.append(dot);
    panel.append(head);
    setDot(panel, presence.seats.has(seat) ? presence.seats.get(seat) : !!s.connected);

    const ps = paceSeat(seat);
    if (waiting.includes(seat) && !view.result) {
      // a player with no table open is not thinking: the table waits for them to come back
      const text = seat === me ? "Your move" : awayFor(ps) !== null ? "Their move (away)" : "Thinking…";
      panel.append(el("p", {class: "seat-waiting"}, text));
    }
    if (ps.resigned) {
      panel.classList.add("is-resigned");
      head.insertBefore(el("span", {class: "badge badge-resigned", title: "This player resigned"}, "resigned"), dot);
    }
    if (ps.left !== null && ps.left !== undefined && !view.result) {
      panel.append(el("p", {class: "seat-clock", dataset: {seat: String(seat)}, title: clockTitle()},
        el("span", {class: "clock-icon", "aria-hidden": "true"}, "⏱"), " ",
        el("span", {class: "clock-time"}, "")));
    }
    const away = awayFor(ps);
    if (away !== null && !view.result) {
      panel.append(el("p", {class: "seat-away muted", dataset: {seat: String(seat)},
                            title: "No table of this player is open"}, ""));
    }
    if (canVote(seat, ps)) panel.append(voteForm(seat, ps));
    const score = scores ? (scores[seat] ?? scores[String(seat)]) : s.score;
    if (score !== undefined && score !== null) {
      const prevSeat = prevView && prevView.seats ? prevView.seats[i] : null;
      const sc = el("p", {class: "seat-score"}, el("span", {class: "muted"}, "Score "),
                    el("strong", {dataset: {key: "score"}}, String(score)));
      if (!scores && prevSeat && prevSeat.score !== s.score) sc.classList.add("changed");
      panel.append(sc);
    }
    const prevSeat = prevView && prevView.seats ? prevView.seats[i] : null;
    const info = Object.keys(s).filter((k) => !SEAT_FIXED_KEYS.includes(k));
    if (info.length) panel.append(renderPairs(s, kvCtx(), {skip: SEAT_FIXED_KEYS, prev: prevSeat}));
    return panel;
  });
  dom.seats.replaceChildren(...panels);
  voteShown = voteKey();
  tickClocks();
}

// ----- pace: clocks, absent players, votes (view.pace, app/matches/pace.py) -------------------

/** The public pace facts of a seat ({left, running, resigned, away, votes, needed}). */
function paceSeat(seat) {
  const p = view && view.pace && Array.isArray(view.pace.seats) ? view.pace.seats[seat] : null;
  return p || {left: null, running: false, resigned: false, away: null, votes: [], needed: null};
}

function sinceView() {
  return (performance.now() - viewAt) / 1000;
}

function awayFor(ps) {
  return ps.away === null || ps.away === undefined ? null : ps.away + sinceView();
}

function clockTitle() {
  const p = view.pace || {};
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
  if (!view || !view.pace) return;
  const turnBased = view.pace.pace === "turn";
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
  const limit = view && view.pace ? view.pace.replace_after : null;
  const me = you();
  const waiting = (view.header && view.header.waiting_for) || [];
  const away = awayFor(ps);
  return !!limit && !view.result && me !== null && me !== seat && !paceSeat(me).resigned &&
    waiting.includes(seat) && away !== null && away >= limit && ps.needed;
}

function voteKey() {
  if (!view || !Array.isArray(view.seats)) return "";
  return view.seats.map((_, i) => (canVote(i, paceSeat(i)) ? "1" : "0")).join("");
}

function voteForm(seat, ps) {
  const me = you();
  const votes = Array.isArray(ps.votes) ? ps.votes : [];
  const count = `${votes.length}/${ps.needed}`;
  const box = el("div", {class: "seat-vote"});
  if (votes.includes(me)) {
    box.append(el("p", {class: "muted"}, `You voted to hand this seat to a bot (${count}).`));
    return box;
  }
  const form = el("form", {method: "post", action: `/m/${encodeURIComponent(cfg.matchId)}/vote`, class: "inline"},
    el("input", {type: "hidden", name: "seat", value: String(seat)}),
    el("button", {class: "btn btn-small", type: "submit", id: `vote-${seat}`,
                  title: "The player can take the seat back when they return"},
       `Vote: a bot plays ${seatName(seat)} (${count})`));
  box.append(form);
  return box;
}

setInterval(tickClocks, 250);

// The resign button asks first (a native modal dialog; "Keep playing" closes it).
{
  const button = $("resign");
  const dialog = $("resign-dialog");
  if (button && dialog && dialog.showModal) button.addEventListener("click", () => {
    // Worded from the latest view: another player's resignation may have changed the outcome.
    const text = $("resign-text");
    const seat = me();
    if (text && seat !== null && view && view.pace) {
      text.textContent = paceSeat(seat).resign_ends ? text.dataset.ends : text.dataset.bot;
    }
    dialog.showModal();
  });
}

function setDot(panel, connected) {
  const dot = panel.querySelector(".dot");
  if (!dot) return;
  const bot = panel.querySelector(".badge-bot");
  const on = !!connected || !!bot;
  dot.classList.toggle("online", on);
  dot.classList.toggle("offline", !on);
  dot.title = on ? "Connected" : "Not connected";
  dot.firstChild.textContent = on ? "connected" : "not connected";
  panel.classList.toggle("is-offline", !on);
}

// ----- board (renderer) and prompt bar ----------------------------------------------------------

async function loadRenderer() {
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
    mod.mount(dom.board, table);
  } catch (e) {
    console.error("table: renderer mount failed", e);
    toast("The game board failed to start; use the buttons below.", "warn");
  }
  renderer = mod;
  if (view) runRenderer();
}

function runRenderer() {
  claimed = new Set();
  forced = new Set();
  if (renderer && view) {
    const focus = focusedKey(dom.board, "[data-action], [data-pick]");
    try {
      renderer.update(view);
      restoreFocus(dom.board, focus);
    } catch (e) {
      // A broken board must not hide any legal action: everything goes to the prompt bar.
      console.error("table: renderer update failed", e);
      claimed = new Set();
      if (!boardErrorShown) toast("Part of the board could not be drawn; every move is still in the bar below.", "warn");
      boardErrorShown = true;
    }
  }
  renderPrompt();
}

/** The element holding focus inside `box`, as a selector that finds its redrawn twin. */
function focusedKey(box, selector) {
  const a = document.activeElement;
  const hit = a && box.contains(a) && a.closest ? a.closest(selector) : null;
  if (!hit) return null;
  if (hit.dataset.action !== undefined) return `[data-action="${CSS.escape(hit.dataset.action)}"]`;
  if (hit.dataset.pick !== undefined) return `[data-pick="${CSS.escape(hit.dataset.pick)}"]`;
  return null;
}

/** Redrawing replaced the focused element: keep the keyboard user's place. */
function restoreFocus(box, key) {
  if (!key || box.contains(document.activeElement)) return;
  const twin = box.querySelector(key);
  if (twin && !twin.disabled) twin.focus();
}

function queuePrompt() {
  if (promptQueued) return;
  promptQueued = true;
  queueMicrotask(() => {
    promptQueued = false;
    renderPrompt();
  });
}

function renderPrompt() {
  if (!view) return;
  const me = you();
  const waiting = (view.header && view.header.waiting_for) || [];
  const myTurn = me !== null && waiting.includes(me);
  dom.promptBar.classList.toggle("your-turn", myTurn && !view.result);

  let text;
  if (view.result) text = "The match is over.";
  else if (view.prompt && view.prompt.text) text = view.prompt.text;
  else if (me === null) text = "You are watching this match.";
  else if (waiting.length) text = "Waiting for other players…";
  else text = "";
  if (view.result === null && !isOpen()) text = text ? `${text} (offline: moves resume when reconnected)` : "Offline…";
  dom.promptText.textContent = text;
  // Rules help: "?" opens the rules-summary section the prompt comes from, in a new tab so the
  // table (and its socket) stays as it is.
  const rule = !view.result && view.prompt && view.prompt.text ? view.prompt.rule : null;
  if (typeof rule === "string" && rule) {
    dom.promptText.append(" ", el("a", {
      class: "rule-link", href: `/rules/${encodeURIComponent(cfg.game)}#${encodeURIComponent(rule)}`,
      target: "_blank", rel: "noopener", title: "Rules for this step", "aria-label": "Rules for this step",
    }, "?"));
  }

  const legal = view.legal_actions || [];
  const buttons = [];
  if (renderer) {
    legal.forEach((a) => {
      const k = canon(a);
      if (claimed.has(k) && !forced.has(k)) return;
      const b = el("button", {type: "button", class: "btn action-btn", dataset: {action: JSON.stringify(a)}},
                   label(a));
      if (a && (a.type === "cancel" || a.type === "undo")) b.classList.add("btn-secondary");
      b.disabled = pending !== null || !isOpen();
      b.addEventListener("click", () => act(a));
      buttons.push([a, b]);
    });
  }
  const focus = focusedKey(dom.promptActions, "button");
  dom.promptActions.replaceChildren(...groupButtons(buttons));
  dom.promptActions.classList.toggle("many", buttons.length > GROUP_OVER);
  restoreFocus(dom.promptActions, focus);
  numberButtons();
}

/** Many buttons (a game without a board drawing) are grouped by action type, one labelled row
 *  per type, so a long list stays scannable. */
function groupButtons(pairs) {
  const types = new Set(pairs.map(([a]) => (a && a.type) || ""));
  if (pairs.length <= GROUP_OVER || types.size < 2) return pairs.map(([, b]) => b);
  const groups = new Map();
  for (const [a, b] of pairs) {
    const t = (a && a.type) || "";
    if (!groups.has(t)) groups.set(t, []);
    groups.get(t).push(b);
  }
  return [...groups].map(([t, bs]) => el("div", {class: "action-group", role: "group", "aria-label": humanize(t)},
    el("span", {class: "action-group-label"}, `${humanize(t || "other")} (${bs.length})`), ...bs));
}

// Renderers attach their own click/Enter handlers; this catches clickable board elements whose
// renderer did not (or a plain Space on a focusable div), and never acts twice: once the
// renderer's handler has acted, `pending` is set.
dom.board.addEventListener("click", (ev) => boardActivate(ev));
dom.board.addEventListener("keydown", (ev) => {
  if (ev.key === "Enter" || ev.key === " ") boardActivate(ev);
});

function boardActivate(ev) {
  const target = ev.target.closest ? ev.target.closest("[data-action]") : null;
  if (!target || !dom.board.contains(target) || (target.tagName === "BUTTON" && ev.type === "keydown")) return;
  if (ev.defaultPrevented || pending) return;
  let action;
  try {
    action = JSON.parse(target.dataset.action);
  } catch (e) {
    return;
  }
  if (!legalIndex.has(canon(action))) return;
  if (ev.type === "keydown") ev.preventDefault();
  act(action);
}

// ----- toasts ---------------------------------------------------------------------------------

function toast(text, kind = "info", code = null) {
  const t = el("div", {class: `toast toast-${kind}`, role: kind === "error" ? "alert" : "status",
                       dataset: {kind, code: code || ""}},
    el("span", {class: "toast-text"}, text));
  const close = el("button", {type: "button", class: "toast-close", "aria-label": "Dismiss"}, "×");
  close.addEventListener("click", () => t.remove());
  t.append(close);
  dom.toasts.append(t);
  while (dom.toasts.children.length > 3) dom.toasts.firstElementChild.remove();
  if (kind !== "error") setTimeout(() => t.remove(), 8000);
  return t;
}

function clearToasts(kind) {
  for (const t of dom.toasts.querySelectorAll(`.toast-${kind}`)) t.remove();
}

document.addEventListener("keydown", (ev) => {
  // Escape closes the newest toast, unless the board uses it (e.g. to drop a pick).
  if (ev.key !== "Escape" || ev.defaultPrevented || dom.board.contains(document.activeElement)) return;
  if (dom.toasts.lastElementChild) dom.toasts.lastElementChild.remove();
});

// ----- keyboard play --------------------------------------------------------------------------
// Tab / Shift+Tab walk the board's targets and the prompt bar's buttons, Enter plays the focused
// one; 1–9 press the prompt bar's buttons in order, U presses "Undo", Escape drops a half-made
// pick on the board. Keys typed into a text field (the chat) are never taken.

const UNDO_KEY = "U";

/** Shortcut keys shown on (and announced for) the prompt bar's buttons, in screen order. */
function numberButtons() {
  let n = 0;
  for (const b of dom.promptActions.querySelectorAll("button[data-action]")) {
    let type = null;
    try { type = JSON.parse(b.dataset.action).type; } catch (e) { /* not an action */ }
    const key = type === "undo" ? UNDO_KEY : (n < 9 ? String(++n) : null);
    if (key === null) continue;
    b.dataset.key = key;
    b.setAttribute("aria-keyshortcuts", key);
    b.title = `Shortcut: ${key}`;
  }
}

/** It just became your turn: bring the keyboard to the prompt bar, unless the player is busy
 *  elsewhere (typing in the chat, on a board target, in the header's menus). */
function focusPromptBar() {
  const a = document.activeElement;
  if (a && a !== document.body) return;
  dom.promptBar.focus({preventScroll: true});
}

function typingIn(target) {
  if (!target || !target.tagName) return false;
  if (target.isContentEditable || target.tagName === "TEXTAREA" || target.tagName === "SELECT") return true;
  return target.tagName === "INPUT" && !["checkbox", "radio", "button", "submit", "reset", "range"].includes(target.type);
}

// Captured on the document, so it runs before the toasts' Escape handler above.
document.addEventListener("keydown", (ev) => {
  if (ev.defaultPrevented || ev.ctrlKey || ev.metaKey || ev.altKey || ev.repeat || typingIn(ev.target)) return;
  if (ev.key === "Escape") {
    // The renderer drops its pick on Escape while focus is on the board; from anywhere else the
    // key is handed to the board first, and closes a message only if the board had no pick.
    if (!dom.board.contains(ev.target) &&
        !dom.board.dispatchEvent(new KeyboardEvent("keydown", {key: "Escape", bubbles: false, cancelable: true}))) {
      ev.preventDefault();
    }
    return;
  }
  const key = ev.key.length === 1 ? ev.key.toUpperCase() : null;
  if (!key || !/^[1-9U]$/.test(key)) return;
  const b = dom.promptActions.querySelector(`button[data-key="${key}"]`);
  if (!b || b.disabled) {
    // Say why nothing happened rather than nothing at all (number keys may just be typos).
    if (key === "U" && view && !view.result && me() !== null) {
      toast("Nothing to undo now: only your own latest moves, before anything random or hidden was revealed and before another player acted.", "info");
    }
    return;
  }
  ev.preventDefault();
  b.click();
}, {capture: true});

// ----- log ------------------------------------------------------------------------------------

function renderLog() {
  const log = Array.isArray(view.log) ? view.log : [];
  const box = dom.log;
  const atBottom = logCount === 0 || box.scrollHeight - box.scrollTop - box.clientHeight < 48;
  // Append only what is new; rebuild when the past changed (an undo shortens the log).
  if (log.length < logCount || (logCount && canon(log[logCount - 1]) !== logLastKey)) {
    box.replaceChildren();
    logCount = 0;
  }
  const fresh = logCount > 0;
  for (let i = logCount; i < log.length; i++) box.append(logEntry(log[i], fresh));
  logCount = log.length;
  logLastKey = logCount ? canon(log[logCount - 1]) : null;
  if (atBottom) box.scrollTop = box.scrollHeight;
}

function logEntry(e, fresh) {
  const text = typeof e === "string" ? e : e && e.text !== undefined ? String(e.text) : canon(e);
  const li = el("li", {class: "log-entry"});
  if (fresh) li.classList.add("new");
  const to = e && Array.isArray(e.to) ? e.to : null;
  // Tag who could read an addressed event, from the viewer's side: "only you", "you & Ana"
  // (a team), none when every seat but one reads it (the missing seat got its own wording:
  // `others`, marked by the server, app/matches/views.py _others_wordings).
  const me = you();
  const n = seatCount();
  const mine = to && me !== null && to.includes(me);
  const restOfTable = !!(e && e.others) || (to && to.length > 1 && to.length >= n - 1);
  if (to && !(mine && restOfTable)) {
    li.classList.add("private");
    const onlyYou = mine && to.length === 1;
    const others = to.filter((s) => s !== me).map(seatName);
    const left = [...Array(n).keys()].filter((s) => !to.includes(s)).map(seatName);
    const tagText = onlyYou ? "only you" : mine ? `you & ${others.join(", ")}`
      : e.others && left.length ? `all but ${left.join(", ")}`
      : to.length === 1 ? `only ${seatName(to[0])}` : `hidden from others`;
    li.append(el("span", {class: "log-tag", title: `Seen by ${to.map(seatName).join(", ")}`}, tagText), " ");
    if (mine) li.classList.add("to-you");
  }
  li.append(el("span", {class: "log-text"}, text));
  return li;
}

// ----- chat -----------------------------------------------------------------------------------

function chatTime(at) {
  if (at === undefined || at === null || at === "") return "";
  let d;
  if (typeof at === "number") d = new Date(at < 1e12 ? at * 1000 : at);
  else d = new Date(at);
  if (Number.isNaN(d.getTime())) return "";
  return d.toLocaleTimeString([], {hour: "2-digit", minute: "2-digit"});
}

function addChat(msg) {
  // The server may resend history on reconnect: show each message once.
  const key = canon([msg.from, msg.text, msg.at]);
  if (msg.at !== undefined && chatSeen.has(key)) return;
  chatSeen.add(key);
  const box = dom.chatMessages;
  const atBottom = box.scrollHeight - box.scrollTop - box.clientHeight < 48;
  const f = msg.from;
  const from = typeof f === "number" ? seatName(f)
    : f && typeof f === "object" ? String(f.name ?? (typeof f.seat === "number" ? seatName(f.seat) : "?"))
    : String(f ?? "?");
  // The server sends the spectators' channel to spectators only; mark it so they can tell.
  const spectatorLine = msg.channel === "spectators";
  const li = el("li", {class: msg.system ? "chat-msg chat-system"
    : spectatorLine ? "chat-msg chat-spectators" : "chat-msg"});
  const time = chatTime(msg.at);
  if (time) li.append(el("time", {class: "chat-time muted"}, time), " ");
  if (spectatorLine) li.append(el("span", {class: "chat-channel badge"}, "spectators"), " ");
  li.append(el("span", {class: "chat-from"}, from), el("span", {class: "chat-text"}, String(msg.text ?? "")));
  box.append(li);
  while (box.children.length > 300) box.firstElementChild.remove();
  if (atBottom) box.scrollTop = box.scrollHeight;
}

/** Say where this page's chat lines go (the channels: README "Playing"). */
function renderChatNote() {
  if (!dom.chatNote) return;
  const open = !!(view && view.match && view.match.spectator_chat_open);
  let note, placeholder;
  if (cfg.chatRole === "spectator") {
    note = open
      ? "The host opened the table: your messages go to everyone, players included."
      : "You are watching: your messages go to the spectators' chat, which the players don't see. You can read the players' table chat.";
    placeholder = open ? "Say something to the table…" : "Chat with the spectators…";
  } else {
    note = open
      ? "The host lets spectators talk to the table."
      : "Table chat: players and spectators read it. Spectators chat among themselves.";
    placeholder = "Say something wicked…";
  }
  dom.chatNote.textContent = note;
  dom.chatInput.placeholder = placeholder;
  root.dataset.spectatorChat = open ? "open" : "apart";
}
renderChatNote();

dom.chatInput.maxLength = CHAT_MAX;
dom.chatInput.addEventListener("input", () => {
  const n = dom.chatInput.value.length;
  dom.chatCount.textContent = n > CHAT_MAX - 100 ? `${n}/${CHAT_MAX}` : "";
});
dom.chatForm.addEventListener("submit", (ev) => {
  ev.preventDefault();
  const text = dom.chatInput.value.trim().slice(0, CHAT_MAX);
  if (!text) return;
  if (send({type: "chat", text})) {
    dom.chatInput.value = "";
    dom.chatCount.textContent = "";
  } else {
    toast("Not connected: message not sent.", "warn");
  }
});

// ----- final result ---------------------------------------------------------------------------

function renderResult() {
  const r = view.result;
  dom.result.hidden = !r;
  root.classList.toggle("is-finished", !!r);
  if (!r) {
    dom.result.replaceChildren();
    return;
  }
  const scores = r.scores || {};
  const scoreOf = (s) => scores[s] ?? scores[String(s)];
  const ranks = el("ol", {class: "ranks"});
  let place = 1;
  for (const group of r.ranks || []) {
    const seats = Array.isArray(group) ? group : [group];
    for (const s of seats) {
      const sc = scoreOf(s);
      ranks.append(el("li", {class: `rank rank-${place}`, dataset: {seat: String(s)}},
        el("span", {class: "rank-place"}, ordinal(place)), seatTag(s),
        sc !== undefined ? el("span", {class: "rank-score"}, String(sc)) : null,
        seats.length > 1 ? el("span", {class: "muted"}, " (tied)") : null));
    }
    place += seats.length;
  }
  const gone = new Set(Array.isArray(r.resigned) ? r.resigned : []);
  for (const li of ranks.querySelectorAll("li.rank")) {
    if (gone.has(Number(li.dataset.seat))) li.append(el("span", {class: "badge badge-resigned"}, "resigned"));
  }
  const parts = [el("h2", {id: "result-title"}, "Final result"), ranks];
  if (r.reason) parts.push(el("p", {class: "result-reason"}, String(r.reason)));
  if (r.tiebreak) parts.push(el("p", {class: "tiebreak"}, el("span", {class: "muted"}, "Tiebreak: "), String(r.tiebreak)));
  if (r.breakdown) parts.push(renderBreakdown(r.breakdown, scoreOf));
  const links = el("p", {class: "result-links"});
  if (cfg.replayUrl) links.append(el("a", {class: "btn btn-primary", href: cfg.replayUrl}, "Watch the replay"), " ");
  links.append(el("a", {class: "btn", href: cfg.lobbyUrl}, "Back to the lobby"));
  if (rematchUrl) {
    links.append(" ", el("a", {class: "btn btn-primary", id: "rematch-link", href: rematchUrl}, "Join the rematch"));
  } else if (cfg.isHost && cfg.matchId) {
    // A plain form post: the server creates the match and redirects the host to its waiting room.
    const form = el("form", {method: "post", action: `/m/${cfg.matchId}/rematch`, class: "inline"},
      el("button", {class: "btn", type: "submit", id: "rematch"}, "Rematch with the same players"));
    links.append(" ", form);
  }
  parts.push(links);
  dom.result.replaceChildren(...parts);
}

/** view.result.breakdown: {seat: {category: points}} (or [{label, points}] per seat). */
function renderBreakdown(breakdown, scoreOf) {
  const n = seatCount();
  const seats = [...Array(n).keys()];
  const perSeat = seats.map((s) => {
    const b = Array.isArray(breakdown) ? breakdown[s] : breakdown[s] ?? breakdown[String(s)];
    if (Array.isArray(b) && b.every((x) => x && typeof x === "object")) {
      return Object.fromEntries(b.map((x) => [x.label ?? x.name ?? x.category ?? "?", x.points ?? x.score ?? x.value]));
    }
    return b;
  });
  const tabular = perSeat.every((b) => b === undefined || (b && typeof b === "object" && !Array.isArray(b) &&
    Object.values(b).every((v) => v === null || typeof v !== "object")));
  const wrap = el("div", {class: "breakdown"}, el("h3", {}, "Score breakdown"));
  if (!tabular) {
    wrap.append(renderValue(breakdown, kvCtx()));
    return wrap;
  }
  const cats = [];
  // The client adds its own Total row from the scores, so a game's own "Total" is not repeated.
  for (const b of perSeat) {
    for (const k of Object.keys(b || {})) if (!cats.includes(k) && k.toLowerCase() !== "total") cats.push(k);
  }
  const tbl = el("table", {class: "breakdown-table"});
  tbl.append(el("thead", {}, el("tr", {}, el("th", {scope: "col"}, ""),
    ...seats.map((s) => el("th", {scope: "col"}, seatTag(s))))));
  const body = el("tbody");
  for (const c of cats) {
    body.append(el("tr", {}, el("th", {scope: "row"}, humanize(c)),
      ...perSeat.map((b) => el("td", {}, b && b[c] !== undefined && b[c] !== null ? String(b[c]) : "—"))));
  }
  body.append(el("tr", {class: "total"}, el("th", {scope: "row"}, "Total"),
    ...seats.map((s) => el("td", {}, scoreOf(s) !== undefined ? String(scoreOf(s)) : "—"))));
  tbl.append(body);
  wrap.append(el("div", {class: "kv-table-wrap"}, tbl));
  return wrap;
}

// ----- start ----------------------------------------------------------------------------------

dom.conn.addEventListener("click", retryNow);
window.addEventListener("online", retryNow);
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible") retryNow();
});
document.body.dataset.ws = "connecting";
document.body.dataset.pending = "false";
renderSpectators();
connect();
loadRenderer();
