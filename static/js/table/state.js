// The live table's shared state: the page's configuration (data- attributes put there by
// templates/table.html), its regions, and the latest view with what is derived from it.
// Every other table module reads the view from here; only table.js (takeView) replaces it.

import {el} from "../dom.js";
import {csrfField} from "../csrf.js";
import {canon, seatColor, seatNameIn, seatShape} from "./seat-style.js";

export const FALLBACK_RENDERER = "/static/js/fallback-renderer.js";

export const root = document.getElementById("table");
export const cfg = {
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

export const $ = (id) => document.getElementById(id);
export const dom = {
  title: $("game-title"), status: $("match-status"), roundPhase: $("round-phase"), turn: $("turn"),
  spectators: $("spectators"), conn: $("conn"), seats: $("seats"), board: $("board"),
  phoneScores: $("phone-scores"), scoresFull: $("scores-full"), tableTop: $("table-top"),
  result: $("result"), promptBar: $("prompt-bar"), promptText: $("prompt-text"),
  promptActions: $("prompt-actions"), toasts: $("toasts"), log: $("log"), lastMove: $("last-move"),
  lastMoveBox: $("last-move-box"),
  chatMessages: $("chat-messages"), chatForm: $("chat-form"), chatInput: $("chat-input"),
  chatCount: $("chat-count"), chatNote: $("chat-note"),
};

/** The table's state. `view`: the latest full view; `prevView`: the one before (for "changed"
 *  highlights); `legalIndex`: canonical JSON of a legal action -> its index in
 *  view.legal_actions; `viewAt`: performance.now() when the view arrived (clocks count from
 *  there); `presence`: who is connected, from views and "presence" messages; `online`: whether
 *  the socket is open (presence is unknown while it is not); `rematchUrl`: where the host's
 *  rematch waits. */
export const S = {
  view: null,
  prevView: null,
  legalIndex: new Map(),
  viewAt: 0,
  presence: {seats: new Map(), spectators: null},
  online: false,
  rematchUrl: root.dataset.rematchUrl || null,  // a rematch made before this page loaded
  words: (text) => text,  // the renderer's words for places in texts (board.js logText)
  roundWord: "Round",  // what the game calls a round (the renderer's optional `roundWord`)
  scoreWord: "Score",  // what the game calls its score (the renderer's optional `scoreWord`)
  // A move that asks one more tap first (the renderer's optional `askFirst`, board.js): its
  // question, `{version, action, text, yes, no}`, shown in the prompt bar until answered or a
  // new view comes (prompt.js).
  askFirst: () => null,
  asking: null,
};

/** Take `v` as the current view. */
export function setView(v) {
  S.prevView = S.view;
  S.view = v;
  S.viewAt = performance.now();
  S.legalIndex = new Map((v.legal_actions || []).map((a, i) => [canon(a), i]));
}

export function you() {
  return S.view && S.view.you !== undefined ? S.view.you : cfg.you;
}

export function seatCount() {
  return S.view && Array.isArray(S.view.seats) ? S.view.seats.length : 0;
}

export function seatName(seat) {
  return seatNameIn(S.view, seat);
}

export {canon, seatColor, seatShape};

/** The context kv.js, log.js and result.js draw seats with. */
export const kvCtx = () => ({seatName, seatColor, seatShape, seats: seatCount()});

/** Whose turn it is in the current view, and whether it is the viewer's. */
export function turnOf() {
  const v = S.view;
  const waiting = (v && v.header && Array.isArray(v.header.waiting_for)) ? v.header.waiting_for : [];
  const me = you();
  return {waiting, me, myTurn: me !== null && waiting.includes(me)};
}

/** What the viewer is asked now ("" when it is not their turn): the phase and the prompt's
 *  text. Another seat's move that leaves it as it was (a team-mate's, in a simultaneous
 *  frame) leaves the viewer's decision as it was. */
export function promptKey() {
  if (!S.view || !turnOf().myTurn) return "";
  const p = S.view.prompt;
  return `${S.view.header && S.view.header.phase}|${p && p.text}`;
}

/** The public pace facts of a seat ({left, running, resigned, away, votes, needed}). */
export function paceSeat(seat) {
  const v = S.view;
  const p = v && v.pace && Array.isArray(v.pace.seats) ? v.pace.seats[seat] : null;
  return p || {left: null, running: false, resigned: false, away: null, votes: [], needed: null};
}

/** A plain form post to `action` (the server answers with a redirect), carrying the page's
 *  CSRF token (app/csrf.py; from <meta name="csrf-token">) as the site's own forms do. */
export function postForm(action, ...children) {
  return el("form", {method: "post", action, class: "inline"}, csrfField(), ...children);
}
