// Drops of Evil table renderer (notes/renderer-contract.md; view shape: engines/drops_of_evil/VIEW.md).
// Draws the Forest board (SVG), Assistants, Recipes, tracks, bag and one Alchilab at a time
// (tabs per seat). Clickable legal targets carry data-action; two-step choices (a pawn, a
// Resource in the pool) are local picks carrying data-pick. Styles: drops.css (injected).
import {RES, RES_ORDER, PAWN_ORDER, el, resChip, pawnChip, resName, seatTag, nameSpan, finalTotal, clickable, pickable,
        mark, familiarMove, hiredName} from "./util.js";
import {actionNodes, actionOf, attachCard, closeOnPressOutside} from "../../js/dom.js";
import {clickVerb, mendCounts} from "../../js/words.js";
import {keyPanel, titlesToCards} from "../../js/legend.js";
import {assistantIcon, recipeIcon, resIcon, pawnIcon, scrollIcon, extraIcon, flameIcon, pointsIcon} from "./icons.js";
import {drawForest, spaceActions, takeFrom} from "./forest.js";
import {drawAlchilab} from "./alchilab.js";
import {note, seatBoardBox, stat as sbStat, tag} from "../../js/seat-board.js";
import {seatShapeMark} from "../../js/table/seat-style.js";

export const title = "Drops of Evil";
/** What the phone's line of scores calls the score, and its picture (a drop of poison without
 *  a number; docs/renderer-contract.md). */
export const scoreWord = "Poison Points";
export const scoreIcon = () => pointsIcon("", 18);

const PHASES = ["placement", "gathering", "brewing", "income"];

let root = null;
let table = null;
let lastView = null;
let picked = null;        // "pawn-crow" | "res-owl" | null (local UI state)
let notice = null;        // why a click did nothing (a space taken), shown in the row of pawns
let noticeAt = null;      // ... and the space clicked
let shownSeat = null;     // whose Alchilab is shown
let choosing = null;      // a Forest space offering several actions whose choice is open
let lastPhaseKey = null;
let lastYou = undefined;
let lastLead = null;      // the seat whose Alchilab led the last view (brewingSeat)
let sigs = new Map();
let prevSigs = new Map();
let labKeys = new Map();  // seat -> its Alchilab's data at the last fresh view (render)

export function mount(rootEl, tableObj) {
  root = rootEl;
  table = tableObj;
  const href = new URL("./drops.css", import.meta.url).href;
  if (![...document.querySelectorAll("link[rel=stylesheet]")].some((l) => l.href === href)) {
    document.head.append(el("link", {rel: "stylesheet", href}));
  }
  root.classList.add("doe-root");
  root.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && (picked || choosing)) {
      if (choosing) choosing = null;
      else picked = null;
      e.preventDefault();
      render(false);
    }
  });
  // a press outside an open choice (and outside its space) closes it
  closeOnPressOutside(() => !!(choosing && root),
    (t) => !!(t && (t.closest(".doe-choice") || t.closest("[data-choose]"))),
    () => { choosing = null; render(false); });
}

export function update(view) {
  lastView = view;
  // a move taken back ("Morgana took back a move."): what it changed is not framed as changed,
  // the frame read as the move still being there (new-user trial 7)
  const log = Array.isArray(view.log) ? view.log : [];
  const last = log.length ? log[log.length - 1] : null;
  prevSigs = last && typeof last.text === "string" && / took back a move\.$/.test(last.text) ? new Map() : sigs;
  sigs = new Map();
  const g = view.game || {};
  const phaseKey = `${g.round}:${g.phase}`;
  if (phaseKey !== lastPhaseKey || view.you !== lastYou) {
    lastPhaseKey = phaseKey;
    lastYou = view.you;
    if (view.you !== null && view.you !== undefined) shownSeat = view.you;
  }
  // the Alchilab of the seat that brews is the one shown (brewingSeat), once as it starts to
  // lead: a tab the player opened then stays open
  const lead = brewingSeat(view);
  if (lead !== null && lead !== lastLead) shownSeat = lead;
  lastLead = lead;
  render(true);
}

/** The seat whose Alchilab leads the board (drawn above the Forest, its tab shown), or null
 *  when the Forest leads: one rule for the live table and the replay (issue 14, item 6; review
 *  7, problem 6: the replay named "Morgana brews Bat Wing into Vial F" over the Forest). In the
 *  Brewing Phase the Alchilab is where a seat acts: at the table, the viewer's while they have a
 *  Brewing choice to make; in a replay (its log lines carry the step that wrote them, its
 *  `version` is the step shown), the seat whose move is shown when that move was made in its
 *  Alchilab (its lines name no Forest space), the seat named at the start of its line. */
function brewingSeat(view) {
  const g = (view && view.game) || {};
  if (g.phase !== "brewing") return null;
  const log = Array.isArray(view.log) ? view.log : [];
  const replay = log.some((e) => e && Number.isInteger(e.step));
  if (!replay) {
    const you = view.you === undefined ? null : view.you;
    return you !== null && (view.legal_actions || []).some((a) => a.type !== "place") ? you : null;
  }
  const lines = log.filter((e) => e && e.step === view.version && typeof e.text === "string");
  if (!lines.length || lines.some((e) => namesForest(e.text))) return null;
  return seatAtStart(lines[0].text, view);
}

/** Whether a stored log line names a Forest space (SPACE_WORDS). */
function namesForest(text) {
  return SPACE_WORDS.some(([re]) => new RegExp(re.source).test(text));
}

/** The seat whose name a log line starts with ("Easy bot 2 brews …"), the longest name first;
 *  null when none does. */
function seatAtStart(text, view) {
  const seats = (Array.isArray(view.seats) ? view.seats : []).map((s, i) => [i, String((s && s.name) || "")])
    .filter(([, name]) => name).sort((a, b) => b[1].length - a[1].length);
  const hit = seats.find(([, name]) => text.startsWith(`${name} `));
  return hit ? hit[0] : null;
}

/** A Scroll named by its Resource's key, as stored lines have it ("rat Scroll"); not "a Scroll". */
const SCROLL_KEY = new RegExp(`\\b(${RES_ORDER.join("|")}) Scroll\\b`, "g");

/** A Brewer cell as stored lines and labels name it, "Vial H (column 8, row 2)": the log and
 *  the labels say only "Vial H", the letter printed on the Brewer (its row is not: new-user
 *  trial, "Vial J (column 9, row 3)" in a button's accessible name). */
const VIAL_PLACE = /\b(Vial [A-Z]) \(column \d+, row \d+\)/g;

/** The log's words for a stored line (docs/renderer-contract.md `logText`; issue 14 "Names,
 *  not codes"): places as the board shows them, never by coordinates — a Gathering space is
 *  "a Clearing space" or "an Underbrush space" (as drawn), an arrow space its kind ("a
 *  four-arrow space"), a Brewer cell its Vial's letter ("Vial H"); hovering the line shows
 *  which (logPlaces, which reads the stored words). Counts read as English ("1 Worm",
 *  "2 Worms", words.js). */
export function logText(text, view) {
  const geo = ((view && view.game) || {}).geometry || {};
  const gathering = (geo.forest || {}).gathering || [];
  let out = String(text)
    .replace(/\b(?:a |the )?Gathering space \(column (\d+), row (\d+)\)/g, (all, c, r) => {
      const g = gathering.find((x) => x.id === `g-${c}-${r}`);
      return g ? (g.clearing ? "a Clearing space" : "an Underbrush space") : "a Gathering space";
    })
    .replace(/\bfour-arrow space between columns \d+-\d+, rows \d+-\d+/g, "a four-arrow space")
    .replace(/\bdouble-arrow space \d+\b/g, "a double-arrow space")
    .replace(/\bdown-arrow space of column \d+/g, "a down-arrow space")
    .replace(VIAL_PLACE, "$1")
    // a Scroll by its Resource's name, as the board labels it ("Rat Scroll", "Scorpion Tail
    // Scroll"): the stored line has the Resource's key ("rat Scroll": new-user trial)
    .replace(SCROLL_KEY, (all, key) =>
      `${(geo.names || {})[key] || key.charAt(0).toUpperCase() + key.slice(1)} Scroll`)
    .replace(INCOME_LINE, incomeWords);
  return mendCounts(out, countNouns(geo));
}

