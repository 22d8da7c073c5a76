// Motion on the board (issue 14, item 5): what moved between two views slides from where it
// was to where it is, and numbers that changed flash. At most 300 ms; nothing moves when the
// player asked for reduced motion. The table calls snapshot() before a renderer's update() and
// play() after it, so a renderer only marks its elements (docs/renderer-contract.md):
//
//   data-motion-key="<stable id>"  a piece: the element with the same key in the next drawing
//                                  slides from the old place to the new one. Interchangeable
//                                  pieces get keys by place and state ("troop:zone-3:standing:0").
//   data-count="<stable id>"       a number: when its text changed, it flashes.

const DURATION_MS = 300;

export function reducedMotion() {
  return typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** Where each keyed piece is and what each counted number says inside `root`, now. */
function snapshot(root) {
  const places = new Map();
  const counts = new Map();
  if (!root) return {places, counts};
  // (nothing slides with reduced motion: no places to measure, no layout forced for them)
  if (!reducedMotion()) for (const node of root.querySelectorAll("[data-motion-key]")) {
    const r = node.getBoundingClientRect();
    if (r.width || r.height) places.set(node.dataset.motionKey, r);
  }
  for (const node of root.querySelectorAll("[data-count]")) counts.set(node.dataset.count, node.textContent);
  return {places, counts};
}

/** Animate `root`'s keyed pieces from their places in `before` (a snapshot()) to where they
 *  are now, and flash the counted numbers whose text changed. */
function play(root, before) {
  if (!root || !before) return;
  for (const node of root.querySelectorAll("[data-count]")) {
    const old = before.counts.get(node.dataset.count);
    if (old !== undefined && old !== node.textContent) flash(node);
  }
  if (reducedMotion()) return;
  for (const node of root.querySelectorAll("[data-motion-key]")) {
    const from = before.places.get(node.dataset.motionKey);
    if (from) slide(node, from);
  }
}

/** Slide `node` from the rectangle `from` (a DOMRect of its old place) to where it is now. */
function slide(node, from) {
  if (reducedMotion() || typeof node.animate !== "function") return null;
  const to = node.getBoundingClientRect();
  let dx = from.left - to.left, dy = from.top - to.top;
  if (Math.abs(dx) < 1 && Math.abs(dy) < 1) return null;
  // Inside a scaled SVG drawing a CSS translate is in the drawing's units, not the screen's.
  // (Keyed SVG pieces are plain <g> wrappers: a transform attribute of their own would be
  // replaced by the animation's.)
  const ctm = node instanceof SVGGraphicsElement && node.parentNode && node.parentNode.getScreenCTM
    ? node.parentNode.getScreenCTM() : null;
  if (ctm && ctm.a && ctm.d) {
    dx /= ctm.a;
    dy /= ctm.d;
  }
  node.dataset.moving = "true";
  const anim = node.animate([{transform: `translate(${dx}px, ${dy}px)`}, {transform: "none"}],
                            {duration: DURATION_MS, easing: "ease-out"});
  anim.onfinish = anim.oncancel = () => { delete node.dataset.moving; };
  return anim;
}

/** Flash `node` (a number that changed): the CSS class "num-flash" for its animation's length;
 *  with reduced motion the class stays as a still highlight until the next drawing. */
function flash(node) {
  if (node.classList.contains("num-flash")) {
    node.classList.remove("num-flash");
    void node.offsetWidth;  // restart the animation already running (a forced layout: only then)
  }
  node.classList.add("num-flash");
  if (!reducedMotion()) setTimeout(() => node.classList.remove("num-flash"), 1200);
}

/** The motion hooks, also handed to renderers as table.motion. */
export const motion = Object.freeze({snapshot, play, slide, flash, reducedMotion, DURATION_MS});
