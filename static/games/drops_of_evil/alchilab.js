// One seat's Alchilab (positioned HTML): Rats Area, Toxicity Track, Action pawns, Distiller,
// Brewer (Vial outlines, column Bonus slots with flames), pool, Extra Resources, Assistant.
import {RES, RES_ORDER, PAWN_ORDER, el, resChip, pawnChip, seatTag, finalTotal, clickable, pickable, mark,
        resName} from "./util.js";
import {attachCard} from "../../js/dom.js";
import {clickVerb, plural} from "../../js/words.js";
import {iconCard} from "../../js/legend.js";
import {scrollIcon, extraIcon, flameIcon, resIcon, assistantIcon} from "./icons.js";

/** The full card of a Bonus token. */
function tokenCard(t) {
  if (t.kind === "scroll") {
    return el("div", {class: "doe-full"}, el("div", {class: "doe-full-head"}, scrollIcon(t.res, null, 44), el("b", {}, t.label)),
      el("p", {}, SCROLL_WORDS),
      el("p", {class: "muted"}, "Taking a Bonus token reveals its Income icon."));
  }
  const m = /^(worm|cheese)(\d)$/.exec(t.token || "");
  return el("div", {class: "doe-full"}, el("div", {class: "doe-full-head"}, extraIcon(m ? m[1] : t.token, m ? Number(m[2]) : 1, 44),
    el("b", {}, `Extra Resource: ${t.label}`)),
    el("p", {}, "When you gain an Extra Resource, it is immediately added to your pool of available Resources. You may use it at any time during the current round; any unused Extra Resources are discarded at the end of the Brewing Phase."),
    el("p", {class: "muted"}, "Gained when you fill every space of the column above it (Brewer) or a Vial next to it or above it (Distiller); taking it reveals its Income icon."));
}

/** A Scroll in the rulebook's words ("Scrolls"), for its card. */
const SCROLL_WORDS = "When you gain a Scroll, move the matching Toxicity marker forward on your Toxicity Track one " +
  "space. A second Scroll showing the same Resource moves it forward two spaces instead of one.";

const UNDO = "\u21ba";

/** The "take back" mark at the corner of a Brewer space holding a Resource placed this round,
 *  with its card (new-user trial: a bare yellow "↺"; rulebook "Moving Resources": the Resources
 *  of the current round may be moved, not those of earlier rounds nor those that unlocked a
 *  Bonus token). A click on it is the space's: it takes the Resource back. */
function undoMark() {
  return iconCard(el("span", {class: "doe-undo"}, UNDO), "Take back",
    `Placed this round: ${clickVerb(true)} this space to take the Resource back into your pool and place it again. ` +
    "Resources placed in earlier rounds, or that unlocked a Bonus token, can no longer be moved.");
}

// "Done brewing" was clicked with something unused: the question is shown while the player's
// legal actions stay what they were then (their words, JSON); another seat's move, a new view in
// the simultaneous Brewing, left it open under the pointer (it closed at every fresh view)
let asking = null;

/** Issue 14 item 9: the Assistant's ability, its Worm / Cheese alternative and "Done brewing"
 *  drawn as three different things beside the pool; "Done brewing" asks first when an
 *  Assistant, an Extra Resource, a Bonus token or Cheese is still unused. */
