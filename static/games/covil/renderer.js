// Covil: The Dark Overlords table renderer (notes/renderer-contract.md; view shape:
// engines/covil/VIEW.md). Draws the whole map (SVG) with zones, terrain, troops standing/lying,
// fortresses with hp and Rebels; the combat panel; the Mercenary pool; every Champions hall with
// Minions and exhaustion; relics (own hand face up). Clickable legal targets carry data-action;
// two-step moves keep the chosen origin as a local pick (data-pick).

export const title = "Covil: The Dark Overlords";

const SVGNS = "http://www.w3.org/2000/svg";
const TERRAIN = {
  Water: {fill: "#9cc9e8", abbr: "Wa"},
  Desert: {fill: "#ecd59a", abbr: "De"},
  Mountain: {fill: "#b9b1a6", abbr: "Mo"},
  Forest: {fill: "#8fc48d", abbr: "Fo"},
  Town: {fill: "#e7b7a0", abbr: "Town"},
};
const DUMMY_COLORS = ["#555555", "#8a6d3b"];
const EX = ["Ready", "Tired", "Exhausted"];
const CSS = `
.cv-root{font:14px/1.35 system-ui,sans-serif;color:#1d1d1f;display:flex;flex-direction:column;gap:10px}
.cv-bar{display:flex;flex-wrap:wrap;gap:6px 14px;align-items:center;background:#f4f1ea;border-radius:8px;padding:6px 10px}
.cv-bar b{font-weight:600}
.cv-main{display:flex;flex-wrap:wrap;gap:12px;align-items:flex-start}
.cv-map{flex:1 1 460px;max-width:640px;background:#fbfaf6;border:1px solid #d8d2c4;border-radius:10px}
.cv-map svg{width:100%;height:auto;display:block}
.cv-side{flex:1 1 300px;display:flex;flex-direction:column;gap:10px;min-width:280px}
.cv-panel{border:1px solid #d8d2c4;border-radius:8px;padding:6px 8px;background:#fff}
.cv-panel h3{margin:0 0 4px;font-size:14px}
.cv-cards{display:flex;flex-wrap:wrap;gap:6px}
.cv-card{border:1px solid #bdb6a6;border-radius:6px;padding:4px 6px;width:132px;background:#fffdf8;font-size:12px;position:relative}
.cv-card .nm{font-weight:600;font-size:12.5px}
.cv-card .st{display:flex;justify-content:space-between}
.cv-card .tx{color:#444;font-size:11px;margin-top:2px}
.cv-card .ex{font-size:11px;font-weight:600;border-radius:4px;padding:0 4px;display:inline-block;margin-top:2px}
.cv-card .ex0{background:#d9f2d9;color:#1d5e1d}.cv-card .ex1{background:#fff1c2;color:#6b5000}.cv-card .ex2{background:#f6c9c9;color:#7a1414}
.cv-card.throne{border-width:2px}
.cv-card.relic{width:112px;background:#f6f0ff}
.cv-halls{display:flex;flex-direction:column;gap:10px}
.cv-hall{border-left:6px solid #888;padding-left:8px}
.cv-hall .hd{display:flex;flex-wrap:wrap;gap:4px 12px;align-items:baseline;margin-bottom:4px}
.cv-combat{background:#fff4ef;border-color:#e0a080}
.cv-combat .vs{font-size:20px;font-weight:700}
.legal{cursor:pointer;outline:2px solid #0a7d2c;outline-offset:1px}
.cv-card.legal{box-shadow:0 0 0 2px #0a7d2c}
svg .legal{outline:none;stroke:#0a7d2c !important;stroke-width:1.2 !important}
svg .zone-legal{fill-opacity:1;stroke:#0a7d2c;stroke-width:1.4;stroke-dasharray:2 1;cursor:pointer}
.legal:focus-visible,svg .legal:focus{stroke:#000 !important;outline:3px solid #000}
.picked{stroke:#000 !important;stroke-width:1.4 !important}
.changed{animation:cvflash 1.6s ease-out 1}
@keyframes cvflash{0%{background:#fff59d;filter:drop-shadow(0 0 3px #f5c400)}100%{filter:none}}
.cv-small{font-size:12px;color:#555}
`;

let root = null;
let table = null;
let lastView = null;
let picked = null;            // canonical "move origin" key or null
let sigs = new Map();
let prevSigs = new Map();

