// Evil Corp. table renderer (notes/renderer-contract.md; view shape: engines/evil_corp/VIEW.md).
// Draws everything from view.game / view.seats with createElement (no HTML parsing of view data).
// Clickable legal targets carry data-action (exact JSON of the action); putting a monster into
// play is two-step: pick a tile behind your screen (data-pick), then a highlighted cell.

export const title = "Evil Corp.";

let root = null;
let table = null;
let picked = null;          // tile id picked behind the screen (local UI state)
let lastView = null;
let previous = new Map();   // element key -> signature, to mark what changed

const SYMBOL = {shield: "\u{1F6E1}", magic: "2\u{1FA99}", victory: "\u2605"};
const COLOUR = {blue: "#56B4E9", red: "#F2876B", yellow: "#F0E442"};

const CSS = `
.ec { display: flex; flex-direction: column; gap: .6rem; font-size: .85rem; }
.ec h3 { margin: .2rem 0; font-size: .95rem; overflow-wrap: anywhere; }
.ec-row { display: flex; flex-wrap: wrap; gap: .5rem; align-items: flex-start; }
.ec-panel { border: 1px solid #8884; border-radius: 6px; padding: .4rem; background: #fff1; }
.ec-tile { display: inline-flex; flex-direction: column; width: 7.2rem; min-height: 3.6rem;
  border: 2px solid #333; border-radius: 5px; padding: 2px 4px; margin: 2px; color: #111;
  font-size: .72rem; line-height: 1.15; position: relative; vertical-align: top; }
.ec-tile .ec-head { display: flex; justify-content: space-between; font-weight: bold; }
.ec-tile.inactive { filter: grayscale(.8); opacity: .7; }
.ec-tile.inactive::after { content: "inactive"; position: absolute; right: 3px; bottom: 1px;
  font-size: .6rem; font-style: italic; }
.ec-tile.hidden { background: repeating-linear-gradient(45deg,#666,#666 4px,#777 4px,#777 8px);
  color: #fff; width: 2.2rem; min-height: 3rem; align-items: center; justify-content: center; }
.ec-cell { display: inline-flex; flex-direction: column; min-width: 7.6rem; min-height: 4.6rem;
  border: 1px dashed #8888; border-radius: 5px; margin: 2px; padding: 2px; vertical-align: top; }
.ec-cell .ec-cname { font-size: .65rem; opacity: .8; }
.ec-cell.k-raid { background: #d5500012; } .ec-cell.k-fortress { background: #55555520; }
.ec-cell.k-portal { background: #0072b218; } .ec-cell.k-port { background: #009e7318; }
.ec .legal { outline: 3px solid #E69F00; outline-offset: 1px; box-shadow: 0 0 6px #E69F00; }
.ec [data-pick] { outline: 2px dashed #E69F00; outline-offset: 1px; cursor: pointer; }
.ec [data-pick].picked { outline: 3px solid #0072B2; }
.ec-track { display: flex; flex-wrap: wrap; align-items: center; gap: 2px .3rem; margin: .3rem 0; }
.ec-track .ec-chip { white-space: nowrap; }
.ec-steps { display: flex; gap: 1px; flex: 1 1 auto; min-width: 0; max-width: max-content; }
.ec-steps span { flex: 0 1 1.6rem; min-width: 1rem; height: 1.6rem; border: 1px solid #8886; display: inline-flex;
  align-items: center; justify-content: center; font-size: .7rem; border-radius: 3px; }
.ec-steps span.centre { background: #8883; }
.ec-steps span.marker { background: #000; color: #fff; font-weight: bold; }
.ec-half { border-left: 6px solid; padding-left: .3rem; margin: .2rem 0; }
.ec-chip { display: inline-block; padding: 0 .3rem; border-radius: 3px; color: #fff; margin-right: .2rem; }
.ec-demon { width: 12rem; }
.ec-demon.inactive { opacity: .5; }
.ec-small { font-size: .7rem; opacity: .85; }
.ec-pending { font-weight: bold; }
.ec-mine { border: 2px solid #E69F00; }
.ec-hint { margin: .2rem 0; font-weight: bold; }
.ec-hint a { margin-left: .4rem; font-weight: normal; }
`;

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "style") Object.assign(node.style, v);
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children) {
    if (c === undefined || c === null || c === false) continue;
    node.append(c instanceof Node ? c : String(c));
  }
  return node;
}

