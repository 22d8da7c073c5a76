// The renderer for games that have none yet: view.game as readable key/value panels.
// It draws nothing clickable and claims no action, so every legal action appears as a
// prompt-bar button (renderer-contract.md).

import {el} from "./dom.js";
import {humanize, renderValue} from "./kv.js";

export const title = "Plain table";

let root = null;
let table = null;
let previous = null;

export function mount(rootEl, tableApi) {
  root = rootEl;
  table = tableApi;
  root.classList.add("fallback-board");
}

export function update(view) {
  const game = view && view.game;
  const ctx = {
    seatName: table.seatName,
    seatColor: table.seatColor,
    seatShape: table.seatShape,
    seats: Array.isArray(view.seats) ? view.seats.length : 0,
    depth: 1,
  };
  const panels = [];
  if (game && typeof game === "object" && !Array.isArray(game)) {
    // Scalars first, gathered in one "Overview" panel; each structured entry gets its own.
    const scalars = {};
    for (const [k, v] of Object.entries(game)) {
      if (v === null || typeof v !== "object") scalars[k] = v;
    }
    if (Object.keys(scalars).length) panels.push(panel("overview", "Overview", scalars, ctx, true));
    for (const [k, v] of Object.entries(game)) {
      if (v !== null && typeof v === "object") panels.push(panel(k, humanize(k), v, ctx, false));
    }
  } else if (game !== undefined && game !== null) {
    panels.push(el("section", {class: "fb-panel"}, renderValue(game, ctx)));
  }
  if (!panels.length) panels.push(el("p", {class: "muted"}, "Nothing on the board yet."));
  root.replaceChildren(el("p", {class: "fb-note muted"},
    "This game has no board drawing yet; its state is listed below and every move is in the bar."),
    el("div", {class: "fb-grid"}, ...panels));
  previous = game;
}

// Panels the player folded or unfolded keep that state across views.
const folded = new Map();
const WIDE_CHARS = 300;     // a panel whose data is bigger than this spans the whole grid
const HUGE_CHARS = 6000;    // ... and starts folded (static geometry, long lists)

function panel(key, heading, value, ctx, isOverview) {
  const size = JSON.stringify(value).length;
  const changed = previous && typeof previous === "object" &&
    (isOverview
      ? Object.keys(value).some((k) => JSON.stringify(previous[k]) !== JSON.stringify(value[k]))
      : JSON.stringify(previous[key]) !== JSON.stringify(value));
  const body = isOverview ? renderOverview(value, ctx) : renderValue(value, ctx, key);
  const open = folded.has(key) ? folded.get(key) : size <= HUGE_CHARS;
  const details = el("details", {class: "fb-panel", dataset: {key}, open},
    el("summary", {}, el("h3", {}, heading), open || size <= HUGE_CHARS ? null :
      el("span", {class: "muted small"}, " (long: open to read)")),
    body);
  details.addEventListener("toggle", () => folded.set(key, details.open));
  if (size > WIDE_CHARS) details.classList.add("wide");
  if (changed) details.classList.add("changed");
  return details;
}

function renderOverview(obj, ctx) {
  // Only scalars reach here: a plain two-column list.
  const dl = el("dl", {class: "kv"});
  for (const [k, v] of Object.entries(obj)) {
    const dd = el("dd", {dataset: {key: k}}, renderValue(v, ctx, k));
    if (previous && typeof previous === "object" && JSON.stringify(previous[k]) !== JSON.stringify(v)) {
      dd.classList.add("changed");
    }
    dl.append(el("dt", {}, humanize(k)), dd);
  }
  return dl;
}
