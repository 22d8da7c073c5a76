// Drops of Evil's icon set: our own drawings (no publisher art), in the house style shared by
// the three games — 32×32 viewBox per icon, flat fills, a 2 px dark outline (#2b2118) with round
// joins, no gradients, no text inside an icon except numbers. Each `*Parts` function returns the
// drawing's nodes; `resIcon`/`pawnIcon`/... wrap them in an <svg> (HTML) and `gRes`/`gPawn` in a
// <g> placed inside a larger SVG (the Forest board).
import {sv} from "../../js/dom.js";

export const INK = "#2b2118";
const LINE = {stroke: INK, "stroke-width": 2, "stroke-linejoin": "round", "stroke-linecap": "round"};
const NUM = {"font-family": "system-ui,sans-serif", "font-weight": 800, "text-anchor": "middle"};

/** Token colours: the token disc's fill (colour is never the only cue: each has its drawing). */
export const RES_FILL = {
  owl: "#d9b77c", bat: "#8f74c4", salamander: "#ef7a4f", scorpion: "#f2c230", spider: "#6f7380",
  worm: "#f6b8c6", mushroom: "#5cb7a4", rat: "#a9a9a9", cheese: "#ffe07a",
};

function svgOf(size, title, parts, cls = "doe-icon") {
  return sv("svg", {viewBox: "0 0 32 32", width: size, height: size, class: cls,
                    role: title ? "img" : "presentation", "aria-hidden": title ? null : "true"},
    title ? sv("title", {}, title) : null, ...parts);
}
function placed(x, y, size, parts, title) {
  return sv("g", {transform: `translate(${x - size / 2},${y - size / 2}) scale(${size / 32})`},
    title ? sv("title", {}, title) : null, ...parts);
}