function drawControls(ctx, lab, mine) {
  if (!mine || ctx.game.phase !== "brewing") return null;
  if (ctx.fresh && asking !== null && asking !== JSON.stringify(ctx.legal)) asking = null;
  const legal = ctx.legal;
  const done = legal.find((a) => a.type === "done");
  const uses = legal.filter((a) => a.type === "assistant");
  const alts = legal.filter((a) => a.type === "alternative");
  // "Place your Resources, then Done" while Done is not legal yet (rulebook "Placing
  // Ingredients": "You must place all of your Ingredients if possible"): Done is shown, disabled,
  // with the reason, so the player never hunts for it (table review C2).
  const brewable = RES_ORDER.filter((r) => (lab.pool || {})[r] && legal.some((a) => a.type === "brew" && a.res === r));
  const still = brewable.map((r) => resName(ctx, r)).join(", ");
  const left = brewable.reduce((n, r) => n + ((lab.pool || {})[r] || 0), 0);
  const waitDone = !done && brewable.length ? el("div", {class: "doe-done-row doe-done-wait"},
    el("span", {class: "doe-done-why", id: "doe-done-why"},
      // the same words while the list changes (the list in them grew a line as a Spider became
      // placeable, and the Brewer moved down under the pointer: new-user trial 7); the pool
      // shows which are left, outlined
      el("span", {class: "long"}, "Done brewing opens once your Resources are placed: you must place every Resource you can (the outlined ones in your pool)."),
      // a phone shows the short reason on one line (its Done waits at the bottom of the window;
      // the list of names took three lines, new-user trial 7): how many, the names on a
      // long-press or hover and for screen readers
      // (not "First place: …", which read as a ranking: table review, Drops phone)
      attachCard(el("span", {class: "short", tabindex: "0", "aria-label": `Still to place: ${still}.`},
        `Still to place: ${left}`),
      () => el("div", {class: "doe-full"}, el("b", {}, `Still to place: ${plural(left, "Resource")}`), el("p", {}, `${still}.`)))),
    el("button", {type: "button", class: "doe-btn done", disabled: "", "aria-describedby": "doe-done-why"},
      el("span", {class: "doe-done-mark", "aria-hidden": "true"}, "✔"), "Done brewing")) : null;
  if (!done && !uses.length && !alts.length && !waitDone) return null;
  const box = el("section", {class: "doe-panel doe-controls", role: "group", "aria-label": "Brewing choices",
                             dataset: {hold: "controls"}});
  // "Done brewing" (or why it waits, or its question) in a box of its own: on a phone it is a
  // bar at the bottom of the window while you brew (drops.css), so the prompt's "then Done"
  // never sends the player hunting (table review item 6)
  // (data-fixed-bottom: the table keeps what it scrolls into view clear of it)
  const doneBox = el("div", {class: "doe-done-box", dataset: {fixedBottom: ""}});
  const as = lab.assistant;
  const tile = as ? (ctx.game.assistants || []).find((t) => t.id === as.id) : null;
  if (uses.length || alts.length) {
    const asst = el("div", {class: "doe-use", dataset: {hold: "use"}},
      el("div", {class: "doe-use-head"}, assistantIcon(26), el("b", {}, tile ? tile.name : "Your Assistant"),
        tile ? el("span", {class: "doe-phase"}, tile.phase) : null),
      tile ? el("div", {class: "doe-use-text"}, tile.text) : null);
    const row = el("div", {class: "doe-use-row"});
    // "Activate Scribe: Worm", "Activate Scribe: Owl Claw" …: the head names the Assistant, the
    // buttons say only what differs, several to a row (six full labels, one per row, pushed the
    // Brewer off a 768 px window); each keeps its full label for screen readers (clickable)
    const prefix = tile ? `Activate ${tile.name}: ` : null;
    let trimmed = false;
    for (const a of uses) {
      const full = ctx.table.label(a);
      const short = prefix && uses.length > 1 && full.startsWith(prefix) ? full.slice(prefix.length) : full;
      trimmed = trimmed || short !== full;
      const b = el("button", {type: "button", class: "doe-btn use"}, short);
      clickable(ctx, b, a);
      row.append(b);
    }
    if (trimmed) asst.append(el("div", {class: "doe-alt-lbl"}, `Activate ${tile.name} for:`));
    if (row.childNodes.length) asst.append(row);
    if (alts.length) {
      const alt = el("div", {class: "doe-alt"}, el("span", {class: "doe-alt-lbl"}, uses.length ? "or, instead of the ability, gain:" : "Instead of the ability, gain:"));
      for (const a of alts) {
        const b = el("button", {type: "button", class: "doe-btn alt"}, resIcon(a.gain, 24), `1 ${resName(ctx, a.gain)}`);
        clickable(ctx, b, a);
        alt.append(b);
      }
      asst.append(alt);
    }
    box.append(asst);
  } else if (as && as.used && tile && tile.phase === "brewing") {
    // used: its box stays, saying so (its room is held, data-hold "controls", so that nothing
    // moves under the pointer; it stood blank, a desktop's tallest empty box)
    box.append(el("div", {class: "doe-use used", dataset: {hold: "use"}},
      el("div", {class: "doe-use-head"}, assistantIcon(26), el("b", {}, tile.name), el("span", {class: "doe-phase"}, tile.phase)),
      el("div", {class: "doe-use-text"}, tile.text), el("div", {class: "doe-alt-lbl"}, "✔ Used this Brewing")));
  }
  if (waitDone) doneBox.append(waitDone);
  if (done) {
    const unused = [];
    // (only what is usable now: an Assistant whose ability acts at Income, the Miser, is not
    // "unused" in the Brewing; new-user trial 7)
    if (uses.length || (alts.length && (!tile || tile.phase === "brewing"))) unused.push(`your Assistant${tile ? ` (${tile.name})` : ""}`);
    const bonus = legal.filter((a) => a.type === "bonus").length;
    if (bonus) unused.push(`${plural(bonus, "Bonus token")} to take`);
    if (legal.some((a) => a.type === "spend_worms")) unused.push("an Extra Resource (Worm token)");
    if (legal.some((a) => a.type === "cheese")) unused.push("Cheese to capture a Rat");
    if (brewable.length) unused.push(`Resources you can still place (${brewable.map((r) => resName(ctx, r)).join(", ")})`);
    const end = el("button", {type: "button", class: "doe-btn done"}, el("span", {class: "doe-done-mark", "aria-hidden": "true"}, "✔"), "Done brewing");
    if (unused.length && asking === null) {
      // a local first step (data-pick, renderer contract): the question's own button sends it
      end.dataset.pick = "ask-done";
      end.setAttribute("aria-label", "Done brewing (asks first: something is still unused)");
      end.addEventListener("click", (e) => { e.preventDefault(); asking = JSON.stringify(ctx.legal); ctx.redraw(); });
      ctx.table.claim(done);
      doneBox.append(el("div", {class: "doe-done-row"}, end));
    } else if (unused.length) {
      const yes = el("button", {type: "button", class: "doe-btn done", dataset: {confirm: "done"}}, "End Brewing anyway");
      clickable(ctx, yes, done);
      // its name is what it says (clickable names it by the action's label, "Done brewing",
      // which the question's other button could be taken for)
      yes.setAttribute("aria-label", "End Brewing anyway");
      yes.removeAttribute("title");
      const no = el("button", {type: "button", class: "doe-btn keep"}, "Keep brewing");
      no.addEventListener("click", (e) => { e.preventDefault(); asking = null; ctx.redraw(); });
      // (over the Done row, which keeps its room: the question pushed the Distiller and the
      // Brewer down as it opened, new-user trial 7)
      doneBox.append(el("div", {class: "doe-done-row doe-done-held", "aria-hidden": "true"},
        el("span", {class: "doe-btn done"}, el("span", {class: "doe-done-mark"}, "✔"), "Done brewing")),
      el("div", {class: "doe-ask", role: "alertdialog", "aria-label": "End Brewing?"},
        el("div", {}, el("b", {}, "End Brewing now? "), `You still have ${unused.join("; ")}.`),
        el("div", {class: "doe-done-row"}, no, yes)));
    } else {
      clickable(ctx, end, done);
      doneBox.append(el("div", {class: "doe-done-row"}, end));
    }
  }
  if (doneBox.childNodes.length) box.append(doneBox);
  return box;
}

