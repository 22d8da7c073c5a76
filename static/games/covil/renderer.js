// Covil: The Dark Overlords table renderer (docs/renderer-contract.md; view shape:
// engines/covil/VIEW.md). Draws the map (SVG) with terrain drawn as terrain, the town with its
// Rebels, fortresses with their hit points and troops as meeples standing or lying; Minion and
// Power Relic cards drawn as cards (icons: ./icons.js); the combat with both strengths; every
// Champions Hall. Clickable legal targets carry data-action; a move's origin is a local pick
// (data-pick). Hover or long-press any card or piece for its full card (attachCard).
import {actionNodes, el, sv, attachCard, PHONE} from "../../js/dom.js";
import {iconCard, keyPanel, titlesToCards} from "../../js/legend.js";
import {note, seatBoardBox, stat as sbStat, tag} from "../../js/seat-board.js";
import {TERRAIN_FILL, terrainIcon, gTerrain, classIcon, abilityIcon, abilityLabel, goldIcon, relicIcon,
        cardIcon, crownIcon, exIcon, exName, scepterIcon, gMeeple, meepleIcon, gRebel, rebelIcon, gFortress, fortressIcon, hpIcon,
        strengthIcon, gStrength, vpIcon} from "./icons.js";
import {clickVerb, keyHint, mendCounts, nounFor, plural} from "../../js/words.js";

export const title = "Covil: The Dark Overlords";
/** The rulebook's rounds are Days (the table's header: "Day 1 · Afternoon"). */
export const roundWord = "Day";
/** What the phone's line of scores calls the score, and its picture (docs/renderer-contract.md). */
export const scoreWord = "Victory points";
export const scoreIcon = () => vpIcon(18);

const DUMMY_COLORS = ["#555555", "#8a6d3b"];
const CSS = `
.cv-root{font:14px/1.4 system-ui,sans-serif;color:#2b2118;display:flex;flex-direction:column;gap:10px}
.cv-icon{display:inline-block;vertical-align:middle;flex:none}
.cv-bar{display:flex;flex-wrap:wrap;gap:4px 16px;align-items:center;background:#efe6d2;border:1px solid #cdbf9f;border-radius:10px;padding:6px 12px}
.cv-bar .it{display:inline-flex;flex-wrap:wrap;align-items:center;gap:5px}
.cv-bar b{font-weight:700}
.cv-standing{margin-top:6px;background:#f6eedb}
.cv-standing .cv-vp-n{font-size:16px}
@media (max-width:520px){.cv-bar{font-size:13px;gap:2px 10px;padding:4px 8px}.cv-standing .cv-vp-n{font-size:14px}}
/* Desktops: the map, and beside it what you buy and pay with (a combat or a payment under way,
   the Mercenary pool, your Power Relics); your Champions Hall in one row under both; the day,
   the night fee and the victory points after it (beside the map where the board is wide:
   1920x1080), then the other halls. New-user trial at 1366x768 with acquiring open: the pool
   under the map ran to y 1277, the hand needed a scroll and the hall was a narrow column of
   two; now the pool, the hall and the hand lie in one window, as small cards (.cv-compact; a
   card's full text on hover, focus or long-press: attachCard). The map spans the rows beside
   it; the last of them (1fr) takes what the map is taller by. */
.cv-root{container:cvroot/inline-size}
.cv-main{display:grid;grid-template-columns:minmax(0,1fr) minmax(360px,1fr);column-gap:12px;row-gap:0;align-items:start;
  grid-template-rows:auto auto auto auto 1fr auto auto;
  grid-template-areas:"map combat" "map pay" "map pool" "map hand" "map rest" "hall hall" "top top"}
.cv-main>.cv-map{grid-area:map}.cv-main>.cv-combat{grid-area:combat}.cv-main>.cv-pay{grid-area:pay}
.cv-main>.cv-pool{grid-area:pool}.cv-main>.cv-hand{grid-area:hand}.cv-main>.cv-hall{grid-area:hall}.cv-main>.cv-top{grid-area:top}
.cv-main>.cv-combat,.cv-main>.cv-pay,.cv-main>.cv-pool,.cv-main>.cv-hand{margin-bottom:10px;min-width:0}
.cv-main>.cv-hall{margin-top:2px}.cv-main>.cv-top{margin-top:12px}
@container cvroot (min-width:1100px){.cv-main{grid-template-areas:"map combat" "map pay" "map pool" "map hand" "map top" "hall hall" ". ."}
.cv-main>.cv-top{margin:0 0 10px}}
.cv-combat .vs .it{display:inline-flex;align-items:center;gap:6px;white-space:nowrap}
@media (max-width:820px){.cv-main{display:flex;flex-direction:column;gap:10px}.cv-main>*{margin:0}}
/* Phones: one column: the map, the Mercenary pool right under it (new-user trial: under the side
   column it was below the fold on an Afternoon turn with a troop action and acquiring both
   open), then a combat or payment under way, the day, the night fee and the victory points,
   your hall, your hand, and the other halls. */
@media (max-width:720px){.cv-main{display:contents}.cv-map{order:1}.cv-pool{order:2}.cv-combat{order:3}.cv-pay{order:4}
.cv-top{order:5}.cv-hall.mine{order:6}.cv-hand{order:7}.cv-halls{order:8}}
.cv-top{display:flex;flex-direction:column;min-width:0}
.cv-map{background:#d9cba6;border:3px solid #7a5c37;border-radius:14px;box-shadow:inset 0 0 0 3px #efe3c2;position:relative}
.cv-map>svg{width:100%;height:auto;max-height:calc(100vh - 150px);display:block;margin:auto;border-radius:11px}
.cv-panel{border:1px solid #cdbf9f;border-radius:10px;padding:8px 10px;background:#fbf7ee}
.cv-panel h3{margin:0 0 6px;font-size:15px;display:flex;align-items:center;gap:6px;flex-wrap:wrap}
.cv-pool-open{font-weight:400}
.cv-cards{display:flex;flex-wrap:wrap;gap:8px}
.cv-card{width:128px;border:2px solid #2b2118;border-radius:9px;background:#fffaf0;font-size:13px;position:relative;display:flex;flex-direction:column;overflow:hidden;box-shadow:0 1px 2px rgba(0,0,0,.25)}
.cv-card .top{display:flex;align-items:center;justify-content:space-between;padding:3px 5px;background:#e9dcc0;border-bottom:1px solid #bca77c}
.cv-card .stat{display:inline-flex;align-items:center;gap:3px;font-size:18px;font-weight:800}
.cv-card .nm{font-weight:700;font-size:13.5px;padding:3px 6px 0;line-height:1.2}
.cv-card .fam{font-size:12px;color:#5a4a36;padding:0 6px}
.cv-card .ab{display:flex;align-items:center;gap:3px;font-size:12px;font-weight:600;padding:2px 5px 0;letter-spacing:-.2px}
.cv-card .tx{font-size:12.5px;color:#3a2f22;padding:0 6px 4px}
.cv-card .ex{display:flex;align-items:center;gap:4px;font-size:12.5px;font-weight:700;padding:2px 6px;margin-top:auto;border-top:1px solid #d8c9a6}
.cv-card.ex0 .ex{background:#dff1de;color:#1d5e1d}
.cv-card.ex1{background:#fff4d6}.cv-card.ex1 .ex{background:#ffe6a3;color:#6b4a00}
.cv-card.ex2{background:#eee8e0;filter:saturate(.55)}.cv-card.ex2 .ex{background:#f3cdc6;color:#7a1414}
.cv-card.ex2 .nm,.cv-card.ex2 .tx{color:#5b5148}
.cv-card.throne{border-color:#7d4fb0;box-shadow:0 0 0 2px #d8c3ef}
/* A card added to the payment under way (rulebook 2.1: an unexhausted Minion placed back in the
   pool, a Power Relic discarded): dimmed, dashed, a dark ribbon where "Ready" was. */
.cv-card.paying{border-style:dashed;background:repeating-linear-gradient(135deg,#f7f0e0 0 8px,#ebe0c8 8px 16px);filter:none}
.cv-card.paying>:not(.cv-paying-band){opacity:.6}
.cv-card .cv-paying-band{flex-direction:column;align-items:flex-start;gap:0;background:#4a3b2a;color:#fff;border-top:0;line-height:1.25;padding:3px 6px}
.cv-card .cv-paying-band span{font-weight:400}
.cv-card.throne .top{background:#e4d3f5}
.cv-card.relic{background:#f3ecfb}.cv-card.relic .top{background:#ddd0f0}
.cv-card.big{width:220px;font-size:14px}.cv-card.big .tx{-webkit-line-clamp:unset;font-size:14px}
.cv-card.big .nm{font-size:16px}
.cv-halls{display:grid;grid-template-columns:repeat(auto-fill,minmax(320px,1fr));gap:10px}
.cv-hall{border-left:8px solid #888}
.cv-hall .hd{display:flex;flex-wrap:wrap;gap:4px 14px;align-items:center;margin-bottom:6px}
.cv-hall .hd .it{display:inline-flex;align-items:center;gap:4px}
.cv-hall.mine{background:#fffdf6}
.cv-relic-chip{display:inline-flex;align-items:center;gap:4px;padding:1px 8px 1px 4px;border:1px solid #9a86b8;border-radius:999px;background:#f3ecfb;white-space:nowrap;cursor:help}
.cv-active{flex-wrap:wrap}
.cv-combat{background:#fff0e8;border:2px solid #c4452f}
.cv-act-here{margin-top:6px;display:flex;flex-direction:column;gap:4px}
.cv-combat .vs{display:flex;flex-wrap:wrap;align-items:center;gap:6px 12px;font-size:18px;font-weight:800;margin:4px 0}
.legal{cursor:pointer}
/* What you may click is white edged in black, never green: green is a seat's colour and the
   Forest's (fresh-eyes review: "the highlight is Easy bot 3's colour"). */
.cv-card.legal{box-shadow:0 0 0 3px #fff,0 0 0 5px #111;transform:translateY(-2px)}
.cv-card.legal:hover{box-shadow:0 0 0 4px #fff,0 0 0 6px #111}
.cv-map-asks .cv-card.legal:not(:hover):not(:focus-visible){box-shadow:0 1px 2px rgba(0,0,0,.25);transform:none}
/* A target to attack: amber (docs/renderer-contract.md "Marks": you may click it), with its
   strength beside it */
svg .legal .hit{stroke:var(--mark-click,#E69F00);stroke-width:4;fill:rgba(230,159,0,.22);filter:drop-shadow(0 0 1.5px #000)}
/* The picked troop's actions under the map (troopChooser): amber-framed buttons, its attacks
   (.cv-attack) and its other actions (.cv-troop-act) */
.cv-attacks{display:flex;flex-direction:column;gap:6px;padding:6px 8px;margin:4px 6px 0;background:#fbf3df;border:1px solid #bca77c;border-radius:10px}
.cv-attacks-h{display:inline-flex;align-items:center;gap:4px;font-weight:700}
/* its lines (troopChooser): the troop and its move, then "Attack:" and "Lie down to:", each
   with its buttons, wrapping after the word that leads them; a button never breaks inside */
.cv-troop-line{display:flex;flex-wrap:wrap;align-items:center;gap:6px 8px}
.cv-troop-lbl{flex:1 1 100%;font-size:14px;line-height:1.2;font-weight:700;color:#5a4a36}
.cv-attack{white-space:nowrap}
/* (a long one wraps inside the box: "Gain 1 gold (Treasury full, no gold gained)" stuck out of
   the map's column on one line) */
.cv-troop-act{max-width:100%;text-align:left}
@media (max-width:520px){.cv-attack{white-space:normal}}
.cv-attack,.cv-troop-act{display:inline-flex;align-items:center;gap:5px;font:600 14px/1.2 system-ui,sans-serif;color:#2b2118;background:#fffaf0;
  border:1px solid #7a5c37;border-radius:8px;padding:3px 8px;min-height:36px;outline:3px solid var(--mark-click,#E69F00);outline-offset:1px}
.cv-attack:hover,.cv-troop-act:hover{background:#fff0c8}
/* A zone to click: a white dashed outline edged in black over a lighter zone, a colour no
   terrain has (new-user trial: the green highlight read as a Forest, drawn green); the prompt
   names it so (OUTLINED). */
svg .zone-legal{fill:rgba(255,255,255,.2);stroke:#fff;stroke-width:6;stroke-dasharray:14 8;cursor:pointer}
svg .zone-legal:hover{fill:rgba(255,255,255,.4)}
svg .zone-legal-edge{fill:none;stroke:#111;stroke-width:11;pointer-events:none}
/* The suggestion's glow on the map's pieces kept short (docs/renderer-contract.md "Marks": within
   5 px of its place): the table's wider one spread over the fortress above the troops */
#board .cv-map svg .hint-hit{filter:drop-shadow(0 0 1.5px #fff) drop-shadow(0 0 3px #1e90ff)}
svg .cv-origin{fill:none;stroke:#fff;stroke-width:4;filter:drop-shadow(0 0 2px #000)}
svg .pickable .hit{stroke:#fff;stroke-width:3;fill:rgba(255,255,255,.35);filter:drop-shadow(0 0 1.5px #000)}
svg .picked .hit{stroke:#000;stroke-width:3.5;fill:rgba(255,255,160,.6)}
.legal:focus-visible{outline:3px solid #000}
svg .legal:focus,svg [data-pick]:focus{outline:none}
svg .legal:focus .hit,svg [data-pick]:focus .hit{stroke:#000;stroke-width:4}
.changed{animation:cvflash 1.6s ease-out 1}
@keyframes cvflash{0%{filter:drop-shadow(0 0 4px #f5c400)}100%{filter:none}}
@media (prefers-reduced-motion:reduce){.changed{animation:none}.cv-card.legal{transform:none}}
.cv-small{font-size:13px;color:#5a4a36}
.cv-hp-badge{display:none}
/* Phones: numbers inside icons read at 13 px or more (issue 14): drawn larger in their icons
   (20 of 32 units; the icons that hold one at least 22 px), and a fortress's hit points on a
   red disc over its wall instead of on its small flag (the map is drawn at about half size). */
@media (max-width:720px){.cv-icon text.n{font-size:20px}.cv-icon text.n.hp{transform:translateY(2px)}
.cv-hp-flag{display:none}.cv-hp-badge{display:inline}
.cv-card .ex .cv-icon,.cv-panel h3 .cv-icon{width:22px;height:22px}}
@media (max-width:720px){.cv-card{width:150px}.cv-card .fam,.cv-card .ab,.cv-card .tx,.cv-card .ex,.cv-card .nm{font-size:13px}}
/* Desktops: no text under 14 px (issue 14 "Done when"): the cards' lines and the small notes (an
   ability's name at 13 px, not bold: "Reinforcement" at 14 px is wider than a 128 px card, and
   wider cards put your Minions in one column at 1366 px); numbers in icons as phones draw them. */
@media (min-width:721px){.cv-card .fam,.cv-card .tx,.cv-card .ex,.cv-card .nm,.cv-small{font-size:14px}
.cv-card .ab{font-size:13px;font-weight:500;letter-spacing:-.3px;gap:2px;padding:2px 4px 0;overflow-wrap:anywhere}
.cv-icon text.n{font-size:20.5px}.cv-icon text.n.hp{transform:translateY(2px)}
.cv-hp-flag{display:none}.cv-hp-badge{display:inline}
.cv-map text.cv-zl{font-size:29px;transform:translateY(1px)}.cv-map .cv-hp-badge text{font-size:19.5px}
.cv-card .ex .cv-icon,.cv-panel h3 .cv-icon{width:22px;height:22px}}
/* Desktops: small cards in the Mercenary pool, the halls and your hand (.cv-compact): the
   class, the cost, the name, the ability and the token; the family and the ability's words on
   the full card (hover, focus or long-press). Three pool cards to a row beside the map, six
   Minions to a row in the hall at 1366x768. */
@media (min-width:721px){.cv-compact .cv-card{width:110px}.cv-compact .cv-card .fam,.cv-compact .cv-card .tx{display:none}
.cv-compact .cv-card .nm{letter-spacing:-.4px;padding:2px 3px 0}
.cv-compact .cv-card .top{padding:2px 4px}
.cv-compact .cv-card .ab{flex-wrap:wrap;overflow-wrap:normal;padding:2px 3px 0}
.cv-compact .cv-card .ex{gap:2px;padding:2px 3px;letter-spacing:-.2px}.cv-compact .cv-card .ex .cv-icon{width:16px;height:16px}
.cv-compact .cv-cards{gap:4px}.cv-hall.cv-compact{padding:8px 6px}
.cv-halls{grid-template-columns:repeat(auto-fill,minmax(360px,1fr))}
.cv-compact .cv-card.relic{width:160px}.cv-compact .cv-card .tx.cv-relic-fx{display:block;font-size:14px;line-height:1.25;padding:0 4px 1px}}
.cv-card .cv-relic-fx b{font-weight:700}
.cv-card .cv-idle{color:#8a3b12;font-style:italic}
.cv-hall h3 .cv-scepter{display:inline-flex;align-items:center;gap:3px;font:400 14px/1.2 system-ui,sans-serif;color:#5a4a36}
/* The map's marks in words, under the map (first-time review: the red discs, the spirals and the
   Rebel said nothing): each with its full words on hover, focus or long-press. */
.cv-marks{display:flex;flex-wrap:wrap;justify-content:center;gap:2px 14px;padding:3px 8px 4px;font-size:14px;color:#3a2f22}
.cv-marks .it{display:inline-flex;align-items:center;gap:4px;white-space:nowrap}
@media (max-width:720px){.cv-marks{font-size:13px;gap:0 10px;padding:2px 4px 3px}}
/* Desktops: the prompt bar, its menu open, within 22 % of the window (new-user trial: 25.0 %
   with Covil's long attack labels, at the limit; lair.css --prompt-bar-max) */
@media (min-width:721px){:root{--prompt-bar-max:22dvh}}
.cv-why{background:#fff4d6;border:1px solid #e0a526;border-radius:8px;padding:4px 8px;margin:4px 0;font-size:14px}
.cv-full{display:flex;flex-direction:column;gap:4px;max-width:240px}
.cv-full p{margin:0}
`;

