// The Forest board (SVG): Gathering spaces with their Resources, Clearing vs Underbrush,
// Cat/Toad/Snake action spaces with their arrows and pawns, Crows on Clearing spaces.
import {RES, el, sv, about, clickable, pickable, mark, resName, resCard, familiarMove, hiredName} from "./util.js";
import {attachCard} from "../../js/dom.js";
import {gRes, gPawn, pawnIcon} from "./icons.js";

const U = 100;      // one gathering-grid unit, px
const C = 68;       // a Gathering space's side
const M = 14;       // side margin
const T = 80;       // top band (Snake spaces sit at y = 0)

const SLOTS = {
  1: [[0, 6]],
  2: [[-16, 6], [16, 6]],
  3: [[-16, -5], [16, -5], [0, 19]],
  4: [[-16, -5], [16, -5], [-16, 19], [16, 19]],
};

function centre(x, y) {
  return [M + (x - 0.5) * U, T + (y - 0.5) * U];
}

function svgRes(ctx, res, count, x, y) {
  const g = sv("g", {class: "doe-sres", transform: `translate(${x},${y})`, dataset: {res}},
    gRes(res, 0, 0, 30), sv("title", {}, `${resName(ctx, res)} ×${count}`));
  attachCard(g, () => resCard(ctx, res));
  if (count > 1) {
    g.append(sv("circle", {class: "cnt-bg", cx: 12, cy: -11, r: 8, fill: "#fff", stroke: "#222", "stroke-width": 1}),
      sv("text", {class: "cnt", x: 12, y: -11, "text-anchor": "middle", dy: "0.35em"}, String(count)));
  }
  return g;
}

/** The seat's shape (● ▲ ■ ◆ …, docs/renderer-contract.md: colour is never the only cue) as a
 *  small badge on a pawn of the Forest, centred at (cx, cy): the shape in the seat's colour on a
 *  white disc with a dark edge (table review 8, worst problem 6: the opponents' Snakes told
 *  apart by colour alone). The node carries `data-shape` (the glyph). */
export function seatBadge(ctx, seat, cx, cy, r = 9) {
  const shape = ctx.table.seatShape ? ctx.table.seatShape(seat) : "●";
  const a = {fill: ctx.table.seatColor(seat), stroke: "#1b1410", "stroke-width": 1, "stroke-linejoin": "round"};
  const k = r * 0.62;
  const poly = (pts) => sv("polygon", {points: pts.map(([x, y]) => `${cx + x * k},${cy + y * k}`).join(" "), ...a});
  const mark = {
    "●": () => sv("circle", {cx, cy, r: k * 0.85, ...a}),
    "▲": () => poly([[0, -1.05], [1, 0.75], [-1, 0.75]]),
    "■": () => sv("rect", {x: cx - k * 0.78, y: cy - k * 0.78, width: k * 1.56, height: k * 1.56, ...a}),
    "◆": () => poly([[0, -1.1], [0.9, 0], [0, 1.1], [-0.9, 0]]),
  }[shape];
  return sv("g", {class: "doe-seat-badge", dataset: {shape}, "aria-hidden": "true"},
    sv("circle", {cx, cy, r, fill: "#fff", stroke: "#1b1410", "stroke-width": 1.5}),
    mark ? mark() : sv("text", {x: cx, y: cy, "text-anchor": "middle", dy: "0.35em", "font-size": r * 1.3, fill: a.fill}, shape));
}

function svgPawn(ctx, seat, pawn, x, y, w = 28, h = 18) {
  const label = `${resName(ctx, pawn)} of ${ctx.table.seatName(seat)}`;
  const g = sv("g", {class: "doe-spawn", transform: `translate(${x},${y})`},
    sv("circle", {r: w / 2 + 2, fill: "#fff"}), gPawn(pawn, ctx.table.seatColor(seat), 0, 0, w),
    seatBadge(ctx, seat, w / 2 - 1, w / 2 - 1, 7.5),
    sv("title", {}, label));
  attachCard(g, () => resCard(ctx, pawn, true, seat));
  // a plain wrapper carries the motion key (the slide's transform must not replace the placing one)
  return sv("g", {dataset: {motionKey: `pawn-${seat}-${pawn}`}}, g);
}

