// Evil Corp. icon set: our own drawings (no publisher art), one house style shared with the other
// games' icons: a 32×32 viewBox per icon, flat fills, a 2 px dark outline (#2b2118) with round
// joins, no gradients, no text inside an icon except numbers. Every function returns a new SVG
// node built with sv() (static/js/dom.js); callers size it with CSS (class "ic").
//
// Also the rulebook's words for every ability (wording(): "Monster Abilities", "Ability Symbols"
// and "Demon Abilities" of the rulebook), so a tile's card reads as the rulebook does.

import {sv} from "../../js/dom.js";
import {plural as s} from "../../js/words.js";  // "1 monster tile", "2 monster tiles"

export const INK = "#2b2118";
/** Tile colours (the three monster colours), light enough for dark ink on them. */
export const TILE = {blue: "#7cc4ec", red: "#f29a7e", yellow: "#f3e06a"};
const GOLD = "#f2c14e", MAGIC = "#a77bdc", STONE = "#6fd3e6", PAPER = "#fbf4e2";
const LINE = {stroke: INK, "stroke-width": 2, "stroke-linejoin": "round", "stroke-linecap": "round"};

function path(d, fill = "none", extra = {}) {
  return sv("path", {d, fill, ...LINE, ...extra});
}
function circle(cx, cy, r, fill = "none", extra = {}) {
  return sv("circle", {cx, cy, r, fill, ...LINE, ...extra});
}
function dot(cx, cy, r = 1.6, fill = INK) {
  return sv("circle", {cx, cy, r, fill});
}
/** A number inside an icon (the only text icons hold), class "n": a phone's stylesheet
 *  draws it larger (the renderer's CSS), so that it reads at 13 CSS px or more. */
function num(n, x = 16, y = 17, size = 15, fill = INK) {
  return sv("text", {class: "n", x, y, "font-size": size, "font-weight": "700", "text-anchor": "middle",
    "dominant-baseline": "central", fill, "font-family": "system-ui, sans-serif"}, String(n));
}
/** A small round number badge in a corner (a multiplier next to a symbol), class "badge": where
 *  the symbol is drawn too small for the badge's number to read (phones), the renderer hides
 *  it and writes the number beside the symbol (multiplier()). */
function badge(n, x = 25, y = 25) {
  return [sv("g", {class: "badge"}, circle(x, y, 6.5, PAPER, {"stroke-width": 1.5}), num(n, x, y + 0.5, 10))];
}

/** The <svg> frame every icon shares; `label` makes it an image with a name (else decorative). */
export function frame(children, {label = null, cls = ""} = {}) {
  const attrs = {viewBox: "0 0 32 32", class: `ic ${cls}`.trim(), focusable: "false"};
  if (label) { attrs.role = "img"; attrs["aria-label"] = label; }
  else attrs["aria-hidden"] = "true";
  const node = sv("svg", attrs, children);
  if (label) node.prepend(sv("title", {}, label));
  return node;
}

// ----- coins and tokens ---------------------------------------------------------------------------

export function goldCoin(n = null, label = null) {
  return frame([circle(16, 16, 13, GOLD), circle(16, 16, 9, "none", {"stroke-width": 1.2}),
    n === null ? path("M16 10v12M12.5 13.5c0-2 7-2 7 0s-7 2.5-7 4.8 7 2.2 7 0") : num(n)], {label});
}

export function magicCoin(n = null, label = null) {
  return frame([circle(16, 16, 13, MAGIC),
    n === null ? path("M16 7l2.6 6.4 6.4 2.6-6.4 2.6L16 25l-2.6-6.4L7 16l6.4-2.6z", PAPER)
      : num(n, 16, 17, 15, PAPER)], {label});
}

export function lootToken(label = null) {
  return frame([path("M11 9h10l-2 4c6 2 9 7 8 11-1 4-5 5-11 5S6 28 5 24c-1-4 2-9 8-11z", "#c99b5b"),
    path("M12 13h8"), circle(16, 21, 4, GOLD, {"stroke-width": 1.5})], {label});
}

