// Drops of Evil renderer helpers: DOM builders, resource look, clickable/pickable targets,
// "changed since the last view" marks. No view data is ever parsed as HTML.

import {attachCard, el, sv} from "../../js/dom.js";
import {RES_FILL, resIcon, pawnIcon} from "./icons.js";
import {seatShapeMark} from "../../js/table/seat-style.js";

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
  owl: "Ingredient. Place it in a Vial of your Brewer: each Vial can contain only 1 type of Ingredient (Spiders excepted).",
  bat: "Ingredient. Place it in a Vial of your Brewer: each Vial can contain only 1 type of Ingredient (Spiders excepted).",
  salamander: "Ingredient. Place it in a Vial of your Brewer: each Vial can contain only 1 type of Ingredient (Spiders excepted).",
  scorpion: "Ingredient. Place it in a Vial of your Brewer: each Vial can contain only 1 type of Ingredient (Spiders excepted).",
  spider: "Spiders are wildcards that count as any type of Ingredient; they are the only Ingredient that can share a Vial with another type. You are not allowed to create Spider-only Vials.",
  worm: "Ingredient from the general supply. A Familiar that finds its Gathering space empty collects exactly 1 Worm instead.",
  mushroom: "Place it in your Distiller, filling the Vials from the bottom; each pair in the top Vial gains a Bonus token from your Distiller.",
  rat: "Rats are placed in your Free Rats space: each makes you lose 1 point during each Income Phase. Captured with Cheese, each scores its Toxicity value at the end.",
  cheese: "Move 1 Rat to your Captured Rats space for each Cheese icon. Cheese cannot be collected from Gathering spaces.",
  crow: "Crows can only be placed on Gathering spaces in the clearing (solid border). They collect all Resources from that single space and are resolved first.",
  cat: "Cats can only be placed on double-arrow spaces. They collect Resources from the 2 Gathering spaces indicated by the arrows and are resolved second.",
  toad: "Toads can only be placed on four-arrow spaces. They collect Resources from the 4 Gathering spaces indicated by the arrows and are resolved third.",
  snake: "Snakes can only be placed on down-arrow spaces. They collect from the entire column indicated by the arrow and are resolved last; they set the next turn order.",
  coin: "Coin Pouches can only be placed on Assistants, to secure their services — or, instead of the ability, gain 1 Worm or 1 Cheese.",
};
export const about = (key) => ABOUT[key] || "";

/** Whether `action` moves one of your placed Familiars to another Forest space with your
 *  Assistant (the Shapeshifter: `{"type": "assistant", "pawn": "cat", "space": "k-3"}`,
 *  engines/drops_of_evil/VIEW.md): drawn on the Forest like a placement. */
export function familiarMove(action) {
  return !!action && action.type === "assistant" && typeof action.pawn === "string" && typeof action.space === "string";
}

/** The name of the viewer's hired Assistant ("Shapeshifter"), else "Assistant". */
export function hiredName(ctx) {
  const lab = ctx.you === null || ctx.you === undefined ? null : (ctx.game.alchilabs || [])[ctx.you];
  const as = lab && lab.assistant;
  const tile = as ? (ctx.game.assistants || []).find((t) => t.id === as.id) : null;
  return tile ? tile.name : "Assistant";
}

// The shared DOM helper (static/js/dom.js): style objects may set custom properties (--fill).
export {el, sv};

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
  const node = el("span", {class: `doe-pawn ${extra}`.trim(), "aria-label": label, dataset: {motionKey: `pawn-${seat}-${pawn}`},
                           style: {"--seat": ctx.table.seatColor(seat)}}, pawnIcon(pawn, ctx.table.seatColor(seat), 32));
  return attachCard(node, () => resCard(ctx, pawn, true, seat));
}

/** A seat's name after its shape in its colour (colour is never the only cue). */
export function seatTag(ctx, seat) {
  const name = ctx.table.seatName(seat);
  return el("span", {class: "doe-seat", title: name, style: {"--seat": ctx.table.seatColor(seat)}},
    seatShapeMark(seat, ctx.table.seatColor(seat)), el("span", {class: "doe-name"}, name));
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
