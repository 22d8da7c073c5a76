// Where the marks' tags go (docs/renderer-contract.md "Marks"): the "Picked" and "Suggested"
// tags (lair.css, an element's ::after; hint.js's drawn g.hint-tag in an SVG drawing) and a
// renderer's own tag word (an element with the class `has-tag`: its ::before, Evil Corp.'s
// "Keep?"). Each tag sits on its own mark or in free space: never over another tag, over text or
// a small picture (an icon, a badge) of the board, and never cut by a box that clips it (table
// review 8, worst problem 2: "Suggested" over the pawn row's help line, two tags overlapping at
// Covil's H and A, "Picked" over a tile's ability badge, "Keep?" over the fear track).
//
// A tag first tries the place under its mark (straddling its bottom edge), then just below it,
// over or just above its top edge, then inside its mark, then beside it; the first place free
// of all of those wins, else the place covering the least. An HTML tag is moved through CSS
// variables the tag's rule reads (--tag-x/-y/-b/-t for ::after, --tagb-… for ::before); a
// drawn tag through its transform.

import {dom} from "./state.js";

const AFTER = "#board .picked:not(svg *), #board .hint-hit:not(svg *)";
const BEFORE = "#board .has-tag:not(svg *)";
const SVG_TAGS = "#board svg g.hint-tag";
const GAP = 2;      // px kept between two tags
const NEAR = 1;     // px kept between a tag and what it may not cover
const ICON = 72;    // a picture at most this wide and high is a mark a tag must not cover

/** The anchor (the lit SVG piece) of each drawn tag (hint.js drawTag). */
const anchors = new WeakMap();
export function tagAnchor(g, node) {
  anchors.set(g, node);
}

let canvas = null;
function textWidth(text, font) {
  canvas = canvas || document.createElement("canvas").getContext("2d");
  canvas.font = font;
  return canvas.measureText(text).width;
}

/** The size of an element's ::after / ::before tag (its content in its font, with padding). */
function pseudoSize(n, pseudo) {
  const cs = getComputedStyle(n, pseudo);
  if (!cs.content || cs.content === "none" || cs.content === "normal" || cs.display === "none") return null;
  const w = parseFloat(cs.width), h = parseFloat(cs.height);
  if (w > 0 && h > 0) {
    // (Chromium gives a rendered pseudo-element's used size)
    const pad = cs.boxSizing === "border-box" ? 0 : parseFloat(cs.paddingLeft) + parseFloat(cs.paddingRight)
      + parseFloat(cs.borderLeftWidth) + parseFloat(cs.borderRightWidth);
    const padV = cs.boxSizing === "border-box" ? 0 : parseFloat(cs.paddingTop) + parseFloat(cs.paddingBottom)
      + parseFloat(cs.borderTopWidth) + parseFloat(cs.borderBottomWidth);
    return {w: w + pad, h: h + padV};
  }
  const text = cs.content.replace(/^["']|["']$/g, "");
  const font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
  const lh = parseFloat(cs.lineHeight) || parseFloat(cs.fontSize) * 1.3;
  return {w: textWidth(text, font) + parseFloat(cs.paddingLeft) + parseFloat(cs.paddingRight),
          h: lh + parseFloat(cs.paddingTop) + parseFloat(cs.paddingBottom)};
}

/** The box (viewport px) inside which a tag drawn in `n` shows: the boxes of `n` and its
 *  ancestors that clip their content, and the page's width. */
function clipBox(n) {
  let box = {left: 0, top: -Infinity, right: document.documentElement.clientWidth, bottom: Infinity};
  for (let e = n; e && e !== document.body; e = e.parentElement) {
    if (e instanceof SVGElement && e.ownerSVGElement) continue;
    const cs = getComputedStyle(e);
    const clipX = cs.overflowX !== "visible", clipY = cs.overflowY !== "visible";
    if (!clipX && !clipY && !(e instanceof SVGSVGElement)) continue;
    const r = e.getBoundingClientRect();
    const bl = e.clientLeft || 0, bt = e.clientTop || 0;
    const inner = e instanceof SVGSVGElement ? r
      : {left: r.left + bl, top: r.top + bt, right: r.left + bl + e.clientWidth, bottom: r.top + bt + e.clientHeight};
    // (an SVG drawing clips what is drawn in it, unless told otherwise)
    const svgClips = e instanceof SVGSVGElement && cs.overflow !== "visible";
    if (clipX || svgClips) box = {...box, left: Math.max(box.left, inner.left), right: Math.min(box.right, inner.right)};
    if (clipY || svgClips) box = {...box, top: Math.max(box.top, inner.top), bottom: Math.min(box.bottom, inner.bottom)};
  }
  return box;
}

const overlap = (a, b) => Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left))
  * Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));
