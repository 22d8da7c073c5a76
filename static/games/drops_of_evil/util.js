// Drops of Evil renderer helpers: DOM builders, resource look, clickable/pickable targets,
// "changed since the last view" marks. No view data is ever parsed as HTML.

export const SVGNS = "http://www.w3.org/2000/svg";

/** Resource look: fill, text colour, short letters (colour is never the only cue). */
export const RES = {
  owl:        {fill: "#c9a46a", ink: "#2b1d08", abbr: "Ow"},
  bat:        {fill: "#6b4fa0", ink: "#ffffff", abbr: "Ba"},
  salamander: {fill: "#e0603a", ink: "#ffffff", abbr: "Sa"},
  scorpion:   {fill: "#f2c230", ink: "#2b2200", abbr: "Sc"},
  spider:     {fill: "#2c2c34", ink: "#ffffff", abbr: "Sp"},
  worm:       {fill: "#f3a6b9", ink: "#4a1020", abbr: "Wo"},
  mushroom:   {fill: "#3f9e8c", ink: "#ffffff", abbr: "Mu"},
  rat:        {fill: "#8c8c8c", ink: "#ffffff", abbr: "Ra"},
  cheese:     {fill: "#ffe07a", ink: "#3a2c00", abbr: "Ch"},
};
export const RES_ORDER = ["owl", "bat", "salamander", "scorpion", "spider", "worm", "mushroom", "rat"];
export const PAWN = {crow: "Cr", cat: "Ca", toad: "To", snake: "Sn", coin: "$"};
export const PAWN_ORDER = ["crow", "cat", "toad", "snake", "coin"];

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  setAttrs(node, attrs);
  add(node, children);
  return node;
}

export function sv(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVGNS, tag);
  setAttrs(node, attrs);
  add(node, children);
  return node;
}

function setAttrs(node, attrs) {
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") node.setAttribute("class", v);
    else if (k === "style" && typeof v === "object") {
      for (const [p, val] of Object.entries(v)) node.style.setProperty(p, val);
    } else if (k === "dataset") Object.assign(node.dataset, v);
    else node.setAttribute(k, v === true ? "" : String(v));
  }
}

function add(node, children) {
  for (const c of children.flat()) {
    if (c === undefined || c === null || c === false) continue;
    node.append(c instanceof Node ? c : String(c));
  }
}

export function resName(ctx, res) {
  const names = (ctx.game.geometry && ctx.game.geometry.names) || {};
  return names[res] || res;
}

/** A round resource token (HTML). `count` > 1 adds a ×n badge. */
export function resChip(ctx, res, {count = null, size = "", extra = ""} = {}) {
  const r = RES[res] || {fill: "#bbb", ink: "#000", abbr: String(res).slice(0, 2)};
  const node = el("span", {class: `doe-res ${size} ${extra}`.trim(), title: resName(ctx, res),
                           style: {"--fill": r.fill, "--ink": r.ink}, "aria-label": resName(ctx, res)},
    el("span", {class: "doe-res-abbr"}, r.abbr));
  if (count !== null) node.append(el("span", {class: "doe-count"}, `×${count}`));
  return node;
}

export function pawnChip(ctx, seat, pawn, extra = "") {
  const label = `${resName(ctx, pawn)} of ${ctx.table.seatName(seat)}`;
  return el("span", {class: `doe-pawn ${extra}`.trim(), title: label, "aria-label": label,
                     style: {"--seat": ctx.table.seatColor(seat)}}, PAWN[pawn] || pawn);
}

export function seatTag(ctx, seat) {
  const name = ctx.table.seatName(seat);
  return el("span", {class: "doe-seat", title: name, style: {"--seat": ctx.table.seatColor(seat)}},
    el("span", {class: "doe-name"}, name));
}

/** A seat's name that may be long: one line, ellipsis, the full name on hover. */
export function nameSpan(ctx, seat) {
  const name = ctx.table.seatName(seat);
  return el("span", {class: "doe-name", title: name}, name);
}

/** The final total of a finished game (game.breakdown[seat].Total), else null. */
export function finalTotal(ctx, seat) {
  const bd = ctx.game.breakdown;
  const row = bd ? (bd[String(seat)] || bd[seat]) : null;
  return row && row.Total !== undefined ? row.Total : null;
}

export function canon(value) {
  if (Array.isArray(value)) return `[${value.map(canon).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canon(value[k])}`).join(",")}}`;
  }
  return JSON.stringify(value === undefined ? null : value);
}

/** Make `node` (HTML or SVG) a clickable legal target for `action` and claim it. */
export function clickable(ctx, node, action, extraClass = "") {
  node.classList.add("legal");
  if (extraClass) node.classList.add(extraClass);
  node.dataset.action = JSON.stringify(action);
  node.setAttribute("tabindex", "0");
  node.setAttribute("role", "button");
  const label = ctx.table.label(action);
  node.setAttribute("aria-label", label);
  if (node instanceof SVGElement) node.append(sv("title", {}, label));
  else node.title = label;
  const go = (e) => {
    e.preventDefault();
    e.stopPropagation();
    ctx.afterAct(action);
    ctx.table.act(action);
  };
  node.addEventListener("click", go);
  node.addEventListener("keydown", (e) => { if (e.key === "Enter") go(e); });
  ctx.table.claim(action);
  return node;
}

/** Local first step of a two-step choice (data-pick). */
export function pickable(ctx, node, key, label, picked) {
  node.dataset.pick = key;
  node.classList.add("pickable");
  if (picked) node.classList.add("picked");
  node.setAttribute("tabindex", "0");
  node.setAttribute("role", "button");
  node.setAttribute("aria-pressed", picked ? "true" : "false");
  node.setAttribute("aria-label", label);
  const go = (e) => {
    e.preventDefault();
    e.stopPropagation();
    ctx.pick(key);
  };
  node.addEventListener("click", go);
  node.addEventListener("keydown", (e) => { if (e.key === "Enter") go(e); });
  return node;
}

/** Mark `node` as changed when its signature differs from the previous view's. */
export function mark(ctx, node, key, signature) {
  const sig = typeof signature === "string" ? signature : JSON.stringify(signature);
  ctx.sigs.set(key, sig);
  if (ctx.prevSigs.has(key) && ctx.prevSigs.get(key) !== sig) {
    node.classList.add("changed");
    if (!ctx.fresh) node.classList.add("still");
  }
  return node;
}