// ----- DOM helpers ---------------------------------------------------------------------------
function el(tag, attrs = {}, ...children) {
  const n = document.createElement(tag);
  setAttrs(n, attrs);
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) n.append(c instanceof Node ? c : String(c));
  return n;
}
function sv(tag, attrs = {}, ...children) {
  const n = document.createElementNS(SVGNS, tag);
  setAttrs(n, attrs);
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) n.append(c instanceof Node ? c : String(c));
  return n;
}
function setAttrs(n, attrs) {
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "dataset") Object.assign(n.dataset, v);
    else n.setAttribute(k, v === true ? "" : String(v));
  }
}
function canon(v) {
  if (Array.isArray(v)) return "[" + v.map(canon).join(",") + "]";
  if (v && typeof v === "object") return "{" + Object.keys(v).sort().map((k) => JSON.stringify(k) + ":" + canon(v[k])).join(",") + "}";
  return JSON.stringify(v);
}

/** Make `node` a clickable legal target for `action` (contract: data-action, class legal, ...). */
function clickable(node, action) {
  node.dataset.action = JSON.stringify(action);
  node.classList.add("legal");
  node.setAttribute("tabindex", "0");
  node.setAttribute("role", "button");
  node.setAttribute("aria-label", table.label(action));
  const go = (ev) => {
    if (ev.type === "keydown" && ev.key !== "Enter") return;
    ev.preventDefault();
    ev.stopPropagation();
    table.act(action);
  };
  node.addEventListener("click", go);
  node.addEventListener("keydown", go);
  table.claim(action);
  return node;
}
function pickable(node, key, labelText) {
  node.dataset.pick = key;
  node.classList.add("legal");
  node.setAttribute("tabindex", "0");
  node.setAttribute("role", "button");
  node.setAttribute("aria-label", labelText);
  if (picked === key) node.classList.add("picked");
  const go = (ev) => {
    if (ev.type === "keydown" && ev.key !== "Enter") return;
    ev.preventDefault();
    ev.stopPropagation();
    picked = picked === key ? null : key;
    render();
  };
  node.addEventListener("click", go);
  node.addEventListener("keydown", go);
  return node;
}
/** Mark a node `changed` when its signature differs from the previous view. */
function mark(node, id, sig) {
  sigs.set(id, sig);
  if (prevSigs.size && prevSigs.has(id) && prevSigs.get(id) !== sig) node.classList.add("changed");
  return node;
}

// ----- contract ------------------------------------------------------------------------------
export function mount(rootEl, tableObj) {
  root = rootEl;
  table = tableObj;
  if (!document.getElementById("cv-style")) document.head.append(el("style", {id: "cv-style"}, CSS));
  root.classList.add("cv-root");
  root.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && picked) { picked = null; e.preventDefault(); render(); }
  });
}

export function update(view) {
  lastView = view;
  picked = null; // a new view starts without a half-made move
  prevSigs = sigs;
  sigs = new Map();
  render();
}

function ownerColor(g, o) {
  const p = g.owners[o];
  if (p.seat !== null && p.seat !== undefined) return table.seatColor(p.seat);
  return DUMMY_COLORS[(o - (g.owners.findIndex((q) => q.dummy))) % DUMMY_COLORS.length];
}
function ownerName(g, o) {
  if (o === null || o === undefined) return "The Rebels";
  const p = g.owners[o];
  return p.seat !== null && p.seat !== undefined ? table.seatName(p.seat) : p.name;
}

function render() {
  const view = lastView;
  if (!view || !root) return;
  const g = view.game;
  if (!g || !g.zones) { root.replaceChildren(el("p", {}, "Waiting for the game to start…")); return; }
  const legal = view.legal_actions || [];
  const moves = legal.filter((a) => "to" in a && "from" in a);
  if (picked && !moves.some((a) => originKey(a) === picked)) picked = null;
  const ctx = {view, g, legal, moves};
  root.replaceChildren(
    infoBar(ctx),
    el("div", {class: "cv-main"},
      el("div", {class: "cv-map"}, drawMap(ctx)),
      el("div", {class: "cv-side"}, combatPanel(ctx), poolPanel(ctx), handPanel(ctx))),
    el("div", {class: "cv-halls"}, ...g.owners.map((p, o) => hallPanel(ctx, o))),
  );
}

function originKey(a) {
  const {to, ...rest} = a;
  return canon(rest);
}

