// Drops of Evil renderer helpers: DOM builders, resource look, clickable/pickable targets,
// "changed since the last view" marks. No view data is ever parsed as HTML.

import {attachCard} from "../../js/dom.js";
import {RES_FILL, resIcon, pawnIcon} from "./icons.js";

export const SVGNS = "http://www.w3.org/2000/svg";

/** Resource look: fill and text colour (each token also has its own drawing: icons.js). */
export const RES = {
  owl:        {fill: RES_FILL.owl, ink: "#2b1d08"},
  bat:        {fill: RES_FILL.bat, ink: "#1a0f2e"},
  salamander: {fill: RES_FILL.salamander, ink: "#2b1208"},
  scorpion:   {fill: RES_FILL.scorpion, ink: "#2b2200"},
  spider:     {fill: RES_FILL.spider, ink: "#ffffff"},
  worm:       {fill: RES_FILL.worm, ink: "#4a1020"},
  mushroom:   {fill: RES_FILL.mushroom, ink: "#0d2a24"},
  rat:        {fill: RES_FILL.rat, ink: "#1a1a1a"},
  cheese:     {fill: RES_FILL.cheese, ink: "#3a2c00"},
};
export const RES_ORDER = ["owl", "bat", "salamander", "scorpion", "spider", "worm", "mushroom", "rat"];
export const PAWN_ORDER = ["crow", "cat", "toad", "snake", "coin"];

/** What each component is, in rulebook words, for its full card (hover / long-press). */
const ABOUT = {
  owl: "Ingredient. Brew it into a Vial of your Brewer; a completed Vial scores its Toxicity.",
  bat: "Ingredient. Brew it into a Vial of your Brewer; a completed Vial scores its Toxicity.",
  salamander: "Ingredient. Brew it into a Vial of your Brewer; a completed Vial scores its Toxicity.",
  scorpion: "Ingredient. Brew it into a Vial of your Brewer; a completed Vial scores its Toxicity.",
  spider: "Wild Ingredient: it may complete a Vial of any Ingredient, but a Vial may not hold only Spiders.",
  worm: "Ingredient from the general supply; an empty Gathering space gives 1 Worm.",
  mushroom: "Goes into your Distiller, bottom Vial first; the top Vial is refilled by pairs.",
  rat: "Goes to your Free Rats (−1 Poison Point each Income) unless you capture it with Cheese.",
  cheese: "Captures one Rat: move a Free Rat to your Captured Rats space.",
  crow: "Familiar: placed on a Clearing Gathering space; gathers 1 Resource of your choice there.",
  cat: "Familiar: placed on a double-arrow space; gathers 1 Resource from each of its 2 spaces.",
  toad: "Familiar: placed on a four-arrow space; gathers 1 Resource from each of its 4 spaces.",
  snake: "Familiar: placed on a down-arrow space; gathers 1 Resource from each space of its column.",
  coin: "Coin Pouch: hires an Assistant, or takes 1 Worm or 1 Cheese instead.",
};
export const about = (key) => ABOUT[key] || "";

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

/** The full card of a Resource or a pawn: its picture large, its name and what it does. */
export function resCard(ctx, key, pawn = false, seat = null) {
  const color = seat === null ? null : ctx.table.seatColor(seat);
  return el("div", {class: "doe-full"},
    el("div", {class: "doe-full-head"}, pawn ? pawnIcon(key, color || "#efe6d2", 44) : resIcon(key, 44),
      el("b", {}, resName(ctx, key) + (seat === null ? "" : ` of ${ctx.table.seatName(seat)}`))),
    el("p", {}, about(key)));
}

/** A round resource token (HTML) with its drawing. `count` > 1 adds a ×n badge. */
export function resChip(ctx, res, {count = null, size = "", extra = ""} = {}) {
  const node = el("span", {class: `doe-res ${size} ${extra}`.trim(), "aria-label": resName(ctx, res),
                           style: {"--fill": (RES[res] || {}).fill || "#bbb"}}, resIcon(res, 32));
  if (count !== null) node.append(el("span", {class: "doe-count"}, `×${count}`));
  return attachCard(node, () => resCard(ctx, res));
}

export function pawnChip(ctx, seat, pawn, extra = "") {
  const label = `${resName(ctx, pawn)} of ${ctx.table.seatName(seat)}`;
  const node = el("span", {class: `doe-pawn ${extra}`.trim(), "aria-label": label,
                           style: {"--seat": ctx.table.seatColor(seat)}}, pawnIcon(pawn, ctx.table.seatColor(seat), 32));
  return attachCard(node, () => resCard(ctx, pawn, true, seat));
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