let root = null;
let table = null;
let lastView = null;
let picked = null;            // canonical "move origin" key or null
let sigs = new Map();
let prevSigs = new Map();

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
  node.classList.add("pickable");
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
    revealPicked();
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

function seatIndex(g, o) {
  const p = g.owners[o];
  return p.seat !== null && p.seat !== undefined ? p.seat : null;
}
function ownerColor(g, o) {
  const s = seatIndex(g, o);
  if (s !== null) return table.seatColor(s);
  return DUMMY_COLORS[(o - (g.owners.findIndex((q) => q.dummy))) % DUMMY_COLORS.length];
}
function ownerName(g, o) {
  if (o === null || o === undefined) return "The Rebels";
  const s = seatIndex(g, o);
  return s !== null ? table.seatName(s) : g.owners[o].name;
}
/** A seat's player board for its seat panel (docs/renderer-contract.md): the Treasury, the
 *  fortress with its hit points, troops on the map and in supply, Minions in the Champions
 *  Hall and Power Relics in hand, as pictures with counts. */
export function seatBoard(seat, view) {
  const g = view.game;
  const o = g && (g.owners || []).findIndex((p) => p.seat === seat);
  if (!g || o === undefined || o < 0) return null;
  const p = g.owners[o];
  const color = ownerColor(g, o);
  const k = (what) => `cv-${seat}-${what}`;
  const troops = p.troops || [];
  const standingN = troops.filter((t) => t.up).length;
  return seatBoardBox(seat,
    sbStat(goldIcon(null, 22), p.cap ? `${p.gold}/${p.cap}` : p.gold,
      p.cap ? `Treasury: gold (of at most ${p.cap})` : "Treasury: gold", k("gold"), "gold"),
    sbStat(fortressIcon(color, null, p.destroyed, 22, seat), p.destroyed ? 0 : p.hp,
      p.destroyed ? "Fortress destroyed" : "Fortress hit points", k("hp"), "fortress"),
    sbStat(meepleIcon(color, true, seat, 22), standingN, "Standing troops on the map", k("up"), "standing"),
    sbStat(meepleIcon(color, false, seat, 22), troops.length - standingN, "Lying troops on the map", k("down"), "lying"),
    sbStat(cardIcon(22), (p.hall || []).length, "Minions in the Champions Hall", k("hall"), "Minions"),
    sbStat(relicIcon(22), p.hand_count ?? 0, "Power Relics in hand", k("relics"), "Relics"),
    note(p.fortress && !p.destroyed ? `Fortress in zone ${p.fortress}` : p.destroyed ? "Fortress destroyed" : "No fortress yet",
      ` · ${p.supply ?? 0} troops in supply`,
      g.first === o ? " " : null, g.first === o ? tag("Evil Scepter: first player", SCEPTER_WORDS) : null));
}

/** The map's zones a log line names ("moves a troop from K to G", "Combat in E"), for the
 *  table's log hover (docs/renderer-contract.md). */
export function logPlaces(text, view) {
  const g = view.game;
  if (!g || !g.zones || !root) return [];
  const zones = new Set();
  for (const m of text.matchAll(/\b(?:from|to|in|into|zone|at) ([A-Z])\b/g)) if (g.zones[m[1]]) zones.add(m[1]);
  return [...zones].map((z) => root.querySelector(`[data-zone="${z}"]`)).filter(Boolean);
}

/** The places the suggested `action` touches, for the table's "Suggest a move"
 *  (docs/renderer-contract.md): where to click it and, for a move (an origin, then a zone),
 *  the troops to pick and the zone they go to. */
export function hintPlaces(view, action) {
  if (!root || !action) return [];
  const out = actionNodes(root, action);
  if ("from" in action && "to" in action) {
    out.push(...root.querySelectorAll(`[data-pick="${window.CSS.escape(originKey(action))}"]`));
    const zone = root.querySelector(`[data-zone="${window.CSS.escape(String(action.to))}"]`);
    if (zone) out.push(zone);
  }
  return [...new Set(out)];
}

const markOf = (g, o) => (seatIndex(g, o) !== null ? seatIndex(g, o) : 6);
const zoneName = (z) => `zone ${z}`;
const phaseName = (p) => (p ? p[0].toUpperCase() + p.slice(1) : "");

// ----- motion: troops are interchangeable, matched by owner, zone and posture ------------------
let troopKeys = new Map();  // "owner|zone|up|i" (the i-th such meeple drawn) -> its data-motion-key
let freshKeys = 0;

/** Motion keys (static/js/motion.js) for every meeple on the map. A group (owner, zone,
 *  posture) keeps the keys its meeples had; a meeple that appeared in one group takes the key of
 *  one that left another group of the same owner, so a move or a lying down slides from where
 *  the troop was; a summoned troop gets a new key (nothing to slide from). */
function assignTroopKeys(g) {
  const count = new Map();
  g.owners.forEach((p, o) => {
    for (const t of p.troops || []) {
      const k = `${o}|${t.z}|${t.up ? 1 : 0}`;
      count.set(k, (count.get(k) || 0) + 1);
    }
  });
  const next = new Map();
  const left = new Map();    // owner -> keys of meeples that left their group
  for (const [slot, key] of troopKeys) {
    const [o, z, up, i] = slot.split("|");
    if (Number(i) >= (count.get(`${o}|${z}|${up}`) || 0)) {
      if (!left.has(o)) left.set(o, []);
      left.get(o).push(key);
    }
  }
  for (const [k, n] of count) {
    const o = k.split("|")[0];
    for (let i = 0; i < n; i++) {
      const slot = `${k}|${i}`;
      const key = troopKeys.get(slot) || (left.get(o) || []).shift() || `troop-${freshKeys++}`;
      next.set(slot, key);
    }
  }
  return next;
}