/** The viewer's legal Alchilab actions, indexed for drawing. */
function index(ctx, mine) {
  const brew = new Map();      // res -> Map(cell -> action)
  const takeBack = new Map();  // cell -> action
  const rebrew = new Map();    // cell -> action
  const bonus = new Map();     // slot -> action
  const place = new Map();     // pawn -> count of legal spaces
  if (!mine) return {brew, takeBack, rebrew, bonus, place};
  for (const a of ctx.legal) {
    if (a.type === "brew") {
      if (!brew.has(a.res)) brew.set(a.res, new Map());
      brew.get(a.res).set(a.cell, a);
    } else if (a.type === "take_back") takeBack.set(a.cell, a);
    else if (a.type === "rebrew") rebrew.set(a.cell, a);
    else if (a.type === "bonus") bonus.set(a.slot, a);
    else if (a.type === "place") place.set(a.pawn, (place.get(a.pawn) || 0) + 1);
  }
  return {brew, takeBack, rebrew, bonus, place};
}

/** The resource whose targets are shown: the picked one, or the only one there is. */
export function effectivePick(ctx, brew) {
  if (ctx.picked && ctx.picked.startsWith("res-") && brew.has(ctx.picked.slice(4))) return ctx.picked.slice(4);
  if (brew.size === 1) return [...brew.keys()][0];
  return null;
}

function tokenNode(ctx, slot, taken, action) {
  const t = (ctx.game.bonus_layout || {})[slot];
  let node;
  if (!t) {
    node = iconCard(el("span", {class: "doe-token none"}, "–"), "No Bonus token", "this space holds no token (one of each kind is discarded at setup).");
  } else if (t.kind === "scroll") {
    node = el("span", {class: "doe-token scroll"}, scrollIcon(t.res, null, 30));
  } else {
    const m = /^(worm|cheese)(\d)$/.exec(t.token || "");
    const res = m ? m[1] : t.token;
    node = el("span", {class: "doe-token extra"}, extraIcon(res, m ? Number(m[2]) : 1, 28));
  }
  node.dataset.slot = slot;
  if (taken) {
    node.classList.add("taken");
    node.replaceChildren("✓");
  }
  if (t) {
    node.setAttribute("aria-label", `${t.label}${taken ? " (taken)" : ""}`);
    attachCard(node, () => tokenCard(t));
  }
  if (action) clickable(ctx, node, action);
  return node;
}

