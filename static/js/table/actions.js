// Acting: a legal action goes to the server with a fresh id; one action is in flight at a time
// (`pending`) until its "ack" or error arrives. Only actions of view.legal_actions are sent.

import {humanize} from "../kv.js";
import {canon, dom, root, S} from "./state.js";
import {clearCode, clearToasts, toast} from "./toasts.js";
import {isOpen, send} from "./wire.js";

const PENDING_TIMEOUT_MS = 15_000;

let pending = null;  // {id, timer} while an action awaits its view or error

/** crypto.randomUUID exists only in secure contexts; a LAN game over plain http still needs ids. */
export function uuid() {
  if (crypto.randomUUID) return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

export function isLegal(action) {
  return S.legalIndex.has(canon(action));
}

export function legalActions() {
  return S.view ? S.view.legal_actions || [] : [];
}

/** The server's label of a legal action in the renderer's words (`words`: by default the
 *  labels', S.words), or a readable fallback from its fields. */
export function label(action, words = S.words) {
  const v = S.view;
  if (!v) return "";
  const i = S.legalIndex.get(canon(action));
  const labels = Array.isArray(v.labels) ? v.labels : [];
  if (i !== undefined && labels[i]) return words(String(labels[i]));
  return Object.entries(action || {})
    .map(([k, x]) => (k === "type" ? humanize(x) : `${humanize(k)} ${typeof x === "object" ? canon(x) : x}`))
    .join(" · ");
}

export function busy() {
  return pending !== null;
}

/** Send one of view.legal_actions (deep-equal); anything else, a second action while one is in
 *  flight, or an action while offline is refused (false); one the renderer asks about first
 *  (`askFirst`) waits for the prompt bar's answer, unless `asked` (false). */
export function act(action, asked = false) {
  const v = S.view;
  if (!v) return false;
  const i = S.legalIndex.get(canon(action));
  if (i === undefined) {
    console.warn("table.act: refused, not a legal action", action);
    return false;
  }
  if (pending) return false; // one action in flight at a time: a double click sends once
  // a move the renderer asks about first (Evil Corp.'s Pass with monsters still to play): the
  // prompt bar asks, its "yes" sends it (`asked`), whichever button, board place or key chose it
  if (!asked) {
    const q = S.askFirst(v.legal_actions[i]);
    if (q) {
      S.asking = {version: v.version, action: v.legal_actions[i], ...q};
      document.dispatchEvent(new Event("lair:ask"));
      return false;
    }
  }
  if (!isOpen()) {
    toast("Not connected: your move was not sent. Reconnecting…", "warn");
    return false;
  }
  const id = uuid();
  clearToasts("error");
  send({type: "action", id, version: v.version, action: v.legal_actions[i]});
  setPending({id, timer: setTimeout(() => setPending(null), PENDING_TIMEOUT_MS)});
  return true;
}

export function setPending(p) {
  if (pending && pending.timer) clearTimeout(pending.timer);
  pending = p;
  const on = p !== null;
  root.classList.toggle("busy", on);
  document.body.dataset.pending = on ? "true" : "false";
  for (const b of dom.promptActions.querySelectorAll("button, select")) b.disabled = on;
}

/** An "ack" for `ref`: our action landed (its view came just before); allow the next one. */
export function acked(ref) {
  if (pending && ref === pending.id) setPending(null);
}

/** Refusals that say nothing about the move itself: the same move may simply be sent again. */
const RETRYABLE = new Set(["busy", "rate_limited"]);

/** An "error" frame: end the pending action it refers to and say what went wrong. */
export function refused(msg) {
  if (pending && (!msg.ref || msg.ref === pending.id)) setPending(null);
  const text = msg.message || humanize(msg.code || "error");
  if (RETRYABLE.has(msg.code)) {
    // A short notice (no alert): the prompt is usable again, the player just tries again.
    clearCode(msg.code);
    const t = toast(`${text} Your move was not made; you can send it again.`, "warn", msg.code);
    setTimeout(() => t.remove(), 4000);
    return;
  }
  toast(text, "error", msg.code);
}