function same(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Make an element a clickable legal target for `action`. */
function clickable(node, action) {
  node.classList.add("legal");
  node.dataset.action = JSON.stringify(action);
  node.setAttribute("tabindex", "0");
  node.setAttribute("role", "button");
  node.setAttribute("aria-label", table.label(action));
  node.title = table.label(action);
  const go = () => { picked = null; table.act(action); };
  node.addEventListener("click", (e) => { e.stopPropagation(); go(); });
  node.addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); go(); } });
  table.claim(action);
  return node;
}

function pickable(node, tileId) {
  node.dataset.pick = String(tileId);
  node.setAttribute("tabindex", "0");
  node.setAttribute("role", "button");
  node.setAttribute("aria-label", "Pick this monster to put it into play");
  if (picked === tileId) node.classList.add("picked");
  const go = () => {
    picked = picked === tileId ? null : tileId;
    scrollToCell = picked !== null;
    update(lastView);
  };
  node.addEventListener("click", (e) => { e.stopPropagation(); go(); });
  node.addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); go(); } });
  return node;
}

function mark(node, key, signature) {
  if (previous.has(key) && !same(previous.get(key), signature)) node.classList.add("changed");
  nextSigs.set(key, signature);
  return node;
}
let nextSigs = new Map();

function chip(seat) {
  const bg = table.seatColor(seat);
  return el("span", {class: "ec-chip", style: {background: bg, color: chipText(bg)}},
    table.seatName(seat));
}

/** White or near-black, whichever contrasts more with the `#rrggbb` seat colour (WCAG
 *  relative luminance): white on the vermillion, green and pink seats is below 4.5:1. */
function chipText(hex) {
  const m = /^#?([0-9a-f]{6})$/i.exec(hex || "");
  if (!m) return "#fff";
  const lin = (i) => { const c = parseInt(m[1].slice(i, i + 2), 16) / 255;
                       return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
  const L = 0.2126 * lin(0) + 0.7152 * lin(2) + 0.0722 * lin(4);
  return 1.05 / (L + 0.05) >= (L + 0.05) / (0.0056 + 0.05) ? "#fff" : "#111";
}

function tileNode(game, t, extra = {}) {
  const c = game.catalog[t.type] || {};
  const fear = extra.fear !== undefined ? extra.fear : c.fear;
  const node = el("div", {class: "ec-tile" + (extra.up === false ? " inactive" : ""),
                          style: {background: COLOUR[c.colour] || "#ccc"}},
    el("div", {class: "ec-head"}, el("span", {}, `${t.type} ${c.colour || ""}`),
      el("span", {title: "fear strength"}, `\u{1F47B}${fear}`),
      el("span", {title: "hire cost"}, `\u{1FA99}${c.cost}`)));
  if (c.passive) node.append(el("div", {}, "P: " + c.passive));
  if (c.spawn) node.append(el("div", {}, "S: " + c.spawn));
  if (c.activated) node.append(el("div", {}, "A: " + c.activated));
  node.setAttribute("aria-label", `${c.colour} ${t.type}, fear ${fear}, cost ${c.cost}`);
  return node;
}

function actionsWhere(pred) {
  return table.find(pred);
}

/** A side's display name from the seats' names (view.game names are "Player N" labels). */
function sideName(game, side) {
  const sd = game.sides[side];
  const names = sd.seats.map((s) => table.seatName(s)).join(" & ");
  return game.players === 4 ? `Team ${side + 1} (${names})` : names;
}

let scrollToCell = false;   // after a pick, bring the first highlighted cell into view

export function mount(rootEl, tableApi) {
  root = rootEl;
  table = tableApi;
  root.append(el("style", {}, CSS));
  root.append(el("div", {class: "ec"}));
  // Escape drops a picked tile (as in the other games' boards).
  root.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && picked !== null && lastView) { picked = null; e.preventDefault(); update(lastView); }
  });
}