function render() {
  const view = lastView;
  if (!view || !root) return;
  const g = view.game;
  if (!g || !g.zones) { root.replaceChildren(el("p", {}, "Waiting for the game to start…")); return; }
  const legal = view.legal_actions || [];
  const moves = legal.filter((a) => "to" in a && "from" in a);
  const attacks = legal.filter((a) => a.type === "attack");
  const others = legal.filter((a) => OTHER_TROOP_ACTIONS.has(a.type));
  if (picked && !moves.some((a) => originKey(a) === picked)
    && ![...attacks, ...others].some((a) => troopKey(a.from) === picked)) picked = null;
  const me = g.owners.findIndex((q) => q.seat === view.you && view.you !== null && view.you !== undefined);
  const ctx = {view, g, legal, moves, attacks, others, me};
  troopKeys = assignTroopKeys(g);
  const myHall = me >= 0 ? hallPanel(ctx, me) : null;
  // The map, and beside it a combat or a payment under way, the Mercenary pool and your Power
  // Relics; your Champions Hall under both (new-user trial at 1366x768: the pool under the map
  // ran below the window, the hand needed a scroll, the hall stood in a narrow column); the
  // day, the night fee and the victory points after them. A phone shows the map, the pool,
  // then the rest one after the other (CSS order).
  root.replaceChildren(
    el("div", {class: "cv-main"},
      el("div", {class: "cv-map"}, drawMap(ctx), troopChooser(ctx), mapMarks(ctx)),
      combatPanel(ctx), payPanel(ctx), poolPanel(ctx), handPanel(ctx), myHall, infoBar(ctx)),
    el("div", {class: "cv-halls"}, ...g.owners.map((p, o) => (o === me ? null : hallPanel(ctx, o)))),
  );
  titlesToCards(root);  // every small titled icon has a card on hover or long-press too
  // Buying a Power Relic is a side choice, never the bar's main button (the decision is on the
  // map or the cards); the harness's stub table may lack the call.
  // So is every choice among several (a troop action, an attack, a card to pay with…): a choice
  // looks like a choice, never like the red of "Play it" and "Resign" (first-time review: two
  // big red "Lie down a troop in H …" buttons); the bar's red is left to ending a step.
  if (typeof table.secondary === "function") table.secondary(legal.filter((a) => !STEP_ENDS.has(a.type)));
  // A phone's rest, repair and gold live on the board alone (new-user trial: the bar's "Choose…"
  // sheet, opened for "gain 1 gold", covered the troops the prompt asked to tap): the troop, then
  // its action in the row under the map (troopChooser). A desktop's bar keeps them too; so does
  // the phone's menu the attacks (their long labels name the strength; the row is the way there
  // too).
  if (PHONE.matches && me >= 0) for (const a of others) table.claim(a);
  // Only what the prompt asks for is highlighted (review 9: the six Mercenary cards stayed
  // double-framed, "· 6 you can pay for", while the prompt asked for a troop): while it asks for a
  // place on the map, the cards you could also play wear no frame (still clickable; framed on
  // hover or focus).
  root.classList.toggle("cv-map-asks", !!(moves.length || attacks.length
    || legal.some((a) => a.type === "place" || a.type === "retreat" || a.type === "target")));
  // Where the player decides (docs/renderer-contract.md, data-prompt-focus; issue 14 item 6):
  // the combat, the cards to pay with while paying, else the map when the player can act on it
  // (drawMap's box around its zones to act in); the Mercenary pool only when nothing on the map is playable
  // and acquiring is; else the hall and hand beside the map. The table scrolls it into view.
  if (me >= 0 && legal.length) {
    const [place, end, wish] = focusPlace(ctx);
    if (place) place.dataset.promptFocus = "";
    if (end && end !== place) end.dataset.promptFocusEnd = "";
    if (wish) wish.dataset.promptFocusWish = "";
  }
}

/** Where the player decides, as [first, last, wish] (docs/renderer-contract.md): the element
 *  to bring into view, the last one of the place when it spans several, and what to show with
 *  them when it fits (null: none). */
function focusPlace(ctx) {
  const {g, legal} = ctx;
  const kind = g.stack.length ? g.stack[g.stack.length - 1].kind : null;
  const one = (node) => [node, null, null];
  if (kind === "combat" && root.querySelector(".cv-combat")) {
    // Responding (item 6): the strengths and every card to respond with, the whole combat
    // panel with them when it fits (on a phone it may not)
    const panel = root.querySelector(".cv-combat");
    const cards = panel.querySelectorAll(".cv-act-here .cv-card");
    if (cards.length) return [panel.querySelector(".vs") || panel, cards[cards.length - 1], panel];
    return one(panel);
  }
  if (kind === "pay") {
    // Paying (table review item 1): the player acts with their cards — the ready Minions and
    // the Power Relics offered to pay with — so those come into view below the prompt bar,
    // with the payment panel above them when it all fits (on a phone it seldom does).
    const cards = [...root.querySelectorAll(".cv-hall.mine .cv-card.legal, .cv-hand .cv-card.legal")];
    if (cards.length) return [cards[0], cards[cards.length - 1], root.querySelector(".cv-pay")];
    if (root.querySelector(".cv-pay")) return one(root.querySelector(".cv-pay"));
  }
  const onMap = root.querySelector(".cv-map .cv-focus");
  const acquiring = legal.some((a) => a.type === "acquire");
  // A desktop lays the pool and your hand beside the map, your hall under them: with acquiring
  // open all of it comes into view when it fits (new-user trial at 1366x768: the pool, the
  // hall and the hand to pay with in one window). A phone has them one under the other.
  const desk = getComputedStyle(root.querySelector(".cv-main")).display === "grid";
  const hall = root.querySelector(".cv-hall.mine");
  const buy = [...root.querySelectorAll(".cv-pool .cv-card.legal")];
  // Something to do on the map: the whole map (some 370 px high at 375 px, it fits under the bar
  // of a phone), not only the box of the zones to act in: a player finds the ringed troops and
  // the zones they reach on the board they know (review: a Move whose zones were the map's bottom
  // rows brought those alone into view on a phone, the pool's first card under them). An
  // Afternoon turn with a troop action and acquiring both open: with it (a phone: under the
  // map) the pool's heading down to its first card to acquire (new-user trial: the pool out
  // of the window; the whole pool, a few rows of cards, seldom fits with the map on a phone)
  if (onMap) return [root.querySelector(".cv-map"), null, acquiring ? (desk && hall ? hall : buy[0] || null) : null];
  // A phone whose player has just made the turn's troop action on the map: the page stays where
  // they acted (new-user trial: after a move it scrolled down to the Mercenary pool, away from the
  // finger); the map, in view, is the place, and nothing is wished with it (a wish scrolled the
  // page by its last few pixels); the pool lies right under the map, its heading saying how
  // many cards they can pay for.
  const top = g.stack.length ? g.stack[g.stack.length - 1] : null;
  if (!desk && acquiring && top && top.kind === "turn" && top.lay) return one(root.querySelector(".cv-map"));
  if (acquiring) {
    const pool = root.querySelector(".cv-pool");
    return [pool, buy[buy.length - 1] || null, desk ? hall : null];
  }
  // else your cards to act with (a Command, a Power Relic to activate): the hall and the hand
  const mine = [...root.querySelectorAll(".cv-hand .legal, .cv-hall.mine .legal")];
  return mine.length ? [mine[0], mine[mine.length - 1], null] : one(root.querySelector(".cv-map"));
}

/** A local pick (a troop to move) leads to the zones it may go to: keep them in view below the
 *  status bar (the table's revealBelowBar; none in a replay). */
function revealPicked() {
  const box = picked && root.querySelector(".cv-map .cv-focus");
  // with the troop's actions under the map when they fit
  if (box && typeof table.revealBelowBar === "function") table.revealBelowBar(box, root.querySelector(".cv-attacks") || box);
}

/** The actions that end a step (the bar's main, coloured buttons); every other one is a choice. */
const STEP_ENDS = new Set(["end_turn", "confirm", "done", "skip"]);

function originKey(a) {
  const {to, ...rest} = a;
  return canon(rest);
}
/** The troop actions besides a move and an attack: lie down to rest a Minion, to repair the
 *  fortress, to gain 1 gold (rulebook 2.3); each has the troop's zone (`from`). */
const OTHER_TROOP_ACTIONS = new Set(["rest", "repair", "gold"]);
/** The pick of your troops in `zone` when they may act but not move (a move's origin key
 *  otherwise: one pick offers every action, as Board Game Arena's "click your troop, then what
 *  to do"). */
const troopKey = (zone) => canon({from: zone, type: "troop"});
/** The zone of the picked troop (a move's or an attack's origin key), or null. */
function pickedFrom() {
  try { return picked ? JSON.parse(picked).from ?? null : null; } catch { return null; }
}

/** The picked troop's actions, on the board under the map (new-user trial: Covil's attacks, then
 *  its other troop actions, lived only in the prompt bar's menu, whose sheet covered the troops on
 *  a phone; a Board Game Arena player clicks the troop, then what it does): "Troop in G:", the
 *  move's hint when it may move (its zones outlined on the map), one button per attack the view
 *  lists from its zone (the class and the Minion exhausted, the strength the engine's label
 *  gives; its targets then on the map in amber with their strength, the engine's "aim" step) and
 *  one per other troop action (rest a Minion, repair, gain gold), each the legal action itself.
 *  A desktop's bar keeps them too (its menu); a phone's has them here only (render()). */
function troopChooser(ctx) {
  const {g, attacks, others, me, moves} = ctx;
  const from = pickedFrom();
  const mine = (a) => a.from === from && (troopKey(a.from) === picked
    || moves.some((m) => m.type === "move" && m.from === from && originKey(m) === picked));
  const list = from === null || me < 0 ? [] : attacks.filter(mine);
  const rest = from === null || me < 0 ? [] : others.filter(mine);
  if (!list.length && !rest.length) return null;
  const hall = g.owners[me].hall;
  const moving = moves.some((m) => originKey(m) === picked);
  // (one line each: the troop and its move, its attacks, what lying down gives; a desktop's one
  // long row of up to eight buttons wrapped anywhere, an attack's strength on one line and its
  // Minion on the next: issue 14)
  const box = el("div", {class: "cv-attacks", role: "group", "aria-label": `Actions of your troop in zone ${from}`},
    el("div", {class: "cv-troop-line"},
      el("span", {class: "cv-attacks-h"}, meepleIcon(ownerColor(g, me), true, markOf(g, me), 22), `Troop in ${from}:`),
      moving ? el("span", {class: "cv-small cv-move-hint"}, `move: ${clickVerb(true)} a zone ${OUTLINED}${list.length || rest.length ? "; or" : ""}`) : null));
  const line = (words, n) => {
    if (!n) return null;
    const row = el("div", {class: "cv-troop-line", role: "group", "aria-label": words}, el("span", {class: "cv-troop-lbl", "aria-hidden": "true"}, `${words}:`));
    box.append(row);
    return row;
  };
  const attackRow = line("Attack", list.length);
  const restRow = line("Lie down to", rest.length);
  for (const a of list) {
    const m = /strength (\d+)(?:, or (\d+) with its Aftershock)?/.exec(table.label(a) || "");
    const name = hall[a.slot] ? minionData(g, hall[a.slot].id).name : "a Minion";
    // (the class by its picture, the Minion by its name: two such buttons to a line in the map's
    // column at 1366 px, where "Ranged · Cutpurse" took one each)
    const kind = a.kind === "melee" ? "Melee" : "Ranged";
    const btn = el("button", {type: "button", class: "cv-attack", "aria-label": `${kind} attack with ${name}${m ? `, strength ${m[1]}` : ""}`},
      classIcon(kind, 18), el("span", {}, name),
      m ? strengthIcon(Number(m[1]), "attack", 30) : null, m && m[2] ? el("span", {class: "cv-small"}, `or ${m[2]}`) : null);
    clickable(btn, a);
    attackRow.append(btn);
  }
  for (const a of rest) {
    // "Lie down a troop in G to gain 1 gold" (labelText): the row names the troop already
    const words = (table.label(a) || "").replace(/^Lie down a troop in [A-Z] to /, "");
    const btn = el("button", {type: "button", class: "cv-troop-act"},
      el("span", {}, words.charAt(0).toUpperCase() + words.slice(1)));
    clickable(btn, a);
    restRow.append(btn);
  }
  // (a desktop's bar keeps them too: the board is a second way, not the only one; a phone's bar
  // opens a sheet over the map, so there the board is the way for rest, repair and gold)
  if (typeof table.showInPromptBar === "function") table.showInPromptBar(PHONE.matches ? list : [...list, ...rest]);
  return box;
}

