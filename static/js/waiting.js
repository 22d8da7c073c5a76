// The waiting room and the invite page (one page: templates/waiting.html). It updates live: when
// the seats change (someone joins or leaves, a bot is added) the room (#room) is redrawn in place
// from a fresh copy of this page, so nobody loses what they were doing; when the match starts or
// is cancelled the page reloads (the invite page then leads to watching the table).
//
// The socket never loops: a refused socket (no access, no such match) stops at once, and one
// that keeps failing backs off (1 s, 2 s, 4 s … up to 30 s) and stops after a few attempts,
// saying so, with a button to try again (backoff.js; a failure counts when the socket closed
// before any message came).

import {CROWDED_CLOSE_CODE, MAX_FAILURES, SLOW_CAP_MS, SLOW_FIRST_MS, backoffDelay} from "./backoff.js";
import {wireCopyButtons} from "./copy.js";
import {seatShapeMark} from "./table/seat-style.js";

const root = document.getElementById("waiting");
const status = document.getElementById("live-status");
const FATAL_CLOSE_CODES = new Set([4401, 4403, 4404]);

// Compared without the "connected" flags and independently of key order.
const seatsKey = (seats) => JSON.stringify(seats.map((s) =>
  Object.keys(s).filter((k) => k !== "connected").sort().map((k) => [k, s[k]])));
let shown = seatsKey(JSON.parse(root.dataset.seats || "[]"));
let failures = 0;
let retryTimer = null;
let leaving = false;
window.addEventListener("beforeunload", () => { leaving = true; });

function setStatus(state, text, retry = false) {
  document.body.dataset.ws = state;
  if (!status) return;
  status.dataset.state = state;
  status.replaceChildren(text);
  if (retry) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "btn btn-small";
    b.id = "live-retry";
    b.textContent = "Try again";
    b.addEventListener("click", () => { failures = 0; connect(); });
    status.append(" ", b);
  }
}

function reload() {
  if (!leaving) { leaving = true; location.reload(); }
}

// ----- redrawing the room in place ------------------------------------------------------------

let refreshing = false;
let again = false;

/** Fetch this page afresh and swap its #room (and the pace summary) into the page. */
async function refresh() {
  if (refreshing) { again = true; return; }
  refreshing = true;
  try {
    const res = await fetch(location.href, {headers: {Accept: "text/html"}, credentials: "same-origin"});
    const doc = res.ok && !res.redirected ? new DOMParser().parseFromString(await res.text(), "text/html") : null;
    const fresh = doc && doc.getElementById("room");
    const page = doc && doc.getElementById("waiting");
    if (!fresh || !page) { reload(); return; }   // started, cancelled or gone: the whole page
    const focused = document.activeElement && document.activeElement.id;
    document.getElementById("room").replaceWith(document.adoptNode(fresh));
    const summary = doc.getElementById("pace-summary");
    if (summary) document.getElementById("pace-summary")?.replaceChildren(...[...summary.childNodes].map((n) => document.adoptNode(n)));
    root.dataset.seats = page.dataset.seats;
    root.dataset.pace = page.dataset.pace;
    shown = seatsKey(JSON.parse(page.dataset.seats || "[]"));
    if (focused && document.getElementById(focused)) document.getElementById(focused).focus();
    wireRoom();
    document.body.dataset.refreshed = String(Number(document.body.dataset.refreshed || 0) + 1);
  } catch (e) {
    console.warn("waiting: refresh failed, reloading", e);
    reload();
  } finally {
    refreshing = false;
    if (again) { again = false; refresh(); }
  }
}

// ----- the socket ---------------------------------------------------------------------------------

function connect() {
  clearTimeout(retryTimer);
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  setStatus("connecting", "Connecting for live updates…");
  let heard = false;
  const ws = new WebSocket(`${proto}//${location.host}${root.dataset.wsPath}`);
  ws.onopen = () => setStatus("open", "Live: this page updates as players join.");
  ws.onmessage = (ev) => {
    heard = true;
    failures = 0;
    let msg;
    try { msg = JSON.parse(ev.data); } catch (e) { return; }
    if (msg.type === "reload" || msg.type === "view") reload();
    else if (msg.type === "lobby" && msg.status && msg.status !== "open") reload();
    else if (msg.type === "lobby" && Array.isArray(msg.seats) && seatsKey(msg.seats) !== shown) refresh();
    else if (msg.type === "lobby" && msg.pace !== undefined && msg.pace !== root.dataset.pace) refresh();
  };
  ws.onclose = (ev) => {
    if (leaving) return;
    if (FATAL_CLOSE_CODES.has(ev.code)) {
      setStatus("closed", `Live updates are off: ${ev.reason || "this page may not listen to the match"}. Reload the page to see changes.`);
      return;
    }
    if (!heard) failures += 1;
    // refused for too many sockets from this address (other tabs, other devices on the network)
    const crowded = ev.code === CROWDED_CLOSE_CODE;
    if (failures >= MAX_FAILURES) {
      setStatus("closed", crowded ? "Live updates stopped: too many connections from your address."
                                  : "Live updates stopped: the server cannot be reached.", true);
      return;
    }
    const delay = backoffDelay(failures - 1, SLOW_FIRST_MS, SLOW_CAP_MS);
    setStatus("closed", crowded ? `Too many connections from your address: reconnecting in ${Math.ceil(delay / 1000)} s…`
                                : `Offline: reconnecting in ${Math.ceil(delay / 1000)} s…`);
    retryTimer = setTimeout(connect, delay);
  };
}

window.addEventListener("online", () => {
  if (document.body.dataset.ws === "closed" && failures >= MAX_FAILURES) { failures = 0; connect(); }
});

// ----- the room's controls (wired again after each redraw) --------------------------------------

/** Each seat's dot becomes its shape in its colour (seat-style.js, as on the table): colour is
 *  never the only cue (issue 14, table review item 8). */
function markSeats() {
  for (const dot of document.querySelectorAll("#seats li[data-seat] .seat-dot")) {
    dot.replaceWith(seatShapeMark(Number(dot.closest("li").dataset.seat)));
  }
}

function wireRoom() {
  markSeats();
  // Cancelling asks first (a native modal dialog; "Keep the match" closes it).
  const button = document.getElementById("cancel");
  const dialog = document.getElementById("cancel-dialog");
  if (button && dialog && dialog.showModal) button.addEventListener("click", () => dialog.showModal());
}

wireRoom();
wireCopyButtons();
connect();