function flames(n, lit) {
  const box = el("span", {class: "doe-flames", role: "img"});
  for (let i = 0; i < n; i++) box.append(flameIcon(i < lit, 21));
  // the rulebook's words on hover or long-press (issue 14, item 4)
  return iconCard(box, `${n} Income icon${n > 1 ? "s" : ""}, ${lit} revealed`,
    "The flames show how many Income icons its Bonus tokens reveal when you take them. In the Income Phase you gain points for your revealed Income icons.");
}

/** A click on a Brewer's pipe (drawn over the wall between two cells) is one on the cell under
 *  the pointer. */
function clickBelow(e) {
  const cell = document.elementsFromPoint(e.clientX, e.clientY).find((n) => n.classList.contains("doe-cell"));
  if (cell) cell.click();
}

function vialContent(lab, vial) {
  const kinds = vial.cells.map((c) => lab.brewer[c] && lab.brewer[c].res).filter(Boolean);
  const main = kinds.find((k) => k !== "spider") || (kinds.length ? "spider" : null);
  return {filled: kinds.length, main, full: kinds.length === vial.cells.length};
}

function drawBrewer(ctx, lab, idx, pick, mine) {
  const geo = ctx.game.geometry.brewer;
  const cellAt = new Map(geo.cells.map((c) => [`${c.col},${c.row}`, c]));
  const vialIndex = new Map(geo.vials.map((v, i) => [v.id, i]));
  const vialById = new Map(geo.vials.map((v) => [v.id, v]));
  const pending = lab.pending || null;
  const wrap = el("div", {class: "doe-brewer-wrap"});
  const grid = el("div", {class: "doe-brewer", style: {"--cols": geo.cols, "--rows": geo.rows},
                          role: "group", "aria-label": "Brewer"});
  const brewTargets = pick ? idx.brew.get(pick) || new Map() : new Map();
  // Label each Vial once, on its top-left cell.
  const labelCell = new Map();
  for (const v of geo.vials) {
    const cs = v.cells.map((id) => geo.cells.find((c) => c.id === id));
    cs.sort((a, b) => a.row - b.row || a.col - b.col);
    labelCell.set(cs[0].id, v);
  }
  for (const c of geo.cells) {
    const same = (dc, dr) => {
      const n = cellAt.get(`${c.col + dc},${c.row + dr}`);
      return n && n.vial === c.vial;
    };
    const node = el("div", {class: `doe-cell tint-${vialIndex.get(c.vial) % 6}${c.l_shape ? " lshape" : ""}`,
                            dataset: {cell: c.id},
                            style: {"grid-column": c.col, "grid-row": c.row}});
    if (!same(0, -1)) node.classList.add("bt");
    if (!same(0, 1)) node.classList.add("bb");
    if (!same(-1, 0)) node.classList.add("bl");
    if (!same(1, 0)) node.classList.add("br");
    const v = labelCell.get(c.id);
    if (v) {
      const vc = vialContent(lab, v);
      const tag = el("span", {class: "doe-vial-tag"}, v.id);
      if (vc.full && vc.main) {
        const pts = (lab.toxicity || {})[vc.main];
        tag.append(el("b", {class: "doe-vial-pts", title: `Complete: ${plural(pts, "point")} now`}, `✓${pts}`));
        node.classList.add("vial-full", "has-pts");
      }
      node.append(tag);
    }
    const content = lab.brewer[c.id];
    if (content) {
      node.append(resChip(ctx, content.res, {size: "md", extra: content.fresh ? "fresh" : "fixed"}));
      node.classList.add(content.fresh ? "has-fresh" : "has-fixed");
      if (v) node.classList.add("tag-and-res");
    }
    if (pending && pending.kind === "rebrew" && pending.from === c.id) node.classList.add("rebrew-from");
    if (mine) {
      if (idx.rebrew.has(c.id)) clickable(ctx, node, idx.rebrew.get(c.id));
      else if (brewTargets.has(c.id)) clickable(ctx, node, brewTargets.get(c.id));
      else if (idx.takeBack.has(c.id)) {
        clickable(ctx, node, idx.takeBack.get(c.id), "takeback");
        node.append(undoMark());
      }
    }
    mark(ctx, node, `lab${lab.seat}:${c.id}`, content || null);
    grid.append(node);
  }
  // Printed pipes between two Vials (Corrupted Bonds).
  for (const [a, b] of geo.connections || []) {
    const ca = geo.cells.find((c) => c.id === a), cb = geo.cells.find((c) => c.id === b);
    if (!ca || !cb) continue;
    const horiz = ca.row === cb.row;
    const x = horiz ? Math.max(ca.col, cb.col) - 1 : ca.col - 0.5;
    const y = horiz ? ca.row - 0.5 : Math.max(ca.row, cb.row) - 1;
    // (a picture with its name and card, review item 4; a click on it is the cell's below)
    grid.append(iconCard(el("span", {class: `doe-pipe ${horiz ? "h" : "v"}`, role: "img",
                                     style: {"--x": x, "--y": y}, onclick: clickBelow}),
    `Connection between Vial ${ca.vial} and Vial ${cb.vial}`,
    "Two Vials joined by a pipe. Corrupted Bonds: 2 Poison Points for each 2 Ingredients of the required type on opposite sides of a connection between two different Vials."));
  }
  // the Brewer's small marks in words where the panel has room (review item 4; drops.css hides
  // them on phones, where each mark's name and card still say it)
  const words = el("span", {class: "doe-marks", "aria-hidden": "true"},
    el("span", {}, flameIcon(false, 14), flameIcon(true, 14), " Income icons (lit: revealed)"),
    el("span", {}, el("span", {class: "doe-pipe-key"}), " connection"),
    el("span", {}, scrollIcon("owl", null, 16), " Scroll: Toxicity +1"),
    // (a Bonus token's number: how many of its Extra Resource it gives; the review: the "2" on
    // the Cheese of column 6 said nothing)
    el("span", {class: "doe-mark-extra"}, el("span", {class: "doe-token extra"}, extraIcon("cheese", 2, 28)), " Extra Resource: 2 Cheese"),
    mine && idx.takeBack.size ? el("span", {}, el("b", {class: "doe-undo-key"}, UNDO), " take back") : null);
  wrap.append(el("div", {class: "doe-colnums", style: {"--cols": geo.cols}},
    ...geo.columns.map((col) => el("span", {}, String(col.col)))), grid);
  // Column Bonus slots with their flames.
  const bonus = el("div", {class: "doe-colbonus", style: {"--cols": geo.cols}});
  for (const col of geo.columns) {
    const taken = col.slots.filter((s) => (lab.taken || []).includes(s));
    const box = el("div", {class: "doe-colslot"}, flames(col.flames, taken.length));
    for (const s of col.slots) box.append(tokenNode(ctx, s, taken.includes(s), mine ? idx.bonus.get(s) : null));
    mark(ctx, box, `lab${lab.seat}:col${col.col}`, taken);
    bonus.append(box);
  }
  wrap.append(bonus);
  return el("section", {class: "doe-panel doe-brewer-panel", dataset: {hold: "brewer"}}, el("h4", {}, "Brewer", words), wrap);
}