export function powerStone(label = null) {
  return frame([path("M10 5h12l6 8-12 15L4 13z", STONE), path("M4 13h24M10 5l3 8 3 15 3-15 3-8",
    "none", {"stroke-width": 1.2})], {label});
}

export function victoryToken(n = null, label = null) {
  return frame([path("M11 20l-4 10 5-2 3 3 1-9M21 20l4 10-5-2-3 3-1-9", "#c0392b"),
    circle(16, 14, 11, "#f0c93e"),
    n === null ? path("M16 7.5l2 4.2 4.6.6-3.4 3.2.9 4.6-4.1-2.3-4.1 2.3.9-4.6-3.4-3.2 4.6-.6z", PAPER)
      : num(n, 16, 14.5, 13)], {label});
}

/** A conquest token (a banner shield) in a seat's colour. */
export function conquestToken(colour = "#888", label = null) {
  return frame([path("M6 5h20v10c0 7-5 11-10 13C11 26 6 22 6 15z", colour),
    path("M16 9v14M10 14h12", "none", {stroke: PAPER, "stroke-width": 2.5})], {label});
}

/** The starting monster sign (starting tiles: no hire cost): a sprout. */
export function startingSign(label = "Starting monster") {
  return frame([circle(16, 16, 13, "#d9f0c8"), path("M16 27V15", "none", {"stroke-width": 2.5}),
    path("M16 17c-1-5-5-7-9-6 0 4 4 7 9 6zM16 15c1-5 5-7 9-6 0 4-4 7-9 6z", "#5fa84a")], {label});
}

export function firstPlayer(label = null) {
  return frame([path("M6 24l2-13 5 6 3-9 3 9 5-6 2 13z", "#f0c93e"), path("M6 27h20")], {label});
}

// ----- fear, track symbols -----------------------------------------------------------------------

/** Fear strength: a ghost (with the number when given). */
export function fear(n = null, label = null) {
  const body = path("M6 29V14a10 10 0 0 1 20 0v15l-3.5-3-3 3-3.5-3-3.5 3-3-3z", PAPER);
  if (n === null) return frame([body, dot(12.5, 14, 2), dot(19.5, 14, 2), path("M13 20q3 2 6 0")], {label});
  return frame([body, num(n, 16, 18, 15)], {label});
}

/** The fear track's symbols (rulebook "Fear track"): conquest shield, 2 magic coins, victory. */
export function trackSymbol(kind) {
  if (kind === "shield") return conquestToken("#b9c2cc", "Conquest symbol");
  if (kind === "magic") return magicCoin(2, "2 magic coins");
  if (kind === "victory") return victoryToken(null, "Victory token symbol");
  return null;
}

// ----- cells of a settlement board ---------------------------------------------------------------

export function raidIcon(label = null) {   // a torch: the raid on the settlement
  return frame([path("M13 18h6l-2 11h-2z", "#8b5a2b"),
    path("M16 3c3 4 7 6 6 11-1 3-3 4-6 4s-5-1-6-4c-1-4 3-6 3-9 1 2 2 3 3 3 0-2-1-4 0-5z", "#ef7d2e")],
  {label});
}
export function fortressIcon(label = null) {
  return frame([path("M5 29V11h4v3h3v-3h3v3h2v-3h3v3h3v-3h4v18z", "#a9a39a"),
    path("M13 29v-6a3 3 0 0 1 6 0v6", "#5b4a3a")], {label});
}
export function portalIcon(label = null) {
  return frame([circle(16, 16, 13, "#5b3c88"), path("M16 9a7 7 0 1 1-7 7 4.5 4.5 0 0 1 9 0 2 2 0 0 1-4 0",
    "none", {stroke: "#e6d3ff", "stroke-width": 2.2})], {label});
}
export function portIcon(label = null) {
  return frame([circle(16, 7, 3, PAPER), path("M16 10v18M10 15h12M6 20c0 5 5 8 10 8s10-3 10-8",
    "none", {"stroke-width": 2.4}), path("M4 22l2-3 3 2M28 22l-2-3-3 2")], {label});
}
export const CELL_ICON = {raid: raidIcon, fortress: fortressIcon, portal: portalIcon, port: portIcon};