// ----- the Resources -----------------------------------------------------------------------------
function resDrawing(res) {
  switch (res) {
    case "owl": return [ // three hooked talons
      sv("path", {d: "M9 8 C7 14 8 19 11 22 L13 21 C11 17 11 13 12 9 Z", fill: "#fff4dc", ...LINE, "stroke-width": 1.6}),
      sv("path", {d: "M15 6 C13.5 13 14.5 19 17 23 L19 22 C17 17 17.5 12 18 6.5 Z", fill: "#fff4dc", ...LINE, "stroke-width": 1.6}),
      sv("path", {d: "M21 9 C20 15 21 19 23.5 22 L25 20.5 C23.5 17 23.5 13 24 10 Z", fill: "#fff4dc", ...LINE, "stroke-width": 1.6}),
      sv("path", {d: "M8 23 Q16 28 26 22", fill: "none", ...LINE, stroke: "#6b4a1e", "stroke-width": 3})];
    case "bat": return [ // a spread bat wing
      sv("path", {d: "M5 12 Q16 4 27 11 Q25 14 26 18 Q22 16 20 20 Q17 17 14 21 Q12 17 8 19 Q9 15 5 12 Z", fill: "#3b2a5c", ...LINE, "stroke-width": 1.6}),
      sv("path", {d: "M16 8 L14 21 M16 8 L20 20 M16 8 L26 18", fill: "none", stroke: "#b7a3e0", "stroke-width": 1})];
    case "salamander": return [ // a slit-pupil eye
      sv("path", {d: "M4 16 Q16 4 28 16 Q16 28 4 16 Z", fill: "#fff3c4", ...LINE, "stroke-width": 1.8}),
      sv("circle", {cx: 16, cy: 16, r: 6, fill: "#e8a317", ...LINE, "stroke-width": 1.4}),
      sv("path", {d: "M16 11 Q17.6 16 16 21 Q14.4 16 16 11 Z", fill: INK})];
    case "scorpion": return [ // a curled segmented tail with its sting
      sv("path", {d: "M8 26 Q6 14 14 9 Q22 5 24 12", fill: "none", ...LINE, stroke: "#8a5a00", "stroke-width": 5}),
      sv("path", {d: "M8 26 Q6 14 14 9 Q22 5 24 12", fill: "none", stroke: "#ffdd66", "stroke-width": 2.2, "stroke-dasharray": "3 1.6"}),
      sv("path", {d: "M22 12 L27 11 L24.5 18 Z", fill: "#5a3a00", ...LINE, "stroke-width": 1.4})];
    case "spider": return [ // body, head and eight legs
      sv("path", {d: "M11 12 L4 7 M11 15 L3 14 M11 18 L4 22 M12 20 L7 27 M21 12 L28 7 M21 15 L29 14 M21 18 L28 22 M20 20 L25 27",
                  fill: "none", stroke: "#fff", "stroke-width": 2, "stroke-linecap": "round"}),
      sv("ellipse", {cx: 16, cy: 18, rx: 6, ry: 7, fill: "#1d1d24", ...LINE, stroke: "#fff", "stroke-width": 1.4}),
      sv("circle", {cx: 16, cy: 10, r: 3.6, fill: "#1d1d24", stroke: "#fff", "stroke-width": 1.4}),
      sv("path", {d: "M16 14 L14 19 L16 23 L18 19 Z", fill: "#d33"})];
    case "worm": return [ // a wriggling worm
      sv("path", {d: "M5 22 Q9 12 14 19 Q19 26 23 16 Q25 11 28 12", fill: "none", ...LINE, stroke: "#8a3a52", "stroke-width": 6.5}),
      sv("path", {d: "M5 22 Q9 12 14 19 Q19 26 23 16 Q25 11 28 12", fill: "none", stroke: "#ffd2dc", "stroke-width": 3.4, "stroke-linecap": "round"}),
      sv("circle", {cx: 27, cy: 11.6, r: 0.9, fill: INK})];
    case "mushroom": return [ // a spotted toadstool
      sv("path", {d: "M13 17 H19 L20 27 H12 Z", fill: "#fff4dc", ...LINE, "stroke-width": 1.6}),
      sv("path", {d: "M4 18 Q5 6 16 5 Q27 6 28 18 Z", fill: "#b3261e", ...LINE, "stroke-width": 1.8}),
      sv("circle", {cx: 11, cy: 12, r: 2, fill: "#fff"}), sv("circle", {cx: 19, cy: 10, r: 2.4, fill: "#fff"}),
      sv("circle", {cx: 23, cy: 15, r: 1.6, fill: "#fff"})];
    case "rat": return [ // a rat in profile with its tail
      sv("path", {d: "M6 22 Q2 26 8 27", fill: "none", ...LINE, stroke: "#d88a9a", "stroke-width": 1.8}),
      sv("path", {d: "M6 22 Q7 13 16 13 Q22 13 25 17 L29 19 L25 21 Q22 24 14 24 Q8 24 6 22 Z", fill: "#5a5a5a", ...LINE, "stroke-width": 1.6}),
      sv("circle", {cx: 20, cy: 13.5, r: 3, fill: "#d88a9a", ...LINE, "stroke-width": 1.2}),
      sv("circle", {cx: 24, cy: 17.5, r: 1, fill: "#fff"})];
    case "cheese": return [ // a wedge with holes
      sv("path", {d: "M4 21 L26 10 L28 14 V24 H4 Z", fill: "#ffc933", ...LINE, "stroke-width": 1.8}),
      sv("path", {d: "M4 21 L28 14", fill: "none", ...LINE, "stroke-width": 1.4}),
      sv("circle", {cx: 11, cy: 21, r: 1.8, fill: "#c98f00"}), sv("circle", {cx: 19, cy: 20, r: 2.3, fill: "#c98f00"}),
      sv("circle", {cx: 24, cy: 19, r: 1.4, fill: "#c98f00"})];
    default: return [sv("circle", {cx: 16, cy: 16, r: 5, fill: "#999"})];
  }
}

/** A Resource token: a round disc in its colour with its drawing. */
export function resParts(res) {
  return [sv("circle", {cx: 16, cy: 16, r: 14.5, fill: RES_FILL[res] || "#bbb", ...LINE}), ...resDrawing(res)];
}
export const resIcon = (res, size = 26, title = null) => svgOf(size, title, resParts(res));
export const gRes = (res, x, y, size, title = null) => placed(x, y, size, resParts(res), title);