export function update(view) {
  lastView = view;
  if (!root) return;
  nextSigs = new Map();
  const game = view.game;
  const box = root.querySelector(".ec");
  box.replaceChildren();
  if (!game) return;
  const me = view.you;
  const screensList = game.screens || [];
  const myScreen = me !== null && me !== undefined ? screensList.find((x) => x.seat === me) : null;
  const mySide = myScreen ? myScreen.side : null;
  // a picked tile must still be playable
  if (picked !== null && !actionsWhere((a) => a.type === "play" && a.tile === picked).length) {
    picked = null;
  }
  // the viewer's own screen and what they can do come first, so no scrolling is needed to start
  box.append(statusBar(view, game));
  if (myScreen) box.append(screenNode(game, myScreen, true));
  const boards = el("div", {class: "ec-row", id: "ec-boards"});
  for (const b of game.boards) boards.append(boardNode(game, b, mySide));
  box.append(boards);
  box.append(personnel(game));
  box.append(screens(game, screensList.filter((x) => x !== myScreen)));
  box.append(sidesNode(view, game));
  previous = nextSigs;
  if (scrollToCell) {
    scrollToCell = false;
    const cell = box.querySelector("#ec-boards .legal");
    if (cell && cell.scrollIntoView) cell.scrollIntoView({block: "center"});
  }
}

/** One line telling the viewer where their options are (the prompt bar only lists Pass). */
function hintNode() {
  const plays = actionsWhere((a) => a.type === "play");
  const acts = actionsWhere((a) => a.type === "activate");
  const hires = actionsWhere((a) => a.type === "hire" && !a.fx);
  const parts = [];
  if (plays.length) {
    parts.push(picked === null ? "Pick a monster in your screen below, then a highlighted cell on your half of a board"
      : "Now click a highlighted cell on your half of a board");
  }
  if (acts.length) parts.push("click a highlighted monster of yours to activate it");
  if (hires.length) parts.push("click a highlighted applicant in the Personnel department to hire");
  if (!parts.length) return null;
  const text = parts.join("; or ");
  const node = el("div", {class: "ec-hint"}, text.charAt(0).toUpperCase() + text.slice(1) + ".");
  const jump = (label, selector) => {
    const a = el("a", {href: "#"}, label);
    a.addEventListener("click", (e) => {
      e.preventDefault();
      const t = root.querySelector(selector);
      if (t && t.scrollIntoView) t.scrollIntoView({block: "start", behavior: "smooth"});
    });
    return a;
  };
  if (plays.length || acts.length) node.append(jump("Boards \u2193", "#ec-boards"));
  if (hires.length) node.append(jump("Personnel \u2193", "#ec-personnel"));
  return node;
}

function statusBar(view, game) {
  const bits = [`Round ${game.round}`, game.phase === "day" ? "Day" : game.phase === "night"
    ? "Night" : "Game over"];
  const node = el("div", {class: "ec-panel"}, el("strong", {}, bits.join(" \u00b7 ")), " ");
  if (game.turn_side !== null && game.turn_side !== undefined) {
    node.append(" Turn: ", sideName(game, game.turn_side), " \u00b7 ");
  }
  node.append(" First player token: ", sideName(game, game.first));
  if (game.winner && game.winner.length) {
    node.append(el("div", {class: "ec-pending"}, "Game over: " +
      game.winner.map((s) => sideName(game, s)).join(", ") +
      ` reached ${game.victory_to_win} victory tokens`));
  }
  const hint = hintNode();
  if (hint) node.append(hint);
  if (game.pending) {
    const p = game.pending;
    const who = p.seats.map((s) => table.seatName(s)).join(", ");
    node.append(el("div", {class: "ec-pending"},
      `Waiting for ${who}: ${p.text}` + (p.kind === "summon"
        ? ` (summoning strength ${p.ss}, level ${p.level})` : "")));
  }
  // choose an opponent: seat chips are the targets
  for (const a of actionsWhere((x) => x.type === "opponent")) {
    node.append(clickable(chip(a.seat), a));
  }
  return node;
}