// ----- monsters and demons -----------------------------------------------------------------------

/** The monster drawing on a tile, one creature per colour (blue spirit, red brute, yellow
 *  goblin): flat, seen from the front. */
export function monster(colour) {
  if (colour === "blue") {
    return frame([path("M16 3c7 0 10 6 10 13v13l-3-2-3 2-4-2-4 2-3-2-3 2V16C6 9 9 3 16 3z", "#3d7fb0"),
      path("M10 15c1-2 4-2 5 0M17 15c1-2 4-2 5 0", "none", {stroke: PAPER}), path("M12 21q4 3 8 0", PAPER)]);
  }
  if (colour === "red") {
    return frame([path("M7 4l4 7M25 4l-4 7", "none", {"stroke-width": 3}),
      path("M6 14c0-4 4-6 10-6s10 2 10 6v7c0 5-4 8-10 8S6 26 6 21z", "#c9503a"),
      path("M10 15l4 2M22 15l-4 2"), dot(12, 18, 1.8), dot(20, 18, 1.8),
      path("M11 23h10l-2 3-1.5-2-1.5 2-1.5-2-1.5 2z", PAPER)]);
  }
  return frame([path("M3 10l8 4M29 10l-8 4", "none", {"stroke-width": 3}),
    path("M8 16c0-6 4-9 8-9s8 3 8 9-3 12-8 12-8-6-8-12z", "#c6b33a"),
    circle(12.5, 16, 2.4, PAPER, {"stroke-width": 1.5}), circle(19.5, 16, 2.4, PAPER, {"stroke-width": 1.5}),
    path("M12 23q4 2.5 8 0")]);
}

/** A demon's head; `level` 1-3 draws that many horns' flames (used on the level rows). */
export function demon(active = true, label = null) {
  const skin = active ? "#b0325a" : "#8a8296";
  return frame([path("M6 4c0 5 2 8 5 9M26 4c0 5-2 8-5 9", "none", {"stroke-width": 3}),
    path("M7 15c0-4 4-6 9-6s9 2 9 6v5c0 5-4 9-9 9s-9-4-9-9z", skin),
    path("M10 16l5 2M22 16l-5 2"), dot(12.5, 19, 1.8, "#f0e442"), dot(19.5, 19, 1.8, "#f0e442"),
    path("M12 25q4-2 8 0")], {label});
}

/** A demon level marker: `level` small flames in a row (1, 2 or 3). */
export function levelPips(level, label = null) {
  const out = [];
  const xs = level === 1 ? [16] : level === 2 ? [10, 22] : [6, 16, 26];
  for (const x of xs) out.push(path(`M${x} 26c-4 0-5-3-4-6 1-2 3-3 3-7 2 2 5 5 5 8 0 3-2 5-4 5z`, "#ef7d2e",
    {"stroke-width": 1.6}));
  return frame(out, {label});
}

/** "Revealed": an open eye (a tile shown in front of its screen until the end of the round). */
export function revealedMark() {
  const node = frame([path("M3 16q13-13 26 0-13 13-26 0z", PAPER), circle(16, 16, 5, "#3d7fb0"), dot(16, 16, 2)],
    {label: "Revealed until the end of the round", cls: "ec-revealed"});
  return node;
}

export function bag(label = null, fill = "#3a3340") {
  return frame([path("M11 8h10l-2 4c6 2 9 7 8 11-1 4-5 6-11 6S6 27 5 23c-1-4 2-9 8-11z", fill),
    path("M10 5l3 3M22 5l-3 3M13 12h6")], {label});
}
export function screenIcon(label = null) {
  return frame([path("M3 8l9-3v22l-9-3zM12 5l8 3v19l-8 0M20 8l9-3v19l-9 3", "#7d5a3c")], {label});
}
export function discardPile(label = null) {
  return frame([path("M6 12l14-4 6 14-14 4z", "#9b8f80"), path("M4 16l14-4 6 14-14 4z", "#c7bba9")],
    {label});
}
export function boxIcon(label = null) {
  return frame([path("M4 11l12-5 12 5v13l-12 5-12-5z", "#9c7a55"), path("M4 11l12 5 12-5M16 16v13")],
    {label});
}