// ----- Familiars and the Coin Pouch --------------------------------------------------------------
function pawnDrawing(pawn) {
  const body = {fill: "#fffaf0", ...LINE, "stroke-width": 1.6};
  switch (pawn) {
    case "crow": return [
      sv("path", {d: "M5 20 Q8 11 17 11 L21 8 L27 10 L22 12 Q24 18 19 22 L22 27 L17 24 L13 26 L14 22 Q8 23 5 20 Z", ...body}),
      sv("circle", {cx: 21.5, cy: 10.5, r: 1.1, fill: INK})];
    case "cat": return [
      sv("path", {d: "M7 27 V12 L10 5 L14 10 H18 L22 5 L25 12 V27 Z", ...body}),
      sv("path", {d: "M11 16 Q12.5 14.5 14 16 M18 16 Q19.5 14.5 21 16", fill: "none", ...LINE, "stroke-width": 1.4}),
      sv("path", {d: "M15 20 H17 L16 21.5 Z", fill: INK}),
      sv("path", {d: "M8 21 L12 21.5 M8 24 L12 23 M24 21 L20 21.5 M24 24 L20 23", ...LINE, "stroke-width": 1})];
    case "toad": return [
      sv("path", {d: "M4 24 Q4 13 16 13 Q28 13 28 24 Q22 27 16 27 Q10 27 4 24 Z", ...body}),
      sv("circle", {cx: 10, cy: 12, r: 4, ...body}), sv("circle", {cx: 22, cy: 12, r: 4, ...body}),
      sv("circle", {cx: 10, cy: 12, r: 1.5, fill: INK}), sv("circle", {cx: 22, cy: 12, r: 1.5, fill: INK}),
      sv("path", {d: "M10 20 Q16 24 22 20", fill: "none", ...LINE, "stroke-width": 1.4})];
    case "snake": return [
      sv("path", {d: "M6 27 Q4 20 12 20 Q20 20 20 14 Q20 8 14 9", fill: "none", ...LINE, "stroke-width": 7}),
      sv("path", {d: "M6 27 Q4 20 12 20 Q20 20 20 14 Q20 8 14 9", fill: "none", stroke: "#fffaf0", "stroke-width": 4, "stroke-linecap": "round"}),
      sv("ellipse", {cx: 12, cy: 8.5, rx: 5, ry: 3.6, ...body}),
      sv("circle", {cx: 11, cy: 7.6, r: 0.9, fill: INK}),
      sv("path", {d: "M7 9 L4 9 M4 9 L2.5 8 M4 9 L2.5 10.2", fill: "none", stroke: "#c0392b", "stroke-width": 1.2, "stroke-linecap": "round"})];
    case "coin": return [ // the Coin Pouch: a tied purse with a coin
      sv("path", {d: "M11 10 Q5 16 6 23 Q8 29 16 29 Q24 29 26 23 Q27 16 21 10 Z", ...body}),
      sv("path", {d: "M11 10 L9 5 L13 7 L16 4 L19 7 L23 5 L21 10 Z", ...body}),
      sv("path", {d: "M10.5 10.5 H21.5", ...LINE, stroke: "#8a5a00", "stroke-width": 2.4}),
      sv("circle", {cx: 16, cy: 20, r: 4.5, fill: "#f2c230", ...LINE, "stroke-width": 1.4})];
    default: return [];
  }
}
/** A pawn in a seat's colour (`color` null: an empty space's grey outline). */
export function pawnParts(pawn, color) {
  return [sv("circle", {cx: 16, cy: 16, r: 14.5, fill: color || "#efe6d2", ...LINE, "stroke-dasharray": color ? null : "3 2.5"}),
    ...pawnDrawing(pawn)];
}
export const pawnIcon = (pawn, color, size = 28, title = null) => svgOf(size, title, pawnParts(pawn, color));
export const gPawn = (pawn, color, x, y, size, title = null) => placed(x, y, size, pawnParts(pawn, color), title);

// ----- tokens, tiles and marks -------------------------------------------------------------------
/** A Scroll: a parchment roll sealed with its Resource's drawing, and its step (+1 / +2). */
export function scrollIcon(res, step = null, size = 30, title = null) {
  return svgOf(size, title, [
    sv("path", {d: "M6 6 H24 Q28 6 28 10 V26 H10 Q6 26 6 22 Z", fill: "#f3e3bb", ...LINE}),
    sv("path", {d: "M6 6 Q2 6 2 10 Q2 13 6 13", fill: "#e2cc97", ...LINE}),
    sv("g", {transform: "translate(9 9) scale(.5)"}, ...resParts(res)),
    step === null ? null : sv("text", {x: 23, y: 24, "font-size": 10, fill: INK, ...NUM}, `${step}`)]);
}