/** The engine's Income line, "Player 1 Income: +3 icons, -1 Free Rats (4 -> 6)" (its stored
 *  text stays: a rules-version matter), in the rulebook's words: "… Income: 3 Income icons, 1
 *  Free Rat: 4 → 6 Poison Points" ("Income Phase: you gain 1 Poison Point for each Income icon
 *  ... you lose 1 Poison Point for each Rat you have in your Free Rats space"); no rats, no
 *  "-0 Free Rats". */
const INCOME_LINE = /Income: \+(\d+) icons?, -(\d+) Free Rats? \((\d+) -> (\d+)\)/;

function incomeWords(all, icons, rats, before, after) {
  const n = (k, one, many) => `${k} ${Number(k) === 1 ? one : many}`;
  return `Income: ${n(icons, "Income icon", "Income icons")}` +
    (Number(rats) ? `, ${n(rats, "Free Rat", "Free Rats")}` : "") +
    `: ${before} \u2192 ${n(after, "Poison Point", "Poison Points")}`;
}

/** The nouns Drops of Evil's lines count: the Resources by their names, Income icons, Rats. */
function countNouns(geo) {
  const names = geo.names || {};
  return [...Object.entries(names).filter(([k]) => k !== "cheese" && k !== "coin").map(([, n]) => [n, `${n}s`]),
    ["Cheese", "Cheese"], ["icon", "icons"], ["Free Rat", "Free Rats"], ["pair", "pairs"], ["point", "points"]];
}

/** The words of an action's label (docs/renderer-contract.md `labelText`): the prompt bar's
 *  buttons, the board's tooltips and "Suggest a move" name a Forest space by what is there, as
 *  the board shows it, never by a column and a row the board does not print (a new user's
 *  trial: "four-arrow space between columns 5-6, rows 4-5" said nothing): "Clearing space with
 *  Owl Claw ×2", "four-arrow space by Bat Wing, Worm ×3" (what its arrows point to); two
 *  spaces that would read alike add which of them from the top left. Counts read as English. */
export function labelText(text, view) {
  const words = forestWords(view);
  const out = String(text)
    .replace(/\bGathering space \(column (\d+), row (\d+)\)/g, (all, c, r) => words.get(`g-${c}-${r}`) || all)
    .replace(/\bfour-arrow space between columns (\d+)-\d+, rows (\d+)-\d+/g, (all, c, r) => words.get(`t-${c}-${r}`) || all)
    .replace(/\bdouble-arrow space (\d+)\b/g, (all, n) => words.get(`k-${n}`) || all)
    .replace(/\bdown-arrow space of column (\d+)/g, (all, c) => words.get(`s-${c}`) || all)
    .replace(VIAL_PLACE, "$1");
  return mendCounts(out, countNouns(((view && view.game) || {}).geometry || {}));
}

/** The words of the suggestion for an action's label (docs/renderer-contract.md `hintText`):
 *  the label's, but the board highlights the suggested space, so two alike need not be told
 *  apart in words ("Place Toad on four-arrow space by Owl Claw ×2, Salamander Eye, Spider",
 *  without "(the 2nd of 2 alike, from the top left)": review 8, problem 4). */
export function hintText(text, view) {
  return labelText(text, view).replace(/ \(the \w+ of \d+ alike, from the top left\)/g, "");
}

/** Each Forest space's name by what is there (labelText): id -> words. */
function forestWords(view) {
  const g = (view && view.game) || {};
  const forest = (g.geometry || {}).forest || {};
  const res = (g.forest || {}).resources || {};
  const names = (g.geometry || {}).names || {};
  const list = (ids) => {
    const held = new Map();
    for (const id of ids) for (const [k, n] of Object.entries(res[id] || {})) if (n > 0) held.set(k, (held.get(k) || 0) + n);
    return RES_ORDER.filter((k) => held.has(k)).map((k) => `${names[k] || k}${held.get(k) > 1 ? ` ×${held.get(k)}` : ""}`).join(", ");
  };
  const all = [];
  for (const sp of forest.gathering || []) {
    const kind = sp.clearing ? "Clearing space" : "Underbrush space";
    const here = list([sp.id]);
    all.push({id: sp.id, x: sp.x, y: sp.y, words: here ? `${kind} with ${here}` : `empty ${kind}`});
  }
  const KIND = {cat: "double-arrow space by", toad: "four-arrow space by", snake: "down-arrow space over"};
  for (const sp of forest.action_spaces || []) {
    const here = list(sp.targets || []);
    all.push({id: sp.id, x: sp.x, y: sp.y, words: `${KIND[sp.pawn] || "space by"} ${here || "empty spaces"}`});
  }
  const byWords = new Map();
  for (const w of all) byWords.set(w.words, [...(byWords.get(w.words) || []), w]);
  const out = new Map();
  for (const [words, same] of byWords) {
    if (same.length === 1) {
      out.set(same[0].id, words);
      continue;
    }
    same.sort((a, b) => a.y - b.y || a.x - b.x);
    same.forEach((w, i) => out.set(w.id, `${words} (the ${ORDINAL[i] || `${i + 1}th`} of ${same.length} alike, from the top left)`));
  }
  return out;
}

const SPACE_WORDS = [
  [/Gathering space \(column (\d+), row (\d+)\)/g, (m) => `g-${m[1]}-${m[2]}`],
  [/four-arrow space between columns (\d+)-\d+, rows (\d+)-\d+/g, (m) => `t-${m[1]}-${m[2]}`],
  [/double-arrow space (\d+)\b/g, (m) => `k-${m[1]}`],
  [/down-arrow space of column (\d+)/g, (m) => `s-${m[1]}`],
];

/** The Forest spaces a log line names ("places Toad on four-arrow space between …"), for the
 *  table's log hover (docs/renderer-contract.md). */
export function logPlaces(text, view) {
  if (!root) return [];
  const out = [];
  for (const [re, id] of SPACE_WORDS) {
    for (const m of text.matchAll(re)) out.push(...root.querySelectorAll(`[data-space="${id(m)}"]`));
  }
  // a Brewer's or Distiller's Vial, in the Alchilab of the seat the line names (when shown)
  const seat = view ? seatAtStart(text, view) : null;
  const lab = seat === null ? null : root.querySelector(`.doe-lab[data-seat="${seat}"]`);
  if (lab) {
    const brewer = ((view.game || {}).geometry || {}).brewer || {};
    for (const m of text.matchAll(LOG_VIAL)) {
      const cells = m[1] ? [`d-${m[1]}`]
        : m[3] ? [`b-${m[3]}-${m[4]}`]
          : ((brewer.vials || []).find((v) => v.id === m[2]) || {}).cells || [];
      for (const c of cells) out.push(...lab.querySelectorAll(`[data-cell="${CSS.escape(c)}"]`));
    }
  }
  return out;
}

/** A Vial in a stored line: "Distiller Vial 3", or a Brewer's "Vial F", with its cell's column
 *  and row when given ("Vial F (3,2)", "Vial F (column 3, row 2)"). */
const LOG_VIAL = /\bDistiller Vial (\d+)|\bVial ([A-Z])\b(?: \((?:column )?(\d+), ?(?:row )?(\d+)\))?/g;

/** The places the suggested `action` touches, for the table's "Suggest a move"
 *  (docs/renderer-contract.md): where to click it, and its first step: the pawn to pick for
 *  a Forest or Assistant space (then the space), the Resource to pick in the pool for a cell
 *  of your Brewer or Distiller (then the cell), "Done brewing" when it asks first. */