function personnel(game) {
  const node = el("div", {class: "ec-panel", id: "ec-personnel"}, el("h3", {}, "Personnel department"));
  const row = el("div", {class: "ec-row"});
  for (const q of game.queue) {
    const name = q.slot === game.queue.length - 1 ? "We'll call you back"
      : q.surcharge ? `With a raise to the salary +${q.surcharge}` : "Applicant";
    const cell = el("div", {class: "ec-cell"}, el("span", {class: "ec-cname"}, name));
    if (q.tile) {
      cell.append(tileNode(game, q.tile), el("span", {class: "ec-small"}, `price ${q.price}`));
    } else {
      cell.append(el("span", {class: "ec-small"}, "empty"));
    }
    for (const a of actionsWhere((x) => (x.type === "hire" || x.type === "use") && x.slot === q.slot)) {
      clickable(cell, a);
    }
    row.append(mark(cell, `queue-${q.slot}`, q.tile));
  }
  node.append(row);
  const demons = el("div", {class: "ec-row"});
  for (const d of game.demons) {
    const dn = el("div", {class: "ec-panel ec-demon" + (d.active ? "" : " inactive")},
      el("strong", {}, `${d.id} ${d.name}`), el("span", {class: "ec-small"},
        d.active ? " (active)" : " (inactive)"));
    d.levels.forEach((lv, i) => dn.append(el("div", {class: "ec-small"},
      `L${i + 1} (strength ${lv.min_ss}+): ${lv.ops}` +
      (lv.pay ? `; pay ${lv.pay} if strength ${lv.pay_if_ss}` : ""))));
    for (const a of actionsWhere((x) => (x.type === "summon" || x.type === "flip_demon") && x.demon === d.demon)) {
      clickable(dn, a);
    }
    demons.append(mark(dn, `demon-${d.demon}`, d.active));
  }
  node.append(demons, el("div", {class: "ec-small"},
    `Evil Corp. bag: ${game.corp_bag_count} tiles \u00b7 discarded applicants: ${game.queue_discard.length}` +
    ` \u00b7 magic coins left: ${game.magic_left}`));
  return node;
}

function trackNode(b) {
  const L = b.track.length;
  const row = el("div", {class: "ec-track", "aria-label": `fear marker ${b.marker}`});
  for (const s of b.halves[0].seats) row.append(chip(s));
  // left end = half 0's side, right end = half 1's side; marker > 0 lies toward half 1.
  // The steps are one box that shrinks on a phone; the side's chips wrap around it.
  const steps = el("div", {class: "ec-steps"});
  for (let pos = -L; pos <= L; pos++) {
    const sym = pos === 0 ? "" : b.track[Math.abs(pos) - 1];
    const span = el("span", {class: pos === 0 ? "centre" : ""}, sym ? SYMBOL[sym] : "");
    if (pos === b.marker) { span.classList.add("marker"); span.textContent = String(Math.abs(pos)); }
    steps.append(span);
  }
  row.append(steps);
  for (const s of b.halves[1].seats) row.append(chip(s));
  return row;
}

function halfNode(game, b, h, mySide) {
  const half = b.halves[h];
  const colour = table.seatColor(half.seats[0]);
  const node = el("div", {class: "ec-half", style: {borderColor: colour}});
  const head = el("div", {}, ...half.seats.map(chip),
    el("span", {class: "ec-small"}, ` conquest: ${half.conquest} step(s) to the centre` +
      (b.stone === half.side ? " \u00b7 holds the power stone" : "")));
  node.append(head);
  const cells = el("div", {});
  for (const c of half.cells) {
    const cell = el("div", {class: `ec-cell k-${c.kind}`}, el("span", {class: "ec-cname"},
      c.cell + (c.kind === "fortress" ? ` (keep ${b.keep_cost})` : "")));
    if (c.tile) cell.append(tileNode(game, c.tile, {fear: c.tile.fear, up: c.tile.up}));
    const mine = half.side === mySide;
    const acts = actionsWhere((a) => a.board === b.board && a.cell === c.cell && (
      (a.half === h && ["flip", "send", "pick", "move"].includes(a.type)) ||
      (mine && a.type === "activate") ||
      (mine && a.type === "play" && a.tile === picked)));
    if (c.tile) {
      acts.push(...actionsWhere((a) => a.type === "remove" && a.tile === c.tile.id));
    }
    if (acts.length === 1) clickable(cell, acts[0]);
    cells.append(mark(cell, `cell-${b.board}-${h}-${c.cell}`, c.tile));
  }
  node.append(cells);
  return node;
}

