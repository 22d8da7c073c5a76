// The chat: the table's channel and the spectators' (README "Playing"); each message shown once
// even when the server resends the history after a reconnect.

import {el} from "../dom.js";
import {canon, cfg, dom, root, S, seatName} from "./state.js";
import {toast} from "./toasts.js";
import {send} from "./wire.js";

const CHAT_MAX = 500;
const KEEP = 300;
const seen = new Set();

function chatTime(at) {
  if (at === undefined || at === null || at === "") return "";
  const d = typeof at === "number" ? new Date(at < 1e12 ? at * 1000 : at) : new Date(at);
  if (Number.isNaN(d.getTime())) return "";
  return d.toLocaleTimeString([], {hour: "2-digit", minute: "2-digit"});
}

/** A "chat" message: {from, text, at, channel, system}. */
export function addChat(msg) {
  const key = canon([msg.from, msg.text, msg.at]);
  if (msg.at !== undefined && seen.has(key)) return;
  seen.add(key);
  const box = dom.chatMessages;
  const atBottom = box.scrollHeight - box.scrollTop - box.clientHeight < 48;
  const f = msg.from;
  const from = typeof f === "number" ? seatName(f)
    : f && typeof f === "object" ? String(f.name ?? (typeof f.seat === "number" ? seatName(f.seat) : "?"))
    : String(f ?? "?");
  // The server sends the spectators' channel to spectators only; mark it so they can tell.
  const spectatorLine = msg.channel === "spectators";
  const time = chatTime(msg.at);
  box.append(el("li", {class: msg.system ? "chat-msg chat-system" : spectatorLine ? "chat-msg chat-spectators" : "chat-msg"},
    time ? [el("time", {class: "chat-time muted"}, time), " "] : null,
    spectatorLine ? [el("span", {class: "chat-channel badge"}, "spectators"), " "] : null,
    el("span", {class: "chat-from"}, from), el("span", {class: "chat-text"}, String(msg.text ?? ""))));
  while (box.children.length > KEEP) box.firstElementChild.remove();
  if (atBottom) box.scrollTop = box.scrollHeight;
}

/** Say where this page's chat lines go. */
export function renderChatNote() {
  if (!dom.chatNote) return;
  const v = S.view;
  const open = !!(v && v.match && v.match.spectator_chat_open);
  let note, placeholder;
  if (cfg.chatRole === "spectator") {
    note = open
      ? "The host opened the table: your messages go to everyone, players included."
      : "You are watching: your messages go to the spectators' chat, which the players don't see. You can read the players' table chat.";
    placeholder = open ? "To the whole table…" : "To the spectators…";
  } else {
    note = open
      ? "The host lets spectators talk to the table."
      : "Table chat: players and spectators read it. Spectators chat among themselves.";
    placeholder = "Say something evil…";
  }
  dom.chatNote.textContent = note;
  dom.chatInput.placeholder = placeholder;
  root.dataset.spectatorChat = open ? "open" : "apart";
}

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