export function hintPlaces(view, action) {
  if (!root || !action) return [];
  const out = actionNodes(root, action);
  const q = (sel) => out.push(...root.querySelectorAll(sel));
  if (action.type === "place" || familiarMove(action)) {
    // (a pick is lit until it is picked: a click on the picked one puts it back)
    q(`[data-pick="pawn-${CSS.escape(String(action.pawn))}"]:not(.picked)`);
    q(`[data-space="${CSS.escape(String(action.space))}"]`);
  } else if (takeFrom(action)) {
    q(`.doe-forest [data-space="${CSS.escape(String(action.target))}"]`);
  } else if (action.type === "brew") {
    q(`.doe-lab.mine [data-pick="res-${CSS.escape(String(action.res))}"]:not(.picked)`);
    q(`.doe-lab.mine [data-cell="${CSS.escape(String(action.cell))}"]`);
  } else if (action.type === "done") {
    q(`.doe-lab.mine [data-pick="ask-done"]`);
  }
  return [...new Set(out)];
}

const ORDINAL = ["1st", "2nd", "3rd", "4th"];

/** A seat's player board for its seat panel (docs/renderer-contract.md): the Resources still to
 *  place this round, Cheese, captured Rats, Scrolls and Income icons as pictures with counts,
 *  the pawns still at home, its place in the turn order and its Assistant by name. */
export function seatBoard(seat, view) {
  const g = view.game;
  const lab = g && (g.alchilabs || [])[seat];
  if (!lab) return null;
  const names = (g.geometry && g.geometry.names) || {};
  const name = (key) => names[key] || key;
  const k = (what) => `doe-${seat}-${what}`;
  const pool = lab.pool || {};
  const stats = RES_ORDER.filter((r) => r !== "rat" && pool[r] > 0)
    .map((r) => sbStat(resIcon(r, 22), pool[r], `${name(r)} to place this round`, k(r), name(r)));
  if (lab.cheese) stats.push(sbStat(resIcon("cheese", 22), lab.cheese, "Cheese (captures a Rat)", k("cheese"), "Cheese"));
  // the Free Rats (each costs a Poison Point at Income) and the Captured ones, each by its own
  // name: a lone "0 Rats" (the captured) read against the Alchilab's "Free Rats 1" (new-user
  // trial 7)
  stats.push(sbStat(resIcon("rat", 22), lab.free_rats || 0, "Free Rats (−1 Poison Point each at Income)", k("free-rats"), "Free Rats"));
  stats.push(sbStat(resIcon("rat", 22), lab.captured_rats || 0, "Captured Rats", k("rats"), "Captured"));
  stats.push(sbStat(scrollIcon("owl", null, 22), (lab.scrolls || []).length, "Scrolls gained", k("scrolls"), "Scrolls"));
  stats.push(sbStat(flameIcon(true, 22), lab.income_icons || 0, "Income icons revealed", k("income"), "Income"));
  // the Toxicity Track as its markers' values (the Poison Points a Vial of each Resource, and a
  // captured Rat, scores): in the seat panel, which a desktop keeps in view beside the board in
  // every phase (issue 14: in the Alchilab it lay below the first screen at 1366x768, under the
  // Forest while placing and under the Brewer while brewing); the whole track stays there
  const tox = lab.toxicity || {};
  const types = ((g.geometry && g.geometry.toxicity) || {}).types || [];
  const track = types.length ? el("span", {class: "sb-tox", role: "group", "aria-label": "Toxicity Track (points per Vial / Rat)"},
    el("span", {class: "sb-word sb-tox-word", "aria-hidden": "true"}, "Toxicity"),
    ...types.map((t) => sbStat(resIcon(t, 20), tox[t] ?? "?", `${name(t)} toxicity (points per ${t === "rat" ? "captured Rat" : "Vial"})`,
      k(`tox-${t}`)))) : null;
  const order = (g.turn_order || []).indexOf(seat);
  const home = lab.pawns_home || [];
  const hired = lab.assistant && (g.assistants || []).find((a) => a.space === lab.assistant.space);
  return seatBoardBox(seat, ...stats,
    // (new-user trial: a row of pawn pictures with no word; the word is hidden on phones, as
    // the other counts' are, where the card and the accessible name say it)
    home.length ? el("span", {class: "sb-stat has-word", title: `Action pawns at home, still to place: ${home.map(name).join(", ")}`,
                              "aria-label": `Action pawns at home, still to place: ${home.map(name).join(", ")}`},
      ...home.map((p) => pawnIcon(p, table.seatColor(seat), 22)),
      el("span", {class: "sb-word", "aria-hidden": "true"}, "at home")) : null,
    track,
    note(order >= 0 ? `${ORDINAL[order] || order + 1} in turn order` : null,
      hired ? ` · Assistant: ` : null, hired ? el("b", {}, hired.name) : null,
      lab.done && g.phase === "brewing" ? " " : null, lab.done && g.phase === "brewing" ? tag("done brewing") : null));
}

function legalActions() {
  return (lastView && lastView.legal_actions) || [];
}

