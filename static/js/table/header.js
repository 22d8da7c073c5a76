// The header: title, match status, round and phase, whose turn it is (with an opt-in chime
// when it becomes yours), and how many spectators watch.

import {el} from "../dom.js";
import {humanize, seatChip} from "../kv.js";
import {cfg, dom, kvCtx, root, S, turnOf} from "./state.js";

export function renderHeader() {
  const v = S.view;
  const h = v.header || {};
  const title = (v.match && v.match.title) || cfg.title;
  dom.title.textContent = title;
  const status = (v.match && v.match.status) || root.dataset.status || "";
  dom.status.textContent = status;
  dom.status.dataset.status = status;

  const bits = [];
  if (h.round !== null && h.round !== undefined) bits.push(`Round ${h.round}`);
  if (h.phase) bits.push(humanize(h.phase));
  dom.roundPhase.textContent = bits.join(" · ");

  const {waiting, me, myTurn} = turnOf();
  dom.turn.replaceChildren();
  dom.turn.classList.toggle("your-turn", myTurn);
  if (v.result) {
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

/** "Ana", "Ana and Bo", "Ana, Bo and Cy" as seat chips. */
export function joinChips(seats) {
  const out = [];
  seats.forEach((s, i) => {
    if (i) out.push(i === seats.length - 1 ? " and " : ", ");
    out.push(seatChip(s, kvCtx()));
  });
  return out;
}

export function renderSpectators() {
  const n = S.presence.spectators || 0;
  dom.spectators.textContent = `${n} watching`;
  dom.spectators.dataset.count = String(n);
  dom.spectators.hidden = n === 0;  // a line of header saved (phones) when nobody watches
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

// ----- phones: Links, Resign, Sound and Keys behind "More" --------------------------------------

const toolsToggle = document.getElementById("tools-toggle");
const tools = document.getElementById("table-tools");
if (toolsToggle && tools) {
  toolsToggle.addEventListener("click", () => {
    const open = !tools.classList.contains("open");
    tools.classList.toggle("open", open);
    toolsToggle.setAttribute("aria-expanded", String(open));
  });
}