function drawDistiller(ctx, lab, idx, pick, mine) {
  const geo = ctx.game.geometry.distiller;
  const d = lab.distiller || {fill: {}, top_pairs: 0, fresh: 0};
  const box = el("div", {class: "doe-distiller", role: "group", "aria-label": "Distiller"});
  // Which filled cells are fresh: the last `fresh` mushrooms, counted from the top.
  const order = [];
  for (const v of geo.vials) for (let i = 0; i < (d.fill[v.id] || 0); i++) order.push(`${v.id}:${i}`);
  const fresh = new Set(order.slice(order.length - (d.fresh || 0)));
  const brewMush = idx.brew.get("mushroom") || new Map();
  for (const v of [...geo.vials].reverse()) {
    const row = el("div", {class: "doe-dvial-row"});
    const slots = el("div", {class: "doe-dslots"});
    const taken = v.slots.filter((s) => (lab.taken || []).includes(s));
    slots.append(flames(v.slots.length, taken.length));
    for (const s of v.slots) slots.append(tokenNode(ctx, s, taken.includes(s), mine ? idx.bonus.get(s) : null));
    const vial = el("div", {class: `doe-dvial size-${v.size}`, dataset: {cell: v.id}},
      el("span", {class: "doe-dlevel"}, String(v.level)));
    const fill = d.fill[v.id] || 0;
    for (let i = 0; i < v.size; i++) {
      const cell = el("span", {class: "doe-dcell"});
      if (i < fill) cell.append(resChip(ctx, "mushroom", {size: "sm", extra: fresh.has(`${v.id}:${i}`) ? "fresh" : "fixed"}));
      vial.append(cell);
    }
    if (v.id === geo.top) {
      vial.append(iconCard(el("span", {class: "doe-pairs"}, plural(d.top_pairs || 0, "pair")),
        `${plural(d.top_pairs || 0, "pair")} of Mushrooms in the top Vial`,
        "The topmost Vial can be filled many times: for each pair of Mushroom tokens you place in it, you immediately gain any one available Bonus token from your Distiller."));
      vial.classList.add("top");
    }
    if (mine) {
      const brewA = brewMush.get(v.id);
      const tb = idx.takeBack.get(v.id);
      if (brewA && (pick === "mushroom" || !tb)) clickable(ctx, vial, brewA, pick === "mushroom" ? "" : "direct");
      else if (tb) clickable(ctx, vial, tb, "takeback");
    }
    mark(ctx, vial, `lab${lab.seat}:${v.id}`, [fill, v.id === geo.top ? d.top_pairs : 0]);
    mark(ctx, slots, `lab${lab.seat}:${v.id}:slots`, taken);
    row.append(slots, vial);
    box.append(row);
  }
  // what the top Vial's "0 pairs" counts, in words where the panel has room (new-user trial;
  // hidden on phones as the Brewer's are, where the badge's name and card say it)
  const words = el("span", {class: "doe-marks", "aria-hidden": "true"},
    el("span", {}, el("span", {class: "doe-pairs doe-key-pairs"}, "pairs"), " in the top Vial: a Bonus token each"));
  return el("section", {class: "doe-panel doe-distiller-panel", dataset: {hold: "distiller", holdAxis: "wh"}},
    el("h4", {}, el("span", {}, "Distiller ", el("span", {class: "muted"}, plural(d.mushrooms || 0, "Mushroom"))), words), box);
}