function render(fresh) {
  const view = lastView;
  if (!view || !root) return;
  const game = view.game;
  if (!game || !game.geometry) {
    root.replaceChildren(el("p", {}, "Waiting for the game to start…"));
    return;
  }
  const you = view.you === undefined ? null : view.you;
  const n = (game.alchilabs || []).length;
  if (shownSeat === null || shownSeat >= n) shownSeat = you !== null ? you : 0;
  // Drop a pick that no longer leads anywhere.
  const legal = legalActions();
  if (picked && picked.startsWith("pawn-") && !legal.some((a) => (a.type === "place" || familiarMove(a)) && a.pawn === picked.slice(5))) picked = null;
  if (picked && picked.startsWith("res-") && !legal.some((a) => a.type === "brew" && a.res === picked.slice(4))) picked = null;
  if (fresh) {
    choosing = null;
    notice = null;
    noticeAt = null;
  }

  const ctx = {
    view, game, table, you, legal, picked, sigs, prevSigs, fresh,
    // a click on the picked pawn or Resource puts it back (new-user trial 5: a second click
    // on the picked Mushroom did nothing; Evil Corp.'s screen works the same way)
    pick(key) { picked = picked === key ? null : key; choosing = null; notice = null; render(false); if (picked) revealTargets(); },
    notice(text, space) { notice = text; noticeAt = space; render(false); noticeBy(); },
    choose(id) { choosing = choosing === id ? null : id; render(false); },
    redraw() { render(false); },
    afterAct() { choosing = null; },
  };
  // Placement (new-user trial: the pawns to pick were in the Alchilab, far below the Forest):
  // your pawns at home sit between the round's strip and the Forest while you place
  const tray = drawTray(ctx);
  ctx.tray = !!tray;

  const focusKey = focusedKey();
  const oldWrap = root.querySelector(".doe-forest-wrap");
  const scrolled = oldWrap ? oldWrap.scrollLeft : 0;  // a redraw keeps the Forest where it was
  const oldTabs = root.querySelector(".doe-tabs");
  const tabsScrolled = oldTabs ? oldTabs.scrollLeft : 0;  // and the seats' tabs (a phone's row scrolls)
  const forestWrap = el("div", {class: "doe-forest-wrap"}, drawForest(ctx));
  const forestBox = forestScroller(forestWrap);
  const left = el("div", {class: "doe-left"}, phaseStrip(ctx), tray, forestBox, drawAssistants(ctx));
  const side = el("aside", {class: "doe-side"}, drawRecipes(ctx), drawTurnOrder(ctx), drawScores(ctx),
    drawBag(ctx));
  const parts = [el("div", {class: "doe-top"}, left, side)];
  if (game.breakdown) parts.push(drawBreakdown(ctx));
  // Brewing (issue 14 item 6): your Alchilab is where you act — above the Forest.
  const labs = drawLabs(ctx);
  if (brewingSeat(view) !== null) parts.unshift(labs);
  else parts.push(labs);
  const income = drawIncomeChoice(ctx);
  if (income) parts.unshift(income);
  // the "? Key" (issue 14, items 1 and 4) at the top of the board, whichever part leads
  parts.unshift(el("div", {class: "doe-keyrow"}, keyPanel("drops_of_evil", keyRows(ctx))));
  // Brew actions are reachable through a pick in the pool: claim them when the pick is drawn.
  // (The pool is drawn on the viewer's own Alchilab; on another seat's tab a banner leads back.)
  const myLab = you !== null ? game.alchilabs[you] : null;
  for (const a of legal) {
    if (a.type === "brew" && myLab && (myLab.pool || {})[a.res] > 0) table.claim(a);
  }
  if (fresh) {
    // Record the other seats' Alchilab signatures too (drawn off-screen, nothing clickable), so a
    // tab opened later still shows what changed in that Alchilab with the last view.
    // An Alchilab whose data did not change has the same signatures: carried over, not drawn
    // (four of them per view cost a 4-player table most of its drawing time).
    const quiet = {...ctx, legal: [], you: null, table: {...table, claim() {}}};
    const keys = new Map();
    for (let s = 0; s < n; s++) {
      keys.set(s, JSON.stringify(game.alchilabs[s]));
      if (s === shownSeat) continue;
      if (labKeys.get(s) !== keys.get(s)) {
        drawAlchilab(quiet, s);
        continue;
      }
      const prefix = `lab${s}:`;
      for (const [k, sig] of prevSigs) if (k.startsWith(prefix)) sigs.set(k, sig);
    }
    labKeys = keys;
  }
  const box = el("div", {class: "doe"}, ...parts);
  root.replaceChildren(box);
  holdSizes(box, `${game.round}:${game.phase}:${shownSeat}:${window.innerWidth}`);
  forestWrap.scrollLeft = scrolled;
  forestCue(forestBox);
  keepTabInView(box.querySelector(".doe-tabs"), tabsScrolled);
  if (forestSized) {
    forestSized.disconnect();
    forestSized.observe(forestWrap);
    if (forestWrap.firstElementChild) forestSized.observe(forestWrap.firstElementChild);
  }
  titlesToCards(box);  // every small titled icon has a card on hover or long-press too
  restoreFocus(focusKey);
  drawChoice(ctx);
  // Where the player decides (docs/renderer-contract.md, data-prompt-focus; issue 14 item 6):
  // the Forest and the Assistants while placing, the pool, choices, Distiller and Brewer while
  // brewing. The table scrolls it into view when the prompt arrives and after each of your
  // moves (a brew, "1 Worm" instead of the Assistant). Your last Action pawn is the Coin Pouch: the Assistants are the place (on a phone they lie
  // below the Forest, out of the window when the Forest comes into view).
  // A Distiller Bonus token to choose: the tokens, under the Brewer (new-user trial: below a
  // phone's window while the pool came into view).
  if (you !== null && legal.length) {
    const mine = root.querySelector(".doe-lab.mine .doe-brew");
    const tokens = legal.every((a) => a.type === "bonus") ? [...root.querySelectorAll(".doe-lab.mine [data-action]")]
      .filter((n) => (actionOf(n) || {}).type === "bonus") : [];
    const brewing = !tokens.length && game.phase === "brewing" && mine && !legal.some((a) => a.type === "seer_put");
    const phone = matchMedia("(max-width: 520px)").matches;
    // (a phone's Brewing: from the pool down to the Distiller, the Brewer between them, so all
    // three are in the window above the "Done brewing" bar; the choices follow below. Placing:
    // your pawns at home, and the Forest under them where it fits too — on a phone both are in
    // the window as the page opens: no scroll that would cut the header in two)
    const place = income ? income : tokens.length ? tokens[0]
      : brewing ? (phone && mine.querySelector(".doe-pool-panel")) || mine
        : onlyCoinLeft(legal) ? root.querySelector(".doe-asst-section")
          : tray || root.querySelector(".doe-left");
    if (place) place.dataset.promptFocus = "";
    if (tokens.length > 1) tokens[tokens.length - 1].dataset.promptFocusEnd = "";
    const end = brewing && phone ? mine.querySelector(".doe-distiller-panel")
      : null;
    if (end && place !== mine) end.dataset.promptFocusEnd = "";
    if (place && place === tray) forestBox.dataset.promptFocusWish = "";
  }
}

let holds = new Map();    // data-hold key -> {w, h}: the largest seen under holdKey
let holdKey = null;

/** The parts of your Alchilab marked data-hold (the pool, the choices, the Distiller ...) never
 *  shrink within a phase: each keeps the largest height (and, with data-hold-axis "wh", width)
 *  it had since the phase began, in this window's width. A Worm placed, an Assistant used, a
 *  token taken shrank them, and the Distiller and the Brewer below or beside moved under the
 *  pointer (new-user trial 7). */
function holdSizes(box, key) {
  if (key !== holdKey) {
    holdKey = key;
    holds = new Map();
  }
  const nodes = [...box.querySelectorAll("[data-hold]")];
  for (const n of nodes) {
    const h = holds.get(n.dataset.hold);
    if (!h) continue;
    const axis = n.dataset.holdAxis || "h";
    if (axis.includes("h") && h.h) n.style.minHeight = `${h.h}px`;
    if (axis.includes("w") && h.w) n.style.minWidth = `${h.w}px`;
  }
  for (const n of nodes) {
    const r = n.getBoundingClientRect();
    if (!r.width || !r.height) continue;  // (not laid out: a phone's display: contents)
    const h = holds.get(n.dataset.hold) || {w: 0, h: 0};
    holds.set(n.dataset.hold, {w: Math.max(h.w, r.width), h: Math.max(h.h, r.height)});
  }
}

/** The notice of a taken space also by the space when the row of pawns is out of the window
 *  (a desktop scrolled down the Forest): a small box over the Forest, below the space (or above
 *  it at the window's bottom), moving nothing. */
function noticeBy() {
  const words = root.querySelector(".doe-tray-words.doe-said");
  const node = noticeAt && root.querySelector(`.doe-forest [data-space="${CSS.escape(noticeAt)}"]`);
  const frame = root.querySelector(".doe-forest-frame");
  if (!words || !node || !frame || typeof table.inViewBelowBar !== "function" || table.inViewBelowBar(words)) return;
  const box = el("div", {class: "doe-choice doe-said-tag", role: "status"}, notice);
  frame.append(box);
  const f = frame.getBoundingClientRect(), r = node.getBoundingClientRect();
  const w = box.offsetWidth, h = box.offsetHeight;
  box.style.left = `${Math.round(Math.max(4, Math.min(r.left + r.width / 2 - f.left - w / 2, f.width - w - 4)))}px`;
  const below = r.bottom + 4 + h <= window.innerHeight;
  box.style.top = `${Math.round(below ? r.bottom - f.top + 4 : r.top - f.top - h - 4)}px`;
}

/** Your Assistant's Income choice at the top of the board (new-user trial 7: the prompt bar's
 *  main, bone-white button was "Do not use the Assistant", and "Activate Tax Collector" hid in
 *  its "2 more" menu): its ability's buttons in full view, "Do not use it" beside them as the
 *  side choice. Null when you have none. */
