// Lair's generic table client (docs/design.md "The table in the browser"; docs/renderer-contract.md).
//
// This entry module wires the table's parts together; each lives in static/js/table/:
//   state.js    page configuration, regions, the current view
//   wire.js     the socket: connect, backoff, heartbeat, frames
//   actions.js  sending legal actions, one in flight at a time
//   board.js    the game's renderer and the table API handed to it
//   prompt.js   the prompt bar (and its compact menu of choices)
//   header.js   title, round, whose turn, spectators, turn chime
//   seats.js    seat panels, presence, clocks, votes, Resign
//   log.js      the log (shared with the replay)   result.js  the final result (shared too)
//   chat.js     the chat                           keys.js    keyboard play
//   hint.js     "Suggest a move"                   hint-log.js  hint uses in the log (replay too)
//   phone-top.js  phones: the last move beside the scores, the round once the header is away
//   toasts.js   short messages                     ../motion.js  pieces that move, numbers that flash
//
// Server data is never parsed as HTML: every node is built with createElement/textContent.

import {wireCopyButtons} from "./copy.js";
import {el} from "./dom.js";
import {acked, busy, refused, setPending} from "./table/actions.js";
import {boardPromptText, boardSnapshot, bringDecisionIntoView, loadRenderer, logPlaces, logText, resultReason, revealBelowBar, runRenderer} from "./table/board.js";
import {addChat, renderChatNote} from "./table/chat.js";
import {renderHeader, renderSpectators} from "./table/header.js";
import {hintRefused, onHint, renderHint} from "./table/hint.js";
import {drawHintUses, hintKey} from "./table/hint-log.js";
import {focusPromptBar} from "./table/keys.js";
import {drawLines, drawLog, redrawLog, wireLogHover} from "./table/log.js";
import {queuePrompt, renderPrompt} from "./table/prompt.js";
import {placeLastMove} from "./table/phone-top.js";
import {resultParts} from "./table/result.js";
import {onPresence, presenceFromView, refreshDots, renderSeats} from "./table/seats.js";
import {$, cfg, dom, kvCtx, paceSeat, postForm, promptKey, root, S, seatCount, seatName, setView, turnOf, you} from "./table/state.js";
import {toast} from "./table/toasts.js";
import {resetBackoff, resync, start} from "./table/wire.js";

export {SEAT_COLORS} from "./table/seat-style.js";

// Messages are handled once a frame, in order (the browser paints between frames, not between
// messages): views that arrive together (bots moving quickly, a burst after a slow frame) are
// all applied, but only the newest is drawn. Drawing every view of a quick bot match cost a
// page a full board rebuild each (~0.1 s on a desktop, more on a phone), so a busy table fell
// behind its own socket. A hidden tab (no frames) handles each message at once: its chime and
// title must not wait.
let inbox = [];
let frameAsked = false;

function onSocketMessage(msg) {
  inbox.push(msg);
  if (document.hidden) {
    handleInbox();
  } else if (!frameAsked) {
    frameAsked = true;
    requestAnimationFrame(handleInbox);
  }
}

function handleInbox() {
  frameAsked = false;
  const msgs = inbox;
  inbox = [];
  for (let i = 0; i < msgs.length; i++) {
    if (msgs[i].type !== "view") {
      onMessage(msgs[i]);
      continue;
    }
    let j = i;
    while (j + 1 < msgs.length && msgs[j + 1].type === "view") j++;
    resetBackoff();
    onViews(msgs.slice(i, j + 1).map((m) => m.view));
    i = j;
  }
}
document.addEventListener("visibilitychange", () => { if (document.hidden) handleInbox(); });