// ----- ability symbols ---------------------------------------------------------------------------

function tileShape(x, y, fill = "#d8cfbf", w = 12, h = 14) {
  return sv("rect", {x, y, width: w, height: h, rx: 2, fill, ...LINE});
}
const arrow = (d, extra = {}) => path(d, "none", {"stroke-width": 2.4, ...extra});

const SYMBOL = {
  gain_gold: () => [circle(13, 17, 10, GOLD), circle(13, 17, 6, "none", {"stroke-width": 1.2}),
    arrow("M26 3v9M22 7h8")],
  pay_gold: () => [circle(13, 17, 10, GOLD), circle(13, 17, 6, "none", {"stroke-width": 1.2}),
    arrow("M22 7h8")],
  flip_opponent_tile: () => [tileShape(4, 9, "#f29a7e"), tileShape(16, 9, "#8a8296"),
    arrow("M8 6q8-6 16 0l-2-3M24 6l-3 0")],
  flip_demon: () => [path("M5 8c0 4 2 6 4 7M19 8c0 4-2 6-4 7", "none"),
    path("M6 16c0-3 3-5 6-5s6 2 6 5v4c0 4-3 7-6 7s-6-3-6-7z", "#b0325a"),
    arrow("M22 10q6 6 0 14l3-1M22 24l-1-3")],
  discard_to_bag: () => [path("M4 20l9-3 3 8-9 3z", "#c7bba9"), arrow("M12 14q3-8 9-6l-3-2M21 8l-3 2"),
    path("M20 14h8l-1 3c3 2 4 5 3 8-1 3-3 4-6 4s-5-1-6-4c-1-3 0-6 3-8z", "#3a3340")],
  draw_to_screen: () => [path("M3 14h8l-1 3c3 2 4 5 3 8-1 3-3 4-6 4s-5-1-6-4c-1-3 0-6 3-8z", "#3a3340"),
    arrow("M12 10q5-6 10-2l-1-3M22 8l-3 1"), path("M20 12l9-3v18l-9 3z", "#7d5a3c")],
  draw_then_discard: () => [arrow("M6 12a10 10 0 0 1 18-3l1-4M25 9l-4 0"),
    arrow("M26 20a10 10 0 0 1-18 3l-1 4M7 23l4 0"), tileShape(10, 10, "#d8cfbf", 12, 12)],
  use_queue_ability: () => [circle(7, 10, 3, PAPER), circle(16, 10, 3, PAPER), circle(25, 10, 3, PAPER),
    path("M3 20q4-6 8 0M12 20q4-6 8 0M21 20q4-6 8 0"), path("M17 22l-4 5h4l-2 4 6-6h-4l2-3z", "#f0e442",
      {"stroke-width": 1.4})],
  opponent_reveals: () => [path("M3 16q13-13 26 0-13 13-26 0z", PAPER), circle(16, 16, 5, "#3d7fb0"),
    dot(16, 16, 2)],
  opponent_discards: () => [circle(9, 9, 5, "#d55e00"), path("M3 24c0-5 3-8 6-8s6 3 6 8", "#d55e00"),
    tileShape(18, 6, "#d8cfbf", 10, 12), arrow("M23 20v9M20 26l3 3 3-3")],
  opponent_draws: () => [circle(9, 9, 5, "#d55e00"), path("M3 24c0-5 3-8 6-8s6 3 6 8", "#d55e00"),
    path("M20 14h8l-1 3c3 2 4 5 3 8-1 3-3 4-6 4s-5-1-6-4c-1-3 0-6 3-8z", "#3a3340"), arrow("M24 3v8M21 8l3 3 3-3")],
  discard_self: () => [tileShape(9, 6, "#d8cfbf", 14, 18), arrow("M9 27l14-2M12 12l8 8M20 12l-8 8")],
  send_to_discard: () => [path("M5 27L21 11l3 3L8 30z", "#b9c2cc"), path("M19 5l8 8-3 3-8-8z", "#8b5a2b"),
    tileShape(3, 4, "#d8cfbf", 10, 12)],
  move_self: () => [tileShape(10, 10, "#f3e06a", 12, 12), arrow("M16 2v6M13 5l3-3 3 3M16 30v-6M13 27l3 3 3-3M2 16h6M5 13l-3 3 3 3M30 16h-6M27 13l3 3-3 3")],
  move_own: () => [tileShape(10, 10, "#d8cfbf", 12, 12), arrow("M2 16h6M5 13l-3 3 3 3M30 16h-6M27 13l3 3-3 3")],
  remove_from_game: () => [path("M4 13l12-5 12 5v12l-12 5-12-5z", "#9c7a55"), path("M4 13l12 5 12-5M16 18v12"),
    arrow("M10 2l12 8M22 2l-12 8", {stroke: "#b0325a"})],
  hire_to_bag: () => [path("M3 17l6-5 5 3 5-3 6 5-9 8z", "#e8c39e"), path("M20 3h8l-1 2c2 1 3 3 2 5-1 1-2 2-4 2s-4-1-5-2c0-2 0-4 2-5z", "#3a3340", {"stroke-width": 1.5})],
  hire_to_screen: () => [path("M3 17l6-5 5 3 5-3 6 5-9 8z", "#e8c39e"), path("M20 3l8-2v11l-8 2z", "#7d5a3c", {"stroke-width": 1.5})],
  discard_from_supply: () => [path("M2 8l7-3v20l-7 3z", "#7d5a3c"), tileShape(13, 4, "#d8cfbf", 10, 12),
    arrow("M18 19v10M15 26l3 3 3-3")],
  // passives
  summon: () => [circle(16, 16, 13, "#5b3c88"), path("M16 5l6.5 20L5.5 12.5h21L9.5 25z", "none",
    {stroke: "#e6d3ff", "stroke-width": 1.6})],
  boost: (p) => [tileShape(4, 12, TILE[p.colour] || "#d8cfbf", 12, 14), arrow("M23 28V6M18 11l5-5 5 5")],
  solo_raid: () => [path("M16 3c3 4 7 6 6 11-1 3-3 4-6 4s-5-1-6-4c-1-4 3-6 3-9 1 2 2 3 3 3 0-2-1-4 0-5z", "#ef7d2e"),
    path("M13 18h6l-2 11h-2z", "#8b5a2b")],
  no_fortress: () => [path("M5 29V11h4v3h3v-3h3v3h2v-3h3v3h3v-3h4v18z", "#a9a39a"),
    circle(16, 18, 11, "none", {stroke: "#b0325a", "stroke-width": 3}), path("M8 26L24 10", "none",
      {stroke: "#b0325a", "stroke-width": 3})],
  protect_raid: () => [path("M6 4h20v11c0 7-5 11-10 13C11 26 6 22 6 15z", "#9fd0a8"), path("M11 15l4 4 7-8")],
  free_keep: () => [path("M5 29V11h4v3h3v-3h3v3h2v-3h3v3h3v-3h4v18z", "#a9a39a"),
    circle(16, 20, 5, GOLD), path("M12 28l8-16", "none", {stroke: "#b0325a", "stroke-width": 2.5})],
};