function drawIncomeChoice(ctx) {
  const g = ctx.game;
  if (ctx.you === null || g.phase !== "income") return null;
  const uses = ctx.legal.filter((a) => a.type === "assistant");
  const skip = ctx.legal.find((a) => a.type === "skip");
  if (!uses.length) return null;
  const lab = (g.alchilabs || [])[ctx.you] || {};
  const tile = lab.assistant ? (g.assistants || []).find((t) => t.id === lab.assistant.id) : null;
  const prefix = tile ? `Activate ${tile.name}: ` : null;
  const row = el("div", {class: "doe-use-row"});
  for (const a of uses) {
    const full = ctx.table.label(a);
    const b = el("button", {type: "button", class: "doe-btn use"},
      prefix && uses.length > 1 && full.startsWith(prefix) ? full.slice(prefix.length) : full);
    clickable(ctx, b, a);
    row.append(b);
  }
  if (skip) {
    const b = el("button", {type: "button", class: "doe-btn keep"}, "Do not use it");
    clickable(ctx, b, skip);
    row.append(b);
  }
  return el("section", {class: "doe-panel doe-income-choice", role: "group", "aria-label": "Your Assistant at Income"},
    el("div", {class: "doe-use"},
      el("div", {class: "doe-use-head"}, assistantIcon(26), el("b", {}, tile ? tile.name : "Your Assistant"),
        tile ? el("span", {class: "doe-phase"}, tile.phase) : null),
      tile ? el("div", {class: "doe-use-text"}, tile.text) : null,
      uses.length > 1 && tile ? el("div", {class: "doe-alt-lbl"}, `Activate ${tile.name} for:`) : null,
      row));
}

/** Whether every placement still open is the Coin Pouch's (it is the seat's last Action pawn
 *  at home): then the one thing to do is hire an Assistant. */
function onlyCoinLeft(legal) {
  const places = legal.filter((a) => a.type === "place");
  return places.length > 0 && places.every((a) => a.pawn === "coin");
}

/** Your Action pawns at home during the Placement (new-user trial: the Forest's spaces were
 *  highlighted, the pawns to pick far below in your Alchilab): a row above the Forest, each pawn
 *  a pick (data-pick "pawn-<pawn>") with how many spaces it has; a click on a highlighted space
 *  places the pawn that goes there without a pick. The row stays the whole Placement, between
 *  your turns too, and a pawn placed keeps its slot, faded: a row that came and went, or
 *  narrowed, moved the Forest under the pointer (new-user trial 7). Null for a spectator and
 *  outside the Placement. */
function drawTray(ctx) {
  if (ctx.you === null || ctx.game.phase !== "placement") return null;
  const count = new Map();
  for (const a of ctx.legal) if (a.type === "place") count.set(a.pawn, (count.get(a.pawn) || 0) + 1);
  const lab = (ctx.game.alchilabs || [])[ctx.you] || {};
  const home = lab.pawns_home || [];
  const row = el("div", {class: "doe-tray-pawns"});
  for (const p of PAWN_ORDER) {
    const n = count.get(p) || 0;
    const where = p === "coin" ? "Assistant" : "space";
    const wrap = el("span", {class: "doe-pawn-wrap doe-tray-pawn"}, pawnChip(ctx, ctx.you, p),
      el("span", {class: "doe-pawn-name"}, resName(ctx, p)));
    if (!home.includes(p)) {
      wrap.classList.add("gone");
      wrap.title = `${resName(ctx, p)}: on the board`;
    } else if (n) pickable(ctx, wrap, `pawn-${p}`, `Pick your ${resName(ctx, p)} (${n} ${where}${n === 1 ? "" : "s"})`, ctx.picked === `pawn-${p}`);
    else wrap.classList.add("none");
    row.append(wrap);
  }
  const verb = clickVerb();
  const words = notice && count.size ? notice : !count.size
    ? (home.length ? "Your pawns wait for your turn." : "All your pawns are placed.")
    : ctx.picked && ctx.picked.startsWith("pawn-")
      ? `${verb} a highlighted ${ctx.picked === "pawn-coin" ? "Assistant" : "space"} for your ${resName(ctx, ctx.picked.slice(5))}, or the pawn again to pick another.`
      : `${verb} a highlighted space to place the pawn that goes there, or pick a pawn first.`;
  return el("section", {class: "doe-tray", role: "group", "aria-label": "Your Action pawns at home"},
    el("h4", {}, "Your Action pawns at home"), row,
    el("p", {class: `doe-tray-words${notice && count.size ? " doe-said" : ""}`, "aria-live": "polite"}, words));
}

/** A choice's button words for `a` (a space offering several actions): short, the space is
 *  the one pointed at. */
function choiceWords(ctx, a) {
  if (a.type === "place") return [pawnIcon(a.pawn, ctx.table.seatColor(ctx.you), 24), `Place your ${resName(ctx, a.pawn)} here`];
  if (familiarMove(a)) return [pawnIcon(a.pawn, ctx.table.seatColor(ctx.you), 24), `Move your ${resName(ctx, a.pawn)} here`];
  if (takeFrom(a)) {
    const tile = (ctx.game.assistants || []).find((t) => t.id === a.assistant);
    const here = ((ctx.game.forest || {}).resources || {})[a.target] || {};
    const res = tile && /mushroom/i.test(`${tile.name} ${tile.text}`) && here.mushroom ? "mushroom" : here.spider ? "spider" : "mushroom";
    return [resIcon(res, 24), `Take a ${resName(ctx, res)} with your ${tile ? tile.name : "Assistant"}`];
  }
  return [ctx.table.label(a)];
}

/** The open choice of a Forest space offering several actions (a Clearing space: your Crow, or
 *  a Spider for your Spider Charmer): its buttons in a small box by the space, in the Forest's
 *  frame (below the space, or above it where the frame ends), with "Cancel". */
function drawChoice(ctx) {
  if (!choosing) return;
  const node = root.querySelector(`.doe-forest [data-choose="${CSS.escape(choosing)}"]`);
  const frame = root.querySelector(".doe-forest-frame");
  const acts = spaceActions(ctx).get(choosing) || [];
  if (!node || !frame || acts.length < 2) {
    choosing = null;
    return;
  }
  node.classList.add("choosing");
  const box = el("div", {class: "doe-choice", role: "dialog", "aria-label": "What to do on this space"});
  for (const a of acts) {
    const b = el("button", {type: "button", class: "doe-btn choice"}, ...choiceWords(ctx, a));
    clickable(ctx, b, a);
    box.append(b);
  }
  const cancel = el("button", {type: "button", class: "doe-btn keep"}, "Cancel");
  cancel.addEventListener("click", (e) => { e.preventDefault(); choosing = null; render(false); });
  box.append(cancel);
  frame.append(box);
  const f = frame.getBoundingClientRect(), r = node.getBoundingClientRect();
  const w = box.offsetWidth, h = box.offsetHeight;
  box.style.left = `${Math.round(Math.max(4, Math.min(r.left + r.width / 2 - f.left - w / 2, f.width - w - 4)))}px`;
  // under the space when it fits in the window, else above it (it may reach past the Forest)
  const bar = document.getElementById("prompt-bar");
  const barBottom = bar ? Math.max(0, bar.getBoundingClientRect().bottom) : 0;
  const below = r.bottom + 4 + h <= window.innerHeight || r.top - 4 - h < barBottom;
  box.style.top = `${Math.round(below ? r.bottom - f.top + 4 : r.top - f.top - h - 4)}px`;
  const wrap = root.querySelector(".doe-forest-wrap");
  if (wrap) wrap.addEventListener("scroll", () => { if (choosing) { choosing = null; render(false); } }, {once: true, passive: true});
  box.querySelector("button").focus({preventScroll: true});
}

/** The viewer's prompt in words that say what to do now (docs/renderer-contract.md
 *  `promptText`), from the view's legal actions:
 *  - Placement, the Coin Pouch as the last Action pawn: the engine's general "Place one of
 *    your Action pawns" reads as a Forest placement, but the one move left is to hire an
 *    Assistant with it; a pawn picked (at home, or on the Forest for the Shapeshifter): where
 *    it goes.
 *  - After placing, with the Shapeshifter's moves on the Forest: "Activate your Assistant"
 *    said neither what it does nor where (new-user trial); before, its highlighted spaces are
 *    not placements: the words say so.
 *  - Brewing with nothing left to place: not "Place your Resources, then Done" (new-user trial)
 *    but Done brewing, and what is still unused beside it.
 *  Other prompts keep the engine's words (null). */