/** The viewer's legal actions by Forest space: placements (Crow/Cat/Toad/Snake), the Seer's
 *  Resource to put (seer_put), the Shapeshifter's moves of a placed Familiar (new-user trial:
 *  its ten moves were only items of the prompt bar's menu) and the Spider Charmer's or the
 *  Herbalist's Gathering space to take a Spider or a Mushroom from (`target`; new-user trial:
 *  eight "Activate Spider Charmer on …" items filled the phone's menu). A space may offer more
 *  than one (a Clearing space: your Crow, or a Spider for your Spider Charmer): space -> list. */
export function spaceActions(ctx) {
  const out = new Map();
  const add = (space, a) => out.set(space, [...(out.get(space) || []), a]);
  for (const a of ctx.legal) {
    if (a.type === "seer_put") add(a.space, a);
    else if ((a.type === "place" && a.pawn !== "coin") || familiarMove(a)) add(a.space, a);
    else if (takeFrom(a)) add(a.target, a);
  }
  return out;
}

/** Whether `action` takes a Resource from a Gathering space with your Assistant (the Spider
 *  Charmer, the Herbalist: `{"type": "assistant", "assistant": …, "target": "g-3-2"}`). */
export function takeFrom(action) {
  return !!action && action.type === "assistant" && typeof action.target === "string";
}

/** What an Assistant that takes from a Gathering space takes (rulebook / game-data: the Spider
 *  Charmer a Spider, the Herbalist a Mushroom), by the Resources there: the one kind of the
 *  two the space holds, else "spider". */
function takenRes(ctx, a) {
  const here = ((ctx.game.forest || {}).resources || {})[a.target] || {};
  const tile = (ctx.game.assistants || []).find((t) => t.id === a.assistant);
  const text = tile ? `${tile.name} ${tile.text}`.toLowerCase() : "";
  if (text.includes("mushroom") && here.mushroom) return "mushroom";
  if (text.includes("spider") && here.spider) return "spider";
  return here.spider ? "spider" : "mushroom";
}

/** The one action a click on a space with `acts` makes: with a pawn picked, that pawn's (the
 *  prompt names it); else the only one there is; null when the player must choose. */
export function spaceChoice(acts, pickedPawn) {
  const mine = pickedPawn ? acts.filter((a) => a.pawn === pickedPawn) : [];
  if (mine.length === 1) return mine[0];
  return acts.length === 1 ? acts[0] : null;
}

/** A space offering several actions (spaceActions): a click asks which, in a small choice by
 *  the space (the renderer draws it: ctx.choose). Every action stays claimed: the choice's
 *  buttons are where they are clicked. */
function choiceSpace(ctx, node, acts, id) {
  node.classList.add("legal", "choose");
  node.dataset.choose = id;
  node.setAttribute("tabindex", "0");
  node.setAttribute("role", "button");
  node.setAttribute("aria-haspopup", "dialog");
  const label = `Choose: ${acts.map((a) => ctx.table.label(a)).join(" or ")}`;
  node.setAttribute("aria-label", label);
  node.append(sv("title", {}, label));
  const go = (e) => {
    e.preventDefault();
    e.stopPropagation();
    ctx.choose(id);
  };
  node.addEventListener("click", go);
  node.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") go(e); });
  for (const a of acts) ctx.table.claim(a);
  return node;
}

/** Make a Forest space act on a click: the one action it offers (a pawn picked: that pawn's),
 *  or a choice among several. */