/** Multiplier shown next to a symbol (the rulebook: "the number next to a symbol is a
 *  multiplier"): n, a fear limit X, the summoning bonus. */
export function multiplier(e) {
  if (e.max_fear !== undefined) return e.max_fear;
  if (e.n !== undefined && (e.n > 1 || ["summon", "solo_raid", "opponent_reveals"].includes(e.op || e.kind))) {
    return e.n;
  }
  return null;
}

/** The ability symbol of an effect or passive (`{op|kind, n?, max_fear?, colour?}`). */
export function abilitySymbol(e) {
  const key = e.op || e.kind;
  const draw = SYMBOL[key];
  const parts = draw ? draw(e) : [circle(16, 16, 12, PAPER), num("?")];
  const m = multiplier(e);
  if (m !== null) parts.push(...badge(m));
  return frame(parts, {label: wording(e)});
}

// ----- the rulebook's words ----------------------------------------------------------------------

const COLOURS = {blue: "blue", red: "red", yellow: "yellow"};

/** The rulebook's text for one effect or passive (sections "Monster Abilities", "Ability
 *  Symbols", "Demon Abilities"). */
export function wording(e) {
  const n = e.n ?? 1;
  const up = e.optional ? "up to " : "";
  switch (e.op || e.kind) {
    case "gain_gold": return `Receive ${s(n, "gold coin", "gold coins")} from the general supply.`;
    case "pay_gold": return `Pay ${s(n, "gold coin", "gold coins")}. If you cannot pay, the tile cannot be put into play.`;
    case "flip_opponent_tile": return "Flip 1 of your opponent's monster tiles.";
    case "flip_demon": return "Flip 1 demon tile of your choice.";
    case "discard_to_bag": return `Add ${s(n, "monster tile", "monster tiles")} from your discard pile to your bag.`;
    case "draw_to_screen": return `Draw ${s(n, "monster tile", "monster tiles")} from your bag and put ${n === 1 ? "it" : "them"} behind your screen. Any number of monster tiles may be behind the screen.`;
    case "draw_then_discard": return `Draw ${s(n, "monster tile", "monster tiles")} from your bag and put ${n === 1 ? "it" : "them"} behind your screen, then discard ${s(n, "monster tile", "monster tiles")} from your supply.`;
    case "use_queue_ability": return "Apply, at your choice, the activated ability of 1 of the monsters in the applicant queue.";
    case "opponent_reveals": return `Choose an opponent; he must reveal ${s(n, "monster tile", "monster tiles")} from his supply and place them in front of his screen (until the end of the round).`;
    case "opponent_discards": return `Choose an opponent; he must discard ${s(n, "monster tile", "monster tiles")} from his supply (his choice).`;
    case "opponent_draws": return `Choose an opponent; he must draw ${s(n, "monster tile", "monster tiles")} from his bag and place ${n === 1 ? "it" : "them"} behind his screen.`;
    case "discard_self": return "Discard this monster.";
    case "send_to_discard": return `${e.optional ? "You may also choose" : "Choose"} on any available settlement board 1 monster tile with fear strength ${e.max_fear} or less and send it to its owner's discard pile.`;
    case "move_self": return "Move this tile to any free cell of any available settlement board (except the demon portal).";
    case "move_own": return `${n > 1 ? "In turn, move" : "Move"} ${n} of your monster tiles to any free cell of any available settlement board. Exception: only blue monsters may be moved to the demon portal.`;
    case "remove_from_game": return `Choose ${up}${n} of your monster tiles (behind the screen, in the discard pile or on the board) and remove ${n === 1 ? "it" : "them"} from the game, returning ${n === 1 ? "it" : "them"} to the box.`;
    case "hire_to_bag": return "Hire 1 monster from the applicant queue, paying its hire cost. Put the tile into your bag.";
    case "hire_to_screen": return "Hire 1 monster from the applicant queue, paying its hire cost. Put the tile behind your screen (not into your bag).";
    case "discard_from_supply": return `Discard ${s(n, "monster tile", "monster tiles")} from your supply. If you cannot, the tile cannot be put into play.`;
    case "summon": return `Add +${n} to the summoning strength of the demon.`;
    case "boost": return `Add +1 to the fear strength of each of your ${COLOURS[e.colour] || e.colour} monsters placed in raid cells (this one too).`;
    case "solo_raid": return `The fear strength of this tile is ${n} if it is the only one in the raid cells on your half.`;
    case "no_fortress": return "This tile cannot be placed in the fortress.";
    case "protect_raid": return "Your monsters in raid cells cannot be the target of opponents' abilities on the settlement board where this monster is located.";
    case "free_keep": return `At the end of the round you may leave ${n === 1 ? "1 of your monster tiles" : `up to ${n} of your monster tiles`} in the fortress for free.`;
    default: return String(e.op || e.kind || "").replace(/_/g, " ");
  }
}
