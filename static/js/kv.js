// Readable key/value rendering of arbitrary view data (seat panels, the fallback renderer).
// Builds DOM with createElement/textContent only: view data comes from the server and is
// never parsed as HTML.

import {el} from "./dom.js";

// Keys that are abbreviations in the views' data, read in words (no abbreviation on the table:
// issue 14 item 3).
const SPELLED_OUT = {hp: "Hit points", vp: "Victory points"};

/** "gold_coins" / "goldCoins" -> "Gold coins"; text that is already prose ("Power Relic",
 *  "Brewing") is kept as written, since game terms follow the rulebooks' spelling; ids with
 *  digits are kept exactly. */
export function humanize(key) {
  const raw = String(key);
  if (SPELLED_OUT[raw]) return SPELLED_OUT[raw];
  if (/\d/.test(raw)) return raw; // an id ("g-1-1", "c0", "AS16"): keep it exactly
  if (/\s/.test(raw) || !/[_\-]|[a-z][A-Z]|^[a-z]/.test(raw)) return raw.charAt(0).toUpperCase() + raw.slice(1);
  const s = raw.replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/[_-]+/g, " ").trim().toLowerCase();
  return s ? s.charAt(0).toUpperCase() + s.slice(1) : raw;
}

// Keys whose integer value names a seat (shown with the seat's name and colour).
const SEAT_KEYS = new Set(["seat", "owner", "player", "winner", "first_player", "start_player", "holder"]);

