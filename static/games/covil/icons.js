// Covil's icon set: our own drawings (no publisher art), in the house style shared by the three
// games — 32×32 viewBox per icon, flat fills, a 2 px dark outline (#2b2118) with round joins, no
// gradients, no text inside an icon except numbers. Every function returns a fresh SVG node built
// with sv(); `size` is the rendered size in px (the viewBox stays 32×32). Use `g*` variants
// (a <g> placed at x, y) inside a larger SVG such as the map.
import {sv} from "../../js/dom.js";
import {seatShape} from "../../js/table/seat-style.js";

export const INK = "#2b2118";
const LINE = {stroke: INK, "stroke-width": 2, "stroke-linejoin": "round", "stroke-linecap": "round"};

/** Terrain colours (also used for the zone fills of the map). */
export const TERRAIN_FILL = {
  Water: "#8ec5e6", Desert: "#ecd08c", Mountain: "#b8ada0", Forest: "#86bf7e", Town: "#e2a98f",
};

function icon(size, title, ...parts) {
  const s = sv("svg", {viewBox: "0 0 32 32", width: size, height: size, class: "cv-icon",
                       role: title ? "img" : "presentation", "aria-hidden": title ? null : "true"},
    title ? sv("title", {}, title) : null, ...parts);
  return s;
}

/** A group holding the 32×32 drawing, placed at (x, y) (top-left) and scaled to `size`. */
function group(x, y, size, ...parts) {
  return sv("g", {transform: `translate(${x},${y}) scale(${size / 32})`}, ...parts);
}

// ----- terrain -----------------------------------------------------------------------------------
function terrainParts(t) {
  switch (t) {
    case "Water": return [
      sv("path", {d: "M3 12 q4.3 -5 8.6 0 t8.6 0 t8.6 0", fill: "none", ...LINE, stroke: "#1f5f8b", "stroke-width": 2.6}),
      sv("path", {d: "M3 20 q4.3 -5 8.6 0 t8.6 0 t8.6 0", fill: "none", ...LINE, stroke: "#1f5f8b", "stroke-width": 2.6}),
      sv("path", {d: "M7 27 q4.3 -4 8.6 0 t8.6 0", fill: "none", ...LINE, stroke: "#1f5f8b", "stroke-width": 2.2})];
    case "Desert": return [
      sv("circle", {cx: 23, cy: 9, r: 4.5, fill: "#f2b233", ...LINE}),
      sv("path", {d: "M2 27 Q10 14 18 21 Q24 16 30 27 Z", fill: "#d9a94e", ...LINE}),
      sv("path", {d: "M9 27 Q14 22 19 27", fill: "none", ...LINE, "stroke-width": 1.5})];
    case "Mountain": return [
      sv("path", {d: "M2 28 L12 8 L18 18 L22 12 L30 28 Z", fill: "#8d8275", ...LINE}),
      sv("path", {d: "M9.5 13 L12 8 L14.6 13 L12.5 12 L11 14 Z", fill: "#fff", ...LINE, "stroke-width": 1.2})];
    case "Forest": return [
      sv("path", {d: "M10 4 L17 15 H13.5 L19 24 H1 L6.5 15 H3 Z", fill: "#2f7d3a", ...LINE}),
      sv("rect", {x: 8.5, y: 24, width: 3, height: 5, fill: "#7a4e2a", ...LINE, "stroke-width": 1.5}),
      sv("path", {d: "M23 10 L29 19 H26.5 L31 26 H15 L19.5 19 H17 Z", fill: "#3f9a4a", ...LINE}),
      sv("rect", {x: 21.5, y: 26, width: 3, height: 3.5, fill: "#7a4e2a", ...LINE, "stroke-width": 1.5})];
    case "Town": return [
      sv("path", {d: "M3 28 V15 L9 9 L15 15 V28 Z", fill: "#f3e3c3", ...LINE}),
      sv("path", {d: "M2 16 L9 8 L16 16", fill: "none", ...LINE, stroke: "#9b2d20", "stroke-width": 2.6}),
      sv("path", {d: "M15 28 V11 L22 4 L29 11 V28 Z", fill: "#f3e3c3", ...LINE}),
      sv("path", {d: "M14 12 L22 3.5 L30 12", fill: "none", ...LINE, stroke: "#9b2d20", "stroke-width": 2.6}),
      sv("rect", {x: 7, y: 21, width: 4, height: 7, fill: "#7a4e2a", ...LINE, "stroke-width": 1.4}),
      sv("rect", {x: 19.5, y: 15, width: 5, height: 5, fill: "#8ec5e6", ...LINE, "stroke-width": 1.4})];
    default: return [sv("circle", {cx: 16, cy: 16, r: 10, fill: "#ccc", ...LINE})];
  }
}
export const terrainIcon = (t, size = 20) => icon(size, t, ...terrainParts(t));
export const gTerrain = (t, x, y, size) => group(x, y, size, sv("title", {}, t), ...terrainParts(t));