function onMessage(msg) {
  switch (msg.type) {  // ("view": handleInbox, a frame's views together)
    case "error":
      if (!hintRefused(msg)) refused(msg);
      break;
    case "hint":  // the suggestion this socket asked for ("Suggest a move")
      onHint(msg);
      break;
    case "chat":
      addChat(msg);
      break;
    case "presence":
      onPresence(msg);
      renderSpectators();
      break;
    case "ack":  // our action landed (its view came just before): allow the next one
      acked(msg.ref);
      break;
    case "pong":
      break;
    case "notice":  // the service tells the table: a resignation, a seat out of time, a vote
      toast(String(msg.text || ""), "info", "notice");
      break;
    case "rematch":  // the host started a rematch: offer the way to its waiting room
      S.rematchUrl = msg.url;
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

/** The connection changed: while it is down nothing can be sent and nobody's presence is known
 *  (the dots turn grey), and the prompt says so. */
function onState(state) {
  const online = state === "open";
  if (S.online === online) return;
  S.online = online;
  if (!online) setPending(null);
  refreshDots();
  renderPrompt();
  renderHint();
}

/** Take in `views` (the view messages that arrived since the last frame, oldest first) and
 *  draw the newest: the table reads as it would after drawing each in turn. */
function onViews(views) {
  // what the page shows now, before any of them (the last view drawn)
  const promptBefore = shownPrompt();
  // (an action of ours in flight: one of these views is most likely its result; its "ack" follows)
  const ownMove = busy();
  const drawn = S.view;
  const hadView = !!drawn, wasOver = hadView && !!drawn.result;
  const before = boardSnapshot();  // (before anything on the page changes)
  let taken = 0;
  for (const v of views) {
    const got = takeView(v);
    if (got === "stop") return;
    if (got) taken++;
  }
  if (!taken) return;
  S.prevView = drawn;  // "what changed" is against what was drawn
  drawView(S.view, {promptBefore, ownMove, hadView, wasOver, before});
}

/** One view message into the table's state: true, false (not a view: ignored) or "stop" (the
 *  page reloads, or the table asked for a whole view again). */
function takeView(v) {
  if (!v || typeof v !== "object") return false;
  // The seat this page was drawn for went to a bot (the host, a vote, out of time) or came
  // back (taken back in another tab): the parts the server drew with the page ("Take my seat
  // back", Resign, the chat role) belong to the old role, so draw the page again. Once drawn
  // again the page and the socket agree, so this happens once per change.
  if (v.you !== undefined && (v.you ?? null) !== cfg.you && !v.result) {
    location.reload();
    return "stop";
  }
  if (!completeView(v)) {  // a delta that does not fit what we hold (should not happen)
    resync();
    return "stop";
  }
  setView(v);
  presenceFromView(v);
  return true;
}

/** Draw view `v` (S.view). `promptBefore`, `ownMove`, `hadView`, `wasOver`, `before`: the
 *  page as it was before the views drawn now arrived (onViews). */
function drawView(v, {promptBefore, ownMove, hadView, wasOver, before}) {
  // A view caused by another seat's move does not end our pending action: its "ack" (or
  // error) does, so a quick second click cannot be built on a version about to be stale.
  const wasMyTurn = document.body.dataset.yourTurn === "true";
  renderHeader();
  renderSeats();
  renderSpectators();
  renderResult();
  drawLog(dom.log, v.log, logCtx());
  drawHintUses(dom.log, v.hint_uses, v.version);
  drawLastMove();
  placeLastMove();  // (phones: beside the scores where they leave room; before the page scrolls)
  renderChatNote();
  runRenderer(before);
  logHover.refresh();
  lastMoveHover.refresh();
  renderPrompt();
  renderHint();
  const myTurn = document.body.dataset.yourTurn === "true";
  if (!wasMyTurn && myTurn && !v.result) focusPromptBar();
  // Your prompt arrived (or changed), or your own move left you deciding on (a brew in Drops
  // of Evil's Brewing keeps its prompt, but the board's redraw may have moved your pool out of
  // the window, or you scrolled down to a button): the place where you decide comes into view.
  if (myTurn && !v.result && (shownPrompt() !== promptBefore || ownMove)) bringDecisionIntoView();
  // The match just ended: the result panel (who won, the replay) comes into view. (A page
  // opened on a finished match shows it where it is drawn, at the top of the table.)
  if (v.result && hadView && !wasOver) revealResult();
  // Exposed for tests and assistive tooling: the version on screen and whether it is over.
  document.body.dataset.version = String(v.version);
  document.body.dataset.finished = v.result ? "true" : "false";
  const resign = $("resign");
  if (resign) resign.hidden = !!v.result || (you() !== null && paceSeat(you()).resigned);
  // Seat controls rendered with the page make no sense once the match is over.
  for (const box of document.querySelectorAll(".host-controls, .away-notice")) box.hidden = !!v.result;
}

/** The viewer's prompt as the bar words it: the server's (promptKey) and the renderer's
 *  instruction for it, which may change while the server's stays (Covil's afternoon turn: "Move
 *  a troop…", then, the troop action done, "Acquire a Minion…": the Mercenary pool is the new
 *  place to decide, and it comes into view). */
function shownPrompt() {
  const key = promptKey();
  return key ? `${key}|${boardPromptText() || ""}` : key;
}

/** Scroll the result panel into view; and again while the page settles around it (the prompt
 *  bar goes and a closing message may come: the panel moves after the first scroll). */
function revealResult() {
  const again = () => { if (!dom.result.hidden) revealBelowBar(dom.result); };
  again();
  setTimeout(again, 400);
  setTimeout(again, 1200);
}

/** The newest line of the viewer's log under the prompt bar (shown on phones, where the log
 *  is below the board): what just happened, in the log's words. */
function drawLastMove() {
  if (!dom.lastMove) return;
  const log = S.view && Array.isArray(S.view.log) ? S.view.log : [];
  const before = dom.lastMove.textContent;
  drawLines(dom.lastMove, log.slice(-1), logCtx());
  // One line on a phone (lair.css), ended by "…" when longer: a tap shows it whole (and where
  // it happened), the pointer's tooltip too. A new move is one line again.
  for (const li of dom.lastMove.children) li.title = li.textContent.trim();
  if (dom.lastMove.textContent !== before) dom.lastMoveBox.classList.remove("expanded");
}
if (dom.lastMoveBox) {
  dom.lastMoveBox.addEventListener("click", () => {
    dom.lastMoveBox.classList.toggle("expanded");
    placeLastMove();  // (opened whole, it takes a row of its own)
  });
}

/** How the log draws its lines: with the renderer's words for places, hoverable. */
function logCtx() {
  return {you: you(), seats: seatCount(), seatName, reword: logText, places: true};
}

/** What the viewer is asked now (empty when it is not their turn). */
/** Views carry what this socket lacks (docs/wire.md): the log from `log_from` on, and
 *  without the game parts named in `kept`, which never change. Fill them in from the view we
 *  hold; false if that view is not the one the delta was made for. */
function completeView(v) {
  const held = S.view;
  const from = Number(v.log_from) || 0;
  if (from > 0) {
    if (!held || !Array.isArray(held.log) || held.log.length !== from) return false;
    v.log = held.log.concat(Array.isArray(v.log) ? v.log : []);
  }
  placeHintUses(v, from, held);
  if (Array.isArray(v.kept) && v.kept.length) {
    if (!held || !held.game || !v.game) return false;
    for (const k of v.kept) {
      if (!(k in held.game)) return false;
      v.game[k] = held.game[k];
    }
  }
  return true;
}

/** A hint use's `line` (where its line goes among the log's lines: docs/wire.md) counts from
 *  the view's `log_from`: made a place in the whole log here. A use asked before that point
 *  comes without one: it keeps the place the view we hold gave it. */
function placeHintUses(v, from, held) {
  if (!Array.isArray(v.hint_uses)) return;
  const before = new Map(((held && held.hint_uses) || []).filter((u) => Number.isInteger(u.line))
    .map((u) => [hintKey(u), u.line]));
  v.hint_uses = v.hint_uses.map((u) => Number.isInteger(u.line) ? {...u, line: u.line + from}
    : before.has(hintKey(u)) ? {...u, line: before.get(hintKey(u))} : u);
}

function renderResult() {
  const r = S.view && S.view.result;
  dom.result.hidden = !r;
  root.classList.toggle("is-finished", !!r);
  if (!r) {
    dom.result.replaceChildren();
    return;
  }
  const links = el("p", {class: "result-links"});
  if (cfg.replayUrl) links.append(el("a", {class: "btn btn-primary", href: cfg.replayUrl}, "Watch the replay"), " ");
  links.append(el("a", {class: "btn", href: cfg.lobbyUrl}, "Back to the lobby"));
  if (S.rematchUrl) {
    links.append(" ", el("a", {class: "btn btn-primary", id: "rematch-link", href: S.rematchUrl}, "Join the rematch"));
  } else if (cfg.isHost && cfg.matchId) {
    // The server creates the match and redirects the host to its waiting room.
    links.append(" ", postForm(`/m/${cfg.matchId}/rematch`,
      el("button", {class: "btn", type: "submit", id: "rematch"}, "Rematch with the same players")));
  }
  dom.result.replaceChildren(...resultParts(r, kvCtx(), resultReason()), links);
}

document.body.dataset.pending = "false";
const logHover = wireLogHover(dom.log, logPlaces);
const lastMoveHover = wireLogHover(dom.lastMove, logPlaces);  // a tap shows where it happened
wireCopyButtons();
renderChatNote();
renderSpectators();
start({onMessage: onSocketMessage, onState: (state) => { handleInbox(); onState(state); }});
loadRenderer(queuePrompt).then(() => {
  if (S.view) {
    renderHeader();  // the round in the renderer's word ("Day 1" in Covil, not "Round 1")
    renderSeats();  // the renderer draws the seats' player boards too
    renderResult();  // and may say how the match ended
    redrawLog(dom.log, S.view.log, logCtx());  // and words some of the log's places
    drawHintUses(dom.log, S.view.hint_uses, S.view.version);
    drawLastMove();
    runRenderer();
    renderPrompt();
    renderHint();  // the board can highlight a suggestion now
    // the page opened on the player's prompt: the place where they decide comes into view
    if (turnOf().myTurn && !S.view.result) bringDecisionIntoView();
  }
});