// ----- header bar ----------------------------------------------------------------------------
function infoBar({g}) {
  const dom = Object.entries(g.dominance || {}).map(([t, o]) =>
    el("span", {}, `${t}: `, o === null ? "—" : el("b", {style: `color:${ownerColor(g, o)}`}, ownerName(g, o))));
  const bar = el("div", {class: "cv-bar"},
    el("span", {}, el("b", {}, `Day ${g.day}/${g.days}`), ` · ${g.phase}`),
    el("span", {}, "Evil Scepter: ", el("b", {style: `color:${ownerColor(g, g.first)}`}, ownerName(g, g.first))),
    g.turn !== null && g.turn !== undefined ? el("span", {}, "Turn: ", el("b", {style: `color:${ownerColor(g, g.turn)}`}, ownerName(g, g.turn))) : null,
    el("span", {}, `Rebels in town: `, el("b", {}, `${g.rebels}/${g.rebels_total}`)),
    el("span", {}, `Mercenary deck ${g.merc_deck} · Relic deck ${g.relic_deck} · Relic discard ${g.relic_discard.length}`),
    g.flips && g.flips.length ? el("span", {}, "Dummy flips: ", g.flips.map((r) => `${r} (${(g.relics[r] || {}).target || "?"})`).join(", ")) : null,
    el("span", {class: "cv-small"}, "Dominance now: ", ...dom.flatMap((d, i) => (i ? [" · ", d] : [d]))),
  );
  return mark(bar, "bar", `${g.day}|${g.phase}|${g.rebels}|${g.first}`);
}

// ----- map -----------------------------------------------------------------------------------
function drawMap(ctx) {
  const {g, legal, moves} = ctx;
  const S = 6; // viewBox scale: zones are placed on 0..100, drawn on 0..600
  const svg = sv("svg", {viewBox: "-50 -50 700 700", role: "img", "aria-label": `Board ${g.board}: ${g.board_name}`});
  const zones = g.zones;
  const done = new Set();
  for (const [z, d] of Object.entries(zones)) {
    for (const n of d.adj) {
      const key = [z, n].sort().join("-");
      if (done.has(key)) continue;
      done.add(key);
      svg.append(sv("line", {x1: d.x * S, y1: d.y * S, x2: zones[n].x * S, y2: zones[n].y * S, stroke: "#a79f8d", "stroke-width": 3}));
    }
  }
  const pickTargets = new Map();
  if (picked) for (const a of moves) if (originKey(a) === picked) pickTargets.set(a.to, a);
  const zoneActs = new Map();
  for (const a of legal) {
    if ((a.type === "place" || a.type === "retreat") && a.zone !== undefined) zoneActs.set(a.zone, a);
    if (a.type === "retreat") zoneActs.set(a.to, a);
  }
  for (const [z, d] of Object.entries(zones)) svg.append(drawZone(ctx, z, d, S, zoneActs.get(z) || pickTargets.get(z)));
  for (const a of moves) table.claim(a); // reachable: pick an origin (data-pick), then a zone
  return svg;
}