export function promptText(view) {
  const kind = view && view.prompt ? view.prompt.kind : null;
  const legal = (view && view.legal_actions) || [];
  const ctx = {game: (view && view.game) || {}, you: view ? view.you : null};
  const click = clickVerb(true);
  if (kind === "brewing") return brewingWords(view, legal, click);
  if (kind !== "placement" && kind !== "after_placement") return null;
  if (kind === "placement" && onlyCoinLeft(legal)) return "Your last Action pawn is your Coin Pouch: hire a highlighted Assistant with it.";
  // A pawn picked (new-user trial: the prompt still said "Place one of your Action pawns")
  const pawn = picked && picked.startsWith("pawn-") ? picked.slice(5) : null;
  const name = pawn ? resName(ctx, pawn) : "";
  if (pawn && legal.some((a) => familiarMove(a) && a.pawn === pawn)) {
    return `Move your ${name} with your ${hiredName(ctx)}: ${click} a highlighted space.`;
  }
  if (pawn && legal.some((a) => a.type === "place" && a.pawn === pawn)) {
    // (short: on a phone four lines of it pushed the board 47 px down as the pawn was picked,
    // new-user trial 7; the row of pawns says "or the pawn again to pick another")
    return `Place your ${name}: ${click} a highlighted ${pawn === "coin" ? "Assistant" : "space"}.`;
  }
  if (kind === "after_placement" && legal.some(familiarMove)) {
    // (short: on a phone the bar holds these words, "End your turn" and a suggestion in a
    // quarter of the window; three lines of words cut the first off, new-user trial)
    return "Move a Familiar to a highlighted space, or end your turn.";
  }
  const take = legal.find(takeFrom);
  if (take) {
    const tile = ((ctx.game || {}).assistants || []).find((t) => t.id === take.assistant);
    const what = tile && /mushroom/i.test(`${tile.name} ${tile.text}`) ? "a Mushroom" : "a Spider";
    const who = tile ? tile.name : "Assistant";
    if (kind === "after_placement") return `Take ${what} with your ${who} (${click} a ringed one on the Forest), or end your turn.`;
    if (legal.some((a) => a.type === "place")) return `Place an Action pawn, or take ${what} with your ${who} (a ringed one on the Forest).`;
  }
  // the Shapeshifter's spaces are highlighted with the placements': say why
  if (kind === "placement" && legal.some(familiarMove)) return `Place an Action pawn, or move a Familiar with your ${hiredName(ctx)}.`;
  return null;
}

/** The Brewing prompt's words when nothing is left to place (rulebook "Brewing Phase": "you must
 *  place all of them before the end of this phase (if possible)"), else null (the engine's
 *  "Place your Resources, then Done"). What may still be used comes first: the Assistant (or,
 *  instead of its ability, 1 Worm or 1 Cheese), an Extra Resource, Cheese. */
function brewingWords(view, legal, click) {
  if (legal.some((a) => a.type === "brew") || !legal.some((a) => a.type === "done")) return null;
  const lab = view.you === null || view.you === undefined ? null : ((view.game || {}).alchilabs || [])[view.you];
  const pool = (lab && lab.pool) || {};
  const left = Object.keys(pool).some((r) => r !== "rat" && pool[r] > 0);
  const uses = [];
  const gains = legal.filter((a) => a.type === "alternative").map((a) => `1 ${resName({game: view.game || {}}, a.gain)}`);
  if (legal.some((a) => a.type === "assistant")) uses.push("use your Assistant");
  else if (gains.length) uses.push(`gain ${gains.join(" or ")} with your Coin Pouch`);
  if (legal.some((a) => a.type === "spend_worms")) uses.push("spend your Worm token");
  if (legal.some((a) => a.type === "cheese")) uses.push("capture a Rat with Cheese");
  // a phone's bar keeps these words to one line, as "Place your Resources, then Done" is (two
  // lines moved the board 18 px under the thumb, new-user trial 7): the Done bar and its
  // question say what is still unused
  if (typeof matchMedia === "function" && matchMedia("(max-width: 520px)").matches) {
    return `${left ? "Nothing more fits" : "All placed"}: ${click} Done brewing.`;
  }
  const head = left ? "Nothing more you can place" : "Nothing left to place";
  return uses.length ? `${head}: ${uses.join(", ")} or ${click} Done brewing.` : `${head}: ${click} Done brewing.`;
}

// ----- a Forest wider than its frame (4 players on a phone: eight columns in ~338 px) ---------

/** The Forest's scrolling box in a frame whose edges fade where more of it lies beyond, and
 *  under it (only while it scrolls) a row saying so, with an arrow button for each way that
 *  has more (a tap or Enter scrolls that way; gone at that end). The buttons sit below the
 *  drawing, never over a space the player may tap. */
function forestScroller(wrap) {
  const arrow = (dir) => el("button", {
    type: "button", class: `btn doe-forest-more doe-forest-${dir}`,
    "aria-label": `Scroll the Forest ${dir}`, title: `More of the Forest to the ${dir}`,
    onclick: () => {
      const smooth = !matchMedia("(prefers-reduced-motion: reduce)").matches;
      wrap.scrollBy({left: (dir === "right" ? 1 : -1) * Math.max(60, wrap.clientWidth * 0.8), behavior: smooth ? "smooth" : "auto"});
    },
  }, el("span", {"aria-hidden": "true"}, dir === "right" ? "→" : "←"));
  const frame = el("div", {class: "doe-forest-frame"}, wrap);
  const hint = el("div", {class: "doe-forest-cue"}, arrow("left"),
    el("span", {class: "doe-forest-cue-text"}, "The Forest goes on sideways: swipe it or use the arrows"), arrow("right"));
  const box = el("div", {class: "doe-forest-box"}, frame, hint);
  wrap.addEventListener("scroll", () => forestCue(box), {passive: true});
  return box;
}

/** The seats' tabs where they were scrolled (a phone's row wider than the board), the shown
 *  seat's tab wholly in the row. */
function keepTabInView(tabs, left) {
  if (!tabs) return;
  tabs.scrollLeft = left;
  const on = tabs.querySelector(".doe-tab.on");
  const cue = () => {
    // each end with more tabs beyond it fades out (more-left, more-right)
    tabs.classList.toggle("more-left", tabs.scrollLeft > 2);
    tabs.classList.toggle("more-right", tabs.scrollLeft + tabs.clientWidth < tabs.scrollWidth - 2);
  };
  tabs.addEventListener("scroll", cue, {passive: true});
  const show = () => {
    if (!on || !on.isConnected || tabs.scrollWidth <= tabs.clientWidth + 1) return;
    const row = tabs.getBoundingClientRect(), tab = on.getBoundingClientRect();
    if (tab.left < row.left) tabs.scrollLeft += tab.left - row.left;
    else if (tab.right > row.right) tabs.scrollLeft += tab.right - row.right;
    cue();
  };
  show();
  // (the tabs may widen after this drawing, as their font arrives: the shown one is kept in)
  tabWatch.disconnect();
  if (on) tabWatch.observe(on);
  tabWatchShow = show;
  cue();
}
let tabWatchShow = null;
const tabWatch = new ResizeObserver(() => { if (tabWatchShow) tabWatchShow(); });

/** Show the cue of each side that has more of the Forest beyond it (classes more-left,
 *  more-right); a focused arrow that goes passes the focus to the other one. */