/** The Evil Scepter's words (rulebook "Setup" H and "Phase 3: Night"). */
const SCEPTER_WORDS = "Evil Scepter: the first player token. After each Night it passes to the player on the left of its holder.";

/** The map's small marks in words, under the map (first-time review: the red discs on the
 *  fortresses, the spirals and the small red figure in the town said nothing): each mark drawn
 *  as on the map with a short word, and its rulebook words on hover, focus or long-press. Only
 *  the marks the map shows now. */
function mapMarks({g, me}) {
  const forts = g.owners.map((p, o) => o).filter((o) => g.owners[o].fortress !== null && g.owners[o].fortress !== undefined);
  const o = forts.includes(me) ? me : forts[0];
  const marks = [];
  if (o !== undefined) {
    marks.push([fortressIcon(ownerColor(g, o), 5, false, 24, markOf(g, o)), "hit points",
      "Fortress hit points", "the number on a fortress's red disc (5 at the start). A troop lying down in its zone repairs 1; " +
      "at 0 the fortress is destroyed: it gives no Victory Points and can never be repaired."]);
  }
  if (Object.values(g.zones).some((d) => d.spiral)) {
    marks.push([spiralIcon(20), "starting spiral", "Starting spiral",
      "at the first Morning each player places their fortress with 2 starter troops in one of the spirals."]);
  }
  if (g.rebels) {
    marks.push([rebelIcon(20), nounFor(g.rebels, "Rebel"), "Rebel",
      `at night each player draws a Power Relic for every troop they have in town, and a Rebel is placed for each; with ${g.rebels_total || 5} Rebels in town, the Rebels retaliate.`]);
  }
  if (!marks.length) return null;
  return el("div", {class: "cv-marks", role: "list", "aria-label": "The map's marks"},
    ...marks.map(([icon, words, name, full]) => iconCard(el("span", {class: "it", role: "listitem", tabindex: "0"}, icon, words), name, full)));
}

// ----- header bar ----------------------------------------------------------------------------
function infoBar({g}) {
  // Dominance (rulebook "Phase 3: Night"): who would collect the +2 gold fee per terrain.
  const dom = Object.entries(g.dominance || {}).map(([t, o]) =>
    el("span", {class: "it", title: `Dominance over ${t} if night came now (+2 gold at night)`}, terrainIcon(t, 20),
      `${t}: `, o === null ? el("span", {class: "cv-small"}, "nobody") : el("b", {style: `color:${ownerColor(g, o)}`}, ownerName(g, o))));
  const bar = el("div", {class: "cv-bar"},
    el("span", {class: "it"}, el("b", {}, `Day ${g.day} of ${g.days}`), ` · ${phaseName(g.phase)}`),
    el("span", {class: "it", title: SCEPTER_WORDS}, scepterIcon(20), "Evil Scepter:",
      el("b", {style: `color:${ownerColor(g, g.first)}`}, ownerName(g, g.first))),
    g.turn !== null && g.turn !== undefined
      ? el("span", {class: "it"}, "Turn: ", el("b", {style: `color:${ownerColor(g, g.turn)}`}, ownerName(g, g.turn))) : null,
    el("span", {class: "it", title: "Rebels in the town"}, rebelIcon(20), el("b", {}, `${g.rebels}`), ` of ${g.rebels_total} in town`),
    el("span", {class: "it", title: "Mercenary deck"}, "Mercenary deck ", el("b", {}, String(g.merc_deck))),
    el("span", {class: "it", title: "Power Relic deck and discard pile"}, relicIcon(18),
      // (one span: the item's flex gap would stand between the number and its comma)
      el("span", {}, "deck ", el("b", {}, String(g.relic_deck)), ", discard ", el("b", {}, String(g.relic_discard.length)))),
    g.flips && g.flips.length ? el("span", {class: "it"}, "Dummy flips: ", ...g.flips.map((r) => relicChip(g, r))) : null,
    dom.length ? el("span", {class: "it cv-dom", title: "Dominance (rulebook \u201cPhase 3: Night\u201d): a clear majority of the majorities in that terrain's zones, counting troops only; each dominance gains +2 gold at night, a tie gains nobody anything"},
      "Night fee (+2 gold) to: ", ...dom) : null,
    keyPanel("covil", keyRows(g)),
  );
  return el("div", {class: "cv-top"}, mark(bar, "bar", `${g.day}|${g.phase}|${g.rebels}|${g.first}`), standing(g));
}

/** A starting spiral as printed on a zone (drawn as on the map), for the key. */
function spiralIcon(size = 24) {
  let d = "";
  for (let i = 0; i <= 40; i++) {
    const a = i * 0.45, r = 0.6 + i * 0.3;
    d += `${i ? "L" : "M"} ${(16 + r * Math.cos(a)).toFixed(1)} ${(16 + r * Math.sin(a)).toFixed(1)} `;
  }
  return sv("svg", {viewBox: "0 0 32 32", width: size, height: size, class: "cv-icon", "aria-hidden": "true"},
    sv("path", {d, fill: "none", stroke: "#5b3a8a", "stroke-width": 2.2, "stroke-linecap": "round"}));
}

/** The "? Key" panel's rows (issue 14, items 1 and 4): the map's and the cards' small pictures in
 *  the rulebook's words. */
function keyRows(g) {
  const mine = table.you ? table.you() : null;
  const colour = mine !== null && mine !== undefined ? table.seatColor(mine) : "#0072B2";
  return [
    [terrainIcon("Water", 24), "Water", "a terrain; zones may have two. Dominance over a terrain gains +2 gold at night."],
    [terrainIcon("Desert", 24), "Desert", "a terrain."],
    [terrainIcon("Mountain", 24), "Mountain", "a terrain."],
    [terrainIcon("Forest", 24), "Forest", "a terrain."],
    [terrainIcon("Town", 24), "Town", "where the Rebels are; at night each troop in town raids it for a Power Relic, and a Rebel is placed for each."],
    [spiralIcon(), "Starting spiral", "at the first Morning each player places their fortress with 2 starter troops in one of the spirals."],
    [fortressIcon(colour, 5, false, 24), "Fortress (with its hit points)", "troops are summoned here each Morning; destroyed at 0 hit points."],
    [meepleIcon(colour, true, null, 24), "Standing troop", "may lie down to perform one troop action (move, attack, rest a Minion, repair, gain gold)."],
    [meepleIcon(colour, false, null, 24), "Lying troop", "it has acted; it stands up again next Morning."],
    [rebelIcon(24), "Rebel", `in the town; they retaliate when ${g.rebels_total || 5} are there.`],
    [scepterIcon(24), "Evil Scepter", "the first player token; it passes to the left after each Night."],
    [crownIcon(20), "Leading", "who has the most Victory Points if the game ended now."],
    [classIcon("Melee", 22), "Melee class", "the Minion's base stat adds to a melee attack."],
    [classIcon("Ranged", 22), "Ranged class", "the Minion's base stat adds to a ranged attack."],
    [classIcon("Defense", 22), "Defense class", "the Minion's base stat adds to a defense."],
    [abilityIcon("reinforcement", 22), "Reinforcement", "improves all your troops while the Minion is in your army."],
    [abilityIcon("influence", 22), "Influence", "a passive advantage outside combat."],
    [abilityIcon("aftershock", 22), "Aftershock", "activates every time you exhaust the Minion to attack."],
    [abilityIcon("command", 22), "Command", "in your turn, as a free action, exhaust the Minion to perform it."],
    [exIcon(0, 22), "Ready", "the Minion may be exhausted to attack, defend or use its Command."],
    [exIcon(1, 22), "Tired", "it cannot be exhausted, used as gold or discarded; resting it makes it ready. An acquired Minion comes in tired."],
    [exIcon(2, 22), "Exhausted", "it cannot be exhausted again, used as gold or discarded; resting it makes it tired."],
    [goldIcon(3, 24), "Gold", "a Minion's cost, or a Power Relic's worth in hand; your Treasury has a cap."],
    [relicIcon(22), "Power Relic", "a card in hand; activate it in your turn."],
    [strengthIcon(4, "attack", 24), "Attack strength", "the base stat of the Minion exhausted, plus Reinforcements and active Power Relics."],
    [strengthIcon(3, "defense", 24), "Defense strength", "1 for the troop, plus the Minion exhausted, Reinforcements and active Power Relics."],
  ];
}

/** Who is winning (rulebook "Final Scoring"): each owner's Victory Points if the game ended
 *  now, best first. ``vp`` counts what this viewer may see: your own Power Relics in hand count
 *  (each gold on one is a victory point at the end), another player's are hidden, so their gold
 *  is left out and the number of such cards is said. */
function vpTitle(g, p) {
  const parts = [p.destroyed || p.fortress === null ? "none for a fortress" : "5 for the fortress",
    `${p.gold} gold in the Treasury`, "Minions' costs", "Influence"];
  if (p.hand) parts.push("your Power Relics in hand");
  return `Victory points if the game ended now: ${parts.join(", ")}.`
    + (p.hand && p.hand.length ? ` Your Power Relics are hidden from the other players: they see ${publicVp(g, p)}.` : "")
    + (!p.hand && p.hand_count ? ` The gold on ${plural(p.hand_count, "hidden Power Relic")} in hand counts too at the end; it is not shown.` : "");
}
/** The VP other seats see for ``p`` (its Power Relics in hand are hidden from them). */
function publicVp(g, p) {
  return p.vp - (p.hand || []).reduce((sum, r) => sum + ((g.relics[r] || {}).gold || 0), 0);
}
/** Beside a score: what the others see of yours, or another seat's hidden Power Relics. */
function scoreNote(g, p) {
  if (p.hand) return p.hand.length ? `(others see ${publicVp(g, p)})` : null;
  return p.hand_count ? `+ ${plural(p.hand_count, "hidden relic")}` : null;
}

/** The seat panel's score (docs/renderer-contract.md `seatScore`), as the "Victory points now"
 *  line counts it (new-user trial: your seat showed 25, the line "30 (others see 25)"): your
 *  own with the gold on your Power Relics in hand and what the others see beside it; another
 *  seat's without its hidden Power Relics, their number beside it. */
export function seatScore(seat, view) {
  const g = view && view.game;
  const p = g && (g.owners || []).find((q) => q.seat === seat);
  if (!p || typeof p.vp !== "number") return null;
  return {value: p.vp, note: scoreNote(g, p), title: vpTitle(g, p)};
}
function standing(g) {
  if (!g.owners.some((p) => typeof p.vp === "number")) return null;
  const order = g.owners.map((p, o) => o).sort((a, b) => g.owners[b].vp - g.owners[a].vp);
  const items = order.map((o, i) => {
    const p = g.owners[o];
    return el("span", {class: "it cv-vp", dataset: {owner: String(o)}, title: vpTitle(g, p)},
      i === 0 && order.length > 1 && p.vp > g.owners[order[1]].vp ? crownIcon(16) : null,
      el("b", {style: `color:${ownerColor(g, o)}`}, ownerName(g, o)), " ",
      el("span", {class: "it cv-vp-n"}, vpIcon(18), el("b", {}, String(p.vp))),
      scoreNote(g, p) ? el("span", {class: "cv-small"}, ` ${scoreNote(g, p)}`) : null);
  });
  const sig = order.map((o) => `${o}:${g.owners[o].vp}:${g.owners[o].hand_count}`).join("|");
  return mark(el("div", {class: "cv-bar cv-standing", role: "status", "aria-label": "Victory points now"},
    el("span", {class: "it"}, vpIcon(20), el("b", {}, "Victory points now:")), ...items), "standing", sig);
}

/** An active Power Relic in its hall's head (hallPanel): its name and its Troop Bonus, the
 *  card's words; the whole card on hover, focus or long-press. */