// ----- Minion classes and ability types ----------------------------------------------------------
function classParts(cls) {
  switch (cls) {
    case "Melee": return [   // a sword
      sv("path", {d: "M22 4 L28 4 L28 10 L13 25 L7 19 Z", fill: "#d8dde3", ...LINE}),
      sv("path", {d: "M5 17 L15 27", ...LINE, "stroke-width": 3.4}),
      sv("path", {d: "M9 23 L4 28", ...LINE, "stroke-width": 4, stroke: "#7a4e2a"}),
      sv("path", {d: "M9 23 L4 28", fill: "none", stroke: INK, "stroke-width": 1})];
    case "Ranged": return [  // a bow and its arrow
      sv("path", {d: "M8 3 Q26 16 8 29", fill: "none", ...LINE, stroke: "#7a4e2a", "stroke-width": 3.4}),
      sv("path", {d: "M8 3 V29", ...LINE, "stroke-width": 1.2}),
      sv("path", {d: "M4 16 H28", ...LINE}),
      sv("path", {d: "M29 16 L23.5 12.5 V19.5 Z", fill: "#d8dde3", ...LINE, "stroke-width": 1.5})];
    case "Defense": return [ // a shield
      sv("path", {d: "M16 3 L28 7 V15 C28 22 22 27 16 29 C10 27 4 22 4 15 V7 Z", fill: "#6d86a8", ...LINE}),
      sv("path", {d: "M16 7 V25 M9 13 H23", ...LINE, stroke: "#f1e6c8", "stroke-width": 2.6})];
    default: return [sv("circle", {cx: 16, cy: 16, r: 10, fill: "#ccc", ...LINE})];
  }
}
export const classIcon = (cls, size = 18) => icon(size, `${cls} class`, ...classParts(cls));

const ABILITY_LABEL = {aftershock: "Aftershock", reinforcement: "Reinforcement", influence: "Influence",
                       command: "Command", none: "No ability"};
function abilityParts(type) {
  switch (type) {
    case "aftershock": return [sv("path", {d: "M18 2 L7 18 H15 L12 30 L25 13 H17 Z", fill: "#f2b233", ...LINE})];
    case "reinforcement": return [
      sv("path", {d: "M16 3 L28 14 H21 V29 H11 V14 H4 Z", fill: "#5aa05a", ...LINE})];
    case "influence": return [
      sv("path", {d: "M4 24 L6 9 L12 16 L16 6 L20 16 L26 9 L28 24 Z", fill: "#e6b422", ...LINE}),
      sv("rect", {x: 4, y: 24, width: 24, height: 4, fill: "#c9971a", ...LINE})];
    case "command": return [ // a war horn
      sv("path", {d: "M4 20 Q8 10 26 6 L28 14 Q14 14 9 24 Z", fill: "#e8dcc0", ...LINE}),
      sv("path", {d: "M26 6 Q30 10 28 14", fill: "#7a4e2a", ...LINE}),
      sv("path", {d: "M10 22 L12 28", ...LINE})];
    default: return [sv("circle", {cx: 16, cy: 16, r: 6, fill: "#ddd", ...LINE})];
  }
}
export const abilityIcon = (type, size = 16) => icon(size, ABILITY_LABEL[type] || type, ...abilityParts(type));
export const abilityLabel = (type) => ABILITY_LABEL[type] || type;

// ----- gold, relics, exhaustion, scepter ---------------------------------------------------------
function coinParts(n) {
  return [sv("circle", {cx: 16, cy: 16, r: 13, fill: "#f2c230", ...LINE}),
    sv("circle", {cx: 16, cy: 16, r: 9.5, fill: "none", stroke: "#b8860b", "stroke-width": 1.4}),
    n === null || n === undefined ? null
      : sv("text", {class: "n", x: 16, y: 21.5, "text-anchor": "middle", "font-size": String(n).length > 1 ? 13 : 16,
                    "font-weight": 800, fill: INK, "font-family": "system-ui,sans-serif"}, String(n))];
}
/** A gold coin, with a number on it when `n` is given. */
export const goldIcon = (n = null, size = 22) => icon(size, n === null ? "gold" : `${n} gold`, ...coinParts(n));