function drawToxicity(ctx, lab) {
  const geo = ctx.game.geometry.toxicity;
  const box = el("div", {class: "doe-tox", role: "table", "aria-label": "Toxicity Track"});
  for (const t of geo.types) {
    const val = (lab.toxicity || {})[t];
    const row = el("div", {class: "doe-tox-row", role: "row"}, resChip(ctx, t, {size: "xs"}));
    for (let i = geo.min; i <= geo.max; i++) {
      const on = i === val;
      row.append(el("span", {class: `doe-tox-box${on ? " on" : ""}`, role: "cell",
                             style: on ? {"--fill": RES[t].fill, "--ink": RES[t].ink} : {}}, String(i)));
    }
    row.setAttribute("aria-label", `${resName(ctx, t)} toxicity ${val}`);
    mark(ctx, row, `lab${lab.seat}:tox:${t}`, val);
    box.append(row);
  }
  return el("section", {class: "doe-panel doe-tox-panel"}, el("h4", {}, "Toxicity (points per Vial / Rat)"), box);
}

function drawRats(ctx, lab) {
  const free = el("div", {class: "doe-rats free"}, el("span", {class: "lbl"}, "Free Rats"),
    resChip(ctx, "rat", {size: "md"}), el("b", {class: "num"}, String(lab.free_rats || 0)),
    el("span", {class: "hint"}, "−1 pt each Income"));
  const cap = el("div", {class: "doe-rats captured"}, el("span", {class: "lbl"}, "Captured Rats"),
    resChip(ctx, "rat", {size: "md"}), el("b", {class: "num"}, String(lab.captured_rats || 0)),
    el("span", {class: "hint"}, `${(lab.toxicity || {}).rat ?? "?"} ${(lab.toxicity || {}).rat === 1 ? "pt" : "pts"} each at the end`));
  mark(ctx, free, `lab${lab.seat}:free`, lab.free_rats);
  mark(ctx, cap, `lab${lab.seat}:cap`, lab.captured_rats);
  return el("section", {class: "doe-panel doe-rats-panel"}, el("h4", {}, "Rats Area"), free, cap);
}

function drawPawns(ctx, lab, idx, mine) {
  const box = el("div", {class: "doe-pawns"});
  const home = lab.pawns_home || [];
  for (const p of PAWN_ORDER) {
    if (!home.includes(p)) {
      box.append(el("span", {class: "doe-pawn-slot", title: `${resName(ctx, p)}: on the Forest`}, ""));
      continue;
    }
    const chip = pawnChip(ctx, lab.seat, p);
    const wrap = el("span", {class: "doe-pawn-wrap"}, chip, el("span", {class: "doe-pawn-name"}, resName(ctx, p)));
    // (while you place, the picks are the row above the Forest: renderer.js drawTray)
    if (mine && idx.place.has(p) && !ctx.tray) {
      pickable(ctx, wrap, `pawn-${p}`, `Pick your ${resName(ctx, p)} (${idx.place.get(p)} spaces)`,
        ctx.picked === `pawn-${p}`);
    }
    box.append(wrap);
  }
  mark(ctx, box, `lab${lab.seat}:pawns`, home);
  return el("section", {class: "doe-panel doe-pawns-panel"}, el("h4", {}, "Action pawns at home"), box);
}