/** An Extra Resource token (square, rounded): its Resource, and a number for 2 Worms/Cheese. */
export function extraIcon(res, n = 1, size = 28, title = null) {
  return svgOf(size, title, [
    sv("rect", {x: 2, y: 2, width: 28, height: 28, rx: 7, fill: "#5b3a8a", ...LINE}),
    sv("g", {transform: "translate(4 4) scale(.75)"}, ...resParts(res)),
    n > 1 ? sv("circle", {cx: 25, cy: 25, r: 6, fill: "#fff", ...LINE, "stroke-width": 1.4}) : null,
    n > 1 ? sv("text", {x: 25, y: 28.5, "font-size": 9.5, fill: INK, ...NUM}, String(n)) : null]);
}

/** An Income flame: lit (revealed) or dark, `size` tall. It fills its box, two wide to three
 *  tall (drops.css sizes it): in a square box it was a drop some 7 by 11 px (table review: the
 *  Brewer's and Distiller's income drops ~8 px on a desktop, ~6 px on a phone). */
export function flameIcon(lit, size = 16) {
  const svg = svgOf(size, null, [
    sv("path", {d: "M16 2 Q24 11 24 19 A8 8 0 0 1 8 19 Q8 13 12 9 Q13 14 16 14 Q14 8 16 2 Z",
                fill: lit ? "#ff8a1f" : "#5a3a20", ...LINE, stroke: lit ? INK : "#8a6a4a"}),
    lit ? sv("path", {d: "M16 13 Q20 18 20 21 A4 4 0 0 1 12 21 Q12 18 16 13 Z", fill: "#ffe066"}) : null], "doe-icon doe-flame-i");
  // (the drop and its outline: x 7..25, y 1..28 of the 32 units)
  svg.setAttribute("viewBox", "7 1 18 27");
  svg.setAttribute("width", String(Math.round(size * 2 / 3)));
  return svg;
}

/** An Assistant tile mark: a hooded apprentice. */
export function assistantIcon(size = 22, title = null) {
  return svgOf(size, title, [
    sv("path", {d: "M6 29 Q6 18 16 17 Q26 18 26 29 Z", fill: "#4d3d66", ...LINE}),
    sv("path", {d: "M9 15 Q9 4 16 3 Q23 4 23 15 Q20 19 16 19 Q12 19 9 15 Z", fill: "#6b548f", ...LINE}),
    sv("circle", {cx: 16, cy: 12.5, r: 4.4, fill: "#f0c9a0", ...LINE, "stroke-width": 1.4})]);
}

/** A Recipe tile mark: an open recipe book with a drop. */
export function recipeIcon(size = 22, title = null) {
  return svgOf(size, title, [
    sv("path", {d: "M2 8 Q9 5 16 9 Q23 5 30 8 V27 Q23 24 16 28 Q9 24 2 27 Z", fill: "#f3e3bb", ...LINE}),
    sv("path", {d: "M16 9 V28", ...LINE, "stroke-width": 1.4}),
    sv("path", {d: "M23 11 Q27 16 27 18.5 A4 4 0 0 1 19 18.5 Q19 16 23 11 Z", fill: "#3f9e5a", ...LINE, "stroke-width": 1.4}),
    sv("path", {d: "M5 13 H12 M5 17 H12 M5 21 H11", ...LINE, "stroke-width": 1.2})]);
}

/** Poison Points (a skull drop) with a number. */
export function pointsIcon(n, size = 24) {
  return svgOf(size, `${n} Poison Point${n === 1 ? "" : "s"}`, [
    sv("path", {d: "M16 2 Q27 14 27 20 A11 11 0 0 1 5 20 Q5 14 16 2 Z", fill: "#3f9e5a", ...LINE}),
    sv("text", {x: 16, y: 25, "font-size": 12, fill: "#fff", ...NUM}, String(n))]);
}