function spaceTarget(ctx, node, acts, id, pickedPawn) {
  const one = spaceChoice(acts, pickedPawn);
  if (one) {
    clickable(ctx, node, one, familiarMove(one) ? "move" : takeFrom(one) ? "take" : "");
    for (const a of acts) if (a !== one) ctx.table.claim(a);
  } else {
    choiceSpace(ctx, node, acts, id);
  }
  if (acts.every((a) => dimmed(pickedPawn, a))) node.classList.add("dim");
  // a Spider or a Mushroom your Assistant may take: a ring around it on the space
  for (const a of acts.filter(takeFrom)) {
    const res = takenRes(ctx, a);
    const icon = node.querySelector(`.doe-sres[data-res="${res}"]`);
    if (icon) icon.prepend(sv("circle", {class: "take-ring", r: 19}));
  }
}

/** The viewer's own Familiar on the Forest that their Shapeshifter may move (`moves`: pawn ->
 *  how many spaces): a pick (data-pick "pawn-<pawn>", like a pawn at home) whose ring shows it
 *  may move; picking it dims the other pawns' spaces. Returns `g`. */
function movablePawn(ctx, g, p, moves, pickedPawn, r) {
  const n = moves.get(p.pawn);
  if (ctx.you === null || p.seat !== ctx.you || !n) return g;
  (g.querySelector(".doe-spawn") || g).prepend(sv("circle", {class: "pick-ring", r}));
  return pickable(ctx, g, `pawn-${p.pawn}`,
    `Move your ${resName(ctx, p.pawn)} with your ${hiredName(ctx)} (${n} spaces)`, pickedPawn === p.pawn);
}

/** A target dimmed while a pawn is picked whose spaces it is not (an Assistant's Resource to
 *  take too: the prompt names the picked pawn). */
function dimmed(pickedPawn, a) {
  return !!pickedPawn && a.pawn !== pickedPawn;
}