function drawPool(ctx, lab, idx, pick, mine) {
  const box = el("div", {class: "doe-pool"});
  let any = false;
  for (const r of RES_ORDER) {
    const n = (lab.pool || {})[r] || 0;
    if (!n || r === "rat") continue;
    any = true;
    const wrap = el("span", {class: "doe-pool-item"}, resChip(ctx, r, {size: "lg"}),
      el("b", {class: "num"}, `×${n}`), el("span", {class: "doe-pool-name"}, resName(ctx, r)));
    if (mine && idx.brew.has(r)) {
      pickable(ctx, wrap, `res-${r}`, `Pick ${resName(ctx, r)} to brew (${n} left)`, pick === r);
    }
    mark(ctx, wrap, `lab${lab.seat}:pool:${r}`, n);
    box.append(wrap);
  }
  // Cheese and a Worm token are used where they lie, a click on them (claimed): their buttons in
  // the prompt bar came and went and moved the board under the pointer (new-user trial 7)
  const legal = mine ? ctx.legal : [];
  const extras = [];
  if (lab.cheese) {
    const item = el("span", {class: "doe-pool-item extra"}, resChip(ctx, "cheese", {size: "md"}),
      el("b", {class: "num"}, `×${lab.cheese}`), el("span", {class: "doe-pool-name"}, "Cheese"));
    const use = legal.find((a) => a.type === "cheese");
    if (use) clickable(ctx, item, use);
    extras.push(item);
  }
  for (const [tok, n] of Object.entries(lab.worm_tokens || {})) {
    if (!n) continue;
    const item = el("span", {class: "doe-pool-item extra"},
      el("span", {class: "doe-token extra big"}, extraIcon("worm", Number(tok.slice(-1)), 32)), el("b", {class: "num"}, `×${n}`),
      el("span", {class: "doe-pool-name"}, `${tok.slice(-1)}-Worm token`));
    const use = legal.find((a) => a.type === "spend_worms" && a.token === tok);
    if (use) clickable(ctx, item, use);
    extras.push(item);
  }
  if (!any && !extras.length) box.append(el("span", {class: "muted"}, "Nothing to place"));
  box.append(...extras);
  const head = el("h4", {}, mine ? "Your pool" : "Pool");
  // (words of one length, picked or not: the longer ones wrapped and moved the Brewer below,
  // new-user trial 7)
  if (mine && idx.brew.size) head.append(el("span", {class: "muted"}, pick ? ` · ${clickVerb(true)} a space for it` : " · pick a Resource"));
  return el("section", {class: "doe-panel doe-pool-panel", dataset: {hold: "pool"}}, head, box);
}

/** Issue 14 item 9: a Spider that cannot be placed says why (Spider-only Vials). Beside the
 *  pool, not in it: in it, its coming and going moved a phone's Brewer below (new-user trial
 *  7); a phone shows it under the Distiller. */
function spiderWhy(ctx, lab, idx, mine) {
  const spiders = (lab.pool || {}).spider || 0;
  return mine && spiders && ctx.game.phase === "brewing" && !idx.brew.has("spider")
    ? el("div", {class: "doe-panel doe-why", role: "note"}, resIcon("spider", 22),
      `Your Spider${spiders > 1 ? "s" : ""} cannot be placed yet: a Vial may not hold only Spiders. ` +
      "Put another Ingredient in a Vial first; a Spider still unplaced at the end of Brewing is discarded.")
    : null;
}

function drawInfo(ctx, lab) {
  const bits = el("div", {class: "doe-info"});
  const scrolls = lab.scrolls || [];
  bits.append(el("div", {}, el("span", {class: "lbl"}, "Scrolls "),
    scrolls.length ? scrolls.map((s) => iconCard(el("span", {class: "doe-scroll-own"}, scrollIcon(s, null, 26)),
      `${resName(ctx, s)} Scroll`, SCROLL_WORDS))
      : el("span", {class: "muted"}, "none")));
  const inc = el("div", {}, el("span", {class: "lbl"}, "Income icons "), flameIcon(true, 16), el("b", {}, String(lab.income_icons || 0)),
    el("span", {class: "muted"}, ` (−${lab.free_rats || 0} Free Rats)`));
  mark(ctx, inc, `lab${lab.seat}:income`, lab.income_icons);
  bits.append(inc);
  const as = lab.assistant;
  if (as) {
    const tile = (ctx.game.assistants || []).find((t) => t.id === as.id);
    bits.append(el("div", {class: `doe-hired${as.used ? " used" : ""}`}, el("span", {class: "lbl"}, "Assistant "),
      el("b", {}, tile ? tile.name : as.id), tile ? el("span", {class: `doe-phase ${tile.phase}`}, tile.phase) : null,
      el("span", {class: as.used ? "muted" : "ready"}, as.used ? " used" : " ready")));
  } else {
    bits.append(el("div", {}, el("span", {class: "lbl"}, "Assistant "), el("span", {class: "muted"}, "none hired")));
  }
  return el("section", {class: "doe-panel doe-info-panel"}, el("h4", {}, "Scrolls, Income, Assistant"), bits);
}