function activeChip(g, r) {
  const d = g.relics[r] || {};
  const bonus = String(d.text || "").split("; ")[1];
  const chip = el("span", {class: "cv-relic-chip", role: "listitem", tabindex: "0"}, relicIcon(16), el("b", {}, d.name || "a Power Relic"),
    bonus ? el("span", {class: "cv-small"}, logText(bonus)) : null);
  return attachCard(chip, () => relicFull(g, r));
}

function relicChip(g, r) {
  const d = g.relics[r] || {};
  const chip = el("span", {class: "it", tabindex: "0"}, relicIcon(16), d.name || "a Power Relic",
    d.target ? terrainIcon(d.target, 16) : null);
  return attachCard(chip, () => relicFull(g, r));
}

// ----- what to do now (the prompt bar's one instruction) -----------------------------------------
/** The viewer's prompt in words that say where to click (docs/renderer-contract.md
 *  `promptText`): the prompt bar shows this one instruction, and the board repeats none of it.
 *  The zones to click are named by their highlight, a white dashed outline (new-user trial: "a
 *  green zone" read as a Forest, drawn green); else the server's words, in the table's
 *  spelling and counts (logText). */
export function promptText(view) {
  const g = view && view.game;
  if (!g || !g.zones || !table || view.you === null || view.you === undefined) return null;
  const legal = view.legal_actions || [];
  if (!legal.length) return null;
  const moves = legal.filter((a) => "to" in a && "from" in a);
  // a phone's prompt bar keeps to about two lines (issue 14, item 7): the same words, shorter
  const short = PHONE.matches;
  const click = clickVerb(true), Click = clickVerb();   // "tap" on a touch screen
  const zones = `zone ${OUTLINED}`;
  // (first-time review: "tap a troop ringed in white, then a zone outlined in white" while no
  // zone was outlined yet: the zones appear once a troop is picked; each moment says its own)
  const attacks = legal.filter((a) => a.type === "attack");
  // the troop's actions besides moving (troopChooser's row under the map)
  const acts = [...attacks, ...legal.filter((a) => OTHER_TROOP_ACTIONS.has(a.type))];
  const from = pickedFrom();
  if (picked && acts.some((a) => a.from === from) && (picked === troopKey(from) || moves.some((a) => a.type === "move" && originKey(a) === picked))) {
    const move = moves.some((a) => originKey(a) === picked);
    return short ? `${move ? `${Click} a ${zones} to move, or an` : "Tap an"} action under the map, or the troop again.`
      : `${Click} ${move ? `a ${zones} to move the troop, or ` : ""}an action under the map (an attack, then its target); ` +
        `${click} the troop again to choose another${keyHint(" (or press Esc)")}.`;
  }
  if (picked) {
    // a touch screen has no Esc: the picked troop, tapped again, drops the pick (pickable())
    return short ? `${Click} a ${zones} to move there, or the troop again to choose another.`
      : `Move the troop: ${click} a ${zones}, or ${click} the troop again to choose another${keyHint(" (or press Esc)")}.`;
  }
  if (moves.length) {
    // (one line at 375 px where it fits: the other actions are the row of buttons right under)
    const enemy = moves.every((a) => a.type === "effect" && a.owner !== undefined);
    const whose = enemy ? "an enemy troop" : "one of your troops";
    // a troop that may attack or do more: the same pick offers its actions (troopChooser)
    if (!enemy && acts.length) {
      const what = attacks.length ? "Move or attack" : "Troop action";
      return short ? `${what}: ${click} one of your troops ringed in white.`
        : `${what}: ${click} one of your troops ringed in white, then where it goes or what it does.`;
    }
    return short ? `Move: ${click} ${whose} ringed in white.`
      : `Move ${enemy ? "an enemy troop" : "a troop"}: ${click} ${whose} ringed in white.`;
  }
  if (acts.some((a) => a.type !== "attack")) {
    return `Troop action: ${click} one of your troops ringed in white, then what it does.`;
  }
  if (attacks.length) {
    return `Attack: ${click} one of your troops ringed in white, then its attack.`;
  }
  if (legal.some((a) => a.type === "place")) {
    return short ? `${Click} a spiral ${zones} for your fortress and 2 troops.`
      : `Choose your starting spiral: ${click} a ${zones} for your fortress and 2 troops.`;
  }
  if (legal.some((a) => a.type === "retreat")) return `Your troop lost: ${click} the ${zones} it retreats to.`;
  if (legal.some((a) => a.type === "target")) {
    return short ? `${Click} a ringed troop or fortress to attack (the burst: its strength).`
      : `Choose the target of the attack: ${click} a ringed troop or fortress; the burst beside it is the attack's strength.`;
  }
  const pay = payState(g, view, legal);
  if (pay) return payPrompt(pay, short, click);
  if (legal.some((a) => a.type === "acquire")) {
    // the afternoon once the troop action is done (or no troop stands): the Mercenary pool is
    // where the player decides (focusPlace), and the prompt says so
    return short ? `Acquire: ${click} a card of the Mercenary pool, or end your turn.`
      : `Acquire a Minion: ${click} a card in the Mercenary pool; or use a free action, or end your turn.`;
  }
  const said = view.prompt && view.prompt.text;
  return said ? logText(said) : null;
}

/** The viewer's payment under way (rulebook 2.1 "Acquire a Minion": its cost paid with gold from
 *  the Treasury, Power Relics discarded from the hand and unexhausted Minions placed back in the
 *  pool), or null: the Minion, its price (the cost less Influence), what the cards added so far
 *  are worth, the gold Confirm takes from the Treasury, and why Confirm is missing. */
function payState(g, view, legal) {
  const top = g.stack.length ? g.stack[g.stack.length - 1] : null;
  const me = g.owners.findIndex((q) => q.seat === view.you && view.you !== null && view.you !== undefined);
  if (!top || top.kind !== "pay" || me < 0 || top.owner !== me) return null;
  const p = g.owners[me];
  const minions = (top.minions || []).map((i) => p.hall[i]).filter(Boolean);
  const fromMinions = minions.reduce((sum, h) => sum + (Number(minionData(g, h.id).cost) || 0), 0);
  const paid = fromMinions + (top.relics || []).reduce((sum, r) => sum + ((g.relics[r] || {}).gold || 0), 0);
  const price = top.price;
  const need = Math.max(0, price - paid);
  return {
    m: minionData(g, top.card), price, paid, need, gold: p.gold, minions, relics: top.relics || [],
    // the Champions Hall holds 5 Minions besides the Dark Overlord (the new one comes in)
    full: p.hall.length - minions.length > 5,
    canConfirm: legal.some((a) => a.type === "confirm"),
    canAdd: legal.some((a) => a.type === "pay_minion" || a.type === "pay_relic"),
    back: Math.max(0, fromMinions - price),   // Minions worth more than the price: gold back
  };
}

/** "2 of 5 gold paid", or "paid in full". */
function paidWords({price, paid}) {
  return paid >= price ? "paid in full" : `${paid} of ${price} gold paid`;
}

/** The payment's prompt (new-user trial: "Pay for the Minion" named neither the Minion, nor its
 *  price, nor what was paid): "Pay for Bone Golem: 2 of 5 gold paid. …". */
function payPrompt(pay, short, click) {
  const head = `Pay for ${pay.m.name}: ${paidWords(pay)}`;
  const add = short ? `${click} a card to add` : `${click} a ready Minion or a Power Relic to pay with it`;
  if (!pay.canConfirm && pay.full) {
    return short ? `${head}; your hall is full: ${click} a ready Minion to place it back.`
      : `${head}. Your Champions Hall is full: ${click} a ready Minion to place it back in the pool (it pays its cost).`;
  }
  if (!pay.canConfirm) {
    return short ? `${head}, ${pay.gold} in your Treasury: ${add}.`
      : `${head}; your Treasury has ${pay.gold} gold: ${add}.`;
  }
  if (pay.need) {
    const rest = short ? `Confirm takes the other ${pay.need} gold` : `Confirm pays the other ${pay.need} gold from your Treasury`;
    return pay.canAdd ? `${head}. ${rest}, or ${add}.` : `${head}. ${rest}.`;
  }
  const back = pay.back ? `; you get ${pay.back} gold back` : "";
  return `${head}${back}. Confirm to acquire ${short ? "it" : pay.m.name}.`;
}

/** How the zones to click are drawn (svg .zone-legal in CSS): the prompt names them so. */
const OUTLINED = "outlined in white";


/** Victory points in words (no "VP" on the table, issue 14 item 3): "3 VP" reads
 *  "3 victory points", "+1 VP per Henchman" "+1 victory point per Henchman". */
function vpWords(text) {
  return String(text).replace(/([-+]?\d+) VP\b/g, (all, n) => `${n} ${nounFor(n, "victory point")}`)
    .replace(/\bVP\b/g, "victory points");
}

/** Counted nouns of Covil's stored lines ("1 troop(s)", "2 Rebel"), mended (words.js). */
const NOUNS = [["troop", "troops"], ["zone", "zones"], ["Rebel", "Rebels"], ["Power Relic", "Power Relics"],
               ["hit point", "hit points"], ["player", "players"], ["victory point", "victory points"]];

/** The log's words for a stored line (docs/renderer-contract.md `logText`): counts read as
 *  English ("1 troop", "2 Power Relics", "1 Rebel joins"), victory points in words and the
 *  rulebook's spelling ("defense", as the stored lines and prompts do not always write it).
 *  Card texts and the server's prompts are worded by it too. */
export function logText(text) {
  return mendCounts(vpWords(text), NOUNS)
    .replace(/(^|[^\w.])1 Rebel join\b/g, (all, pre) => `${pre}1 Rebel joins`)
    .replace(/\b([Dd])efence/g, "$1efense")
    // the board by its name, as the lobby and the waiting room name it (never "board A")
    .replace(/\bon board [A-Z] \(([^)]+)\)/g, (all, name) => `on the ${name} board`);
}

/** An action's label in the table's words (docs/renderer-contract.md `labelText`): as the log
 *  words it, and the attacker's "Done responding" is "Pass", as their prompt says ("Raise the
 *  stakes …: activate Power Relics or pass"). */
export function labelText(text, view) {
  const said = labelWords(text, view);
  const g = view && view.game;
  const me = g && view.you !== null && view.you !== undefined ? (g.owners || []).find((q) => q.seat === view.you) : null;
  // An action that does nothing now says so (new-user trial: a defense Power Relic's "repair 1"
  // activated at full health, spent without a word): from the view's hit points and Treasury
  return me ? said + idleWords(logText(text), g, me) : said;
}

/** labelText's words, without what an action that does nothing now adds (idleWords). */
function labelWords(text, view) {
  const words = logText(text);
  const g = view && view.game;
  const stack = g && g.stack;
  const top = stack && stack.length ? stack[stack.length - 1] : null;
  const me = g && view.you !== null && view.you !== undefined ? (g.owners || []).find((q) => q.seat === view.you) : null;
  if (words === "Buy a Power Relic" && top && top.kind === "pay" && me && top.owner === me.owner) {
    // Legal at any point of the game (rulebook "Buy Power Relics": spend 3 gold from your
    // Treasury to draw one), so offered while paying for a Minion too, beside "Confirm
    // payment": the new-user trial read it as a step of the payment. Say it is not one.
    const price = typeof me.relic_price === "number" ? `${me.relic_price} gold, ` : "";
    return `Buy a Power Relic (${price}apart from this payment)`;
  }
  // a phone's one row of buttons: "Undo" leaves room for "Suggest a move" beside it (new-user
  // trial: "Suggest a move" waited behind the bar's "N more")
  if (words === "Undo my last move" && PHONE.matches) return "Undo";
  // One action in one phrase (first-time review: "Lie down a troop in H: move to A" read as lying
  // down and moving): a move says where from and to (lying down is part of every troop action),
  // the other troop actions what lying down does; Cancel names what it cancels.
  let m = /^Lie down a troop in ([A-Z]): move to ([A-Z])$/.exec(words);
  if (m) return `Move a troop from ${m[1]} to ${m[2]}`;
  m = /^Lie down a troop in ([A-Z]): (.+)$/.exec(words);
  if (m) return `Lie down a troop in ${m[1]} to ${m[2]}`;
  m = /^Move troop from ([A-Z]) to ([A-Z])$/.exec(words);
  if (m) return `Move ${top && top.kind === "effect" && top.do === "move_enemy" ? "an enemy" : "a"} troop from ${m[1]} to ${m[2]}`;
  if (words === "Cancel" && top) return cancelWords(top);
  return words === "Done responding" && top && top.kind === "combat" && top.side === "atk" ? "Pass" : words;
}