function forestCue(box) {
  const wrap = box.querySelector(".doe-forest-wrap");
  if (!wrap) return;
  const left = wrap.scrollLeft > 2;
  const right = wrap.scrollLeft + wrap.clientWidth < wrap.scrollWidth - 2;
  const focused = document.activeElement && box.contains(document.activeElement) &&
    document.activeElement.classList.contains("doe-forest-more") ? document.activeElement : null;
  const text = box.querySelector(".doe-forest-cue-text");
  if (text) text.textContent = right ? "More of the Forest to the right: swipe it or tap the arrow" : "The Forest's right end: its start is back to the left";
  box.classList.toggle("more-left", left);
  box.classList.toggle("more-right", right);
  box.classList.toggle("scrolls", wrap.scrollWidth > wrap.clientWidth + 2);
  if (focused && getComputedStyle(focused).visibility === "hidden") {
    const other = box.querySelector(`.doe-forest-${focused.classList.contains("doe-forest-right") ? "left" : "right"}`);
    if (other && getComputedStyle(other).visibility !== "hidden") other.focus({preventScroll: true});
  }
}

// The Forest's frame or drawing changed size (a window of another width, drops.css arriving
// after the first drawing): it may fit now, or no longer.
const forestSized = typeof ResizeObserver === "function" ? new ResizeObserver(() => {
  const box = root && root.querySelector(".doe-forest-box");
  if (box) forestCue(box);
}) : null;

/** A local pick (a pawn, a Resource of the pool) leads to the places it may go: keep them in
 *  view below the status bar (the table's revealBelowBar; none in a replay). */
function revealTargets() {
  if (!picked || typeof table.revealBelowBar !== "function") return;
  const targets = [...root.querySelectorAll("[data-action]:not(.dim)")].filter((n) => {
    const a = actionOf(n);
    return a !== null && a.type !== "done";
  });
  if (!targets.length) return;
  // A pick never moves the page while a place it may go to is in view (new-user trial 6: the
  // page scrolled 136 px as the Crow was picked, and the next click, aimed at a space seen a
  // moment before, put the Crow on another one): only when none is does it scroll.
  const seen = typeof table.inViewBelowBar === "function" && targets.some((n) => table.inViewBelowBar(n));
  if (!seen) table.revealBelowBar(targets[0], targets[targets.length - 1]);
}

function focusedKey() {
  const a = document.activeElement;
  if (!a || !root.contains(a)) return null;
  if (a.dataset && a.dataset.pick) return `[data-pick="${CSS.escape(a.dataset.pick)}"]`;
  if (a.dataset && a.dataset.seatTab) return `[data-seat-tab="${CSS.escape(a.dataset.seatTab)}"]`;
  return null;
}

function restoreFocus(key) {
  if (!key || root.contains(document.activeElement)) return;
  const twin = root.querySelector(key);
  if (twin) twin.focus();
}

function phaseStrip(ctx) {
  const g = ctx.game;
  const strip = el("div", {class: "doe-phases"},
    // (a finished match says so once, in the table's Final result: the strip keeps the round)
    el("span", {class: "doe-round"}, `Round ${g.round} / 3`));
  for (const p of PHASES) {
    strip.append(el("span", {class: `doe-phase-step${g.phase === p ? " on" : ""}`}, p[0].toUpperCase() + p.slice(1)));
  }
  if (g.phase === "placement" && g.current !== null && g.current !== undefined) {
    strip.append(el("span", {class: "doe-current"}, "Turn: ", seatTag(ctx, g.current)));
  }
  return strip;
}

function drawAssistants(ctx) {
  const g = ctx.game;
  const byspace = new Map();
  for (const a of ctx.legal) if (a.type === "place" && a.pawn === "coin") byspace.set(a.space, a);
  const pawns = (g.forest && g.forest.pawns) || {};
  const row = el("div", {class: "doe-assistants", role: "group", "aria-label": "Assistants"});
  const pickedPawn = ctx.picked && ctx.picked.startsWith("pawn-") ? ctx.picked.slice(5) : null;
  for (const sp of g.geometry.forest.assistant_spaces) {
    const t = (g.assistants || [])[sp.index];
    if (!t) continue;
    const occ = pawns[sp.id];
    const tile = el("div", {class: `doe-asst phase-${t.phase}${t.used ? " used" : ""}`, dataset: {space: sp.id}},
      el("div", {class: "doe-asst-head"}, assistantIcon(20), el("span", {class: "doe-asst-num"}, String(sp.index + 1)),
        el("b", {class: "doe-asst-name"}, t.name), el("span", {class: "doe-phase"}, t.phase)),
      el("div", {class: "doe-asst-text"}, t.text));
    const foot = el("div", {class: "doe-asst-foot"});
    if (occ) {
      foot.append(pawnChip(ctx, occ.seat, "coin"), " ", nameSpan(ctx, occ.seat));
    } else if (t.hired_by !== null && t.hired_by !== undefined) {
      foot.append(pawnChip(ctx, t.hired_by, "coin"), " ", nameSpan(ctx, t.hired_by));
    } else {
      // (what hiring gives, not a price: review 8 read "free · or 1 Worm / 1 Cheese" as one)
      foot.append(el("span", {class: "muted"}, "Hire it: its ability, or 1 Worm / 1 Cheese instead"));
    }
    if (t.used) foot.append(el("span", {class: "doe-used"}, "used"));
    tile.append(foot);
    const a = byspace.get(sp.id);
    if (a) {
      clickable(ctx, tile, a);
      if (pickedPawn && pickedPawn !== "coin") tile.classList.add("dim");
    }
    mark(ctx, tile, `asst:${sp.id}`, [occ || null, t.hired_by, t.used]);
    attachCard(tile, () => el("div", {class: "doe-full"},
      el("div", {class: "doe-full-head"}, assistantIcon(40), el("b", {}, t.name), el("span", {class: "doe-phase"}, t.phase)),
      el("p", {}, t.text),
      el("p", {class: "muted"}, `Hire it with your Coin Pouch during Placement; its ability is used in the ${t.phase} phase. Or take 1 Worm or 1 Cheese instead.`)));
    row.append(tile);
  }
  return el("section", {class: "doe-asst-section"}, el("h4", {}, "Assistants (hire with a Coin Pouch)"), row);
}

function drawRecipes(ctx) {
  const box = el("div", {class: "doe-recipes"});
  for (const r of ctx.game.recipes || []) {
    const tile = el("div", {class: "doe-recipe", tabindex: "0"},
      el("div", {class: "doe-recipe-head"}, recipeIcon(22), resChip(ctx, r.ingredient, {size: "md"}),
        el("b", {}, r.name), el("span", {class: "doe-pts"}, pointsIcon(r.points, 24))),
      el("div", {class: "doe-recipe-text"}, `${ctx.game.geometry.names[r.ingredient] || r.ingredient}: ${r.text}`));
    attachCard(tile, () => el("div", {class: "doe-full"},
      el("div", {class: "doe-full-head"}, recipeIcon(40), resIcon(r.ingredient, 36), el("b", {}, r.name)),
      el("p", {}, `Required Ingredient: ${ctx.game.geometry.names[r.ingredient] || r.ingredient}.`), el("p", {}, r.text)));
    box.append(tile);
  }
  return el("section", {class: "doe-panel"}, el("h4", {}, "Recipes"), box);
}

function drawTurnOrder(ctx) {
  const g = ctx.game;
  const track = el("ol", {class: "doe-turn"});
  (g.turn_order || []).forEach((s, i) => {
    const li = el("li", {class: g.current === s ? "current" : ""}, el("span", {class: "doe-ord"}, String(i + 1)), seatTag(ctx, s));
    track.append(li);
  });
  mark(ctx, track, "turn_order", g.turn_order);
  return el("section", {class: "doe-panel"}, el("h4", {}, "Turn order"), track);
}

function drawScores(ctx) {
  const labs = ctx.game.alchilabs || [];
  const max = Math.max(30, ...labs.map((l) => l.score || 0));
  const box = el("div", {class: "doe-scores"});
  for (const l of labs) {
    const row = el("div", {class: "doe-score-row"}, seatTag(ctx, l.seat),
      el("span", {class: "doe-score-bar"}, el("span", {style: {width: `${(100 * (l.score || 0)) / max}%`,
                                                             background: ctx.table.seatColor(l.seat)}})),
      el("b", {class: "num"}, String(l.score || 0)));
    mark(ctx, row, `score:${l.seat}`, l.score);
    box.append(row);
  }
  return el("section", {class: "doe-panel"}, el("h4", {}, "Score track"), box);
}