export function drawForest(ctx) {
  const geo = ctx.game.geometry.forest;
  const forest = ctx.game.forest || {};
  const res = forest.resources || {};
  const pawns = forest.pawns || {};
  const W = 2 * M + geo.cols * U;
  const H = T + geo.rows * U + M;
  const acts = spaceActions(ctx);
  const moves = new Map();
  for (const a of ctx.legal) if (familiarMove(a)) moves.set(a.pawn, (moves.get(a.pawn) || 0) + 1);
  const pickedPawn = ctx.picked && ctx.picked.startsWith("pawn-") ? ctx.picked.slice(5) : null;

  const svg = sv("svg", {class: "doe-forest", viewBox: `0 0 ${W} ${H}`, width: W, height: H,
                         role: "group", "aria-label": "Forest board"});
  svg.style.setProperty("--w", `${W}px`);
  svg.style.setProperty("--minw", `${geo.cols * 50}px`);  // six columns fit a 375 px phone
  svg.append(sv("rect", {class: "doe-forest-bg", x: 0, y: 0, width: W, height: H, rx: 14}));

  const byId = new Map();
  const targetsOf = new Map();
  for (const s of geo.action_spaces) targetsOf.set(s.id, s.targets);

  // Gathering spaces.
  const cells = sv("g", {class: "doe-cells"});
  for (const g of geo.gathering) {
    const [cx, cy] = centre(g.x, g.y);
    const node = sv("g", {class: `doe-g ${g.clearing ? "clearing" : "underbrush"}`,
                          transform: `translate(${cx},${cy})`, "data-space": g.id});
    node.append(sv("rect", {class: "chg", x: -C / 2 - 8, y: -C / 2 - 8, width: C + 16, height: C + 16, rx: 13}),
      sv("rect", {class: "hl", x: -C / 2 - 4, y: -C / 2 - 4, width: C + 8, height: C + 8, rx: 11}));
    node.append(sv("rect", {class: "cell", x: -C / 2, y: -C / 2, width: C, height: C, rx: 8}));
    // No coordinate on the space (table review C5: the rulebook names spaces by their kind);
    // its kind and what it holds are in its tooltip.
    const here = res[g.id] || {};
    const types = Object.keys(here).filter((k) => here[k] > 0);
    types.sort((a, b) => Object.keys(RES).indexOf(a) - Object.keys(RES).indexOf(b));
    const kind = g.clearing ? "Clearing space" : "Underbrush space";
    if (!types.length) {
      // an empty space: a faded Worm in the middle (a Familiar gathering here takes 1 Worm),
      // small enough that the Cat spaces beside it never sit on it (review C6)
      node.append(sv("g", {class: "doe-empty-worm", transform: "translate(0,2)"}, gRes("worm", 0, 0, 20)),
        sv("title", {}, `${kind}, empty: a Familiar gathering here takes 1 Worm`));
    } else {
      node.append(sv("title", {}, `${kind}: ${types.map((t) => `${resName(ctx, t)} ×${here[t]}`).join(", ")}`));
      const shown = types.length > 4 ? types.slice(0, 3) : types;
      const pos = SLOTS[Math.max(1, Math.min(4, types.length))];
      shown.forEach((t, i) => node.append(svgRes(ctx, t, here[t], pos[i][0], pos[i][1])));
      if (types.length > 4) {
        const rest = types.slice(3);
        const more = sv("g", {class: "more"}, sv("circle", {class: "cnt-bg", cx: 16, cy: 19, r: 12, fill: "#fff", stroke: "#2b2118", "stroke-width": 1.5}),
          sv("text", {class: "cnt", x: 16, y: 19, "text-anchor": "middle", dy: "0.35em"}, `+${rest.length}`),
          sv("title", {}, rest.map((t) => `${resName(ctx, t)} ×${here[t]}`).join(", ")));
        node.append(more);
      }
    }
    const p = pawns[g.id];
    if (p) node.append(movablePawn(ctx, svgPawn(ctx, p.seat, p.pawn, -C / 2 + 13, -C / 2 + 13, 28), p, moves, pickedPawn, 19));
    const a = acts.get(g.id);
    if (a) spaceTarget(ctx, node, a, g.id, pickedPawn);
    else if (p) takenSays(ctx, node, p);
    mark(ctx, node, `g:${g.id}`, [here, p || null]);
    byId.set(g.id, node);
    cells.append(node);
  }
  svg.append(cells);

  // Cat, Toad and Snake spaces with their arrows.
  const spaces = sv("g", {class: "doe-spaces"});
  for (const s of geo.action_spaces) {
    const [cx, cy] = centre(s.x, s.y);
    const p = pawns[s.id];
    const node = sv("g", {class: `doe-as ${s.pawn}${p ? " occupied" : ""}`,
                          transform: `translate(${cx},${cy})`, "data-space": s.id});
    const arrows = sv("g", {class: "arrows"});
    const dirs = s.pawn === "snake" ? [[0, 1]] : s.targets.map((t) => {
      const g = geo.gathering.find((q) => q.id === t);
      const dx = g.x - s.x, dy = g.y - s.y, n = Math.hypot(dx, dy) || 1;
      return [dx / n, dy / n];
    });
    for (const [dx, dy] of dirs) {
      const ang = Math.atan2(dy, dx) * 180 / Math.PI;
      arrows.append(sv("path", {d: "M18,-6 L27,0 L18,6 Z", transform: `rotate(${ang})`}));
    }
    node.append(sv("circle", {class: "chg", r: 25}), sv("circle", {class: "hl", r: 21}), arrows);
    if (p) {
      // the seat's colour as a style: the stylesheet's .disc fill would beat an attribute
      node.append(movablePawn(ctx, sv("g", {dataset: {motionKey: `pawn-${p.seat}-${p.pawn}`}}, gPawn(p.pawn, ctx.table.seatColor(p.seat), 0, 0, 34),
        // (between its space's arrows: a Snake's points down, a Cat's sideways, a Toad's aslant)
        seatBadge(ctx, p.seat, ...(s.pawn === "snake" ? [16, -2] : [0, 16]))), p, moves, pickedPawn, 23),
      sv("title", {}, `${resName(ctx, p.pawn)} of ${ctx.table.seatName(p.seat)}`));
    } else {
      node.append(sv("g", {class: "doe-empty-pawn"}, gPawn(s.pawn, null, 0, 0, 32)),
        sv("title", {}, `${resName(ctx, s.pawn)} space`));
    }
    const a = acts.get(s.id);
    if (a) spaceTarget(ctx, node, a, s.id, pickedPawn);
    else if (p) takenSays(ctx, node, p);
    const show = (on) => {
      for (const t of targetsOf.get(s.id) || []) {
        const c = byId.get(t);
        if (c) c.classList.toggle("target", on);
      }
    };
    attachCard(node, () => spaceCard(ctx, s, p, res));
    node.addEventListener("mouseenter", () => show(true));
    node.addEventListener("mouseleave", () => show(false));
    node.addEventListener("focus", () => show(true));
    node.addEventListener("blur", () => show(false));
    mark(ctx, node, `as:${s.id}`, p || null);
    spaces.append(node);
  }
  svg.append(spaces);
  return svg;
}