/** A fortress's most hit points (rulebook: 5 at the start; VIEW.md: `hp` 0-5). */
const MAX_HP = 5;

/** " (… nothing to repair)" / " (… no gold gained)" for an action of owner `me` that would do
 *  nothing now: a Power Relic that repairs (its words in the view, "repair 1 hit point; …") or a
 *  troop's repair with the fortress at full health or destroyed, a troop's or a Power Relic's
 *  gold with the Treasury at its cap (the engine offers both: lying down never forces a move);
 *  else "". */
function idleWords(words, g, me) {
  // (the table's label names the Power Relic; the engine's, read by the renderer harness, its id)
  const named = /^Activate Power Relic (.+)$/.exec(words);
  const relicDoes = (verb) => !!named && Object.entries(g.relics || {}).some(([id, r]) => (r.name === named[1] || id === named[1])
    && String(r.text || "").startsWith(verb));
  if (/: repair your fortress$/.test(words) || relicDoes("repair")) {
    if (me.destroyed) return " (fortress destroyed, nothing to repair)";
    if (typeof me.hp === "number" && me.hp >= MAX_HP) return " (fortress at full health, nothing to repair)";
  }
  if ((/: gain 1 gold$/.test(words) || relicDoes("gain")) && typeof me.cap === "number" && me.gold >= me.cap) {
    return " (Treasury full, no gold gained)";
  }
  return "";
}

/** "Cancel" in the words of what it takes back (first-time review: a bare "Cancel" named
 *  nothing): the top frame of the stack is the step under way. */
function cancelWords(top) {
  if (top.kind === "effect") {
    if (top.do === "move_own" || top.do === "move_enemy") return "Cancel the move";
    return top.source === "command" ? "Cancel the Command" : "Cancel";
  }
  if (top.kind === "aim") return "Cancel the attack";
  if (top.kind === "pay") return "Cancel the payment";
  return "Cancel";
}

// ----- map -----------------------------------------------------------------------------------
const S = 6;    // viewBox scale: zones are placed on 0..100, drawn on 0..600
let R = 68;     // zone radius: as large as the board's closest two zones allow
/** A troop's meeple on the map (units) and how far apart the meeples of a row stand, standing
 *  and lying. The map is drawn at about half size beside the cards at 1366x768 and across a
 *  phone (some 330 px for its 740 units): at 54 units a meeple's figure stands 19 px tall there
 *  (table review: at 34 units the troops were ~12 px, the smallest marks on the map; a new-user
 *  trial still read the 44 units' 15 px figures as ~12 px). The fortress stands higher in its
 *  zone to make room for them (FORT_Y). */
const TROOP = {size: 54, upStep: 40, downStep: 50};
/** A fortress's top above its zone's centre (units), and its row of troops' top below it. */
const FORT_Y = 46, FORT_ROW = 2;

function drawMap(ctx) {
  const {g, legal, moves} = ctx;
  const zones = g.zones;
  const pts = Object.values(zones).map((d) => [d.x * S, d.y * S]);
  let near = Infinity;
  for (let i = 0; i < pts.length; i++) for (let j = i + 1; j < pts.length; j++) {
    near = Math.min(near, Math.hypot(pts[i][0] - pts[j][0], pts[i][1] - pts[j][1]));
  }
  R = Math.max(52, Math.min(80, near / 2 - 5));
  const pad = R + 12;
  const x0 = Math.min(...pts.map((p) => p[0])) - pad, y0 = Math.min(...pts.map((p) => p[1])) - pad;
  const w = Math.max(...pts.map((p) => p[0])) + pad - x0, h = Math.max(...pts.map((p) => p[1])) + pad - y0;
  const svg = sv("svg", {viewBox: `${x0} ${y0} ${w} ${h}`, role: "img", "aria-label": `Board: ${g.board_name}`});
  svg.append(sv("rect", {x: x0, y: y0, width: w, height: h, fill: "#d9cba6"}));
  const done = new Set();
  const paths = sv("g", {});
  for (const [z, d] of Object.entries(zones)) {
    for (const n of d.adj) {
      const key = [z, n].sort().join("-");
      if (done.has(key)) continue;
      done.add(key);
      const x1 = d.x * S, y1 = d.y * S, x2 = zones[n].x * S, y2 = zones[n].y * S;
      paths.append(sv("line", {x1, y1, x2, y2, stroke: "#8a6d4a", "stroke-width": 14, "stroke-linecap": "round"}),
        sv("line", {x1, y1, x2, y2, stroke: "#e8d9b3", "stroke-width": 8, "stroke-linecap": "round", "stroke-dasharray": "2 10"}));
    }
  }
  svg.append(paths);
  const pickTargets = new Map();
  if (picked) for (const a of moves) if (originKey(a) === picked) pickTargets.set(a.to, a);
  const zoneActs = new Map();
  for (const a of legal) {
    if ((a.type === "place" || a.type === "retreat") && a.zone !== undefined) zoneActs.set(a.zone, a);
    if (a.type === "retreat") zoneActs.set(a.to, a);
  }
  const front = sv("g", {});
  for (const [z, d] of Object.entries(zones)) {
    const [base, top] = drawZone(ctx, z, d, zoneActs.get(z) || pickTargets.get(z));
    svg.append(base);
    front.append(top);
  }
  svg.append(front);
  for (const a of moves) table.claim(a); // reachable: pick an origin (data-pick), then a zone
  // The zones the player can act in now (a pick under way: where the troop may go), boxed by
  // one invisible rectangle: whether the map is the place to decide (focusPlace), and what a
  // pick keeps in view (revealPicked). A move's zones to go to are in it too: the prompt asks
  // for the troop, then the zone.
  const active = new Set(picked ? [...pickTargets.keys(), pickedFrom()] : [...zoneActs.keys(),
    ...legal.filter((a) => a.type === "target").map((a) => a.zone), ...moves.map((a) => a.from),
    ...moves.map((a) => a.to)]);
  const live = [...active].filter((z) => zones[z]);
  if (live.length) {
    const xs = live.map((z) => zones[z].x * S), ys = live.map((z) => zones[z].y * S);
    const bx = Math.min(...xs) - R - 4, by = Math.min(...ys) - R - 4;
    svg.append(sv("rect", {class: "cv-focus", x: bx, y: by, width: Math.max(...xs) + R + 4 - bx,
                           height: Math.max(...ys) + R + 4 - by, fill: "none", stroke: "none",
                           "pointer-events": "none", dataset: {zones: live.sort().join("")}}));
  }
  return svg;
}

function zoneShape(cx, cy) {
  // a hand-drawn-looking region: a wobbly circle (deterministic from its centre)
  const pts = [];
  const n = 14;
  for (let i = 0; i < n; i++) {
    const a = (i / n) * 2 * Math.PI;
    const wob = 1 + 0.05 * Math.sin(i * 2.7 + cx * 0.13 + cy * 0.07);
    pts.push([cx + R * wob * Math.cos(a), cy + R * wob * Math.sin(a)]);
  }
  let d = `M ${pts[0][0].toFixed(1)} ${pts[0][1].toFixed(1)}`;
  for (let i = 0; i < n; i++) {
    const p = pts[(i + 1) % n], q = pts[i];
    const mx = (p[0] + q[0]) / 2, my = (p[1] + q[1]) / 2;
    d += ` Q ${q[0].toFixed(1)} ${q[1].toFixed(1)} ${mx.toFixed(1)} ${my.toFixed(1)}`;
  }
  return d + " Z";
}