function relicParts() {
  return [sv("path", {d: "M9 4 Q16 10 23 4", fill: "none", ...LINE, stroke: "#8a6d3b"}),
    sv("path", {d: "M16 8 L26 17 L16 30 L6 17 Z", fill: "#9b6fd0", ...LINE}),
    sv("path", {d: "M6 17 H26 M12 17 L16 29 L20 17 M16 8 L12 17 M16 8 L20 17", fill: "none", ...LINE, "stroke-width": 1.1})];
}
export const relicIcon = (size = 18) => icon(size, "Power Relic", ...relicParts());

const EX_LOOK = [
  {name: "Ready", fill: "#3d9a4f"}, {name: "Tired", fill: "#e0a526"}, {name: "Exhausted", fill: "#c4452f"},
];
function exParts(ex) {
  if (ex === 0) return [sv("circle", {cx: 16, cy: 16, r: 13, fill: EX_LOOK[0].fill, ...LINE}),
    sv("path", {d: "M9 16.5 L14 21.5 L23 11", fill: "none", ...LINE, stroke: "#fff", "stroke-width": 3.2})];
  if (ex === 1) return [sv("circle", {cx: 16, cy: 16, r: 13, fill: EX_LOOK[1].fill, ...LINE}),
    sv("path", {d: "M20 7 A9.5 9.5 0 1 0 25 21 A7.5 7.5 0 1 1 20 7 Z", fill: "#fff8e0", ...LINE, "stroke-width": 1.4})];
  return [sv("circle", {cx: 16, cy: 16, r: 13, fill: EX_LOOK[2].fill, ...LINE}),
    sv("path", {d: "M10 10 L22 22 M22 10 L10 22", fill: "none", ...LINE, stroke: "#fff", "stroke-width": 3.4})];
}
/** Exhaustion token: 0 ready (check), 1 tired (moon), 2 exhausted (cross). */
export const exIcon = (ex, size = 16) => icon(size, EX_LOOK[ex].name, ...exParts(ex));
export const exName = (ex) => EX_LOOK[ex].name;

function scepterParts() {
  return [sv("path", {d: "M8 28 L20 12", ...LINE, stroke: "#7a4e2a", "stroke-width": 4}),
    sv("path", {d: "M8 28 L20 12", fill: "none", stroke: INK, "stroke-width": 1}),
    sv("circle", {cx: 22, cy: 10, r: 6, fill: "#9b6fd0", ...LINE}),
    sv("path", {d: "M18 4 L22 1.5 L26 4", fill: "none", ...LINE, stroke: "#e6b422"})];
}
export const scepterIcon = (size = 18) => icon(size, "Evil Scepter", ...scepterParts());

/** A Minion card (the Champions Hall's count on a seat's player board). */
export const cardIcon = (size = 22) => icon(size, "Minion cards",
  sv("rect", {x: 9, y: 5, width: 17, height: 24, rx: 3, fill: "#e9dcc0", ...LINE, "stroke-width": 1.6}),
  sv("rect", {x: 6, y: 3, width: 17, height: 24, rx: 3, fill: "#fffaf0", ...LINE}),
  sv("path", {d: "M10 9 H19 M10 13 H19", ...LINE, "stroke-width": 1.4}),
  sv("path", {d: "M18 17 L21 17 L21 20 L14 25 L12 23 Z", fill: "#d8dde3", ...LINE, "stroke-width": 1.2}));

/** The crown beside whoever leads on Victory Points (our drawing: no emoji font is needed). */
export const crownIcon = (size = 18) => icon(size, "leading",
  sv("path", {d: "M5 24 L3 9 L11 16 L16 6 L21 16 L29 9 L27 24 Z", fill: "#f2c230", ...LINE}),
  sv("path", {d: "M5 27 H27", fill: "none", ...LINE, "stroke-width": 3}));

/** Victory points: a laurel wreath around a star (the title names it: no "VP" abbreviation on
 *  the table, issue 14 item 3). */
export const vpIcon = (size = 18) => icon(size, "victory points",
  sv("path", {d: "M9 27 C3 22 3 12 8 6 M23 27 C29 22 29 12 24 6", fill: "none", ...LINE, stroke: "#3f7a2a", "stroke-width": 3}),
  sv("path", {d: "M16 7 L18.6 13 L25 13.4 L20 17.5 L21.7 24 L16 20.4 L10.3 24 L12 17.5 L7 13.4 L13.4 13 Z", fill: "#f2c230", ...LINE}));