function drawZone(ctx, z, d, S, action) {
  const {g, legal, moves} = ctx;
  const cx = d.x * S, cy = d.y * S, R = 52;
  const grp = sv("g", {"data-zone": z});
  const terr = d.terrain;
  // Terrain: one pie slice per terrain tag (colour is never the only cue: abbreviations below).
  if (terr.length === 1) {
    grp.append(sv("circle", {cx, cy, r: R, fill: TERRAIN[terr[0]].fill, stroke: "#6f6754", "stroke-width": 2}));
  } else {
    terr.forEach((t, i) => {
      const a0 = (i / terr.length) * 2 * Math.PI - Math.PI / 2, a1 = ((i + 1) / terr.length) * 2 * Math.PI - Math.PI / 2;
      const p = `M ${cx} ${cy} L ${cx + R * Math.cos(a0)} ${cy + R * Math.sin(a0)} A ${R} ${R} 0 0 1 ${cx + R * Math.cos(a1)} ${cy + R * Math.sin(a1)} Z`;
      grp.append(sv("path", {d: p, fill: TERRAIN[t].fill}));
    });
    grp.append(sv("circle", {cx, cy, r: R, fill: "none", stroke: "#6f6754", "stroke-width": 2}));
  }
  if (d.spiral) grp.append(sv("circle", {cx, cy, r: R - 7, fill: "none", stroke: "#6f6754", "stroke-width": 1.5, "stroke-dasharray": "5 4"}));
  grp.append(sv("text", {x: cx, y: cy - R + 16, "text-anchor": "middle", "font-size": 17, "font-weight": 700}, z));
  grp.append(sv("text", {x: cx, y: cy + R + 14, "text-anchor": "middle", "font-size": 11, fill: "#333"}, terr.map((t) => TERRAIN[t].abbr).join("+")));
  // Rebels in town
  if (terr.includes("Town") && g.rebels) {
    for (let i = 0; i < g.rebels; i++) grp.append(sv("rect", {x: cx - 26 + i * 11, y: cy + R - 20, width: 8, height: 12, fill: "#b22222", stroke: "#000", "stroke-width": 0.6}));
    grp.append(sv("text", {x: cx + 32, y: cy + R - 9, "font-size": 11}, `R×${g.rebels}`));
  }
  // Fortresses and troops
  let slot = 0;
  const targets = legal.filter((a) => a.type === "target" && a.zone === z);
  g.owners.forEach((p, o) => {
    const color = ownerColor(g, o);
    if (p.fortress === z) {
      const fx = cx - 20, fy = cy - 20;
      const f = sv("g", {});
      f.append(sv("rect", {x: fx, y: fy, width: 40, height: 24, rx: 3, fill: p.destroyed ? "#ddd" : color, stroke: "#000", "stroke-width": 1.2}));
      f.append(sv("text", {x: cx, y: fy + 17, "text-anchor": "middle", "font-size": 14, "font-weight": 700, fill: p.destroyed ? "#000" : "#fff"}, p.destroyed ? "✖ boom" : `♜ ${p.hp}`));
      f.append(sv("title", {}, `${ownerName(g, o)}'s fortress: ${p.destroyed ? "destroyed" : p.hp + " hp"}`));
      const ta = targets.find((a) => a.owner === o && a.fortress);
      if (ta) clickable(f, ta);
      grp.append(mark(f, `fort-${o}`, `${p.hp}|${p.destroyed}|${z}`));
    }
    for (const up of [true, false]) {
      const n = p.troops.filter((t) => t.z === z && t.up === up).length;
      if (!n) continue;
      const ang = (slot++ * 1.3) + 0.5;
      const tx = cx + Math.cos(ang) * 31, ty = cy + Math.sin(ang) * 27;
      const tr = sv("g", {});
      if (up) tr.append(sv("rect", {x: tx - 6, y: ty - 11, width: 12, height: 22, rx: 5, fill: color, stroke: "#000", "stroke-width": 1}));
      else tr.append(sv("rect", {x: tx - 11, y: ty - 5, width: 22, height: 11, rx: 5, fill: color, stroke: "#000", "stroke-width": 1, "stroke-dasharray": "3 1.5"}));
      tr.append(sv("text", {x: tx + 13, y: ty + 5, "font-size": 13, "font-weight": 700}, `${n}${up ? "↑" : "↓"}`));
      tr.append(sv("title", {}, `${ownerName(g, o)}: ${n} ${up ? "standing" : "lying"} troop(s)`));
      const ta = targets.find((a) => a.owner === o && a.up === up);
      if (ta) clickable(tr, ta);
      else {
        const me = g.owners.findIndex((q) => q.seat === ctx.view.you);
        const origins = moves.filter((a) => a.from === z && (
          a.type === "move" ? (up && o === me)
            : a.owner !== undefined ? (a.owner === o && up)
              : (a.up === up && o === me)));
        if (origins.length) pickable(tr, originKey(origins[0]), `Move a troop from ${z}`);
      }
      grp.append(mark(tr, `tr-${o}-${z}-${up}`, String(n)));
    }
  });
  if (action) {
    // on top of the zone's pieces: the whole zone is the target
    const hit = sv("circle", {cx, cy, r: R + 4, fill: "transparent", class: "zone-legal"});
    clickable(hit, action);
    grp.append(hit);
  }
  return grp;
}

// ----- side panels ---------------------------------------------------------------------------
function minionCard(ctx, id, ex, {action = null, throne = false} = {}) {
  const m = ctx.g.minions[id] || {name: id, class: "?", base: "?", cost: "?", text: ""};
  const card = el("div", {class: `cv-card${throne ? " throne" : ""}`},
    el("div", {class: "nm"}, m.name),
    el("div", {class: "st"}, el("span", {}, `${m.class} ${m.base}`), el("span", {}, `${m.cost} gold`)),
    m.text ? el("div", {class: "tx"}, m.text) : null,
    ex === null ? null : el("span", {class: `ex ex${ex}`}, EX[ex]));
  if (action) clickable(card, action);
  return card;
}

function relicCard(ctx, r, action) {
  const d = ctx.g.relics[r] || {};
  const card = el("div", {class: "cv-card relic"},
    el("div", {class: "nm"}, `Relic ${r}`),
    el("div", {class: "st"}, el("span", {}, `${d.gold ?? "?"} gold`), el("span", {}, d.target || "")),
    el("div", {class: "tx"}, d.text || ""));
  if (action) clickable(card, action);
  return card;
}