function drawZone(ctx, z, d, action) {
  const {g, legal, moves, me} = ctx;
  const cx = d.x * S, cy = d.y * S;
  const grp = sv("g", {"data-zone": z});
  const over = sv("g", {});
  const terr = d.terrain;
  const clipId = `cvz-${z}`;
  const outline = zoneShape(cx, cy);
  grp.append(sv("clipPath", {id: clipId}, sv("path", {d: outline})));
  const fill = sv("g", {"clip-path": `url(#${clipId})`});
  if (terr.length === 1) fill.append(sv("rect", {x: cx - R - 6, y: cy - R - 6, width: 2 * R + 12, height: 2 * R + 12, fill: TERRAIN_FILL[terr[0]]}));
  else terr.forEach((t, i) => {
    const w = (2 * R + 12) / terr.length;
    fill.append(sv("rect", {x: cx - R - 6 + i * w, y: cy - R - 6, width: w, height: 2 * R + 12, fill: TERRAIN_FILL[t]}));
  });
  grp.append(fill, sv("path", {d: outline, fill: "none", stroke: "#2b2118", "stroke-width": 3, "stroke-linejoin": "round"}));
  if (d.spiral) {
    // a starting spiral printed on the zone
    let sp = "";
    for (let i = 0; i <= 40; i++) {
      const a = i * 0.45, r = 1.2 + i * 0.42;
      sp += `${i ? "L" : "M"} ${(cx + R - 20 + r * Math.cos(a)).toFixed(1)} ${(cy - R + 24 + r * Math.sin(a)).toFixed(1)} `;
    }
    grp.append(sv("path", {d: sp, fill: "none", stroke: "#5b3a8a", "stroke-width": 2.6, "stroke-linecap": "round"}));
  }
  // terrain drawn as terrain: its icons along the top of the zone
  const icons = terr.length;
  terr.forEach((t, i) => grp.append(gTerrain(t, cx - icons * 15 + i * 30 + 1, cy - R + 8, 28)));
  // the zone's letter on a plaque, inside the zone left of its terrain icons, drawn in the front
  // layer: a neighbouring zone drawn later must never hide it (table review C6, zone B under I).
  // The map is drawn at about half its size on a phone (and in the desktop's left column): a
  // 26-unit letter reads at 13 px or more there (issue 14: text at least 13 px on phones).
  const px = cx - icons * 15 - 21, py = cy - R + 38;
  const plaque = () => [sv("circle", {cx: px, cy: py, r: 19, fill: "#fbf3df", stroke: "#2b2118", "stroke-width": 2.5}),
    sv("text", {class: "cv-zl", x: px, y: py + 9, "text-anchor": "middle", "font-size": 26, "font-weight": 800, fill: "#2b2118",
                "font-family": "system-ui,sans-serif"}, z)];
  over.append(sv("g", {class: "cv-zone-letter"}, ...plaque(), sv("title", {}, `Zone ${z}: ${terr.join(" and ")}`)));
  grp.append(sv("title", {}, `Zone ${z}: ${terr.join(" and ")}${d.spiral ? " (starting spiral)" : ""}`));
  attachCard(grp, () => el("div", {class: "cv-full"},
    el("h3", {}, ...terr.map((t) => terrainIcon(t, 32)), `Zone ${z}`),
    el("p", {}, `${terr.join(" and ")}. Next to zones ${d.adj.join(", ")}.`),
    d.spiral ? el("p", {class: "cv-small"}, "The spiral: a starting zone. At the first Morning each player places their fortress with 2 starter troops in one of the spirals.") : null,
    terr.includes("Town") ? el("p", {class: "cv-small"}, `The town: ${g.rebels} of ${g.rebels_total} Rebels here.`) : null));
  // Rebels in the town
  if (terr.includes("Town") && g.rebels) {
    const reb = sv("g", {});
    for (let i = 0; i < g.rebels; i++) reb.append(gRebel(cx - g.rebels * 9 + i * 18 - 2, cy + R - 34, 22));
    reb.append(sv("title", {}, `${plural(g.rebels, "Rebel")} in the town (they retaliate at ${g.rebels_total})`));
    grp.append(mark(reb, `rebels`, String(g.rebels)));
  }
  // Fortresses and troops
  const targets = legal.filter((a) => a.type === "target" && a.zone === z);
  const here = [];
  const forts = [];   // drawn after the troops: over their frame and its glow (review 9: the
                      // suggested troops' frame hid H's fortress and its hit points)
  g.owners.forEach((p, o) => {
    const color = ownerColor(g, o);
    if (p.fortress === z) {
      // the seat's shape on its wall (issue 14: colour is never the only cue)
      const f = sv("g", {class: "cv-fort", dataset: {owner: String(o), seat: seatIndex(g, o) ?? ""}},
        sv("rect", {class: "hit", x: cx - 26, y: cy - FORT_Y - 2, width: 52, height: 52, rx: 8, fill: "transparent", stroke: "none"}),
        gFortress(cx - 24, cy - FORT_Y, 48, color, p.destroyed ? null : p.hp, p.destroyed, markOf(g, o)));
      f.append(sv("title", {}, `${ownerName(g, o)}'s fortress: ${p.destroyed ? "destroyed" : `${p.hp} hit points`}`));
      const ta = targets.find((a) => a.owner === o && a.fortress);
      if (ta) {
        clickable(f, ta);
        badge(f, ta, cx + 14, cy - FORT_Y - 16);
      }
      attachCard(f, () => el("div", {class: "cv-full"},
        el("div", {class: "cv-panel"}, el("h3", {}, fortressIcon(color, p.destroyed ? null : p.hp, p.destroyed, 40, markOf(g, o)),
          `${ownerName(g, o)}'s fortress`),
        el("p", {}, p.destroyed ? "Destroyed: it gives no Victory Points; troops may still be summoned here."
          : `${p.hp} of 5 hit points, in zone ${z}. Troops are summoned here each Morning.`),
        el("p", {class: "cv-small"}, "An unguarded fortress (no troop of its owner in the zone) may be attacked directly; there is no response."))));
      forts.push(mark(f, `fort-${o}`, `${p.hp}|${p.destroyed}|${z}`));
    }
    for (const up of [true, false]) {
      const n = p.troops.filter((t) => t.z === z && t.up === up).length;
      if (n) here.push({o, up, n, color});
    }
  });
  const hasFort = g.owners.some((p) => p.fortress === z);
  // the row of troops: under the fortress, else under the zone's letter
  const rowY = hasFort ? cy + FORT_ROW : cy - 14;
  // a crowd wider than the zone stands closer (the meeples overlap more), never outside it
  const fullW = here.reduce((s, h) => s + h.n * (h.up ? TROOP.upStep : TROOP.downStep) + 8, -8);
  const k = Math.min(1, (2 * R - 24) / fullW);
  const totalW = fullW * k;
  let x = cx - totalW / 2;
  let origin = false;
  for (const {o, up, n, color} of here) {
    const step = (up ? TROOP.upStep : TROOP.downStep) * k;
    const w = n * step;
    const tr = sv("g", {class: "cv-troops", dataset: {owner: String(o), seat: seatIndex(g, o) ?? ""}},
      // (from the meeples' heads down: clear of the fortress's hit points above them)
      sv("rect", {class: "hit", x: x - 3, y: rowY + 2, width: w + 8, height: TROOP.size, rx: 8, fill: "transparent", stroke: "none"}));
    for (let i = 0; i < n; i++) {
      tr.append(sv("g", {dataset: {motionKey: troopKeys.get(`${o}|${z}|${up ? 1 : 0}|${i}`) || ""}},
        up ? gMeeple(x + i * step - 3, rowY, TROOP.size, color, true, markOf(g, o))
          : gMeeple(x + i * step - 8, rowY + 2, TROOP.size, color, false, markOf(g, o))));
    }
    tr.append(sv("title", {}, `${ownerName(g, o)}: ${plural(n, up ? "standing troop" : "lying troop")} in zone ${z}`));
    attachCard(tr, () => el("div", {class: "cv-full"},
      el("h3", {}, meepleIcon(color, up, markOf(g, o), 36), `${ownerName(g, o)}: ${plural(n, up ? "standing troop" : "lying troop")}`),
      el("p", {}, `Zone ${z}. All troops have melee 1 and defense 1.`),
      el("p", {class: "cv-small"}, up ? "Standing: it may lie down to perform one troop action (move, attack, rest a Minion, repair, gain gold)."
        : "Lying down: it has acted; it stands up again next Morning.")));
    const ta = targets.find((a) => a.owner === o && a.up === up);
    if (ta) {
      clickable(tr, ta);
      badge(tr, ta, x + w - 18, rowY - 34);
    }
    else {
      const origins = moves.filter((a) => a.from === z && (
        a.type === "move" ? (up && o === me)
          : a.owner !== undefined ? (a.owner === o && up)
            : (a.up === up && o === me)));
      // your troops that may attack from here (a troop action: a standing one; a free attack:
      // any, the lying ones when none stands) are picked as for a move: the attacks show then
      const standsHere = g.owners[o].troops.some((t) => t.z === z && t.up);
      const attacking = o === me && (up || !standsHere) && ctx.attacks.some((a) => a.from === z);
      // (and the other troop actions: a standing troop of yours lies down for them)
      const acting = attacking || (o === me && up && ctx.others.some((a) => a.from === z));
      if (origins.length || acting) {
        const words = origins.length && acting ? "Move or act with" : origins.length ? "Move" : "Act with";
        pickable(tr, origins.length ? originKey(origins[0]) : troopKey(z),
          `${words} a ${up ? "standing" : "lying"} troop of ${ownerName(g, o)} from zone ${z}`);
        origin = true;
      }
    }
    over.append(mark(tr, `tr-${o}-${z}-${up}`, String(n)));
    x += w + 8;
  }
  over.append(...forts);
  if (origin && !picked) grp.append(sv("path", {class: "cv-origin", d: outline}));
  if (action) {
    // on top of the zone's pieces: the whole zone is the target
    // (its black edge under the white dashes: white alone fades on a pale Desert)
    over.append(sv("path", {d: outline, class: "zone-legal-edge"}));
    const hit = sv("path", {d: outline, class: "zone-legal"});
    hit.append(sv("title", {}, table.label(action)));
    clickable(hit, action);
    // the zone's letter again over its outline, which runs through the plaque; a click on it
    // goes to the zone below (pointer-events none)
    over.append(hit, sv("g", {"pointer-events": "none", "aria-hidden": "true"}, ...plaque()));
  }
  return [grp, over];
}

/** The strength an attack on this target will have, drawn on the map beside it (item 8):
 *  read from the action's label ("… (strength 4)"), which the engine computes. */
function badge(node, action, x, y) {
  const m = /strength (\d+)/.exec(table.label(action) || "");
  if (m) node.append(gStrength(Number(m[1]), x, y, 46));
}

// ----- cards ---------------------------------------------------------------------------------
const kindName = {overlord: "Dark Overlord", henchman: "Henchman", mercenary: "Mercenary"};

/** The ribbon of a card added to the payment under way, in the rulebook's words (2.1 "Acquire a
 *  Minion": unexhausted Minions placed back in the pool, Power Relics discarded from the hand). */
function payingBand(gold, fate) {
  return el("div", {class: "ex cv-paying-band"}, el("b", {}, `Paying ${gold} gold`), el("span", {}, fate));
}
const MINION_FATE = "goes back to the pool on Confirm";
const RELIC_FATE = "discarded on Confirm";

function minionBody(m, ex, big, paying = false) {
  const stat = m.class.toLowerCase();
  return [
    el("div", {class: "top"},
      el("span", {class: "stat", title: `${m.class} class, base ${stat} ${m.base}`}, classIcon(m.class, big ? 24 : 20), String(m.base)),
      m.kind === "overlord" ? el("span", {class: "stat", title: "Dark Overlord on the Evil throne"}, scepterIcon(big ? 22 : 18))
        : el("span", {title: `costs ${m.cost} gold`}, goldIcon(m.cost, big ? 26 : 22))),
    el("div", {class: "nm"}, m.name),
    el("div", {class: "fam"}, `${kindName[m.kind] || ""}${m.family ? ` · ${m.family}` : ""} · ${m.class}`),
    el("div", {class: "ab"}, abilityIcon(m.type, 16), abilityLabel(m.type)),
    m.text ? el("div", {class: "tx"}, logText(m.text.replace(/^[A-Za-z]+: /, ""))) : null,
    paying ? payingBand(m.cost, MINION_FATE)
      : ex === null || ex === undefined ? null : el("div", {class: "ex"}, exIcon(ex, 16), exName(ex)),
  ];
}

function minionData(g, id) {
  return g.minions[id] || {name: "a Minion", class: "Melee", base: "?", cost: "?", type: "none", text: "", kind: ""};
}

function minionFull(g, id, ex, paying = null) {
  const m = minionData(g, id);
  return el("div", {class: "cv-full"},
    el("div", {class: `cv-card big${paying ? " paying" : ex !== null && ex !== undefined ? ` ex${ex}` : ""}`}, ...minionBody(m, ex, true, !!paying)),
    paying ? el("p", {}, `Given in payment for ${paying.name}: it goes back to the Mercenary pool when the payment is confirmed.` +
      (paying.yours ? " To keep it, cancel the payment (no card is then paid)." : "")) : null,
    el("p", {class: "cv-small"}, `${m.class} class: base ${m.class.toLowerCase()} ${m.base}. ` +
      (m.kind === "overlord" ? "Sits on the Evil throne; never leaves it." : `Costs ${m.cost} gold.`)),
    ex === null || ex === undefined || paying ? null : el("p", {class: "cv-small"},
      ex === 0 ? "Ready: you may exhaust it to attack, defend, use its Command or pay with it."
        : ex === 1 ? "Tired: it cannot be exhausted, used as gold or discarded; resting it once makes it ready."
          : "Exhausted: it cannot be exhausted, used as gold or discarded; resting it flips the token to tired."),
    m.type !== "none" && m.type !== "command" && m.type !== "aftershock" ? el("p", {class: "cv-small"}, "Passive abilities are active at all times, even if their Minion is exhausted.") : null);
}

/** A Minion card; `paying` ({name, yours}) when it is given in payment for the Minion `name`
 *  being acquired (`yours`: by the viewer). It then has no action: the engine has no step that
 *  takes one card back, only Cancel, which ends the whole payment. */
function minionCard(ctx, id, ex, {action = null, throne = false, paying = null} = {}) {
  const m = minionData(ctx.g, id);
  const card = el("div", {class: `cv-card${throne ? " throne" : ""}${paying ? " paying" : ex !== null && ex !== undefined ? ` ex${ex}` : ""}`,
                          tabindex: "0"}, ...minionBody(m, ex, false, !!paying));
  if (paying) {
    card.setAttribute("role", "group");
    card.setAttribute("aria-label", `${m.name}: paying ${m.cost} gold for ${paying.name}, goes back to the pool on Confirm`);
  }
  if (action && !paying) clickable(card, action);
  // a tap on a card given in payment (to take it back?) shows its card, which says how: Cancel
  return attachCard(card, () => minionFull(ctx.g, id, ex, paying), {clickShows: !!paying});
}

function relicBody(d, big) {
  return [
    el("div", {class: "top"},
      el("span", {class: "stat", title: "Power Relic"}, relicIcon(big ? 24 : 20)),
      d.target ? el("span", {class: "stat", title: `${d.target}: the terrain printed on the card (the solo dummy's flips read it)`},
        terrainIcon(d.target, big ? 24 : 20)) : null,
      el("span", {title: `worth ${d.gold} gold in hand`}, goldIcon(d.gold ?? "?", big ? 26 : 22))),
    el("div", {class: "nm"}, d.name || "Power Relic"),
    el("div", {class: "fam"}, `Power Relic${d.target ? ` · ${d.target}` : ""}`),
    ...relicEffect(d, big),
  ];
}

/** A Power Relic's two effects in the rulebook's words ("Power Relics": the Instant Ability when
 *  it is activated, the Troop Bonus while it is active), on every card, the small ones too
 *  (first-time review: the relics in hand showed a cost and a picture, no effect). The view's
 *  text is "<instant>; <bonus>" (engines/covil/text.py relic_text). */