// ----- pieces on the map -------------------------------------------------------------------------
/** The seat's shape (colour is never the only cue): circle, triangle, square, diamond, star,
 *  pentagon, cross — the order of seat-style.js's SEAT_SHAPES. Drawn centred at (cx, cy),
 *  radius r, white with a dark edge on the piece's colour; the node carries `data-shape` (the
 *  seat's glyph, ● ▲ ■ …) so the map says in words which shape it drew. The one helper for
 *  every piece on the map (troops and fortresses). */
export function seatMark(index, cx, cy, r, fill = "#fff") {
  const a = {fill, stroke: INK, "stroke-width": 1.2, "stroke-linejoin": "round", class: "seat-mark",
             dataset: {shape: seatShape(index)}};
  const poly = (pts) => sv("polygon", {points: pts.map(([x, y]) => `${cx + x * r},${cy + y * r}`).join(" "), ...a});
  switch (((index % 7) + 7) % 7) {
    case 0: return sv("circle", {cx, cy, r: r * 0.85, ...a});
    case 1: return poly([[0, -1], [0.95, 0.75], [-0.95, 0.75]]);
    case 2: return sv("rect", {x: cx - r * 0.8, y: cy - r * 0.8, width: r * 1.6, height: r * 1.6, ...a});
    case 3: return poly([[0, -1], [0.85, 0], [0, 1], [-0.85, 0]]);
    case 4: return poly([...Array(10)].map((_, i) => {
      const ang = -Math.PI / 2 + (i * Math.PI) / 5, rr = i % 2 ? 0.45 : 1;
      return [rr * Math.cos(ang), rr * Math.sin(ang)];
    }));
    case 5: return poly([...Array(5)].map((_, i) => {
      const ang = -Math.PI / 2 + (i * 2 * Math.PI) / 5;
      return [0.95 * Math.cos(ang), 0.95 * Math.sin(ang)];
    }));
    default: return poly([[-0.3, -1], [0.3, -1], [0.3, -0.3], [1, -0.3], [1, 0.3], [0.3, 0.3], [0.3, 1],
      [-0.3, 1], [-0.3, 0.3], [-1, 0.3], [-1, -0.3], [-0.3, -0.3]]);
  }
}

const MEEPLE = "M16 2.5 a5 5 0 0 1 5 5 c0 2 -1 3.4 -2.2 4.2 L28 15 c1.6 .6 1.6 3.4 0 4 l-6 -0.8 L26 29 H18.5 L16 24 L13.5 29 H6 L10 18.2 l-6 .8 c-1.6 -.6 -1.6 -3.4 0 -4 l9.2 -3.3 C12 10.9 11 9.5 11 7.5 a5 5 0 0 1 5 -5 Z";
/** A troop meeple of `color`: standing upright, or lying on its side (dashed outline as a second
 *  cue). `mark` = seat index for the seat's shape on its chest (null: none), as large as the
 *  chest allows and always upright (a lying troop's triangle still points up: a turned shape
 *  would read as another seat's). */
export function gMeeple(x, y, size, color, up, mark = null) {
  const body = sv("path", {d: MEEPLE, fill: color, ...LINE, "stroke-dasharray": up ? null : "3 2"});
  // (16, 17.5) on the chest; lying, the body turns a quarter left about (16, 16) after moving
  // down 4: the chest lands at (21.5, 16)
  const chest = mark === null ? null : up ? seatMark(mark, 16, 17.5, 5.4) : seatMark(mark, 21.5, 16, 5.4);
  const inner = up ? sv("g", {}, body) : sv("g", {transform: "rotate(-90 16 16) translate(0 4)"}, body);
  return group(x, y, size, inner, chest);
}
export const meepleIcon = (color, up, mark = null, size = 22) =>
  icon(size, up ? "standing troop" : "lying troop", gMeeple(0, 0, 32, color, up, mark));

/** A Rebel: a hooded peasant with a pitchfork (not a seat colour). */
function rebelParts() {
  return [sv("path", {d: "M25 3 V29", ...LINE, stroke: "#7a4e2a", "stroke-width": 2.6}),
    sv("path", {d: "M21 3 V8 H29 V3 M25 3 V8", fill: "none", ...LINE, "stroke-width": 1.6}),
    sv("path", {d: "M13 3 C18 3 20 7 19 11 L22 28 H4 L7 11 C6 7 8 3 13 3 Z", fill: "#8b2b22", ...LINE}),
    sv("circle", {cx: 13, cy: 10, r: 3.4, fill: "#f0c9a0", ...LINE, "stroke-width": 1.4})];
}
export const gRebel = (x, y, size) => group(x, y, size, sv("title", {}, "Rebel"), ...rebelParts());
export const rebelIcon = (size = 20) => icon(size, "Rebel", ...rebelParts());