const grow = (r, d) => ({left: r.left - d, top: r.top - d, right: r.right + d, bottom: r.bottom + d});
const meets = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
const visible = (r) => r.width > 0.5 && r.height > 0.5;

/** What a tag may not cover near `area`: the lines of text, the small pictures of the board
 *  and the pieces beside its mark (not the drawn tags themselves). Its own mark's large pictures (20 px or more) that carry no
 *  number (a monster's creature) it may cover: it is the mark it names; not its badges. */
function obstacles(area, own, slack = 0) {
  const out = [];
  const board = dom.board;
  const walk = document.createTreeWalker(board, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  for (let t = walk.nextNode(); t; t = walk.nextNode()) {
    if (!t.textContent.trim()) continue;
    const p = t.parentElement;
    if (!p || p.closest(".hint-tag, title, style, script, .card-pop, [hidden]")) continue;
    const pr = p.getBoundingClientRect();
    if (!meets(pr, area)) continue;
    range.selectNodeContents(t);
    for (const q of range.getClientRects()) if (visible(q) && meets(q, area)) out.push(q);
  }
  // the pieces beside its mark (its siblings: the next tile of a row): a tag on one of them
  // reads as its own (review 9, worst problem 2: "Picked" on Junior Imp, the tile beside the
  // picked one)
  // (a tag a little on it, at most a quarter, is still read as its own mark's: `slack`, px²)
  for (const e of own && own.parentElement ? own.parentElement.children : []) {
    if (e === own || e instanceof SVGElement) continue;
    const r = e.getBoundingClientRect();
    if (visible(r) && meets(r, area)) out.push({left: r.left, top: r.top, right: r.right, bottom: r.bottom, slack});
  }
  for (const e of board.querySelectorAll("svg, img")) {
    if (e.closest(".hint-tag")) continue;
    const r = e.getBoundingClientRect();
    if (own && own.contains(e) && !e.querySelector("text") && r.width >= 20 && r.height >= 20) continue;
    if (!visible(r) || r.width > ICON || r.height > ICON || !meets(r, area)) continue;
    if (getComputedStyle(e).visibility === "hidden") continue;
    out.push(r);
  }
  return out;
}

/** The candidate places (left, top in viewport px) for a w×h tag of the mark with box r, in
 *  order of preference. */
function candidates(r, w, h) {
  const cx = r.left + r.width / 2 - w / 2;
  const xs = [cx, r.left, r.right - w, cx - w / 2, cx + w / 2];
  // (then every 4 px along the mark: a narrow free stretch between two badges, e.g. an Evil
  // Corp. tile's corner numbers, is found too)
  for (let x = r.left - w / 2; x <= r.right - w / 2; x += 4) xs.push(x);
  const out = [];
  const row = (y) => { for (const x of xs) out.push([x, y]); };
  row(r.bottom + 10 - h);          // straddling the bottom edge (the tags' first place)
  row(r.bottom - 4);               // hanging from it
  row(r.bottom + GAP);             // just below
  row(r.top - 10);                 // straddling the top edge
  row(r.top + 4 - h);              // standing on it
  row(r.top - h - GAP);            // just above
  for (let y = r.bottom - h - 2; y >= r.top + 2; y -= 3) row(y);   // inside, bottom up
  const cy = r.top + r.height / 2 - h / 2;
  for (const y of [cy, r.top, r.bottom - h]) {
    out.push([r.right + GAP, y], [r.left - w - GAP, y]);          // beside
  }
  return out;
}

function place(item, taken, obs) {
  const {r, w, h, clip} = item;
  let best = null;
  for (const [x, y] of candidates(r, w, h)) {
    const t = {left: x, top: y, right: x + w, bottom: y + h};
    const cut = (t.left < clip.left - 0.5 || t.right > clip.right + 0.5 || t.top < clip.top - 0.5 || t.bottom > clip.bottom + 0.5);
    const g = grow(t, GAP), near = grow(t, NEAR);
    let cost = cut ? 1e6 : 0;
    for (const o of taken) cost += 1e5 * (overlap(g, o) > 0 ? 1 : 0) + overlap(g, o);
    for (const o of obs) cost += Math.max(0, overlap(near, o) - (o.slack || 0));
    if (!best || cost < best.cost) best = {t, cost};
    if (cost === 0) break;
  }
  return best.t;
}

let scheduled = false;
/** Place every tag of the board again (after the next layout). */
export function placeTagsSoon() {
  if (scheduled) return;
  scheduled = true;
  requestAnimationFrame(() => {
    scheduled = false;
    placeTags();
  });
}

/** Place every tag of the board now. */
export function placeTags() {
  const items = [];
  const reset = (n, pre) => {
    for (const k of ["x", "y", "b", "t"]) n.style.removeProperty(`--${pre}-${k}`);
  };
  for (const [sel, pseudo, pre] of [[AFTER, "::after", "tag"], [BEFORE, "::before", "tagb"]]) {
    for (const n of document.querySelectorAll(sel)) {
      reset(n, pre);
      const size = pseudoSize(n, pseudo);
      const r = n.getBoundingClientRect();
      if (!size || !visible(r)) continue;
      items.push({n, pre, r, w: size.w, h: size.h, clip: clipBox(n)});
    }
  }
  for (const g of document.querySelectorAll(SVG_TAGS)) {
    g.removeAttribute("transform");
    const a = anchors.get(g);
    const gr = g.getBoundingClientRect();
    const r = a && a.isConnected ? a.getBoundingClientRect() : null;
    if (!r || !visible(r) || !visible(gr)) continue;
    items.push({g, gr, r, w: gr.width, h: gr.height, clip: clipBox(g.ownerSVGElement)});
  }
  if (!items.length) return;
  const taken = [];
  for (const it of items) {
    const area = grow(it.r, Math.max(it.w, it.h) + 12);
    const t = place(it, taken, obstacles(area, it.n || null, (it.w * it.h) / 4));
    taken.push(t);
    if (it.n) {
      // (offsets from the mark's padding box, where its absolutely placed pseudo-element lives)
      const ox = it.r.left + it.n.clientLeft, oy = it.r.top + it.n.clientTop;
      it.n.style.setProperty(`--${it.pre}-x`, `${(t.left - ox).toFixed(1)}px`);
      it.n.style.setProperty(`--${it.pre}-y`, `${(t.top - oy).toFixed(1)}px`);
      it.n.style.setProperty(`--${it.pre}-b`, "auto");
      it.n.style.setProperty(`--${it.pre}-t`, "none");
    } else {
      const scr = it.g.ownerSVGElement.getScreenCTM();
      const unit = 1 / (Math.hypot(scr.a, scr.b) || 1);
      const dx = (t.left - it.gr.left) * unit, dy = (t.top - it.gr.top) * unit;
      if (Math.abs(dx) > 0.01 || Math.abs(dy) > 0.01) it.g.setAttribute("transform", `translate(${dx.toFixed(2)},${dy.toFixed(2)})`);
    }
  }
}

// The board redraws (a view, a renderer's own pick), a mark comes or goes (a class), the window
// changes size: the tags are placed again. (Placing them changes only style properties and a
// drawn tag's transform: no record here.)
const watch = new MutationObserver((records) => {
  if (records.every((r) => r.type === "attributes" && r.target instanceof SVGElement && r.target.closest(".hint-tag"))) return;
  placeTagsSoon();
});
watch.observe(dom.board, {childList: true, subtree: true, attributes: true, attributeFilter: ["class"]});
window.addEventListener("resize", placeTagsSoon);
document.fonts?.ready?.then(placeTagsSoon);