function boardNode(game, b, mySide) {
  const node = el("div", {class: "ec-panel"});
  node.append(el("h3", {}, `Settlement board ${b.board + 1} \u2014 side ${b.face} (${b.face_name})`),
    el("div", {class: "ec-small"}, "Available to: ", ...b.available_to.map(chip)));
  // the viewer's half is drawn at the bottom, nearest to him
  const order = b.halves[0].side === mySide ? [1, 0] : [0, 1];
  node.append(halfNode(game, b, order[0], mySide));
  const mid = el("div", {},
    trackNode(b),
    el("div", {class: "ec-small"},
      `Fear marker: ${b.marker === 0 ? "centre" : `${Math.abs(b.marker)} toward ` +
        sideName(game, b.halves[b.marker > 0 ? 1 : 0].side)}` +
      ` \u00b7 loot: ${b.loot ? "available" : "taken"}` +
      ` \u00b7 power stone: ${b.stone === null ? "on the board" : sideName(game, b.stone)}` +
      ` \u00b7 port cargo: yellow ${b.cargo.yellow}, red/blue ${b.cargo.redblue}`));
  node.append(mark(mid, `track-${b.board}`, [b.marker, b.loot, b.stone, b.cargo]));
  node.append(halfNode(game, b, order[1], mySide));
  return node;
}

function screens(game, list) {
  const node = el("div", {class: "ec-row"});
  for (const s of list) node.append(screenNode(game, s, false));
  return node;
}

/** A seat's screen: its own tiles (pickable) for the viewer, backs and revealed tiles otherwise. */
function screenNode(game, s, mine) {
  const panel = el("div", {class: "ec-panel" + (mine ? " ec-mine" : ""), id: mine ? "ec-my-screen" : null},
    el("h3", {}, chip(s.seat), mine ? "your screen" : "screen", s.passed ? " (passed)" : ""),
    el("div", {class: "ec-small"}, `${s.supply_count} tile(s) behind the screen`));
  const shownIds = new Set(s.shown.map((t) => t.id));
  if (s.supply) {
    for (const t of s.supply) {
      const tn = tileNode(game, t);
      if (shownIds.has(t.id)) tn.append(el("span", {class: "ec-small"}, "revealed"));
      const direct = actionsWhere((a) => ["discard", "remove", "reveal"].includes(a.type) && a.tile === t.id);
      if (direct.length === 1) clickable(tn, direct[0]);
      else {
        const plays = actionsWhere((a) => a.type === "play" && a.tile === t.id);
        if (plays.length) {
          pickable(tn, t.id);
          for (const a of plays) table.claim(a);  // reachable: pick, then a highlighted cell
        }
      }
      panel.append(tn);
    }
  } else {
    for (const t of s.shown) panel.append(tileNode(game, t));
    const hidden = s.supply_count - s.shown.length;
    for (let i = 0; i < hidden; i++) panel.append(el("div", {class: "ec-tile hidden"}, "?"));
  }
  return mark(panel, `screen-${s.seat}`, [s.supply_count, s.shown, s.passed, s.supply]);
}

function sidesNode(view, game) {
  const node = el("div", {class: "ec-row"});
  for (const sd of game.sides) {
    const panel = el("div", {class: "ec-panel"},
      el("h3", {}, ...sd.seats.map(chip)),
      el("div", {}, `Gold ${sd.gold} \u00b7 Magic coins ${sd.magic} \u00b7 Victory tokens ${sd.vp}` +
        ` (${game.victory_to_win} to win) \u00b7 Bag ${sd.bag_count}`),
      el("div", {class: "ec-small"}, `Discard pile (${sd.discard.length}):`));
    for (const t of sd.discard) {
      const tn = tileNode(game, t);
      const acts = actionsWhere((a) => (a.type === "return" || a.type === "remove") && a.tile === t.id);
      if (acts.length === 1) clickable(tn, acts[0]);
      panel.append(tn);
    }
    node.append(mark(panel, `side-${sd.side}`, [sd.gold, sd.magic, sd.vp, sd.bag_count, sd.discard.length]));
  }
  if (game.box.length) {
    const bx = el("div", {class: "ec-panel"}, el("h3", {}, "Removed from the game"));
    for (const t of game.box) bx.append(tileNode(game, t));
    node.append(bx);
  }
  return node;
}
