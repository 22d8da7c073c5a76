// The socket and the wire (docs/wire.md): connect, reconnect with backoff and jitter,
// heartbeat, and JSON frames in and out. It knows nothing of views: every frame goes to the
// `onMessage` handler given to start(), every change of the connection to `onState`.

import {CROWDED_CLOSE_CODE, MAX_FAILURES, SLOW_CAP_MS, SLOW_FIRST_MS, backoffDelay} from "../backoff.js";
import {cfg, dom, root} from "./state.js";
import {clearCode, toast} from "./toasts.js";

const BACKOFF_FIRST_MS = 500;
const BACKOFF_CAP_MS = 10_000;
const CONNECT_TIMEOUT_MS = 15_000;
/** Close codes after which reconnecting cannot help (no such match, no access). */
const FATAL_CLOSE_CODES = new Set([4401, 4403, 4404]);

// `crowded`: refusals in a row for too many sockets from this address (close 4429).
const conn = {ws: null, attempt: 0, crowded: 0, retryTimer: null, pingTimer: null, watchTimer: null,
              lastSeen: 0, fatal: false, onMessage: () => {}, onState: () => {}};

export function isOpen() {
  return conn.ws !== null && conn.ws.readyState === WebSocket.OPEN;
}

/** Send `msg` as JSON; false when the socket is not open (nothing is queued). */
export function send(msg) {
  if (!isOpen()) return false;
  conn.ws.send(JSON.stringify(msg));
  return true;
}

/** A view arrived: the connection is good, the next drop starts the backoff afresh. */
export function resetBackoff() {
  conn.attempt = 0;
  if (conn.crowded) clearCode("crowded");  // the refusals' explanation is stale now
  conn.crowded = 0;
}

function setWs(state, text) {
  document.body.dataset.ws = state;
  root.classList.toggle("offline", state !== "open");
  dom.conn.dataset.state = state;
  dom.conn.textContent = text;
  dom.conn.title = state === "closed" && !conn.fatal ? "Click to retry now" : text;
  conn.onState(state);
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
    let msg;
    try {
      msg = JSON.parse(ev.data);
    } catch (e) {
      console.warn("table: ignoring a non-JSON frame");
      return;
    }
    conn.onMessage(msg);
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
  if (code === CROWDED_CLOSE_CODE) {
    crowded(reason);
    return;
  }
  // 1009: the server closed the socket on a frame above its limit (twice MAX_MESSAGE_BYTES);
  // say why before reconnecting, so the player knows that message was not sent.
  if (code === 1009) toast("Message too large: it was not sent.", "error");
  scheduleReconnect();
}

function scheduleReconnect() {
  const delay = backoffDelay(conn.attempt, BACKOFF_FIRST_MS, BACKOFF_CAP_MS);
  conn.attempt += 1;
  clearTimeout(conn.retryTimer);
  conn.retryTimer = setTimeout(connect, delay);
  setWs("closed", `Offline, retrying in ${Math.ceil(delay / 1000)} s`);
}

/** Refused: too many sockets open from this address (other tabs, other devices on the same
 *  network). Say so once, retry as the waiting room does (slowly, a few times), then stop
 *  until the player clicks the badge or comes back to the tab. */
function crowded(reason) {
  const why = reason || "Too many connections from your address.";
  if (conn.crowded === 0) toast(`${why} Close other Lair tabs or devices on your network.`, "error", "crowded");
  conn.crowded += 1;
  clearTimeout(conn.retryTimer);
  if (conn.crowded >= MAX_FAILURES) {
    conn.retryTimer = null;
    setWs("closed", "Too many connections: click to retry");
    return;
  }
  const delay = backoffDelay(conn.crowded - 1, SLOW_FIRST_MS, SLOW_CAP_MS);
  conn.retryTimer = setTimeout(connect, delay);
  setWs("closed", `Too many connections, retrying in ${Math.ceil(delay / 1000)} s`);
}

/** Try again at once (a click on the connection badge, the network or the tab coming back). */
export function retryNow() {
  if (conn.ws || conn.fatal) return;
  conn.attempt = 0;
  conn.crowded = Math.min(conn.crowded, MAX_FAILURES - 1);  // one more try, then stop again
  connect();
}

/** Start over on a fresh socket, whose first view is whole. */
export function resync() {
  const ws = conn.ws;
  conn.ws = null;
  try { if (ws) ws.close(4000, "resync"); } catch (e) { /* already closing */ }
  stopHeartbeat();
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

/** Open the socket. `onMessage(msg)` gets every parsed frame; `onState(state)` every change of
 *  the connection ("connecting", "open", "closed"). */
export function start({onMessage, onState}) {
  conn.onMessage = onMessage;
  conn.onState = onState;
  dom.conn.addEventListener("click", retryNow);
  window.addEventListener("online", retryNow);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") retryNow();
  });
  document.body.dataset.ws = "connecting";
  connect();
}