function isPlainObject(v) {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

function isScalar(v) {
  return v === null || ["string", "number", "boolean"].includes(typeof v);
}

/**
 * Render any JSON value as readable DOM.
 * ctx: {seatName(seat) -> string, seatColor(seat) -> css, seats: number, depth}
 */
export function renderValue(value, ctx = {}, key = null) {
  const depth = ctx.depth || 0;
  if (value === null || value === undefined) return el("span", {class: "kv-none"}, "—");
  if (typeof value === "boolean") return el("span", {class: "kv-bool"}, value ? "yes" : "no");
  if (typeof value === "number") {
    if (key !== null && SEAT_KEYS.has(String(key).toLowerCase()) && isSeat(value, ctx)) {
      return seatChip(value, ctx);
    }
    return el("span", {class: "kv-num"}, String(value));
  }
  if (typeof value === "string") return el("span", {class: "kv-str"}, value);
  if (depth > 6) return el("span", {class: "kv-none"}, "…");
  const sub = {...ctx, depth: depth + 1};
  if (Array.isArray(value)) return renderArray(value, sub, key);
  if (isPlainObject(value)) {
    if (isSeatMap(value, ctx)) return renderSeatMap(value, sub);
    return renderObject(value, sub);
  }
  return el("span", {}, String(value));
}

function isSeat(n, ctx) {
  return Number.isInteger(n) && n >= 0 && typeof ctx.seats === "number" && n < ctx.seats && ctx.seatName;
}

/** A dict keyed by every seat number ("0".."n-1"): label the rows with seat names. */
function isSeatMap(obj, ctx) {
  const keys = Object.keys(obj);
  if (!ctx.seatName || typeof ctx.seats !== "number" || ctx.seats < 1) return false;
  if (keys.length === 0 || keys.length > ctx.seats) return false;
  return keys.every((k) => /^\d+$/.test(k) && Number(k) < ctx.seats);
}

/** A seat's name with its colour (and its shape when ctx.seatShape is given). */
export function seatChip(seat, ctx) {
  const chip = el("span", {class: "seat-chip", dataset: {seat: String(seat)}});
  const color = ctx.seatColor ? ctx.seatColor(seat) : null;
  const shape = ctx.seatShape ? ctx.seatShape(seat) : null;
  const swatch = el("span", {class: shape ? "seat-shape" : "swatch", "aria-hidden": "true"}, shape);
  if (color) swatch.style[shape ? "color" : "background"] = color;
  chip.append(swatch, ctx.seatName ? ctx.seatName(seat) : `Seat ${seat + 1}`);
  return chip;
}

/** Structured values get their own full-width block under their key instead of a narrow
 *  second column, so deep nesting never squeezes text into one-letter columns. */
export function isBlock(v) {
  if (Array.isArray(v)) return v.length > 0 && (!v.every(isScalar) || v.length > 12);
  return isPlainObject(v) && Object.keys(v).length > 0;
}

function pair(dl, label, key, v, ctx) {
  const block = isBlock(v);
  const dd = el("dd", {dataset: {key}}, renderValue(v, ctx, key));
  const dt = el("dt", {}, label);
  if (block) {
    dt.classList.add("kv-block");
    dd.classList.add("kv-block");
  }
  dl.append(dt, dd);
  return dd;
}

function renderSeatMap(obj, ctx) {
  const dl = el("dl", {class: "kv kv-seats"});
  for (const [k, v] of Object.entries(obj)) pair(dl, seatChip(Number(k), ctx), k, v, ctx);
  return dl;
}

function renderObject(obj, ctx) {
  const entries = Object.entries(obj);
  if (entries.length === 0) return el("span", {class: "kv-none"}, "none");
  // {id: {field: scalar}} with several rows reads best as a table keyed by id.
  if (entries.length >= 3 && entries.every(([, v]) => isPlainObject(v) && Object.values(v).every(isCell))) {
    const cols = columns(entries.map(([, v]) => v));
    if (cols.length <= 8) return recordTable(entries, cols, ctx, true);
  }
  const dl = el("dl", {class: "kv"});
  for (const [k, v] of entries) pair(dl, humanize(k), k, v, ctx);
  return dl;
}

function renderArray(arr, ctx, key) {
  if (arr.length === 0) return el("span", {class: "kv-none"}, "none");
  if (arr.every(isScalar)) {
    const ul = el("ul", {class: "kv-chips"});
    for (const v of arr) ul.append(el("li", {}, renderValue(v, ctx, key)));
    return ul;
  }
  // A list of records with scalar fields reads best as a table.
  if (arr.every(isPlainObject)) {
    const cols = columns(arr);
    const flat = arr.every((row) => Object.values(row).every(isCell));
    if (flat && cols.length <= 8) return recordTable(arr.map((row, i) => [i, row]), cols, ctx, false);
  }
  const ol = el("ol", {class: "kv-list"});
  for (const v of arr) ol.append(el("li", {}, renderValue(v, ctx, key)));
  return ol;
}

/** Fits in a table cell: a scalar or a short list of scalars. */
function isCell(v) {
  return isScalar(v) || (Array.isArray(v) && v.length <= 6 && v.every(isScalar));
}

function columns(rows) {
  const cols = [];
  for (const row of rows) for (const k of Object.keys(row)) if (!cols.includes(k)) cols.push(k);
  return cols;
}

/** rows: [[key, record]]; keyed tables get a first column naming each row. */
function recordTable(rows, cols, ctx, keyed) {
  const table = el("table", {class: "kv-table"});
  const head = cols.map((c) => el("th", {scope: "col"}, humanize(c)));
  table.append(el("thead", {}, el("tr", {}, keyed ? el("th", {scope: "col"}) : null, ...head)));
  const tbody = el("tbody");
  for (const [key, row] of rows) {
    const first = keyed ? el("th", {scope: "row"}, humanize(key)) : null;
    tbody.append(el("tr", {dataset: keyed ? {key: String(key)} : {}}, first,
      ...cols.map((c) => el("td", {}, c in row ? renderValue(row[c], ctx, c) : ""))));
  }
  table.append(tbody);
  return el("div", {class: "kv-table-wrap"}, table);
}

/** Render an object's entries as a <dl>, skipping `skip` keys. Marks values that changed
 *  since `prev` (same shape) with class "changed". */
export function renderPairs(obj, ctx, {skip = [], prev = null} = {}) {
  const dl = el("dl", {class: "kv"});
  for (const [k, v] of Object.entries(obj || {})) {
    if (skip.includes(k)) continue;
    const dd = pair(dl, humanize(k), k, v, {...ctx, depth: 1});
    if (prev && k in prev && JSON.stringify(prev[k]) !== JSON.stringify(v)) dd.classList.add("changed");
  }
  return dl;
}