function drawBag(ctx) {
  const g = ctx.game;
  const bag = el("div", {class: "doe-bag"});
  for (const r of RES_ORDER) {
    if (!(r in (g.bag || {}))) continue;
    const item = el("span", {class: "doe-bag-item"}, resChip(ctx, r, {size: "sm"}), el("b", {}, String(g.bag[r])));
    mark(ctx, item, `bag:${r}`, g.bag[r]);
    bag.append(item);
  }
  const worms = el("span", {class: "doe-bag-item"}, resChip(ctx, "worm", {size: "sm"}), el("b", {}, String(g.worm_supply)));
  mark(ctx, worms, "worms", g.worm_supply);
  return el("section", {class: "doe-panel"},
    el("h4", {}, `Bag (${g.bag_total ?? 0})`), bag,
    el("h4", {}, "Worm supply"), el("div", {class: "doe-bag"}, worms));
}

function drawLabs(ctx) {
  const n = (ctx.game.alchilabs || []).length;
  const tabs = el("div", {class: "doe-tabs", role: "tablist", "aria-label": "Alchilabs"});
  for (let s = 0; s < n; s++) {
    const lab = ctx.game.alchilabs[s];
    const b = el("button", {type: "button", class: `doe-tab${s === shownSeat ? " on" : ""}`, role: "tab",
                            "aria-selected": s === shownSeat ? "true" : "false",
                            dataset: {seatTab: String(s)}, style: {"--seat": ctx.table.seatColor(s)}},
      seatShapeMark(s, ctx.table.seatColor(s)), nameSpan(ctx, s), s === ctx.you ? el("span", {class: "doe-you"}, " (you)") : null,
      el("span", {class: "doe-tab-score", title: finalTotal(ctx, s) !== null ? "Final total" : "Score track"},
        String(finalTotal(ctx, s) ?? (lab.score || 0))));
    b.addEventListener("click", () => { shownSeat = s; render(false); });
    tabs.append(b);
  }
  const out = el("section", {class: "doe-labs"});
  if (ctx.you !== null && shownSeat !== ctx.you && ctx.legal.some((a) => a.type !== "place")) {
    const back = el("button", {type: "button", dataset: {seatTab: String(ctx.you)}}, "Back to your Alchilab");
    back.addEventListener("click", () => { shownSeat = ctx.you; render(false); });
    out.append(el("div", {class: "doe-back"}, `You are looking at ${ctx.table.seatName(shownSeat)}'s Alchilab; your moves are on yours.`, back));
  }
  out.append(tabs, drawAlchilab(ctx, shownSeat));
  return out;
}

function drawBreakdown(ctx) {
  const bd = ctx.game.breakdown;
  const seats = Object.keys(bd).map(Number).sort((a, b) => a - b);
  const cats = [];
  for (const s of seats) for (const k of Object.keys(bd[s] || bd[String(s)])) if (!cats.includes(k)) cats.push(k);
  const tbl = el("table", {class: "doe-breakdown"},
    el("thead", {}, el("tr", {}, el("th", {}, ""), ...seats.map((s) => el("th", {}, seatTag(ctx, s))))),
    el("tbody", {}, ...cats.map((c) => el("tr", {class: c === "Total" ? "total" : ""}, el("th", {}, c),
      ...seats.map((s) => el("td", {}, String((bd[String(s)] || bd[s])[c] ?? "—")))))));
  return el("section", {class: "doe-panel doe-final"}, el("h4", {}, "Final scoring"), tbl, tieNote(ctx, bd, seats));
}

/** Who wins a tie on the final Total (rulebook "End of the Game": "In case of a tie, the tied
 *  player who comes first in turn order wins."): a sentence per tie, by the final turn order. */
function tieNote(ctx, bd, seats) {
  const total = (s) => (bd[String(s)] || bd[s] || {}).Total;
  const order = ctx.game.turn_order || [];
  const pos = (s) => { const i = order.indexOf(s); return i < 0 ? order.length + s : i; };
  const byTotal = new Map();
  for (const s of seats) {
    const t = total(s);
    if (t === undefined) continue;
    if (!byTotal.has(t)) byTotal.set(t, []);
    byTotal.get(t).push(s);
  }
  const lines = [];
  for (const [t, tied] of [...byTotal].sort((a, b) => b[0] - a[0])) {
    if (tied.length < 2) continue;
    tied.sort((a, b) => pos(a) - pos(b));
    const names = tied.map((s) => ctx.table.seatName(s));
    const list = names.length === 2 ? names.join(" and ") : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
    lines.push(el("p", {class: "doe-tie"}, el("b", {}, `${list} tie on ${t} Poison Points: `),
      `${names[0]} wins the tie, coming first in turn order (in case of a tie, the tied player who comes first in turn order wins).`));
  }
  return lines;
}

/** The "? Key" panel (issue 14, items 1 and 4): the small pictures of the Forest and the
 *  Alchilabs in the rulebook's words. */
function keyRows(ctx) {
  const res = (cls) => el("span", {class: `doe-res md ${cls}`}, resIcon("owl", 26));
  return [
    [res("fresh"), "Placed this round", "a Resource you placed in this Brewing (white and green ring)."],
    [el("b", {class: "doe-key-undo"}, "\u21ba"), "Take back", "the yellow mark at the corner of a cell: click the cell to take that Resource back into your pool."],
    [res("fixed"), "Fixed", "placed in an earlier round: it stays."],
    [scrollIcon("bat", null, 26), "Scroll", "a Bonus token: move the matching Toxicity marker forward on your Toxicity Track (the Resource's Poison Points)."],
    [extraIcon("worm", 1, 26), "Extra Resource", "a Bonus token: added to your pool at once; unused ones are discarded at the end of the Brewing Phase."],
    [flameIcon(true, 20), "Income icon (revealed)", "in the Income Phase you gain points for your revealed Income icons."],
    [el("span", {}, flameIcon(false, 18), flameIcon(false, 18)), "Flames under a column or beside a Vial",
      "how many Income icons its Bonus tokens reveal when you take them; lit ones are revealed."],
    [el("span", {class: "doe-pairs doe-key-pairs"}, "1 pair"), "Pairs in the top Vial",
      "for each pair of Mushrooms placed in the topmost Vial of the Distiller you gain any one available Bonus token from it."],
    [el("b", {class: "doe-key-check"}, "\u2713 3"), "Complete Vial", "every space filled: the Poison Points it scores now."],
    [el("span", {class: "doe-key-dash"}), "Underbrush (dashed Gathering space)", "Crows cannot be placed there; only in the light green Clearing."],
    [el("span", {}, ...["crow", "cat", "toad", "snake"].map((p) => pawnIcon(p, "#efe6d2", 22))), "Familiars: Crow, Cat, Toad, Snake",
      "Action pawns that gather Resources from the Forest: Crows on Clearing spaces, Cats on double-arrow spaces, Toads on four-arrow spaces, Snakes on down-arrow spaces; retrieved in that order. A ring around yours on the Forest: your Shapeshifter may move it."],
    [pawnIcon("coin", "#efe6d2", 24), "Coin Pouch", "the Action pawn placed on an Assistant, to secure its services."],
    [assistantIcon(24), "Assistant", "secure its services with a Coin Pouch; its ability works in the phase shown on its tile."],
    [recipeIcon(24), "Recipe", "a Vial filled as the Recipe asks scores its points at the end of the game."],
    [pointsIcon(3, 24), "Poison Points", "the score; in case of a tie, the tied player who comes first in turn order wins."],
  ];
}