function combatPanel(ctx) {
  const {g} = ctx;
  const f = [...g.stack].reverse().find((x) => x.kind === "combat");
  if (!f) return null;
  const atk = f.att === null ? "The Rebels" : ownerName(g, f.att);
  const tgt = f.target === "fortress" ? "fortress" : (f.dup ? "standing troop" : "lying troop");
  const who = f.side === "def" ? ownerName(g, f.def) : atk;
  const panel = el("div", {class: "cv-panel cv-combat"},
    el("h3", {}, "Combat"),
    el("div", {}, `${atk} (${f.akind}${f.from ? " from " + f.from : ""}) attacks ${ownerName(g, f.def)}'s ${tgt} in ${f.dz}`),
    el("div", {class: "vs"}, `Attack ${f.attack} vs Defence ${f.defense}`),
    el("div", {class: "cv-small"}, `Tie: the defender wins. Responding now: ${who}.`,
      f.dcard ? ` Defending Minion: ${(g.minions[f.dcard] || {}).name || f.dcard}.` : ""));
  return mark(panel, "combat", `${f.attack}|${f.defense}|${f.side}`);
}

function poolPanel(ctx) {
  const {g, legal} = ctx;
  const pay = g.stack.length && g.stack[g.stack.length - 1].kind === "pay" ? g.stack[g.stack.length - 1] : null;
  const panel = el("div", {class: "cv-panel"},
    el("h3", {}, `Mercenary pool (${g.pool.length})`),
    pay ? el("div", {class: "cv-small"}, `Paying for ${(g.minions[pay.card] || {}).name}: price ${pay.price}`) : null,
    el("div", {class: "cv-cards"}, ...g.pool.map((c) => {
      const a = legal.find((x) => x.type === "acquire" && x.card === c);
      return mark(minionCard(ctx, c, null, {action: a}), `pool-${c}`, "1");
    })));
  return panel;
}

function handPanel(ctx) {
  const {g, view, legal} = ctx;
  if (view.you === null || view.you === undefined) return null;
  const me = g.owners.find((p) => p.seat === view.you);
  if (!me) return null;
  const panel = el("div", {class: "cv-panel"}, el("h3", {}, `Your Power Relics (${(me.hand || []).length})`),
    el("div", {class: "cv-cards"}, ...(me.hand || []).map((r, i) => {
      const a = legal.find((x) => (x.type === "activate" || x.type === "pay_relic") && x.relic === r);
      return relicCard(ctx, r, a);
    })));
  return panel;
}

function hallPanel(ctx, o) {
  const {g, view, legal} = ctx;
  const p = g.owners[o];
  const color = ownerColor(g, o);
  const mine = p.seat !== null && p.seat === view.you;
  const top = g.stack.length ? g.stack[g.stack.length - 1] : null;
  const actingOwner = top ? (top.kind === "combat" ? (top.side === "def" ? top.def : top.att) : top.owner) : null;
  const slotAction = (i) => (mine && actingOwner === o
    ? legal.find((a) => (a.type === "command" || a.type === "defend" || a.type === "pay_minion" || (a.type === "effect" && Object.keys(a).length === 2)) && a.slot === i)
    : null);
  const hall = el("div", {class: "cv-panel cv-hall", style: `border-left-color:${color}`},
    el("div", {class: "hd"},
      el("h3", {style: `color:${color}`}, `${ownerName(g, o)}${p.dummy ? " (dummy)" : ""}${g.first === o ? " ⚜ Evil Scepter" : ""}`),
      el("span", {}, "Gold ", el("b", {}, `${p.gold}/${p.cap}`)),
      el("span", {}, "Fortress ", el("b", {}, p.fortress === null ? "—" : `${p.fortress} · ${p.destroyed ? "destroyed" : p.hp + " hp"}`)),
      el("span", {}, `Troops ${p.troops.length} on board (${p.troops.filter((t) => t.up).length} standing), ${p.supply} in supply`),
      el("span", {}, `Relics in hand: ${p.hand_count}`),
      el("span", {class: "cv-small"}, `relic price ${p.relic_price}`)),
    el("div", {class: "cv-cards"}, ...p.hall.map((m, i) =>
      mark(minionCard(ctx, m.id, m.ex, {action: slotAction(i), throne: i === 0}), `hall-${o}-${m.id}`, String(m.ex)))),
    p.active.length ? el("div", {}, el("div", {class: "cv-small"}, "Active Power Relics:"),
      el("div", {class: "cv-cards"}, ...p.active.map((r) => relicCard(ctx, r, null)))) : null);
  return mark(hall, `hall-${o}`, `${p.gold}|${p.hp}|${p.hand_count}|${p.active.length}`);
}