/** A click on a space another pawn holds, while you place, says why nothing happens, at once
 *  and without asking the server (new-user trial 7: it said nothing): the row of your pawns
 *  says who is there (renderer.js notice). */
function takenSays(ctx, node, p) {
  if (!ctx.notice || !ctx.legal.some((a) => a.type === "place")) return;
  node.addEventListener("click", (e) => {
    if (e.target.closest && e.target.closest("[data-pick], [data-action]")) return;
    const who = p.seat === ctx.you ? "your" : `${ctx.table.seatName(p.seat)}'s`;
    ctx.notice(`Taken by ${who} ${resName(ctx, p.pawn)}: pick a highlighted space.`, node.dataset.space);
  });
}

/** What a space with arrows is called, by the Familiar that goes there (rulebook "Placing
 *  Action Pawns"). */
const SPACE_KIND = {cat: "Double-arrow space", toad: "Four-arrow space", snake: "Down-arrow space"};

/** The full card of a Cat, Toad or Snake space (hover, focus or long-press): what it is and
 *  who may go there, in the rulebook's words; who is there; what its arrows point to now. */
function spaceCard(ctx, s, p, res) {
  const held = new Map();
  let empty = 0;
  for (const t of s.targets) {
    const here = res[t] || {};
    const kinds = Object.keys(here).filter((k) => here[k] > 0);
    if (!kinds.length) empty += 1;
    for (const k of kinds) held.set(k, (held.get(k) || 0) + here[k]);
  }
  const order = Object.keys(RES);
  const list = [...held].sort((a, b) => order.indexOf(a[0]) - order.indexOf(b[0]))
    .map(([k, n]) => `${resName(ctx, k)} ×${n}`);
  const n = s.targets.length;
  const where = s.pawn === "snake" ? "in the column below it" : `on the ${n} Gathering spaces its arrows point to`;
  const now = list.length ? `Now ${where}: ${list.join(", ")}` : `Now nothing ${where}`;
  const worms = empty ? ` (${empty === 1 ? "an empty space" : `${empty} empty spaces`}: 1 Worm each)` : "";
  return el("div", {class: "doe-full"},
    el("div", {class: "doe-full-head"}, pawnIcon(s.pawn, p ? ctx.table.seatColor(p.seat) : "#efe6d2", 40),
      el("b", {}, SPACE_KIND[s.pawn] || "Forest space")),
    el("p", {}, about(s.pawn)),
    el("p", {}, p ? `Taken: ${resName(ctx, p.pawn)} of ${ctx.table.seatName(p.seat)}.`
      : `Empty: a ${resName(ctx, s.pawn)} may be placed here.`),
    el("p", {}, `${now}${worms}.`));
}