function relicEffect(d, big) {
  const [instant, bonus] = String(d.text || "").split("; ");
  const short = (t) => (big ? t : t.replace(/^move one of your troops up to/, "move a troop up to")
    .replace(/^rest one of your Minions$/, "rest a Minion"));
  return [
    instant ? el("div", {class: "tx cv-relic-fx"}, el("b", {}, big ? "Instant Ability: " : "Instant: "), logText(short(instant))) : null,
    bonus ? el("div", {class: "tx cv-relic-fx"}, el("b", {}, big ? "Troop Bonus: " : "Bonus: "),
      logText(bonus) + (big ? " while it is active (until the night)" : "")) : null,
  ];
}
function relicFull(g, r, paying = null) {
  const d = g.relics[r] || {};
  return el("div", {class: "cv-full"},
    el("div", {class: `cv-card relic big${paying ? " paying" : ""}`}, ...relicBody(d, true), paying ? payingBand(d.gold, RELIC_FATE) : null),
    paying ? el("p", {}, `Given in payment for ${paying.name}: discarded from your hand when the payment is confirmed. ` +
      "To keep it, cancel the payment (no card is then paid).") : null,
    el("p", {class: "cv-small"}, `Worth ${d.gold} gold when paying. Activate it for its instant ability; while active it gives its bonus.` +
      (d.target && g.owners.some((p) => p.dummy) ? ` The dummy players read its terrain (${d.target}).` : "")));
}
/** A Power Relic card; `paying`: as minionCard's. */
function relicCard(ctx, r, action, paying = null) {
  const d = ctx.g.relics[r] || {};
  const card = el("div", {class: `cv-card relic${paying ? " paying" : ""}`, tabindex: "0"}, ...relicBody(d, false),
    paying ? payingBand(d.gold, RELIC_FATE) : null);
  if (paying) {
    card.setAttribute("role", "group");
    card.setAttribute("aria-label", `${d.name || "Power Relic"}: paying ${d.gold} gold for ${paying.name}, discarded on Confirm`);
  }
  if (action && !paying) clickable(card, action);
  // activating it now would do nothing (its label says so too: idleWords)
  const me = ctx.me >= 0 ? ctx.g.owners[ctx.me] : null;
  const idle = action && action.type === "activate" && me ? idleWords(`Activate Power Relic ${r}`, ctx.g, me) : "";
  if (idle) card.append(el("div", {class: "tx cv-relic-fx cv-idle"}, idle.charAt(2).toUpperCase() + idle.slice(3, -1)));
  return attachCard(card, () => relicFull(ctx.g, r, paying), {clickShows: !!paying});
}

// ----- side panels ---------------------------------------------------------------------------
function combatPanel(ctx) {
  const {g} = ctx;
  const f = [...g.stack].reverse().find((x) => x.kind === "combat");
  if (!f) return null;
  const atk = f.att === null ? "The Rebels" : ownerName(g, f.att);
  const tgt = f.target === "fortress" ? "fortress" : (f.dup ? "standing troop" : "lying troop");
  const who = f.side === "def" ? ownerName(g, f.def) : atk;
  const aName = f.acard ? minionData(g, f.acard).name : null;
  const panel = el("div", {class: "cv-panel cv-combat", role: "region", "aria-label": "Combat"},
    el("h3", {}, strengthIcon("", "attack", 20), "Combat"),
    el("div", {}, `${atk} ${f.akind === "rebel" ? "retaliate" : `(${f.akind}${f.from ? ` from zone ${f.from}` : ""}${aName ? `, ${aName}` : ""})`} against ${ownerName(g, f.def)}'s ${tgt} in zone ${f.dz}`),
    el("div", {class: "vs"}, el("span", {class: "it"}, strengthIcon(f.attack, "attack", 34), `Attack ${f.attack}`),
      el("span", {class: "cv-small"}, "against"),
      el("span", {class: "it"}, strengthIcon(f.defense, "defense", 34), `Defense ${f.defense}`)),
    el("div", {class: "cv-small"}, `A tie goes to the defender. Responding now: ${who}.`,
      f.dcard ? ` Defending Minion: ${minionData(g, f.dcard).name}.` : ""));
  // The defender's choices in the combat itself (issue 14 item 6: what you act with is where
  // you look): each ready defensive Minion with the defense it would give.
  // So are the Power Relics in hand the responder may activate now (both sides respond): the
  // cards to respond with lie together in the combat, not in the hall and hand below the fold.
  const defend = ctx.legal.filter((a) => a.type === "defend");
  const relics = ctx.legal.filter((a) => a.type === "activate" && a.relic !== undefined);
  if ((defend.length || relics.length) && ctx.me >= 0) {
    const hall = g.owners[ctx.me].hall;
    const words = defend.length && relics.length ? "Defend with a Minion, or activate a Power Relic:"
      : defend.length ? "Defend with a Minion:" : "Respond with a Power Relic:";
    panel.append(el("div", {class: "cv-act-here"}, el("b", {}, words),
      el("div", {class: "cv-cards"}, ...defend.map((a) => {
        const m = hall[a.slot];
        const card = minionCard(ctx, m.id, m.ex, {action: a});
        const base = Number(minionData(g, m.id).base) || 0;
        card.append(el("div", {class: "ex"}, strengthIcon(f.defense + base, "defense", 18), `Defense ${f.defense + base}`));
        return card;
      }), ...relics.map((a) => relicCard(ctx, a.relic, a)))));
  }
  return mark(panel, "combat", `${f.attack}|${f.defense}|${f.side}`);
}

/** Acquiring: the Minion, its price, what is paid so far (as the prompt says it), and why
 *  Confirm is missing when the hall is full (item 8). */
function payPanel(ctx) {
  const {g, legal, view} = ctx;
  const pay = payState(g, view, legal);
  if (!pay) return null;
  const {m, price, paid, need, gold, minions, relics, full, canConfirm} = pay;
  const cards = [...minions.map((h) => minionData(g, h.id).name), ...relics.map((r) => (g.relics[r] || {}).name || "a Power Relic")];
  const why = [];
  if (!canConfirm) {
    if (full) why.push(`Your Champions Hall is full (5 Minions): give a Minion back to make room for ${m.name} — ${clickVerb(true)} one of your ready Minions below (it pays its cost).`);
    if (need > gold) why.push(`You still need ${need} gold and have ${gold}: add a ready Minion or a Power Relic.`);
  }
  const cost = Number(m.cost);
  return el("div", {class: "cv-panel cv-pay", role: "region", "aria-label": "Acquiring"},
    el("h3", {}, goldIcon(price, 20), `Pay for ${m.name}: ${paidWords(pay)}`),
    el("div", {class: "cv-small"}, `Price ${price} gold${cost !== price ? ` (its cost ${cost}, less your Influence)` : ""}. ` +
      `Paid with cards: ${paid} gold${cards.length ? ` (${cards.join(", ")})` : ""}; ` +
      (!need ? "nothing from your Treasury." : canConfirm ? `Confirm takes the other ${need} from your Treasury (${gold} gold).`
        : `the other ${need} from your Treasury (${gold} gold).`)),
    ...why.map((w) => el("div", {class: "cv-why", role: "note"}, w)),
    canConfirm ? el("div", {class: "cv-small"}, "Confirm in the bar at the top.") : null);
}

function poolPanel(ctx) {
  const {g, legal} = ctx;
  // how many of them the player can pay for now, said at the top: on an Afternoon turn's move
  // prompt the first such card may be in a row below the window (the map's zones come first)
  const open = g.pool.filter((c) => legal.some((x) => x.type === "acquire" && x.card === c)).length;
  return el("div", {class: "cv-panel cv-pool cv-compact"},
    el("h3", {}, `Mercenary pool (${g.pool.length})`,
      open ? el("span", {class: "cv-small cv-pool-open"}, `· ${open} you can pay for`) : null),
    el("div", {class: "cv-cards"}, ...g.pool.map((c) => {
      const a = legal.find((x) => x.type === "acquire" && x.card === c);
      return mark(minionCard(ctx, c, null, {action: a}), `pool-${c}`, "1");
    })));
}

function handPanel(ctx) {
  const {g, view, legal} = ctx;
  if (view.you === null || view.you === undefined) return null;
  const me = g.owners.find((p) => p.seat === view.you);
  if (!me) return null;
  // the copies already added to a payment under way (a hand may hold two of one Power Relic)
  const pay = payState(g, view, legal);
  const given = [...(pay ? pay.relics : [])];
  return el("div", {class: "cv-panel cv-hand cv-compact"}, el("h3", {}, relicIcon(18), `Your Power Relics (${(me.hand || []).length})`),
    el("div", {class: "cv-cards"}, ...(me.hand || []).map((r, i) => {
      const k = given.indexOf(r);
      if (k >= 0) {
        given.splice(k, 1);
        return mark(relicCard(ctx, r, null, {name: pay.m.name, yours: true}), `hand-${i}-${r}`, "paying");
      }
      const a = legal.find((x) => (x.type === "activate" || x.type === "pay_relic") && x.relic === r);
      return mark(relicCard(ctx, r, a), `hand-${i}-${r}`, "");
    })));
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
  const standing = p.troops.filter((t) => t.up).length;
  const hall = el("div", {class: `cv-panel cv-hall cv-compact${mine ? " mine" : ""}`, style: `border-left-color:${color}`,
                          role: "region", "aria-label": `Champions Hall of ${ownerName(g, o)}`},
    el("div", {class: "hd"},
      el("h3", {style: `color:${color}`}, `${ownerName(g, o)}${p.dummy ? " (dummy)" : ""}${mine ? " (you)" : ""}`,
        g.first === o ? el("span", {class: "cv-small cv-scepter", title: SCEPTER_WORDS}, scepterIcon(18), "Evil Scepter") : null),
      typeof p.vp === "number" ? el("span", {class: "it cv-vp", title: vpTitle(g, p)}, vpIcon(20), el("b", {}, String(p.vp)),
        scoreNote(g, p) ? el("span", {class: "cv-small"}, scoreNote(g, p)) : null) : null,
      el("span", {class: "it", title: `Treasury: ${p.gold} gold of at most ${p.cap}`}, goldIcon(p.gold, 22), el("span", {class: "cv-small"}, `of ${p.cap}`)),
      el("span", {class: "it", title: p.fortress === null ? "no fortress yet" : `fortress in zone ${p.fortress}`},
        fortressIcon(color, null, p.destroyed, 22, markOf(g, o)),
        // (before the fortress is placed: no zone and no hit points to show, review 8)
        p.fortress === null ? el("span", {class: "cv-small"}, "no fortress yet")
          : [`zone ${p.fortress}`, p.destroyed ? " destroyed" : [hpIcon(p.hp, 22), el("span", {class: "cv-small"}, "hit points")]]),
      el("span", {class: "it", title: `${p.troops.length} troops on the board (${standing} standing), ${p.supply} in supply`},
        meepleIcon(color, true, markOf(g, o), 20), `${standing}`, meepleIcon(color, false, markOf(g, o), 20), `${p.troops.length - standing}`,
        el("span", {class: "cv-small"}, `+${p.supply} in supply`)),
      el("span", {class: "it", title: `Power Relics in hand; buying one costs ${p.relic_price} gold`}, relicIcon(18), `${p.hand_count} in hand`,
        el("span", {class: "cv-small"}, `(buy for ${p.relic_price})`)),
      // its active Power Relics in the hall's head, each by its name and Troop Bonus (its whole
      // card on hover, focus or long-press): as cards under the Minions they lay below the
      // first screen at 1366x768 (issue 14), the bonus the player counts on in a combat
      p.active.length ? el("span", {class: "it cv-active", role: "list", "aria-label": "Active Power Relics"},
        el("span", {class: "cv-small", "aria-hidden": "true"}, "Active:"), ...p.active.map((r) => activeChip(g, r))) : null),
    el("div", {class: "cv-cards"}, ...p.hall.map((m, i) => {
      // given in payment for the Minion being acquired (the hall is public: every seat sees it)
      const paying = top && top.kind === "pay" && top.owner === o && (top.minions || []).includes(i)
        ? {name: minionData(g, top.card).name, yours: mine} : null;
      return mark(minionCard(ctx, m.id, m.ex, {action: slotAction(i), throne: i === 0, paying}), `hall-${o}-${m.id}`, `${m.ex}|${!!paying}`);
    })));
  return mark(hall, `hall-${o}`, `${p.gold}|${p.hp}|${p.hand_count}|${p.active.length}|${p.vp}`);
}