/** A fortress: a keep in the owner's colour; hit points on a banner (a number); cracked and
 *  grey when destroyed. `mark` = seat index for the seat's shape on its wall, left of the gate
 *  (null: none). */
function fortressParts(color, hp, destroyed, mark = null) {
  const wall = destroyed ? "#b9b3aa" : color;
  return [
    sv("path", {d: "M3 29 V11 H7 V14 H10 V11 H14 V14 H18 V11 H22 V14 H25 V11 H29 V29 Z", fill: wall, ...LINE}),
    sv("path", {d: "M13 29 V22 a3 3 0 0 1 6 0 V29", fill: INK}),
    destroyed ? sv("path", {d: "M8 12 L12 19 L9 23 L13 28 M24 13 L21 18 L24 22", fill: "none", ...LINE, "stroke-width": 1.6}) : null,
    sv("path", {d: "M16 11 V2", ...LINE}),
    sv("path", {d: "M16 2.5 H25 L23 5 L25 7.5 H16 Z", fill: "#fff", ...LINE, "stroke-width": 1.4}),
    hp === null || hp === undefined ? null
      : sv("text", {class: "cv-hp-flag", x: 20.3, y: 7.2, "text-anchor": "middle", "font-size": 6.5, "font-weight": 800, fill: INK,
                    "font-family": "system-ui,sans-serif"}, String(hp)),
    // where the flag is too small for its number to read (phones: the renderer's CSS shows
    // this and hides the flag's), the hit points on a red disc over the wall's corner
    hp === null || hp === undefined ? null
      : sv("g", {class: "cv-hp-badge"}, sv("circle", {cx: 22, cy: 21.5, r: 9.6, fill: "#d2443a", ...LINE, "stroke-width": 1.6}),
        sv("text", {x: 22, y: 27.9, "text-anchor": "middle", "font-size": 18, "font-weight": 800, fill: "#fff",
                    "font-family": "system-ui,sans-serif"}, String(hp))),
    mark === null ? null : seatMark(mark, 8, 21.5, 4.4)];
}
export const gFortress = (x, y, size, color, hp, destroyed, mark = null) =>
  group(x, y, size, ...fortressParts(color, hp, destroyed, mark));
export const fortressIcon = (color, hp = null, destroyed = false, size = 22, mark = null) =>
  icon(size, destroyed ? "destroyed fortress" : `fortress, ${hp} hit points`, ...fortressParts(color, hp, destroyed, mark));

/** A heart with the fortress's hit points. */
export const hpIcon = (hp, size = 20) => icon(size, `${hp} hit points`,
  sv("path", {d: "M16 28 C6 21 3 16 3 11 a6.5 6.5 0 0 1 13 -2 a6.5 6.5 0 0 1 13 2 c0 5 -3 10 -13 17 Z", fill: "#d2443a", ...LINE}),
  sv("text", {class: "n hp", x: 16, y: 19.5, "text-anchor": "middle", "font-size": 12, "font-weight": 800, fill: "#fff",
              "font-family": "system-ui,sans-serif"}, String(hp)));

/** The attack-strength burst placed at (x, y) (top-left) inside a larger SVG. */
export function gStrength(n, x, y, size) {
  const svgNode = strengthIcon(n, "attack", size);
  svgNode.setAttribute("x", x);
  svgNode.setAttribute("y", y);
  return svgNode;
}

/** Strength badge (a fist-like burst with a number) for attack/defense values. */
export const strengthIcon = (n, kind = "attack", size = 22) => icon(size, `${kind} strength ${n}`,
  kind === "attack"
    ? sv("path", {d: "M16 1 L19.5 9 L28 6 L23.5 13.5 L31 18 L22.5 19.5 L24 28 L16 23 L8 28 L9.5 19.5 L1 18 L8.5 13.5 L4 6 L12.5 9 Z", fill: "#e8643c", ...LINE})
    : sv("path", {d: "M16 2 L28 6 V15 C28 22 22 27 16 30 C10 27 4 22 4 15 V6 Z", fill: "#6d86a8", ...LINE}),
  sv("text", {class: "n", x: 16, y: 21, "text-anchor": "middle", "font-size": 12, "font-weight": 800, fill: "#fff",
              "font-family": "system-ui,sans-serif"}, String(n)));