/** A Brewer space by its Vial's letter, as the log names it (no coordinates or cell ids in
 *  visible text: the table issue, item 3). */
function cellName(ctx, id) {
  const c = ctx.game.geometry.brewer.cells.find((x) => x.id === id);
  return c ? `Vial ${c.vial}` : "its space";
}

function pendingNote(ctx, lab, mine) {
  const p = lab.pending;
  if (!p) return null;
  const who = mine ? "You" : ctx.table.seatName(lab.seat);
  if (p.kind === "seer") {
    return el("div", {class: "doe-pending"}, `Seer: ${who} drew `, ...(p.drawn || []).map((r) => resChip(ctx, r, {size: "xs"})),
      ` — put ${resName(ctx, (p.drawn || [])[0])} on a Gathering space`);
  }
  if (p.kind === "rebrew") {
    return el("div", {class: "doe-pending"}, "Re-Brewer: moving ", resChip(ctx, p.res, {size: "xs"}),
      ` from ${cellName(ctx, p.from)} — choose a highlighted space`);
  }
  if (p.kind === "distiller_bonus") return el("div", {class: "doe-pending"}, "Choose a Distiller Bonus token (highlighted)");
  if (p.kind === "after_placement") return el("div", {class: "doe-pending"}, "May still activate the Assistant, then end the turn");
  return null;
}

export function drawAlchilab(ctx, seat) {
  const lab = ctx.game.alchilabs[seat];
  const mine = ctx.you !== null && ctx.you === seat;
  const idx = index(ctx, mine);
  const pick = mine ? effectivePick(ctx, idx.brew) : null;
  // at the end the score track is not the score: show the final total beside it
  const total = finalTotal(ctx, seat);
  const head = el("header", {class: "doe-lab-head"}, seatTag(ctx, seat),
    total !== null
      ? el("span", {class: "doe-lab-score"}, "Final total ", el("b", {}, String(total)),
        el("span", {class: "muted"}, ` (score track ${lab.score ?? 0})`))
      : el("span", {class: "doe-lab-score"}, "Score track ", el("b", {}, String(lab.score ?? 0))));
  if (ctx.game.phase === "brewing") head.append(el("span", {class: `doe-flag${lab.done ? " done" : ""}`}, lab.done ? "done brewing" : "brewing"));
  // a pending choice's note lies over the head, not above the pool (new-user trial 7: "Choose
  // a Distiller Bonus token" pushed the board 147 px down as it came)
  const note = pendingNote(ctx, lab, mine);
  if (note) head.append(note);
  const top = el("div", {class: "doe-lab-top"}, drawRats(ctx, lab), drawToxicity(ctx, lab), drawInfo(ctx, lab));
  const pawns = drawPawns(ctx, lab, idx, mine);
  const pool = drawPool(ctx, lab, idx, pick, mine);
  const dist = drawDistiller(ctx, lab, idx, pick, mine);
  const brewer = drawBrewer(ctx, lab, idx, pick, mine);
  const controls = drawControls(ctx, lab, mine);
  // Brewing (issue 14 item 6): the pool, the choices, the Distiller and the Brewer come first
  // (on a phone: the pool, the Brewer, the Distiller, then the choices).
  const brewing = ctx.game.phase === "brewing";
  const body = brewing
    ? [el("div", {class: "doe-brew"}, el("div", {class: "doe-lab-main", dataset: {hold: "brew-top"}}, pool, controls,
      spiderWhy(ctx, lab, idx, mine)),
      // (the Brewer first: the Distiller widening with its tokens moved it sideways, new-user
      // trial 7)
      el("div", {class: "doe-lab-main"}, brewer, dist)), top,
      el("div", {class: "doe-lab-main"}, pawns)]
    : [top, el("div", {class: "doe-lab-main"}, pawns, pool), el("div", {class: "doe-lab-main"}, dist, brewer)];
  const lab$ = el("div", {class: `doe-lab${mine ? " mine" : ""}`, style: {"--seat": ctx.table.seatColor(seat)},
                          dataset: mine ? {seat: String(seat), hold: "lab"} : {seat: String(seat)}, role: "region",
                          "aria-label": `Alchilab of ${ctx.table.seatName(seat)}`},
    head, ...body);
  return lab$;
}
