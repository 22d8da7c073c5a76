// Evil Corp. table renderer (renderer contract; view shape: engines/evil_corp/VIEW.md).
// Draws only from the view, with el()/sv() (static/js/dom.js: no HTML parsing of view data) and
// our own icons (icons.js). The table reads as the board game lies on a table: the personnel
// department, the settlement boards (each with its two halves and the fear track between them),
// your screen, the other screens. Names, never codes: monsters by their names (catalog[type].name),
// cells as places with their pictures, seats by their players' names.
// Clickable legal targets carry data-action (the exact JSON of the action); putting a monster into
// play is two-step: pick a tile behind your screen (data-pick), then a highlighted cell.
// Hover (mouse), focus (keyboard) or long-press (touch) any piece for its full card (attachCard).

import {actionNodes, el, attachCard, PHONE} from "../../js/dom.js";
import {iconCard, keyPanel, titlesToCards} from "../../js/legend.js";
import {note, seatBoardBox, stat as sbStat, tag} from "../../js/seat-board.js";
import * as I from "./icons.js";
import {movedToday, nightRecap} from "./recap.js";
import {clickVerb, hoverVerb, mendCounts, plural} from "../../js/words.js";

export const title = "Evil Corp.";
/** What the phone's line of scores calls the score, and its picture (docs/renderer-contract.md). */
export const scoreWord = "Victory tokens";
export const scoreIcon = () => I.victoryToken();

let root = null;
let table = null;
let picked = null;          // tile id picked behind the screen (local UI state)
let lastView = null;
let previous = new Map();   // element key -> signature, to mark what changed
let nextSigs = new Map();
let lastPromptKey = null;   // the prompt last brought into view
let scrollToCell = false;   // after a pick, bring the first highlighted cell into view
let recapClosed = null;     // the round whose "Last Night" recap the player closed (x)
let recapOpen = false;      // a phone's recap opened from its one line

const COLOUR_NAME = {blue: "Blue", red: "Red", yellow: "Yellow"};
const CELL_NAME = {raid: "Raid cell", fortress: "Fortress", portal: "Demon portal", port: "Port cell"};

const CSS = `
.ec { display: flex; flex-direction: column; gap: .5rem; font-size: 14px; color: var(--text, #eee);
  overflow-anchor: none; /* redrawn whole on every view: keep the page where the player left it */ }
.ec .ic { width: 1.4em; height: 1.4em; vertical-align: middle; flex: none; }
.ec h3 { margin: 0; font-size: 15px; font-family: var(--font-display, serif); }
.ec-strip { display: flex; flex-wrap: wrap; gap: .3rem .9rem; align-items: center; padding: .4rem .6rem;
  border-radius: 8px; background: var(--surface-2, #252030); border: 1px solid var(--border, #4a4058); }
.ec-strip .ec-pending { flex-basis: 100%; font-weight: 600; }
.ec-strip { container-type: inline-size; }
.ec-trackkey { grid-column: 1 / -1; display: flex; flex-wrap: wrap; align-items: center; gap: 0 .8rem;
  color: var(--muted, #b9aec8); line-height: 1.3; }
.ec-trackkey > span { display: inline-flex; align-items: center; gap: .25rem; white-space: nowrap; }
.ec-trackkey .ic { width: 1.3rem; height: 1.3rem; }
.ec-scale-sample { padding: 0 .25rem; border-radius: 3px; background: #fbf4e2; color: #2b2118; white-space: nowrap; }
.ec-stat { display: inline-flex; align-items: center; gap: .2rem; white-space: nowrap; }
.ec-chip { display: inline-flex; align-items: center; gap: .2rem; padding: 0 .35rem; border-radius: 4px;
  font-weight: 600; white-space: nowrap; line-height: 1.5; }
.ec-side { display: inline-flex; flex-wrap: wrap; align-items: center; gap: .15rem .45rem; }
.ec-money { display: inline-flex; align-items: center; gap: .5rem; }
.ec-chip.ec-team { background: #2b2118; color: #fbf4e2; border: 1px solid #fbf4e288; }
.ec-chip.ec-team .ec-shape { font-size: 15px; text-shadow: 0 0 1px #fff; }
/* boards */
.ec-boards { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(100%, 34rem), 1fr)); gap: .5rem; }
.ec-board { border-radius: 10px; border: 2px solid #2b2118; color: #2b2118; padding: .3rem .4rem .35rem;
  background: #a9c98a; box-shadow: 0 2px 6px #0008; display: flex; flex-direction: column; gap: .25rem; }
.ec-board.face-B { background: #e2c58f; }
/* the port cargo's word where the board's head has room for it on its line */
.ec-board { container-type: inline-size; }
@container (max-width: 42rem) { .ec-bhead .ec-cargo-for { display: none; } }
.ec-cargo-for { margin-left: 1px; }
/* (the boards you may use wear no frame: only what you may click is framed, in amber; lair.css
   "Marks". Their cells to click are.) */
.ec-bhead { display: flex; flex-wrap: wrap; align-items: center; gap: .1rem .6rem; font-size: 14px; line-height: 1.3; }
.ec-supply .ec-discard { margin-left: auto; align-self: flex-end; max-width: 50%; gap: .2rem; }
.ec-bhead h3 { color: #2b2118; margin-right: auto; }
.ec-half { display: flex; align-items: center; gap: .4rem; border-radius: 7px; padding: .15rem .25rem;
  background: #fff5; border-left: 6px solid var(--seat); }
.ec-owner { display: flex; flex-direction: column; align-items: flex-start; gap: .1rem; width: 9rem; flex: none;
  font-size: 14px; }
.ec-owner .ec-chip { max-width: 8.8rem; white-space: normal; overflow-wrap: anywhere; line-height: 1.25; padding: 0 .3rem; }
/* the conquest track (review item 9): its word, then the steps from the start to the centre */
.ec-conq { display: inline-flex; flex-wrap: wrap; align-items: center; gap: .1rem .3rem; }
.ec-conq-word { font-size: 14px; font-weight: 700; }
.ec-conq-steps { display: inline-flex; align-items: center; gap: 3px; }
.ec-conq .step { width: 1.6rem; height: 1.6rem; border-radius: 50%; border: 2px solid #2b2118; background: #fff8;
  display: inline-flex; align-items: center; justify-content: center; flex: none; }
.ec-conq .step.centre { border-radius: 4px; background: #f0c93e; }
.ec-conq .step .ic { width: 1.45rem; height: 1.45rem; }
.ec-conq .step.centre:not(.here) .ic { opacity: .7; }
.ec-conq .step.here { background: #fbf4e2; box-shadow: 0 0 0 2px #fbf4e2; }
.ec-cells { display: flex; flex-wrap: wrap; gap: .25rem; }
.ec-cell { position: relative; width: 3.9rem; height: 3.9rem; border-radius: 6px; flex: none;
  border: 2px solid #2b211855; background: #fff6; display: flex; align-items: center; justify-content: center; }
.ec-cell.k-raid { background: #f5c6a5a0; } .ec-cell.k-fortress { background: #c9c3bacc; }
.ec-cell.k-portal { background: #c7b3e6c0; } .ec-cell.k-port { background: #b5d6e6c0; }
.ec-cell > .ic.watermark { width: 2.2rem; height: 2.2rem; opacity: .55; }
.ec-cell .ec-tile { margin: 0; }
.ec-track { display: flex; align-items: center; gap: .3rem; }
.ec-end { display: inline-flex; align-items: center; justify-content: center; flex: none;
  width: 1.6rem; height: 2.2rem; border-radius: 5px; font-size: 15px; font-weight: 700; border: 2px solid #2b2118; }
.ec-steps { display: flex; flex: 1 1 auto; min-width: 0; gap: 1px; background: #2b2118; border: 2px solid #2b2118;
  border-radius: 5px; overflow: hidden; }
/* (a cell: its symbol over the scale's number, the numbers on one line along the track; a short
   screen, whose cells are lower, puts the number beside the symbol) */
.ec-steps > span { flex: 1 1 0; min-width: 0; height: 2.1rem; background: #fbf4e2; position: relative;
  display: flex; flex-direction: column-reverse; align-items: center; justify-content: flex-start; }
.ec-steps > span.marker { justify-content: center; }
.ec-dist { font-size: 14px; font-weight: 700; line-height: 1; color: #2b2118; }
.ec-steps > span.victory { background: #f7dd8c; }
.ec-steps > span.centre { background: #d9cdb5; }
.ec-steps > span .ic { width: min(1.45rem, 90%); height: 1.1rem; }
.ec-steps > span.marker { background: #2b2118; }
.ec-steps > span.marker .ic { width: min(1.8rem, 100%); height: 1.8rem; }
.ec-lead { font-size: 14px; font-weight: 700; white-space: nowrap; }
.ec-mid { display: flex; flex-direction: column; gap: .1rem; }
/* tiles */
.ec-tile { position: relative; display: inline-flex; flex-direction: column; align-items: center; justify-content: space-between;
  width: 3.6rem; height: 3.6rem; border: 2px solid #2b2118; border-radius: 6px; color: #2b2118; padding: 1px;
  box-shadow: 0 1px 2px #0006; vertical-align: top; }
.ec-tile.c-blue { background: ${I.TILE.blue}; } .ec-tile.c-red { background: ${I.TILE.red}; }
.ec-tile.c-yellow { background: ${I.TILE.yellow}; }
.ec-tile .ec-tl { position: absolute; left: 1px; top: 1px; width: 1.3rem; height: 1.3rem; }
.ec-tile .ec-tr { position: absolute; right: 1px; top: 1px; width: 1.2rem; height: 1.2rem; }
.ec-tile .ec-glyph { width: 1.75rem; height: 1.75rem; margin-top: .2rem; }
.ec-tile .ec-abil { display: flex; gap: 1px; justify-content: center; }
.ec-tile .ec-abil > span { display: inline-flex; border-radius: 3px; padding: 0 1px; }
.ec-key-abil { display: inline-flex; gap: 2px; } .ec-key-abil > span { display: inline-flex; border-radius: 3px; padding: 1px; }
.ec-key-abil .k-spawn { background: #9a9a9a; } .ec-key-abil .k-activated { background: #8b5a2b; }
.ec-key-cargo, .ec-cargo-cell { display: inline-flex; align-items: center; gap: 2px; }
.ec-strip .legend-key { margin-left: auto; }
.ec-tile .ec-abil .k-spawn { background: #9a9a9a; } .ec-tile .ec-abil .k-activated { background: #8b5a2b; }
.ec-tile .ec-abil .ic { width: .95rem; height: .95rem; }
.ec-mult { display: none; }
.ec-more { display: none; }  /* (a phone's row shows it: moreCue) */
.ec-tile.inactive { background: repeating-linear-gradient(135deg, #a8a0b3, #a8a0b3 5px, #b8b0c3 5px, #b8b0c3 10px); }
.ec-tile.inactive .ec-glyph, .ec-tile.inactive .ec-abil { opacity: .55; }
.ec-tile.boosted .ec-tl { filter: drop-shadow(0 0 3px #f0c93e); }
.ec-tile.big { width: 5.5rem; height: 6.3rem; justify-content: flex-start; gap: 1px; }
/* (the creature between the corners: a name of two lines and the ability symbols fit under it) */
.ec-tile.big .ec-glyph { width: 2rem; height: 2rem; margin-top: 0; flex: none; }
.ec-tile.big .ec-abil { margin-top: auto; }
.ec-tile .ec-name { font-size: 12px; line-height: 1.05; text-align: center; font-weight: 600; hyphens: auto; }
.ec-swatch { display: inline-block; width: .8rem; height: .8rem; border: 1.5px solid #2b2118; border-radius: 2px; }
.ec-swatch.c-yellow { background: ${I.TILE.yellow}; } .ec-swatch.c-red { background: ${I.TILE.red}; }
.ec-swatch.c-blue { background: ${I.TILE.blue}; margin-left: -3px; }
.ec-tile .ec-revealed { position: absolute; right: -6px; bottom: -6px; width: 1.3rem; height: 1.3rem; }
.ec-tile.back { background: repeating-linear-gradient(45deg, #4a4058, #4a4058 4px, #5a5068 4px, #5a5068 8px);
  width: 1.6rem; height: 2.2rem; }
.ec-tile.small { width: 2.9rem; height: 2.9rem; }
.ec-tile.small .ec-glyph { width: 1.3rem; height: 1.3rem; margin-top: .45rem; }
.ec-tile.small .ec-abil .ic { width: .75rem; height: .75rem; }
.ec-tile.small .ec-tl { width: 1.05rem; height: 1.05rem; } .ec-tile.small .ec-tr { width: .95rem; height: .95rem; }
/* panels: screens, personnel department, sides */
.ec-panel { border-radius: 8px; padding: .35rem .5rem; background: var(--surface-2, #252030);
  border: 1px solid var(--border, #4a4058); display: flex; flex-direction: column; gap: .3rem; }
/* your screen: your seat's colour down its side, as your half of a board (the gold frame it
   wore was the clickable places' colour, in a replay too) */
.ec-panel.ec-mine { border-left: 6px solid var(--seat, var(--border, #4a4058)); }
/* (room under your screen for a tile's "Suggested" / "Picked" tag hung below it: with an
   ability badge at the tile's foot and the fear track's words 15 px under it, no place near
   the tile was free and the tag covered the badge's edge; a CI run's hint, Junior Goblin) */
#ec-my-screen { margin-bottom: 6px; }
.ec-row { display: flex; flex-wrap: wrap; gap: .35rem; align-items: flex-start; }
.ec-screens { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(100%, 17rem), 1fr)); gap: .5rem; }
.ec-phead { display: flex; flex-wrap: wrap; gap: .2rem .6rem; align-items: center; }
.ec-muted { color: var(--muted, #b9aec8); font-size: 13px; }
.ec-dept { background: #6b4a35; border-color: #2b2118; color: #fbf4e2; }
.ec-dept h3 { color: #fbf4e2; }
.ec-queue { display: flex; flex-wrap: wrap; gap: .35rem; align-items: stretch; }
.ec-qcell { display: flex; flex-direction: column; align-items: center; gap: .15rem; padding: .2rem; width: 6.1rem;
  border-radius: 6px; background: #fbf4e21f; border: 1px solid #fbf4e255; text-align: center; font-size: 13px; }
.ec-qcell.raise { background: #f0c93e33; }
.ec-qcell.last { background: #0000002a; }
/* the applicants you may hire, on the head line of your screen (hireRow) */
.ec-hire { display: inline-flex; flex-wrap: wrap; align-items: center; gap: .25rem .4rem; padding: .15rem .4rem;
  margin-left: auto; border-radius: 6px; background: #6b4a35; border: 1px solid #2b2118; color: #fbf4e2; }
.ec-hire-word { font-weight: 600; white-space: nowrap; }
.ec-hire-word .short { display: none; }
.ec-hcell { display: inline-flex; align-items: center; gap: .25rem; padding: .1rem .3rem .1rem .1rem; border-radius: 6px;
  background: #fbf4e21f; border: 1px solid #fbf4e255; }
/* a chip's tile: its corners and its ability symbols (the creature gives way: the name is beside
   it), as wide as two symbols with their numbers take */
.ec-hcell .ec-tile.small { width: auto; min-width: 3rem; height: 2.6rem; padding: 1px 2px; justify-content: flex-end; }
.ec-hcell .ec-tile.small .ec-glyph { display: none; }
/* the ability symbols of a tile one reads before hiring it or putting it into play (applicants,
   the chips to hire, your screen) at 1.1rem, drawn ~15 px (the fresh review's worst problem
   10: 9 to 10 px) */
.ec-tile.big .ec-abil .ic, .ec-hcell .ec-tile .ec-abil .ic { width: 1.1rem; height: 1.1rem; }
/* the applicants' in the Personnel department larger still: a symbol drawn at least 14 px
   (the review: ~12 px), its multiplier beside it at 15 px */
.ec-qcell .ec-tile.big .ec-abil .ic { width: 1.45rem; height: 1.45rem; }
.ec-qcell .ec-tile.big .ec-abil .ec-mult { font-size: 15px; }
.ec-hname { font-size: 14px; font-weight: 600; max-width: 7rem; line-height: 1.1; }
.ec-hire-all { min-height: 0; padding: .1rem .5rem; font-size: 14px; font-weight: 600;
  background: transparent; color: #fbf4e2; border: 1px solid #fbf4e288; }
.ec-hire-list { display: contents; }
/* a desktop with the seats column beside the table (≥1101 px: your name, coins and tokens are
   in your panel there): the applicants share your screen's head line with "your screen" and
   your gold, not a line of their own, so that at 1366×768 your screen, the boards you may use
   and every fear track are on screen at once on a turn that offers a hire (issue 14, items 2
   and 6; the line of its own took ~50 px and put board 3's track under the window's edge) */
@media (min-width: 1101px) {
  #ec-my-screen .ec-phead:has(> #ec-hire) .ec-money > :not(:first-child),
  #ec-my-screen .ec-phead:has(> #ec-hire) > .ec-chip { display: none; }
  #ec-hire .ec-hire-word .long { display: none; }
  #ec-hire .ec-hire-word .short { display: inline; }
  /* more applicants than the line holds: the list scrolls sideways with its cues (moreCue), as
     on a phone, and the line never wraps */
  #ec-my-screen .ec-phead:has(> #ec-hire) { flex-wrap: nowrap; }
  #ec-my-screen .ec-phead:has(> #ec-hire) > :not(#ec-hire) { flex: none; white-space: nowrap; }
  #ec-hire { position: relative; flex: 0 1 auto; min-width: 0; flex-wrap: nowrap; }
  #ec-hire > * { flex: none; }
  #ec-hire > .ec-hire-list { display: flex; flex: 0 1 auto; min-width: 0; gap: .3rem; overflow-x: auto;
    overscroll-behavior-x: contain; scroll-snap-type: x proximity; scroll-padding: 0 4rem; padding: 5px 4px;
    margin: -5px 0; scrollbar-width: none; }
  #ec-hire .ec-hire-list > * { flex: none; scroll-snap-align: start; }
  #ec-my-screen { position: relative; }
  #ec-hire > .ec-more:not([hidden]) { position: absolute; z-index: 2; display: flex; flex-direction: column;
    align-items: center; justify-content: center; padding: 0 .15rem; font-size: 14px; font-weight: 700;
    line-height: 1.1; text-align: center; color: var(--text, #eee); cursor: pointer; border-radius: 6px;
    background: var(--surface-2, #252030); box-shadow: inset 0 0 0 1px var(--border, #4a4058); }
  #ec-hire > .ec-more .ec-more-arrow { font-size: 20px; line-height: 1; }
}
/* a phone: the screen's head shows your gold, then the applicants on one line beside it, each
   with its name in two short lines (the fresh review: a tile and a price alone named nobody):
   a row that scrolls sideways when they do not fit, a cue at an end over what is not wholly in
   view ("› 2 more": moreCue; the new-user trial: a row that scrolled with no cue cut the second
   applicant in half and hid the third; wrapped, named applicants took a line each and pushed
   the boards below the first screen); your name (the frame says it is your screen), your coins
   and tokens are in your seat's panel (only the applicants you can pay are offered; the
   Night's keep keeps your gold beside its prices) */
@media (max-width: 600px) {
  #ec-my-screen .ec-phead:has(> .ec-hire) .ec-money > :not(:first-child),
  #ec-my-screen .ec-phead:has(> #ec-hire) .ec-money,
  #ec-my-screen .ec-phead:has(> #ec-hire) > .ec-chip { display: none; }
  .ec-hire { flex: 1 1 auto; min-width: 0; flex-wrap: wrap; margin-left: 0; padding: 0 .3rem; border: 0; }
  #ec-hire { position: relative; flex: 1 1 0; flex-wrap: nowrap; }
  .ec-hire > * { flex: none; }
  .ec-hire > .ec-hire-list { display: flex; flex: 1 1 auto; min-width: 0; gap: .3rem; overflow-x: auto;
    overscroll-behavior-x: contain; scroll-snap-type: x proximity; scroll-padding: 0 4rem; padding: 5px 4px;
    margin: -5px 0; scrollbar-width: none; }
  .ec-hire-list > * { flex: none; scroll-snap-align: start; }
  .ec-hcell { height: 44px; padding: 0 .3rem 0 .15rem; }  /* the touch-target floor, no more */
  .ec-hname { font-size: 13px; line-height: 1.05; max-width: 5.6rem; }
  .ec-hire-word .long, .ec-hire-all { display: none; }
  .ec-hire-word .short { display: inline; }
}
.ec-price { display: inline-flex; align-items: center; gap: .15rem; font-weight: 700; font-size: 14px; }
.ec-demons { display: flex; flex-wrap: wrap; gap: .35rem; }
.ec-demon { display: flex; flex-direction: column; gap: .05rem; padding: .25rem .35rem; border-radius: 6px;
  background: #fbf4e21f; border: 1px solid #fbf4e255; min-width: 11rem; }
.ec-demon.inactive { opacity: .6; }
.ec-dname { display: flex; align-items: center; gap: .3rem; }
.ec-dname > .ic { width: 1.6rem; height: 1.6rem; flex: none; }
.ec-demon .lv-cap { color: #e6d9bf; font-size: 13px; }
.ec-demon .lv-word { white-space: nowrap; margin-right: .15rem; }
.ec-demon .lv { display: flex; align-items: center; gap: .15rem; font-size: 13px; }
.ec-demon .lv .ic { width: 1.1rem; height: 1.1rem; }
.ec-demon .lv .pips { width: 1.5rem; height: 1rem; }
.ec .legal { outline: 3px solid var(--mark-click, #E69F00); outline-offset: 1px; box-shadow: 0 0 8px var(--mark-click, #E69F00); cursor: pointer; }
/* a tile picked: the prompt asks for a cell, so the applicants (still a click away, a hire
   instead) wear no amber meanwhile (review 9, worst problem 8: two gold things to act on) */
.ec-later .legal { outline: 1px dashed #fbf4e288; box-shadow: none; }
/* the cues over a row that scrolls sideways say "› 2 more" on one line, never cut */
#ec-hire .ec-more-n { white-space: nowrap; }
/* the Night's keep: the fortress monster asked about (its choices, the buttons to click, are in
   keepRow): a dotted light ring and the word "Keep?", not the clickable places' amber */
.ec .ec-keeping { outline: 3px dotted #fbf4e2; outline-offset: 2px; box-shadow: 0 0 0 5px #2b2118aa; }
/* (class has-tag: the table moves the word clear of the fear track, a shield, another tag:
   static/js/table/tags.js, through --tagb-x / -y / -t) */
.ec .ec-keeping::before { content: "Keep?"; position: absolute; z-index: 3; left: var(--tagb-x, 50%); top: var(--tagb-y, -12px);
  transform: var(--tagb-t, translateX(-50%)); padding: 0 4px; border-radius: 5px; background: #2b2118; color: #fbf4e2;
  font-size: 13px; font-weight: 700; line-height: 16px; white-space: nowrap; pointer-events: none; }
.ec-keeprow .ec-kboard { font-size: 14px; white-space: nowrap; }
.ec-keeprow .ec-keepbtn { min-height: 36px; font-size: 14px; white-space: nowrap; }
@media (max-width: 600px) { .ec-keeprow .ec-keepbtn { min-height: 44px; } }  /* the touch-target floor */
.ec [data-pick] { outline: 2px dashed var(--mark-click, #E69F00); outline-offset: 1px; cursor: pointer; }
/* a tile behind your screen that is no choice now (review item 2): faded, no outline; its card
   says why, and so do a few words on it, unfaded, in place of its ability symbols (the fresh
   review's worst problem 3: the reason was a hover away; the symbols are on its card, which a
   click or a tap opens) */
.ec-tile.no-choice { filter: grayscale(.75) brightness(.85); cursor: help; box-shadow: none; }
.ec-tile.no-choice > :not(.ec-why) { opacity: .5; }
.ec-tile.no-choice .ec-abil { display: none; }
/* (its widest words, "not a choice", fit a screen's tile: light ink on dark, not bold) */
.ec-why { margin-top: auto; max-width: 100%; padding: 0 .15rem; border-radius: 3px; background: #2b2118;
  color: #fbf4e2; font-size: 14px; line-height: 1.2; white-space: nowrap; letter-spacing: -.03em; }
/* a twin's reason names the tile to play instead ("play the other Junior Imp": "use its twin"
   said not which), on two lines where the faded creature was */
.ec-tile.no-choice:has(> .ec-why.twin) > :is(.ec-glyph, .ec-name) { display: none; }
.ec-why.twin { white-space: normal; text-align: center; line-height: 1.1; letter-spacing: -.02em; }
.ec-card .why { font-weight: 700; color: #8a1c1c; }
/* a picked tile: the table's look for every game (lair.css "Marks": lifted, a white ring, "Picked") */
.ec .changed { animation: ec-flash .9s ease-out 1; }
@keyframes ec-flash { from { box-shadow: 0 0 0 4px #f0c93e; } to { box-shadow: 0 0 0 0 transparent; } }
@media (prefers-reduced-motion: reduce) { .ec .changed { animation: none; } }
.ec-card { display: flex; flex-direction: column; gap: .3rem; max-width: 19rem; }
.ec-card .head { display: flex; align-items: center; gap: .4rem; font-weight: 700; font-size: 15px; }
.ec-card .head .ic { width: 2rem; height: 2rem; }
.ec-card .nums { display: flex; flex-wrap: wrap; gap: .2rem .8rem; }
.ec-card .ab { display: flex; gap: .35rem; align-items: flex-start; }
.ec-card .ab .ic { width: 1.5rem; height: 1.5rem; flex: none; }
.ec-card .kind { font-weight: 700; }
.ec-card .where { color: #5a5048; font-style: italic; }
/* A short screen (1366×768 and the like, issue 14 item 2): every fear track fits on screen at
   once above the prompt bar, so the boards are compact: smaller cells, tiles and track steps. */
@media (min-width: 601px) and (max-height: 900px) {
  .ec { gap: .35rem; }
  .ec-strip { padding: .2rem .6rem; }
  .ec-boards { gap: .35rem; }
  .ec-board { padding: .15rem .4rem .2rem; gap: .12rem; }
  .ec-bhead { line-height: 1.15; }
  .ec-half { padding: .05rem .25rem; }
  /* the side's name and its conquest track on one line where the board is wide enough */
  .ec-owner { flex-direction: row; flex-wrap: wrap; align-items: center; gap: .05rem .4rem; width: auto;
    flex: 0 1 18.5rem; min-width: 9rem; }
  .ec-cells { flex: none; }
  .ec-conq { flex-wrap: nowrap; }
  .ec-conq .step { width: 1.4rem; height: 1.4rem; }
  .ec-conq .step .ic { width: 1.25rem; height: 1.25rem; }
  .ec-cells { gap: .2rem; }
  .ec-cell { width: 2.6rem; height: 2.6rem; }
  .ec-cell > .ic.watermark { width: 1.6rem; height: 1.6rem; }
  .ec-cell .ec-tile { width: 2.45rem; height: 2.45rem; }
  .ec-cell .ec-tile .ec-glyph { width: 1.05rem; height: 1.05rem; margin-top: .4rem; }
  .ec-cell .ec-tile .ec-abil .ic { width: .65rem; height: .65rem; }
  .ec-cell .ec-tile .ec-tl { width: .95rem; height: .95rem; }
  .ec-cell .ec-tile .ec-tr { width: .85rem; height: .85rem; }
  .ec-steps > span { height: 1.55rem; flex-direction: row; justify-content: center; gap: 1px; }
  .ec-steps > span .ic { width: min(1.1rem, 90%); height: 1.1rem; }
  .ec-steps > span.marker .ic { width: min(1.35rem, 100%); height: 1.35rem; }
  .ec-end { width: 1.3rem; height: 1.6rem; font-size: 13px; }
  .ec-tile.big { width: 4.6rem; height: 5.3rem; }
  .ec-tile.big .ec-glyph { width: 1.6rem; height: 1.6rem; }
  .ec-tile .ec-name { font-size: 11px; }
}
/* Desktops: no text under 14 px (issue 14 "Done when": body text at least 14 px on desktop; a
   monster's name was 12 px, 11 on a short screen): names on a wider tile, two lines of them. */
@media (min-width: 601px) {
  .ec-muted, .ec-qcell, .ec-demon .lv, .ec-demon .lv-cap, .ec-end { font-size: 14px; }
  .ec-tile .ec-name { font-size: 14px; line-height: 1.05; overflow-wrap: break-word; letter-spacing: -.02em; }
  .ec-tile.big { width: 5.9rem; }
  .ec-qcell { width: 6.5rem; }
}
@media (max-width: 600px) {
  .ec-bhead h3 { font-size: 14px; }
  /* (a board's head keeps to two lines with "Team 2 leads by 2" on it: its small pictures
     say what they are in their names and cards) */
  .ec-phead .ec-word, .ec-bhead .ec-face { display: none; }
  .ec-bhead { gap: .1rem .45rem; }
  .ec-bhead .ec-stat { gap: .1rem; }
  .ec-phead > .ic:first-child { display: none; }
  .ec-half { flex-wrap: wrap; }
  /* the side's name, its conquest track and the power stone (as its picture: its card says
     what it is) on one line: a line more per half would push the second usable board below a
     375x812 screen */
  .ec-owner { width: 100%; flex-direction: row; align-items: center; flex-wrap: wrap; gap: .1rem .3rem; }
  .ec-owner .ec-word { display: none; }
  .ec-conq { gap: .1rem .25rem; }
  .ec-conq-word { font-size: 13px; }
  .ec-conq-steps { gap: 2px; }
  .ec-conq .step { width: 1.35rem; height: 1.35rem; }
  .ec-conq .step .ic { width: 1.2rem; height: 1.2rem; }
  .ec-owner .ec-chip { max-width: none; }
  /* six cells in one row at 375 px, so a phone shows your screen and both usable boards */
  .ec-cells { gap: .18rem; flex-wrap: nowrap; }
  .ec-board { padding: .15rem .35rem .2rem; gap: .12rem; }
  .ec-half { padding: .05rem .2rem; }
  .ec-cell { width: 2.75rem; height: 2.75rem; }  /* 44 px: the touch-target floor */
  .ec-cell > .ic.watermark { width: 1.6rem; height: 1.6rem; }
  .ec-cell .ec-tile { width: 2.6rem; height: 2.6rem; }
  .ec-cell .ec-tile .ec-glyph { width: 1.1rem; height: 1.1rem; margin-top: .4rem; }
  .ec-cell .ec-tile .ec-abil .ic { width: .68rem; height: .68rem; }
  .ec-cell .ec-tile .ec-tl { width: 1rem; height: 1rem; }
  .ec-cell .ec-tile .ec-tr { width: .9rem; height: .9rem; }
  .ec-steps > span { height: 1.7rem; }
  .ec-steps > span .ic { height: 14px; }
  .ec-steps > span.marker .ic { height: 1.5rem; }
  .ec-dist { font-size: 13px; }
  .ec-end { width: 1.2rem; height: 1.7rem; font-size: 13px; }
  /* a monster's name at 13 px, the phones' floor (issue 14): a wider tile, two lines of name */
  .ec-tile.big { width: 5.8rem; height: 6.2rem; }
  .ec-tile.big .ec-glyph { margin-top: .95rem; width: 1.6rem; height: 1.6rem; }
  .ec-tile .ec-name { font-size: 13px; line-height: 1.05; overflow-wrap: break-word; letter-spacing: -.02em; }
  .ec-qcell { width: 6rem; }
  .ec-demon { min-width: 0; flex: 1 1 9.5rem; }
  /* your screen (Days start with 4-5 tiles): one row of tiles that scrolls sideways (by touch,
     or by the keyboard: the row takes the focus, a tile's focus scrolls it in), the discard
     pile at its end, so the screen keeps one tile's height and the boards you may use stay on
     the first screen; a cue at an end says there is more (moreCue), and what the row brings
     into view keeps clear of it (scroll-padding) */
  #ec-my-screen .ec-supply { flex-wrap: nowrap; overflow-x: auto; overscroll-behavior-x: contain;
    scroll-snap-type: x proximity; scroll-padding: 0 4rem; gap: .25rem; padding: 6px 4px 8px; margin: -6px -8px -8px;
    scrollbar-width: thin; }
  /* (a picked tile's "Picked" tag under it, inside the row that clips it: it lay on the tile's
     ability badge, table review 8; the row reaches as far down, the page as before) */
  #ec-my-screen .ec-supply { padding-bottom: 24px; margin-bottom: -24px; }
  /* (and the key line below far enough that the tag fits between: with the tile's badge under
     it and the key line's words just below, the tag went onto the next tile, review 9) */
  #ec-my-screen { margin-bottom: 4px; }
  #ec-my-screen .ec-supply > * { flex: none; scroll-snap-align: start; }
  #ec-my-screen .ec-supply > .ec-discard { flex-wrap: nowrap; max-width: none; padding-left: .4rem;
    border-left: 1px dashed var(--border, #4a4058); }
  /* and a lower tile there: the creature between the corner numbers, its name, its abilities */
  /* (three tiles whole at 375 px, the row to the panel's edges, and the cue over the fourth:
     moreCue; "Headhunter" in 13 px bold on one line) */
  #ec-my-screen .ec-tile.big { width: 5.7rem; height: 4.85rem; }
  #ec-my-screen .ec-tile.big .ec-glyph { margin-top: 0; width: 1.4rem; height: 1.4rem; flex: none; }
  /* each end with more beyond it: a cue over what is not wholly in view (moreCue) */
  #ec-my-screen { position: relative; }
  #ec-my-screen .ec-more:not([hidden]) { position: absolute; z-index: 2; display: flex; flex-direction: column;
    align-items: center; justify-content: center; padding: 0 .15rem; font-size: 13px; font-weight: 700;
    line-height: 1.1; text-align: center; color: var(--text, #eee); cursor: pointer; border-radius: 6px;
    background: var(--surface-2, #252030); box-shadow: inset 0 0 0 1px var(--border, #4a4058); }
  .ec-more-arrow { font-size: 28px; line-height: 1; }
  .ec-hire > .ec-more .ec-more-arrow { font-size: 20px; }
  .ec-why { font-size: 13px; }
  .ec-trackkey { font-size: 13px; gap: 0 .6rem; flex-wrap: nowrap; }
  .ec-trackkey .ec-key-word, .ec-trackkey .ec-key-scale { display: none; }
  #ec-my-screen .ec-supply:focus-visible { outline: 2px solid var(--highlight, #f0c93e); outline-offset: -2px; }
}
/* the "Last Night" recap (recapNode): under the strip on a desktop; on a phone one line fixed
   at the window's bottom (the page's first screen is your screen and your boards), which opens
   upward on a tap */
.ec-recap { display: flex; flex-direction: column; gap: .15rem; padding: .2rem .5rem; border-radius: 8px;
  background: #2b2118; color: #fbf4e2; border: 1px solid #f0c93e88; line-height: 1.35; }
.ec-recap-head { display: flex; flex-wrap: wrap; align-items: center; gap: .1rem .6rem; }
.ec-recap-head strong { font-family: var(--font-display, serif); }
.ec-recap .ec-muted { color: #e6d9bf; }
.ec-recap-row { display: flex; flex-wrap: wrap; align-items: center; gap: .05rem .7rem; }
.ec-recap-row > span { display: inline-flex; align-items: center; gap: .2rem; }
.ec-recap-close { margin-left: auto; min-height: 0; padding: 0 .5rem; font-size: 16px; line-height: 1.5;
  background: transparent; color: #fbf4e2; border: 1px solid #fbf4e288; border-radius: 6px; cursor: pointer; }
.ec-recap-toggle, .ec-recap-short { display: none; }
@media (max-width: 600px) {
  .ec-recap { position: fixed; left: 0; right: 0; bottom: 0; z-index: 40; border-radius: 10px 10px 0 0;
    max-height: 55vh; overflow-y: auto; box-shadow: 0 -2px 10px #000c; padding: 0 .5rem .2rem; font-size: 13px; }
  .ec-recap-head { flex-wrap: nowrap; }
  .ec-recap:not(.open) .ec-recap-row { display: none; }
  .ec-recap-toggle { display: inline-flex; align-items: center; gap: .3rem; min-height: 44px; padding: 0; flex: 1 1 auto;
    min-width: 0; justify-content: flex-start; background: transparent; color: #fbf4e2; border: 0; font: inherit;
    text-align: left; cursor: pointer; }
  .ec-recap-head > strong, .ec-recap-head > .ec-muted { display: none; }
  .ec-recap:not(.open) .ec-recap-short { display: inline-flex; flex-wrap: nowrap; gap: .5rem; overflow: hidden; white-space: nowrap; }
  .ec-recap-close { min-height: 44px; min-width: 44px; }
}
/* Numbers in icons at the text floor of every screen (issue 14 "Done when": 14 px on desktops,
   13 on phones), one home for both (after the two media queries above, whose sizes it
   overrides): drawn larger in their icons (22.5 of the icon's 32 units on a desktop, 21 on a
   phone, in icons of 20 px; a tile's corners on a board's cell, 17.6 px on a desktop, at 25.5),
   each icon holding one at least 20 px wide; an ability symbol's multiplier, too small to read on
   its badge, as text beside the symbol. (The sizes are variables of the root: a card's tile is
   outside the board.) */
:root { --ec-num: 22.5px; --ec-mult: 14px; --ec-cell-corner: 1.1rem; --ec-cell-num: 25.5px; }
@media (max-width: 600px) {
  :root { --ec-num: 21px; --ec-mult: 13px; --ec-cell-corner: 1.25rem; --ec-cell-num: 21px; }
}
.ec .ic text.n { font-size: var(--ec-num); }
/* a small icon's card (legend.js, outside the board) draws its picture's number as large */
.legend-card-head .ic text.n { font-size: var(--ec-num); }
.ec .ic .badge { display: none; }
.ec-mult { display: inline; font-size: var(--ec-mult); line-height: 1; font-weight: 800; align-self: center;
  padding: 0 1px; }
.ec-tile .ec-abil .k-activated .ec-mult { color: #fff; }
.ec-tile .ec-abil > span, .ec-demon .lv { align-items: center; }
.ec-tile .ec-tr, .ec-tile .ec-tl, .ec-tile.small .ec-tl, .ec-tile.small .ec-tr { width: 1.25rem; height: 1.25rem; }
.ec-cell .ec-tile .ec-tl, .ec-cell .ec-tile .ec-tr { width: var(--ec-cell-corner); height: var(--ec-cell-corner); }
.ec-cell .ec-tile .ec-tl text.n, .ec-cell .ec-tile .ec-tr text.n { font-size: var(--ec-cell-num); }
.ec-tile .ec-tl { left: 0; top: 0; } .ec-tile .ec-tr { right: 0; top: 0; }
.ec-cell .ec-tile { justify-content: flex-end; padding: 0 0 1px; }
.ec-cell .ec-tile .ec-glyph { width: .95rem; height: .95rem; margin: 0; }
.ec-bhead .ec-stat .ic, .ec-demon .lv .ic:not(.pips), .ec-key-cargo .ic, .ec .legend-icon > .ic { width: 1.25rem; height: 1.25rem; }
/* the fear track's "2 magic coins": the number fills the coin (a step is ~15 px wide) */
.ec-steps > span .ic text.n { font-size: 34px; stroke: #2b2118; stroke-width: 3px; paint-order: stroke; }
.ec-steps > span .ic { width: 100%; max-width: 1.1rem; min-width: 0; }
`;

// ----- helpers -----------------------------------------------------------------------------------

function same(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Mark a node "changed" (a flash) when its signature differs from the previous view's. */
function mark(node, key, signature) {
  if (previous.has(key) && !same(previous.get(key), signature)) node.classList.add("changed");
  nextSigs.set(key, signature);
  return node;
}

function actionsWhere(pred) {
  return table.find(pred);
}

/** Make an element a clickable legal target for `action`. */
function clickable(node, action) {
  node.classList.add("legal");
  node.dataset.action = JSON.stringify(action);
  node.setAttribute("tabindex", "0");
  node.setAttribute("role", "button");
  node.setAttribute("aria-label", table.label(action));
  const go = () => { picked = null; table.act(action); };
  node.addEventListener("click", (e) => { e.stopPropagation(); go(); });
  node.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); go(); } });
  table.claim(action);
  return node;
}

function pickable(node, tileId, name) {
  node.dataset.pick = String(tileId);
  node.setAttribute("tabindex", "0");
  node.setAttribute("role", "button");
  node.setAttribute("aria-label", `Pick ${name} to put it into play`);
  if (picked === tileId) node.classList.add("picked");
  const go = () => {
    picked = picked === tileId ? null : tileId;
    scrollToCell = picked !== null;
    update(lastView);
  };
  node.addEventListener("click", (e) => { e.stopPropagation(); go(); });
  node.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); go(); } });
  return node;
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

/** The seat's shape (the table's; the replay viewer's table has none: the same list). */
const SHAPES = ["\u25CF", "\u25B2", "\u25A0", "\u25C6"];
function shape(seat) {
  return typeof table.seatShape === "function" ? table.seatShape(seat) : SHAPES[seat % SHAPES.length];
}

/** A seat's name on its colour, with its shape (colour is never the only cue). */
function chip(seat) {
  const bg = table.seatColor(seat);
  return el("span", {class: "ec-chip", style: {background: bg, color: chipText(bg)}},
    shape(seat) ? el("span", {"aria-hidden": "true"}, shape(seat)) : null, table.seatName(seat));
}

/** A side's name: its player's name, or "Team 1" / "Team 2" with 4 players (as the seats
 *  list names the teams). */
function sideName(game, side) {
  if (game.players === 4) return `Team ${side + 1}`;
  return game.sides[side].seats.map((s) => table.seatName(s)).join(" & ");
}

function sideChips(game, side) {
  const seats = game.sides[side].seats;
  if (game.players === 4) {
    // one chip per team: its seats' shapes in their colours, and the team's name
    return el("span", {class: "ec-chip ec-team", title: seats.map((s) => table.seatName(s)).join(" & ")},
      ...seats.map((s) => el("span", {class: "ec-shape", style: {color: table.seatColor(s)}, "aria-hidden": "true"}, shape(s))),
      sideName(game, side));
  }
  const out = el("span", {class: "ec-side"});
  seats.forEach((s, i) => { if (i) out.append("&"); out.append(chip(s)); });
  return out;
}

function stat(icon, value, label) {
  return el("span", {class: "ec-stat", title: label, "aria-label": `${label}: ${value}`}, icon, String(value));
}


/** An ability symbol's multiplier as text beside it, shown where the symbol is too small for
 *  the number drawn on it to read (phones: its badge is hidden there); null without one. */
function mult(e) {
  const m = I.multiplier(e);
  return m === null ? null : el("b", {class: "ec-mult", "aria-hidden": "true"}, String(m));
}

// ----- tiles and their cards -----------------------------------------------------------------------

function typeOf(game, t) {
  return (game.catalog || {})[t.type] || {colour: "blue", fear: 0, cost: 0, name: "Monster", abilities: {}};
}

function abilityList(c) {
  const ab = c.abilities || {};
  const out = [];
  for (const p of ab.passive || []) out.push(["passive", p]);
  for (const e of ab.spawn || []) out.push(["spawn", e]);
  for (const e of ab.activated || []) out.push(["activated", e]);
  return out;
}

/** The full card of a monster tile: every number and each ability in the rulebook's words. */
function tileCard(game, t, extra = {}) {
  const c = typeOf(game, t);
  const fear = extra.fear !== undefined ? extra.fear : c.fear;
  const card = el("div", {class: "ec-card"},
    el("div", {class: "head"}, I.monster(c.colour), el("span", {}, c.name)),
    el("div", {class: "nums"},
      el("span", {}, `${COLOUR_NAME[c.colour] || c.colour} monster`),
      el("span", {}, `Fear strength ${fear}` + (fear !== c.fear ? ` (printed ${c.fear})` : "")),
      el("span", {}, c.starting ? "Starting monster (hire cost 0)" : `Hire cost ${c.cost} gold`)));
  if (extra.why) card.append(el("div", {class: "why"}, extra.why));
  if (extra.up === false) card.append(el("div", {}, "Inactive side up: no passive ability, cannot be activated."));
  if (extra.where) card.append(el("div", {class: "where"}, extra.where));
  const list = abilityList(c);
  if (!list.length) card.append(el("div", {}, "No ability."));
  const KIND = {passive: "Passive.", spawn: "Spawn.", activated: "Activated."};
  for (const [kind, e] of list) {
    card.append(el("div", {class: "ab"}, I.abilitySymbol(e),
      el("span", {}, el("span", {class: "kind"}, KIND[kind]), " ", I.wording(e))));
  }
  if (c.abilities && c.abilities.requires && c.abilities.requires.supply) {
    card.append(el("div", {class: "where"}, "If you cannot, the tile cannot be put into play."));
  }
  return card;
}

/** The names and words of a tile's marks (the rulebook's "Each monster tile shows: its fear
 *  strength (number in the upper left), its hire cost, a passive ability, a spawn ability (grey
 *  background) and an activated ability (brown background)"). */
const BADGE_WORDS = {
  fear: "Upper left of a tile. When the monster is put into a raid cell or the fortress, move the fear marker toward your opponent by this many spaces.",
  cost: "Upper right of a tile: the gold coins you pay to hire the monster from the applicant queue.",
  starting: "Upper right of a tile: a starting monster, it has no hire cost.",
  passive: "Passive ability (no background)",
  spawn: "Spawn ability (grey background), applied when the monster is put into play",
  activated: "Activated ability (brown background), used as your turn's action",
};

/** A monster tile as a tile: colour, fear strength (upper left), hire cost (upper right), the
 *  creature, its ability symbols (spawn on grey, activated on brown, as printed). */
function tileNode(game, t, extra = {}) {
  const c = typeOf(game, t);
  const fear = extra.fear !== undefined ? extra.fear : c.fear;
  const size = extra.size || "";
  // data-motion-key: the same tile slides from where it was (screen, cell, discard…) to here
  const node = el("div", {class: `ec-tile c-${c.colour} ${size}` + (extra.up === false ? " inactive" : "") +
    (fear > c.fear ? " boosted" : "") + (extra.why ? " no-choice" : ""), dataset: {motionKey: `tile-${t.id}`},
  "aria-label": `${c.name}, ${c.colour}, fear strength ${fear}, hire cost ${c.cost}` +
    (extra.up === false ? ", inactive" : "") + (extra.why ? `. ${extra.why}` : "")});
  const fi = I.fear(fear); fi.classList.add("ec-tl");
  const ci = c.starting ? I.startingSign() : I.goldCoin(c.cost); ci.classList.add("ec-tr");
  const glyph = I.monster(c.colour); glyph.classList.add("ec-glyph");
  // each mark on the tile says what it is when the mouse rests on it (the new-user trial: the
  // tiles' small badges were unexplained); a long-press still opens the whole tile's card
  const badge = (n, name, words) => iconCard(n, name, words, {touch: false});
  badge(fi, `Fear strength ${fear}` + (fear !== c.fear ? ` (printed ${c.fear})` : ""), BADGE_WORDS.fear);
  if (c.starting) badge(ci, "Starting monster", BADGE_WORDS.starting);
  else badge(ci, `Hire cost ${c.cost} gold`, BADGE_WORDS.cost);
  node.append(fi, ci, glyph);
  if (size === "big") node.append(el("span", {class: "ec-name"}, c.name));
  const ab = el("div", {class: "ec-abil"});
  for (const [kind, e] of abilityList(c)) {
    const sym = I.abilitySymbol(e);
    const tip = sym.querySelector("title");
    if (tip) tip.remove();  // (the browser's tooltip would show beside the card)
    ab.append(badge(el("span", {class: `k-${kind}`}, sym, mult(e)), BADGE_WORDS[kind],
      (extra.up === false ? "Inactive side up: no ability now. " : "") + I.wording(e)));
  }
  node.append(ab);
  // a faded tile's reason in a few words on the tile (its card has the whole sentence; the
  // tile's name says it to a screen reader)
  if (extra.short) node.append(el("span", {class: "ec-why" + (extra.twin ? " twin" : ""), "aria-hidden": "true"}, extra.short));
  node.setAttribute("role", "img");  // its name says it all (pickable / clickable: a button)
  attachCard(node, () => tileCard(game, t, extra), {clickShows: !!extra.why});
  return node;
}

// ----- mount / update ----------------------------------------------------------------------------

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
  rowWatch.disconnect();
  if (!game) return;
  const me = view.you;
  const screensList = game.screens || [];
  const myScreen = me !== null && me !== undefined ? screensList.find((x) => x.seat === me) : null;
  const mySide = myScreen ? myScreen.side : null;
  if (picked !== null && !actionsWhere((a) => a.type === "play" && a.tile === picked).length) picked = null;

  box.append(statusStrip(view, game));
  const recap = recapNode(view, game);
  if (recap) box.append(recap);
  if (myScreen) {
    const screen = screenNode(game, myScreen, true);
    const row = hireRow(view, game) || keepRow(view, game);
    if (row) screen.querySelector(".ec-phead").append(row);
    box.append(screen);
  }
  // your boards first (nearest your screen, in the order you sit at them), then the others
  const mine = myScreen ? game.boards.filter((b) => b.available_to.includes(me)) : [];
  if (me === 2 || me === 3) mine.reverse();  // 4 players: seats 2 and 3 sit at the last board
  const order = [...mine, ...game.boards.filter((b) => !mine.includes(b))];
  const boards = el("div", {class: "ec-boards", id: "ec-boards"}, trackKey());
  for (const b of order) boards.append(boardNode(game, b, mySide, mine.includes(b)));
  box.append(boards);
  box.append(personnel(game));
  box.append(othersNode(game, screensList.filter((x) => x !== myScreen)));
  previous = nextSigs;
  titlesToCards(box);

  bringIntoView(view, box);
}

/** The seat panel's score (docs/renderer-contract.md `seatScore`): its side's victory tokens,
 *  of those needed to win (the view's seats carry no public score; the phone's line of scores
 *  under the header reads it from here, as the panel does). */
export function seatScore(seat, view) {
  const game = view.game;
  const s = game && (game.screens || []).find((x) => x.seat === seat);
  const sd = s && game.sides ? game.sides[s.side] : null;
  if (!sd || typeof sd.vp !== "number") return null;
  // (final: "of 2" holds on the finished page too, where the table shows the result's score;
  // a side can end its last Night above the goal, and "3 of 2" would read as a slip)
  const need = game.victory_to_win;
  if (sd.vp > need) {
    return {value: sd.vp, note: `(${need} to win)`, final: true,
            title: `Victory tokens: ${sd.vp}, past the ${need} needed to win`};
  }
  return {value: sd.vp, note: `of ${need}`, final: true,
          title: `Victory tokens: ${sd.vp} of the ${need} needed to win`};
}

/** How a finished match ended, for its Final result (docs/renderer-contract.md
 *  `resultReason`; Victory Conditions): "Ana reached the 2 victory tokens needed to win.",
 *  "Team 1 (Ana and Cy) reached …"; with several claimants the result's tiebreak line follows.
 *  null while the match runs (and for a match ended by resignation, whose result says so). */
export function resultReason(view) {
  const game = view && view.game;
  if (!game || !Array.isArray(game.winner) || !game.winner.length) return null;
  const names = game.winner.map((s) => (game.players === 4
    ? `Team ${s + 1} (${game.sides[s].seats.map((x) => table.seatName(x)).join(" and ")})`
    : sideName(game, s)));
  const who = names.length === 1 ? names[0] : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
  return `${who} reached the ${game.victory_to_win} victory tokens needed to win.`;
}

/** A seat's player board for its seat panel (docs/renderer-contract.md): its side's gold,
 *  magic coins, victory tokens, bag and discard pile, the monsters behind its screen, as
 *  pictures with counts; the team (4 players), the boards it may use, the monsters revealed in
 *  front of its screen by name, and whether it passed. */
export function seatBoard(seat, view) {
  const game = view.game;
  const s = game && (game.screens || []).find((x) => x.seat === seat);
  if (!s) return null;
  const sd = game.sides[s.side];
  const k = (what) => `ec-${seat}-${what}`;
  const boards = (game.boards || []).filter((b) => (b.available_to || []).includes(seat)).map((b) => b.board + 1);
  const shown = (s.shown || []).map((t) => typeOf(game, t).name);
  return seatBoardBox(seat,
    sbStat(I.goldCoin(null), sd.gold, "Gold", k("gold"), "gold"),
    sbStat(I.magicCoin(null), sd.magic, "Magic coins", k("magic"), "magic"),
    sbStat(I.victoryToken(null), `${sd.vp}/${game.victory_to_win}`, "Victory tokens (of those needed to win)", k("vp"), "victory"),
    sbStat(I.screenIcon(), s.supply_count, "Monsters behind the screen", k("screen"), "screen"),
    sbStat(I.bag(), sd.bag_count, "Monsters in the bag", k("bag"), "bag"),
    sbStat(I.discardPile(), sd.discard.length, "Discard pile", k("discard"), "discard"),
    note(game.players === 4 ? el("b", {}, `${sideName(game, s.side)} · `) : null,
      boards.length ? `${boards.length === 1 ? "Board" : "Boards"} ${boards.join(" and ")}` : "No board to use",
      s.passed ? " " : null, s.passed ? tag("passed", "Passed this round") : null),
    shown.length ? note("Revealed: ", el("b", {}, shown.join(", "))) : null);
}

/** The log's words for a stored line (docs/renderer-contract.md `logText`): counts read as
 *  English ("1 tile", "1 cell", "2 steps": words.js), and the engine's end of the game, "The
 *  game ends: <winners> own(s) 2 victory tokens." (its stored text stays as it is: a
 *  rules-version matter), reads "owns" for one winner, "own" for more; the port's "redblue"
 *  cargo (the engine's key) reads "red-or-blue", as the board's key says. */
export function logText(text, view) {
  text = String(text).replace(/\bthe redblue port cargo\b/g, "the red-or-blue port cargo");
  const m = /^The game ends: (.*) own\(s\) /.exec(text);
  if (!m) return mendCounts(text, NOUNS);
  const winners = view && view.game && Array.isArray(view.game.winner) ? view.game.winner.length
    : m[1].split(", ").length;
  return text.replace(" own(s) ", winners === 1 ? " owns " : " own ");
}

/** The words of an action's label (docs/renderer-contract.md `labelText`): the Night's keep
 *  buttons name the monster and its price, as the rulebook's "Discarding Monster Tokens" does
 *  ("pay 2 or 3 gold coins ... to leave this monster on the settlement board"): "Keep Junior
 *  Imp in the fortress of board 1 for 2 gold", "... for free" (a free-keep ability), "Discard
 *  Junior Imp from the fortress of board 1". The price says what the side pays with: gold
 *  first, then magic coins (engines/evil_corp/state.py `pay`; the rulebook: magic coins "are
 *  used in the same way as gold coins"): "... for 1 gold and 1 magic coin", "... for 2 magic
 *  coins" (new-user trial: "for 2 gold" with no gold left). The engine's label ("Keep the fortress monster of
 *  board 1 (pay)") names neither, and its words are the rules version's. Every other label
 *  reads as the log does (`logText`). */
export function labelText(text, view) {
  const m = /^(Keep|Discard) the fortress monster of board (\d+)(?: \((pay|free)\))?$/.exec(String(text));
  const game = view && view.game;
  if (!m || !game) return logText(playWords(String(text)), view);
  const {board, side, name} = fortressMonster(game, view, Number(m[2]) - 1);
  if (m[1] === "Discard") return `Discard ${name} from the fortress of board ${m[2]}`;
  const price = m[3] === "free" ? "for free" : board ? `for ${payWords(game, side, board.keep_cost)}` : "for its keep cost";
  return `Keep ${name} in the fortress of board ${m[2]} ${price}`;
}

/** A label that puts a monster into play names its place as the board shows it, the board
 *  first, then its cell: "Put red Junior Orc (fear 1) into play: board 1, raid cell 1" (the
 *  engine's "… raid cell 1 of board 1" read backwards under "Board 1 · Green Grass"). */
function playWords(text) {
  return text.replace(/^(Put .+ into play: )(raid cell \d+|port cell \d+|fortress|portal) of board (\d+)$/,
    (all, head, cell, board) => `${head}board ${board}, ${cell}`);
}

/** Counted nouns of Evil Corp.'s stored lines. */
const NOUNS = [["tile", "tiles"], ["cell", "cells"], ["step", "steps"], ["victory token", "victory tokens"],
               ["magic coin", "magic coins"], ["monster", "monsters"]];

const CELL_WORDS = [[/raid cell (\d+)/, (n) => `raid-${n}`], [/port cell (\d+)/, (n) => `port-${n}`],
                    [/\bfortress\b/, () => "fortress"], [/\bportal\b/, () => "portal"]];

/** The board cells a log line names ("… into play: raid cell 1 of board 2", "… moves … to
 *  fortress of board 3"), on the half of the side whose player the line begins with; else the
 *  settlement board it names. For the table's log hover (docs/renderer-contract.md). */
export function logPlaces(text, view) {
  const game = view.game;
  const m = /\bof board (\d+)/.exec(text);
  if (!game || !root || !m) return [];
  const board = root.querySelector(`.ec-board[data-board="${Number(m[1]) - 1}"]`) ||
    root.querySelector(`[data-board="${Number(m[1]) - 1}"]`);
  if (!board) return [];
  const actor = (game.screens || []).find((x) => text.startsWith(`${table.seatName(x.seat)} `));
  for (const [re, id] of CELL_WORDS) {
    const c = re.exec(text.slice(0, m.index + 1));
    if (!c) continue;
    const sel = `[data-cell="${id(c[1])}"]` + (actor ? `[data-side="${actor.side}"]` : "");
    const cells = [...board.querySelectorAll(sel)];
    if (cells.length) return cells;
  }
  return [board];
}

/** The places the suggested `action` touches, for the table's "Suggest a move"
 *  (docs/renderer-contract.md): where to click it and, to put a monster into play (a tile
 *  behind your screen, then a cell), the tile to pick and the cell on your half it goes to. */
export function hintPlaces(view, action) {
  if (!root || !action) return [];
  const esc = (v) => window.CSS.escape(String(v));  // (this module's CSS is its stylesheet)
  const out = actionNodes(root, action);
  if (action.type === "play") {
    const mine = ((view.game || {}).screens || []).find((x) => x.seat === view.you);
    // (not once picked: a click on the picked monster puts it back)
    out.push(...root.querySelectorAll(`[data-pick="${esc(action.tile)}"]:not(.picked)`));
    if (mine) {
      // where it goes, shown before its monster is picked; but not while another monster is
      // picked: the cell then plays that one (new-user trial 5: the lit cell played Junior
      // Goblin for a suggested Junior Orc). The suggested monster is lit, to be picked first.
      const cells = root.querySelectorAll(`[data-board="${esc(action.board)}"] [data-cell="${esc(action.cell)}"][data-side="${esc(mine.side)}"]`);
      out.push(...[...cells].filter((c) => !c.hasAttribute("data-action")));
    }
  }
  return [...new Set(out)];
}

/** Item 6 of issue 14: when a prompt arrives, the place where you decide is on screen. For a
 *  short while after (until the player scrolls by hand) later redraws keep it there: a
 *  partner's move or the seat list redrawn above can shift the page under it. */
let holdUntil = 0;          // performance.now() until which redraws keep the place in view
let holdWhat = null;        // () => [first, last] of the place to keep in view
let drawn = false;          // the first view has been drawn (the page just opened)
for (const ev of ["wheel", "touchmove", "keydown"]) {
  window.addEventListener(ev, () => { holdUntil = 0; }, {passive: true});
}

function bringIntoView(view, box) {
  // The table's helper (board.js revealBelowBar, docs/renderer-contract.md); the replay's
  // read-only table has none: nothing to keep in view there.
  const reveal = typeof table.revealBelowBar === "function" ? table.revealBelowBar : null;
  const p = view.prompt;
  if (p) {
    // where the table brings the decision into view when the prompt arrives (data-prompt-focus)
    const [first, last, wish] = placeOf(p.kind, box);
    if (first) first.dataset.promptFocus = "";
    if (last && last !== first) last.dataset.promptFocusEnd = "";
    if (wish && wish !== first && wish !== last) wish.dataset.promptFocusWish = "";
  }
  if (!reveal) return;
  if (scrollToCell) {
    scrollToCell = false;
    holdUntil = 0;
    const cell = box.querySelector("#ec-boards .legal");
    if (cell) reveal(cell);
    return;
  }
  // (a Day turn's place depends on what it offers: after your last tile went into play, with
  // your opponent passed, your next turn is at the applicants)
  const offers = p && p.kind === "turn" ? ["play", "hire"].map((t) => actionsWhere((a) => a.type === t).length > 0) : [];
  const key = p ? `${view.game.round}:${view.game.phase}:${p.kind}:${view.game.turn_side}:${offers}` : null;
  const first = !drawn;
  drawn = true;
  if (key !== lastPromptKey) {
    lastPromptKey = key;
    holdUntil = 0;
    if (!p) {
      // Opened with nothing to decide (a spectator, another player's turn): every fear track
      // on screen at once when they fit, unless the player has scrolled already.
      if (first && window.scrollY === 0) {
        const start = box.querySelector("#ec-my-screen") || box.querySelector(".ec-board");
        const again = () => { if (start && start.isConnected && window.scrollY === 0) revealTracks(start, box, reveal); };
        requestAnimationFrame(again);
        setTimeout(again, 400);
      }
      return;
    }
    holdWhat = placeOf(p.kind, box);
    holdUntil = performance.now() + 2500;
  } else if (!p || performance.now() > holdUntil) {
    return;
  } else {
    holdWhat = placeOf(p.kind, box);   // the same place, redrawn
  }
  const [start, last, wish] = holdWhat;
  if (!start) return;
  const again = () => {
    if (start.isConnected && performance.now() <= holdUntil) reveal(start, last, wish);
  };
  requestAnimationFrame(again);
  // the page around the board (seats, log, fonts) may still be settling: look once more
  setTimeout(again, 400);
  setTimeout(again, 1200);
}

/** Where a prompt of `kind` is decided: [first, last, wish], the first and last element of the
 *  place and what to show with it when that still fits (table.revealBelowBar; null: the last
 *  fear track, so that at 1366×768 every track is on screen with the place).
 *  The Day turn's place is what it offers: your screen and the boards you may use when a
 *  monster may be put into play (with the applicants too when all of it fits the window), the
 *  applicant queue when only a hire is (with the boards you may use when they fit: an
 *  activation is decided there). The new-user trial's "hire a highlighted applicant" brought
 *  the empty screen and the boards into view, the applicants below them out of sight. */
function placeOf(kind, box) {
  const one = (sel) => { const n = box.querySelector(sel); return [n, n, lastTrack(box)]; };
  if (["hire_fx", "queue_ability"].includes(kind)) return one("#ec-personnel .ec-queue");
  if (["summon", "flip_demon"].includes(kind)) return one("#ec-personnel .ec-demons");
  if (["discard_supply", "opp_discard", "reveal"].includes(kind)) return one("#ec-my-screen");
  if (kind === "choose_opponent") return one(".ec-strip");
  if (kind === "return_to_bag") return one(".ec-discard");
  if (kind === "keep") {  // the choices on your screen's head line, the lit fortress on its board
    const lit = box.querySelector(".ec-keeping");
    const board = lit ? lit.closest(".ec-board") : null;
    const screen = box.querySelector("#ec-my-screen");
    if (board) return [screen || board, board, null];
  }
  const first = box.querySelector("#ec-my-screen") || box.querySelector(".ec-board");
  const usable = box.querySelectorAll(".ec-board.usable");
  const last = usable.length ? usable[usable.length - 1] : first;
  const queue = kind === "turn" && actionsWhere((a) => a.type === "hire").length
    ? box.querySelector("#ec-personnel .ec-queue") : null;
  if (!queue) return [first, last, lastTrack(box)];
  if (!actionsWhere((a) => a.type === "play").length) return [queue, queue, usable.length ? usable[0] : null];
  return [first, last, fitsBelowBar(first, queue) ? queue : lastTrack(box)];
}

/** Whether the page from the top of `a` to the bottom of `b` fits the window below the prompt
 *  bar and the phone's last-move line under it (both stick to the top of the window). */
function fitsBelowBar(a, b) {
  const cover = ["prompt-bar", "last-move-box"].map((id) => document.getElementById(id))
    .reduce((h, n) => h + (n ? n.getBoundingClientRect().height : 0), 0);
  return b.getBoundingClientRect().bottom - a.getBoundingClientRect().top <= window.innerHeight - cover - 16;
}

/** The last fear track on the page (null: none). */
function lastTrack(box) {
  const all = box.querySelectorAll("#ec-boards .ec-track");
  return all.length ? all[all.length - 1] : null;
}

/** Without a prompt: scroll the least so that `start`..the last fear track is visible, only if
 *  it all fits (else leave the page where it is). */
function revealTracks(start, box, reveal) {
  const end = lastTrack(box);
  if (!end) return;
  const a = start.getBoundingClientRect(), b = end.getBoundingClientRect();
  const bar = document.getElementById("prompt-bar");
  const room = window.innerHeight - (bar ? bar.getBoundingClientRect().height : 0);
  if (b.bottom - Math.min(a.top, b.top) <= room - 16) reveal(start, end);
}

// ----- the key (issue 14, items 1 and 4) ---------------------------------------------------------

/** The "? Key" panel's rows: every small picture of the board, in the rulebook's words. */
function KEY_ROWS() {
  const swatch = (cls) => el("span", {class: `ec-swatch ${cls}`});
  return [
    [I.fear(2), "Fear strength (upper left of a tile)", "when the monster is put into a raid cell or the fortress, move the fear marker toward your opponent by this many spaces."],
    [I.goldCoin(2), "Hire cost (upper right of a tile)", "the gold coins you pay to hire the monster from the applicant queue."],
    [I.startingSign(), "Starting monster", "a starting tile: it has no hire cost."],
    [el("span", {class: "ec-key-abil"}, el("span", {class: "k-spawn"}, I.abilitySymbol({op: "gain_gold", n: 1})),
      el("span", {class: "k-activated"}, I.abilitySymbol({op: "gain_gold", n: 1}))),
    "Ability symbols (bottom of a tile)", `on a grey background a spawn ability (applied when the monster is put into play), on brown an activated ability (used as your turn's action), on none a passive ability. ${hoverVerb()} a tile for its words.`],
    [el("span", {class: "ec-key-abil"}, el("span", {class: "k-spawn"}, I.abilitySymbol({op: "gain_gold", n: 2}), el("b", {class: "ec-mult"}, "2"))),
      "Number beside an ability symbol", "a multiplier: a 2 next to the gold coin symbol means \u201cReceive 2 gold coins\u201d."],
    [el("span", {class: "ec-tile small inactive", "aria-hidden": "true"}), "Inactive side (a hatched tile)",
      "a monster turned inactive side up after its activated ability was used, or kept in the fortress: it has no abilities, and keeps its fear strength in a raid cell or the fortress."],
    [I.raidIcon(), "Raid cell", "put a monster here to frighten the settlement: the fear marker moves; the first red monster each round plunders the loot, the first blue one takes the power stone."],
    [I.fortressIcon(), "Fortress cell", "counts on the fear track; at night you may keep the monster here for the keep cost (\u201ckeep\u201d in the board's head)."],
    [I.portalIcon(), "Demon portal", "only a blue monster; when you put one here you may summon a demon."],
    [I.portIcon(), "Port cell", "a monster put or moved here takes the gold from the port cargo of its colour."],
    [el("span", {class: "ec-key-cargo"}, I.portIcon(), swatch("c-yellow"), I.goldCoin(2), swatch("c-red"), swatch("c-blue"), I.goldCoin(2)),
      "Port cargo (\u201ccargo\u201d in a board's head)", "the gold coins waiting for the next yellow monster, and for the next red or blue one, put into a port cell; refreshed each round."],
    [I.lootToken(), "Loot", "the first red monster put into a raid cell each round plunders the settlement: gold equal to its fear strength."],
    [I.powerStone(), "Power stone", "the first blue monster put into a raid cell each round takes it; it wins a tie on the fear track at the end of the round."],
    [I.fear(), "Fear marker", "on the fear track between the two halves of a board; it moves away from the side whose monsters frighten more."],
    [scaleSample(), "Numbers on the fear track", "how many cells that cell lies from the centre; a monster put into a raid cell or the fortress moves the marker by its fear strength."],
    [I.trackSymbol("shield"), "Conquest symbol", "passed by the fear marker on your opponent's side at night: move your conquest token 1 step toward the center."],
    [I.conquestToken("#0072B2"), "Conquest token", "on the conquest track under each side's name; on the central cell you receive a victory token."],
    [I.trackSymbol("magic"), "Magic coin symbol", "receive 2 magic coins."],
    [I.trackSymbol("victory"), "Victory token symbol", "reached on your opponent's side, you receive a victory token."],
    [I.victoryToken(), "Victory token", `the first player or team with ${2} victory tokens wins.`],
    [I.goldCoin(), "Gold coins", "pay for hires, keep costs and demons; discarded at the end of the round if not spent."],
    [I.magicCoin(), "Magic coins", "used like gold coins, but kept at the end of the round."],
    [I.firstPlayer(), "First player token", "who plays first this round."],
    [I.screenIcon(), "Screen", "the monsters behind it are yours to put into play; only you see them."],
    [I.revealedMark(), "Revealed", "a monster shown in front of its screen until the end of the round."],
    [I.bag(), "Player bag", "the monsters you draw from at the start of each round."],
    [I.discardPile(), "Discard pile", "monsters removed from the boards and used ones; they go back into the bag."],
    [I.demon(true), "Demon", "summoned through the demon portal; its level depends on the summoning strength."],
    [I.levelPips(2), "Demon level (\u201cLevel 2: 3+\u201d on a demon)", "each demon has three ability " +
      "levels; apply the highest one your summoning strength reaches: the fear strength of the monster put " +
      "into the demon portal plus its passive ability."],
  ];
}

/** The fear tracks' key, on a line of its own above the boards at every size (the fresh
 *  review's worst problem 5: it sat on the status strip's line only where that had room, at
 *  1920 px): each symbol in words, and the scale's numbers (each picture on a track has its
 *  name and card too: review item 4). A phone keeps it to one line, the symbols: the boards
 *  must stay on its first screen; the numbers are in the "? Key" and the track's card. */
function trackKey() {
  return el("div", {class: "ec-trackkey", "aria-hidden": "true"}, el("b", {class: "ec-key-word"}, "Fear track:"),
    ...["shield", "magic", "victory"].map((k) => el("span", {}, I.trackSymbol(k),
      {shield: "conquest", magic: "2 magic coins", victory: "victory token"}[k])),
    el("span", {class: "ec-key-scale"}, scaleSample(), "cells from the centre"));
}

/** The fear track's numbers as the key shows them. */
function scaleSample() {
  return el("b", {class: "ec-scale-sample"}, "1 2 3");
}

// ----- status strip ------------------------------------------------------------------------------

function statusStrip(view, game) {
  // (never left half under the sticky top by the table's scroll: board.js keepWhole)
  const node = el("div", {class: "ec-strip", "data-scroll-whole": ""},
    // (once over, the round alone: the Final result above the board says how it ended)
    el("strong", {}, `Round ${game.round}` + (game.phase === "day" ? " \u00b7 Day" : game.phase === "night" ? " \u00b7 Night" : "")));
  if (game.turn_side !== null && game.turn_side !== undefined) {
    node.append(el("span", {class: "ec-stat"}, "Turn:", sideChips(game, game.turn_side)));
  }
  node.append(el("span", {class: "ec-stat", title: "First player token"}, I.firstPlayer("First player token"),
    el("span", {class: "ec-word"}, "First player:"), sideChips(game, game.first)));
  // (in words beside the coin: "✦ left: 9" read as a picture puzzle to a new user)
  node.append(el("span", {class: "ec-stat", title: "Magic coins left in the supply"},
    I.magicCoin(null, "Magic coins left in the supply"), el("span", {class: "ec-word"}, "Magic coins left:"),
    String(game.magic_left)));
  node.append(keyPanel("evil_corp", KEY_ROWS()));
  // Another seat's pending choice (the viewer's own is their prompt: one instruction, not two).
  const me = table.you ? table.you() : view.you;
  if (game.pending && !(game.pending.seats.length === 1 && game.pending.seats[0] === me)) {
    const p = game.pending;
    const who = p.seats.map((s) => table.seatName(s)).join(", ");
    node.append(el("div", {class: "ec-pending"},
      `Waiting for ${who}: ${p.text}` + (p.kind === "summon" ? ` (summoning strength ${p.ss}, level ${p.level})` : "") +
      (p.kind === "move_dest" && p.tile ? ` (${typeOf(game, p.tile).name})` : "")));
  }
  for (const a of actionsWhere((x) => x.type === "opponent")) node.append(clickable(chip(a.seat), a));
  return node;
}

/** "Last Night" (issue 14, the table): at the start of a Day, what the Night gave each side,
 *  for a player who looked away while it resolved its many lines at once: per side the magic
 *  coins and victory tokens it received (with its count now), its conquest steps and the
 *  fortress monsters it kept (and for what), then each board's fear track (who won, how many
 *  cells out; a tie; a flip to side B). All of it from the Night's public log lines and the
 *  view's public numbers (recap.js): nothing a seat keeps hidden. Gold is no gain of the Night:
 *  the unspent gold goes back to the supply ("Discard gold"), which the head line says. On a
 *  phone gone once the viewer moved this Day; on a desktop it stays for the Day (its going
 *  would move the boards under the pointer); closed by its x. */
function recapNode(view, game) {
  const name = (s) => table.seatName(s);
  // (not on a phone for now: its line fixed at the window's bottom left too little room for
  // your screen and the boards you may use when the prompt arrives, a clean-clone CI's 4-seat
  // round 2: to come back in the page's flow)
  if (PHONE.matches) return null;
  const r = nightRecap(view, name);
  if (!r || recapClosed === game.round) return null;
  const me = table.you ? table.you() : view.you;
  // (a phone's one line lies fixed over the window's bottom: it goes once the viewer moved; a
  // desktop's sits above the boards, where its going would move them under the pointer at the
  // Day's first move: it stays for the Day, unless closed)
  if (PHONE.matches && me !== null && me !== undefined && movedToday(view, me, name)) return null;
  const node = el("section", {class: "ec-recap" + (recapOpen ? " open" : ""), id: "ec-recap",
    "aria-label": `Last Night (round ${r.round})`, dataset: {fixedBottom: "", round: String(r.round)}});
  const short = el("span", {class: "ec-recap-short"});
  const toggle = el("button", {type: "button", class: "ec-recap-toggle", "aria-expanded": String(recapOpen),
    onclick: () => { recapOpen = !recapOpen; update(lastView); }},
  el("strong", {}, "Last Night"), el("span", {"aria-hidden": "true"}, recapOpen ? "\u25be" : "\u25b8"), short);
  const close = el("button", {type: "button", class: "ec-recap-close", "aria-label": "Close the recap of last Night",
    title: "Close", onclick: () => { recapClosed = game.round; update(lastView); }}, "\u00d7");
  node.append(el("div", {class: "ec-recap-head"}, toggle, el("strong", {}, `Last Night (round ${r.round})`),
    el("span", {class: "ec-muted"}, "unspent gold went back to the supply"), close));
  const need = game.victory_to_win;
  for (const sd of r.sides) {
    const now = game.sides[sd.side];
    const parts = [];
    if (sd.magic) {
      parts.push(el("span", {class: "ec-recap-magic", "aria-label": `${plural(sd.magic, "magic coin", "magic coins")} received, ${now.magic} now`},
        I.magicCoin(null), `+${sd.magic} magic (${now.magic} now)`));
    }
    if (sd.vp) {
      const where = sd.tokens.map((t) => `board ${t.board + 1}`).join(", ");
      parts.push(el("span", {class: "ec-recap-vp", "aria-label": `${plural(sd.vp, "victory token", "victory tokens")} received on ${where}, ${now.vp} of ${need} now`},
        I.victoryToken(null), `+${plural(sd.vp, "victory token", "victory tokens")} (${where}): ${now.vp} of ${need}`));
    }
    for (const c of sd.conquest) {
      parts.push(el("span", {class: "ec-recap-conquest"}, I.conquestToken(table.seatColor(game.sides[sd.side].seats[0])),
        `conquest ${plural(c.steps, "step", "steps")} on board ${c.board + 1}`));
    }
    for (const k of sd.keeps) {
      parts.push(el("span", {class: "ec-recap-keep"}, I.fortressIcon(), `kept ${k.name.replace(/^(?:blue|red|yellow) (.+?) \(fear \d+\)$/, "$1")} on board ${k.board + 1} for ${k.price}`));
    }
    if (!parts.length) parts.push(el("span", {class: "ec-muted"}, "nothing"));
    node.append(el("div", {class: "ec-recap-row", dataset: {side: String(sd.side), magic: String(sd.magic), vp: String(sd.vp)}},
      sideChips(game, sd.side), ...parts));
    // the phone's one line: each side's shape(s) and what it received, as figures
    if (sd.magic || sd.vp) {
      short.append(el("span", {}, ...game.sides[sd.side].seats.map((s) => el("span", {style: {color: table.seatColor(s)}}, shape(s))),
        sd.magic ? ` +${sd.magic} magic` : "", sd.vp ? ` +${sd.vp} token` + (sd.vp > 1 ? "s" : "") : ""));
    }
  }
  if (!short.childNodes.length) short.append("no coins, no tokens");
  const tracks = r.boards.filter((b) => b.result).map((b) => {
    const who = b.winner === null ? "?" : sideName(game, b.winner);
    const what = b.result === "won" ? `${who} won, ${plural(b.cells, "cell", "cells")} out`
      : b.result === "stone" ? `tie, won with the power stone by ${who}` : "tie, nobody won";
    return el("span", {dataset: {recapBoard: String(b.board)}}, `Board ${b.board + 1}: ${what}` + (b.flipped ? "; flipped to side B" : ""));
  });
  if (tracks.length) node.append(el("div", {class: "ec-recap-row ec-recap-tracks"}, el("span", {class: "ec-muted"}, "Fear tracks:"), ...tracks));
  return node;
}

/** The viewer's Day turn in words that say where to click (docs/renderer-contract.md
 *  `promptText`): the prompt bar shows this one instruction instead of the engine's general
 *  "Your turn: put a monster into play, …" (the board draws no second wording of it). Other
 *  prompts keep the engine's words (null). */
export function promptText(view) {
  if (!view || !view.prompt || !table) return null;
  if (view.prompt.kind === "choose_opponent") return opponentPrompt(view);
  if (view.prompt.kind === "keep") return keepPrompt(view);
  if (view.prompt.kind !== "turn") return null;
  const plays = actionsWhere((a) => a.type === "play");
  const acts = actionsWhere((a) => a.type === "activate");
  const hires = actionsWhere((a) => a.type === "hire");
  const canPass = actionsWhere((a) => a.type === "pass").length > 0;
  const game = view.game;
  // a phone's prompt bar keeps to two lines (issue 14, item 7): the same instruction, shorter
  const short = PHONE.matches;
  if (plays.length && picked !== null) {
    const mine = (game.screens || []).find((x) => x.seat === view.you);
    const tile = mine && (mine.supply || []).find((t) => t.id === picked);
    const name = tile ? typeOf(game, tile).name : "the picked monster";
    // (one line at 1366×768 beside Pass and "Suggest a move", review 8's problem 4: the
    // highlighted cells are all on your half; Escape, which drops the pick too, is in "Keys")
    return short ? `${clickVerb()} a highlighted cell for ${name} (or the tile again to undo).`
      : `Your turn: ${clickVerb(true)} a highlighted cell to put ${name} into play (or the tile again to pick another).`;
  }
  // (the board marks what may be clicked: the words need not say "highlighted" each time)
  const parts = [];
  // (one line at 1366×768 beside its buttons whatever the turn offers: with a hire or an
  // activation too, the long way to play wrapped to two in a 4-seat match, a clean-clone CI)
  const many = [plays, acts, hires].filter((l) => l.length).length + (canPass ? 1 : 0);
  if (plays.length) {
    parts.push(short ? "play a monster (tile, then cell)"
      : many > 2 ? "put a monster into play (tile, then cell)" : "put a monster into play (a tile behind your screen, then a cell)");
  }
  if (acts.length) parts.push(short || many > 3 ? "activate" : "activate a monster");
  if (hires.length) parts.push(short || many > 3 ? "hire" : "hire an applicant");
  if (canPass) parts.push("pass");
  if (!parts.length) return null;
  const last = parts.pop();
  return `Your turn: ${parts.length ? `${parts.join(", ")} or ${last}` : last}.`;
}

/** A Day-turn move that asks one more tap first (docs/renderer-contract.md `askFirst`; the
 *  prompt bar asks): a Pass gives up the rest of the Day (engines/evil_corp/day.py: a seat
 *  that passed has no more turns this Day), asked while you could still put a monster into
 *  play; a hire cannot be undone once a new applicant is drawn into the queue (effects.py
 *  `draw_corp`, an irreversible event: the table's undo refuses it), asked while the Evil
 *  Corp. bag has one to draw. */
export function askFirst(view, action) {
  if (!view || !view.prompt || view.prompt.kind !== "turn" || !action) return null;
  const game = view.game;
  if (action.type === "pass") {
    const plays = actionsWhere((a) => a.type === "play" || a.type === "activate");
    if (!plays.length) return null;
    const mine = (game.screens || []).find((x) => x.seat === view.you);
    const names = [...new Set(plays.filter((a) => a.type === "play").map((a) => {
      const t = mine && (mine.supply || []).find((x) => x.id === a.tile);
      return t ? typeOf(game, t).name : null;
    }).filter(Boolean))];
    const could = names.length === 1 ? `put ${names[0]} into play` : names.length
      ? `put ${plural(names.length, "monster", "monsters")} into play` : "activate a monster";
    return {text: `Pass for the rest of the Day? You could still ${could}.`, yes: "Pass anyway", no: "Keep playing"};
  }
  if (action.type === "hire" && game.corp_bag_count > 0) {
    const q = (game.queue || []).find((x) => x.slot === action.slot);
    const name = q && q.tile ? typeOf(game, q.tile).name : "this applicant";
    const price = q ? ` for ${q.price} gold` : "";
    return {text: `Hire ${name}${price}? It cannot be undone: a new applicant is drawn.`, yes: `Hire ${name}`, no: "Don't hire"};
  }
  return null;
}

/** The ability ops that ask the player to choose an opponent (engines/evil_corp/effects.py:
 *  "opponent_reveals", "opponent_draws", "opponent_discards"). */
const OPPONENT_OPS = ["opponent_reveals", "opponent_draws", "opponent_discards"];

/** Which monster's ability asks the viewer to choose an opponent: {name, kind, op}, read from
 *  the newest log lines (the view's pending choice names no source): the line that put a
 *  monster with such a spawn ability into play ("… puts red Rampaging Minotaur (fear 4) into
 *  play: …"), or activated one with such an activated ability ("… activates …", "… applies the
 *  activated ability of … from the applicant queue"). Null when none is found. */
function opponentCause(view) {
  const log = Array.isArray(view.log) ? view.log : [];
  const monsters = Object.values((view.game || {}).catalog || {}).filter((c) => c && c.name);
  for (let i = log.length - 1; i >= Math.max(0, log.length - 10); i--) {
    const text = String(typeof log[i] === "string" ? log[i] : (log[i] || {}).text || "");
    const kind = / into play\b/.test(text) ? "spawn" : /\bactivat/.test(text) ? "activated" : null;
    if (!kind) continue;
    for (const c of monsters) {
      if (!text.includes(c.name)) continue;
      const op = ((c.abilities || {})[kind] || []).find((e) => OPPONENT_OPS.includes(e.op));
      if (op) return {name: c.name, kind, op};
    }
  }
  return null;
}

/** "Choose an opponent" (the engine's words) says what for: the monster and its ability in the
 *  rulebook's words ("Rampaging Minotaur's spawn ability: choose an opponent; he must draw 1
 *  monster tile from his bag and place it behind his screen."), and where to click (the
 *  opponents' names on the board's strip are the choices). */
function opponentPrompt(view) {
  const cause = opponentCause(view);
  if (!cause) return `Choose an opponent for your monster's ability: ${clickVerb(true)} a highlighted name.`;
  if (PHONE.matches) {
    // a phone's prompt bar keeps to two lines: the same in fewer words
    const n = cause.op.n ?? 1;
    const what = {opponent_draws: "draw", opponent_reveals: "reveal", opponent_discards: "discard"}[cause.op.op];
    return `${cause.name}: ${clickVerb(true)} the opponent who must ${what} ${plural(n, "monster tile", "monster tiles")}.`;
  }
  const words = I.wording(cause.op);
  return `${cause.name}'s ${cause.kind} ability: ${words.charAt(0).toLowerCase()}${words.slice(1)} ` +
    `${clickVerb()} a highlighted name.`;
}

/** How a side pays `cost` (engines/evil_corp/state.py \`pay\`: gold first, then magic coins,
 *  "used in the same way as gold coins"): "2 gold", "2 magic coins", "1 gold and 1 magic coin". */
function payWords(game, side, cost) {
  const sd = (game.sides || [])[side];
  if (!sd) return `${cost} gold`;
  const gold = Math.min(sd.gold, cost), magic = cost - gold;
  if (!magic) return `${cost} gold`;
  if (!gold) return plural(magic, "magic coin", "magic coins");
  return `${gold} gold and ${plural(magic, "magic coin", "magic coins")}`;
}

/** The fortress monster a Night keep prompt is about, on the viewer's half of board `b`. */
function fortressMonster(game, view, b) {
  const board = (game.boards || []).find((x) => x.board === b);
  const mine = (game.screens || []).find((x) => x.seat === view.you);
  const half = board && mine && (board.halves || []).find((h) => h.side === mine.side);
  const cell = half && (half.cells || []).find((c) => c.cell === "fortress");
  return {board, side: mine ? mine.side : null, tile: cell && cell.tile ? cell.tile : null,
          name: cell && cell.tile ? typeOf(game, cell.tile).name : "your monster"};
}

/** The viewer's Night keep choices (keep, discard), of board `b` or of every board. */
function keepChoices(b = null) {
  return actionsWhere((a) => (a.type === "keep" || a.type === "release") && (b === null || a.board === b));
}

/** The Night's keep (the rulebook's "Discarding Monster Tokens"): your fortress monster and its
 *  choices on the head line of your screen ("Night: [Junior Kobold] board 1 [Keep · 2 gold]
 *  [Discard]"), its fortress cell lit on the board (halfNode). The new-user review: the
 *  sentence three times (prompt and two long buttons), the monster not marked; on a phone both
 *  choices hid behind "Choose: 2 choices". Null on any other prompt. */
function keepRow(view, game) {
  if (!view.prompt || view.prompt.kind !== "keep") return null;
  const acts = keepChoices();
  if (!acts.length) return null;
  const node = el("span", {class: "ec-hire ec-keeprow", id: "ec-keep", role: "group",
                           "aria-label": "Keep or discard your fortress monster"},
    el("span", {class: "ec-hire-word"}, "Night:"));
  for (const b of [...new Set(acts.map((a) => a.board))]) {
    const {board, side, tile, name} = fortressMonster(game, view, b);
    node.append(el("span", {class: "ec-hcell"},
      tile ? tileNode(game, tile, {size: "small", where: `In your fortress on settlement board ${b + 1}`}) : null,
      el("span", {class: "ec-hname"}, name), el("span", {class: "ec-kboard"}, `board ${b + 1}`)));
    for (const a of acts.filter((x) => x.board === b)) {
      const words = a.type === "release" ? "Discard"
        : !a.pay ? "Keep · free" : `Keep · ${board ? payWords(game, side, board.keep_cost) : "pay"}`;
      node.append(clickable(el("button", {type: "button", class: "btn btn-small ec-keepbtn"}, words), a));
    }
  }
  return node;
}

/** The Night's keep in the words of what is offered (the engine's "keep your fortress monster
 *  (pay or free) or discard it" says "free" also when no free keep is offered): "Night: keep
 *  Junior Imp in the fortress of board 1 for 2 gold, or discard it.", "... for free or for 2
 *  gold, ...", "... for free, ...". A phone's bar keeps to two lines: the buttons say the price. */
function keepPrompt(view) {
  const game = view.game;
  const keeps = actionsWhere((a) => a.type === "keep");
  const any = keeps[0] || actionsWhere((a) => a.type === "release")[0];
  if (!game || !any) return null;
  const {board, side, name} = fortressMonster(game, view, any.board);
  const where = `in the fortress of board ${any.board + 1}`;
  if (!keeps.length) return `Night: discard ${name} from the fortress of board ${any.board + 1}.`;
  const ways = [];
  if (keeps.some((a) => !a.pay)) ways.push("for free");
  if (keeps.some((a) => a.pay)) ways.push(board ? `for ${payWords(game, side, board.keep_cost)}` : "for its keep cost");
  // a phone's two lines beside "Suggest a move": what it costs, not where (the "Keep?" tag on
  // the tile says which, the strip that it is the Night; review 9: "(fortress of board 1)"
  // wrapped the prompt to four lines and left the price out)
  if (PHONE.matches) return `Keep ${name} ${ways.join(" or ")} or discard it.`;
  return `Night: keep ${name} ${where} ${ways.join(" or ")}, or discard it.`;
}


// ----- settlement boards -------------------------------------------------------------------------

/** The conquest track of a half: the token on its step (3 steps from the start to the centre). */
function conquestNode(game, b, half, colour) {
  const n = b.conquest_steps;
  const at = n - half.conquest;           // 0 = start, n = centre
  const node = el("span", {class: "ec-conq", role: "img",
    "aria-label": `Conquest track: ${plural(half.conquest, "step", "steps")} to the centre`,
    title: `Conquest track of ${sideName(game, half.side)}: ${plural(half.conquest, "step", "steps")} to the centre. ` +
      "Each conquest symbol the fear marker passes on the opponent's side moves the token 1 step toward the center; " +
      "on the central cell its side receives a victory token."});
  // review item 9: the way to a victory token is read at a glance: a word, steps the size of
  // the fear track's, the token in its side's colour, the central cell showing what it gives
  const steps = el("span", {class: "ec-conq-steps"});
  for (let i = 0; i <= n; i++) {
    const spot = el("span", {class: "step" + (i === n ? " centre" : "") + (i === at ? " here" : "")});
    if (i === at) spot.append(I.conquestToken(colour));
    else if (i === n) spot.append(I.victoryToken(null));
    steps.append(spot);
  }
  node.append(el("span", {class: "ec-conq-word"}, "Conquest"), steps);
  return node;
}

function cellCard(game, b, half, c) {
  const kind = c.kind;
  const words = {
    raid: "When you put a monster here, move the fear marker toward your opponent by its fear strength. The first red monster put in a raid cell each round plunders the loot; the first blue one takes the power stone.",
    fortress: `Monsters here count on the fear track. At night you may keep your fortress monster for ${b.keep_cost} gold (or for free with a free-keep ability).`,
    portal: "Only a blue monster may be placed here. When you put one here you may summon a demon; the fear marker does not move.",
    port: `A monster put or moved here takes gold from the port cargo of its colour (yellow: ${b.cargo.yellow}, red or blue: ${b.cargo.redblue} left).`,
  }[kind];
  return el("div", {class: "ec-card"},
    el("div", {class: "head"}, I.CELL_ICON[kind](), el("span", {}, cellName(c))),
    el("div", {}, `${sideName(game, half.side)}'s half of settlement board ${b.board + 1}.`),
    el("div", {}, words));
}

function cellName(c) {
  const n = /-(\d+)$/.exec(c.cell);
  return CELL_NAME[c.kind] + (n ? ` ${n[1]}` : "");
}

function halfNode(game, b, h, mySide) {
  const half = b.halves[h];
  const colour = table.seatColor(half.seats[0]);
  const node = el("div", {class: "ec-half", style: {"--seat": colour}});
  const owner = el("div", {class: "ec-owner"}, sideChips(game, half.side), conquestNode(game, b, half, colour));
  if (b.stone === half.side) {
    owner.append(el("span", {class: "ec-stat", title: `Power stone, held by ${sideName(game, half.side)}: ` +
      "it wins a tie on the fear track at the end of the round"}, I.powerStone("Power stone"), el("span", {class: "ec-word"}, "power stone")));
  }
  node.append(owner);
  const cells = el("div", {class: "ec-cells"});
  const mine = half.side === mySide;
  for (const c of half.cells) {
    const cell = el("div", {class: `ec-cell k-${c.kind}`, "aria-label": `${cellName(c)}, ${sideName(game, half.side)}`,
                            dataset: {cell: c.cell, side: String(half.side)}});
    if (c.kind === "fortress") {
      // your monster whose keep the Night asks about (keepRow has the choices)
      if (mine && keepChoices(b.board).length) {
        cell.classList.add("ec-keeping", "has-tag");
      }
    }
    // a name for the cell (review item 4); clickable() makes a target a button
    cell.setAttribute("role", c.tile ? "group" : "img");
    if (c.tile) {
      cell.append(tileNode(game, c.tile, {fear: c.tile.fear, up: c.tile.up,
        where: `${cellName(c)} of settlement board ${b.board + 1}, ${sideName(game, half.side)}'s half`}));
    } else {
      const wm = I.CELL_ICON[c.kind](); wm.classList.add("watermark");
      cell.append(wm);
      attachCard(cell, () => cellCard(game, b, half, c));
    }
    const acts = actionsWhere((a) => a.board === b.board && a.cell === c.cell && (
      (a.half === h && ["flip", "send", "pick", "move"].includes(a.type)) ||
      (mine && a.type === "activate") ||
      (mine && a.type === "play" && a.tile === picked)));
    if (c.tile) acts.push(...actionsWhere((a) => a.type === "remove" && a.tile === c.tile.id));
    if (acts.length === 1) clickable(cell, acts[0]);
    cells.append(mark(cell, `cell-${b.board}-${h}-${c.cell}`, c.tile));
  }
  node.append(cells);
  return node;
}

/** The fear track, large, between the halves: the far half's end on the left, the near half's
 *  on the right (the marker moves away from the side that leads). */
function trackNode(game, b, order) {
  const L = b.track.length;
  const far = b.halves[order[0]], near = b.halves[order[1]];
  const endBox = (half) => {
    const s = half.seats[0], bg = table.seatColor(s);
    return el("span", {class: "ec-end", style: {background: bg, color: chipText(bg)},
      title: `${sideName(game, half.side)}'s end`, "aria-hidden": "true"}, shape(s));
  };
  // display index 0..2L, left to right; marker > 0 lies toward halves[1]
  const towardLeft = order[0] === 1 ? 1 : -1;
  const markerAt = L + (b.marker * (towardLeft === 1 ? -1 : 1));
  const steps = el("div", {class: "ec-steps"});
  for (let i = 0; i <= 2 * L; i++) {
    const dist = Math.abs(i - L);
    const sym = dist === 0 ? null : b.track[dist - 1];
    const span = el("span", {class: (dist === 0 ? "centre" : "") + (sym === "victory" ? " victory" : "")});
    if (i === markerAt) {
      span.classList.add("marker");
      span.append(I.fear(null, "Fear marker"));
    } else if (sym) {
      span.append(I.trackSymbol(sym));
    }
    // the track's scale (the fresh review's worst problem 5): each cell's count from the
    // centre, as printed on a ruler; the marker covers its cell's
    if (dist && i !== markerAt) span.prepend(el("b", {class: "ec-dist", "aria-hidden": "true"}, String(dist)));
    // each picture of the track says what it is (review item 4): a name and a card
    const [name, words] = i === markerAt ? TRACK_WORDS.marker : sym ? TRACK_WORDS[sym] : [null, null];
    if (name) {
      const side = i === L ? null : sideName(game, b.halves[(i < L) === (order[0] === 0) ? 0 : 1].side);
      span.setAttribute("role", "img");
      iconCard(span, side && i !== markerAt ? `${name} (${side}'s side)` : name, words);
    }
    steps.append(span);
  }
  const lead = b.marker === 0 ? null : b.halves[b.marker > 0 ? 0 : 1].side;
  const caption = lead === null ? "Even" : `${sideName(game, lead)} leads by ${Math.abs(b.marker)}`;
  const track = el("div", {class: "ec-track", role: "group",
    "aria-label": `Fear track: ${caption}`}, endBox(far), steps, endBox(near));
  attachCard(track, () => el("div", {class: "ec-card"},
    el("div", {class: "head"}, I.fear(), el("span", {}, "Fear track")),
    el("div", {}, `${caption}. Net fear ${Math.abs(b.net_fear)}` +
      (b.net_fear ? ` toward ${sideName(game, b.halves[b.net_fear > 0 ? 1 : 0].side)}'s settlement.` : ".")),
    el("div", {}, "At night the side the marker has moved away from gets the effect of every cell the marker passed on the opponent's side " +
      "(the numbers count the cells from the centre):"),
    el("div", {class: "ab"}, I.trackSymbol("shield"), "Conquest symbol: move your conquest token 1 step toward the center; on the central cell you receive a victory token."),
    el("div", {class: "ab"}, I.trackSymbol("magic"), "Receive 2 magic coins."),
    el("div", {class: "ab"}, I.trackSymbol("victory"), "Victory token symbol: reached on your opponent's side, you receive a victory token.")));
  return {track, caption};
}

/** The fear track's pictures in the rulebook's words: [name, words]. */
const TRACK_WORDS = {
  marker: ["Fear marker", "It moves away from the side whose monsters frighten more; at night that side gets the effect of every cell it passed on the opponent's side."],
  shield: ["Conquest symbol", "Passed by the fear marker on your opponent's side at night: move your conquest token 1 step toward the center."],
  magic: ["Magic coin symbol", "Passed by the fear marker on your opponent's side at night: receive 2 magic coins."],
  victory: ["Victory token symbol", "Reached by the fear marker on your opponent's side: you receive a victory token."],
};

function boardNode(game, b, mySide, usable) {
  const node = el("section", {class: `ec-board face-${b.face}` + (usable ? " usable" : ""),
    "aria-label": `Settlement board ${b.board + 1}`, dataset: {board: String(b.board)}});
  const order = b.halves[0].side === mySide ? [1, 0] : [0, 1];   // your half nearest you
  const {track, caption} = trackNode(game, b, order);
  // (a phone's head leaves out the board's side, "Green Grass", for the marks' words: two lines)
  const head = el("div", {class: "ec-bhead"}, el("h3", {"aria-label": `Board ${b.board + 1}, ${b.face_name}`},
    `Board ${b.board + 1}`, el("span", {class: "ec-face", "aria-hidden": "true"}, ` \u00b7 ${b.face_name}`)),
  el("span", {class: "ec-lead"}, caption));
  const word = (w) => el("span", {class: "ec-word"}, w);
  head.append(el("span", {class: "ec-stat", title: b.loot ? "Loot: the first red monster put in a raid cell this round plunders it"
    : "Loot already taken this round"}, I.lootToken(b.loot ? "Loot token" : "Loot taken"), word(b.loot ? "loot" : "looted")));
  if (b.stone === null) {
    head.append(el("span", {class: "ec-stat", title: "Power stone: the first blue monster put in a raid cell this round takes it"},
      I.powerStone("Power stone"), word("stone")));
  }
  // the fortress's keep cost, in words (it was a bare coin on the fortress cell: "a hatched 2")
  head.append(iconCard(el("span", {class: "ec-stat keep", role: "img"}, I.fortressIcon(), el("span", {class: "ec-word ec-keep-word"}, "keep"),
    I.goldCoin(b.keep_cost)), `Keep cost: ${b.keep_cost} gold`,
  `At night you may keep the monster in this board's fortress for ${b.keep_cost} gold (or for free with a free-keep ability).`));
  // the port cargo: its two cells, each a coloured square and its coins, say what they are (the
  // new-user trial: "the cargo's coloured squares have no word"), and so does the whole
  const coins = (n) => plural(n, "gold coin", "gold coins");
  // (the squares' colours in words too where the head has room: colour is never the only cue)
  const cargoCell = (squares, n, name, who) => iconCard(el("span", {class: "ec-cargo-cell"}, ...squares, I.goldCoin(n),
    el("span", {class: "ec-cargo-for"}, who === "red or blue" ? "red/blue" : who)),
    `${name}: ${coins(n)}`, `Taken by the next ${who} monster put or moved into a port cell of this board; ` +
    "refilled at night if empty.");
  head.append(iconCard(el("span", {class: "ec-stat ec-cargo",
    "aria-label": `Port cargo: ${b.cargo.yellow} gold for yellow, ${b.cargo.redblue} for red or blue`},
  I.portIcon(), el("span", {class: "ec-word ec-cargo-word"}, "cargo"),
  cargoCell([el("span", {class: "ec-swatch c-yellow"})], b.cargo.yellow, "Yellow port cargo", "yellow"),
  cargoCell([el("span", {class: "ec-swatch c-red"}), el("span", {class: "ec-swatch c-blue"})], b.cargo.redblue,
    "Red/blue port cargo", "red or blue")),
  "Port cargo", `The yellow square: ${coins(b.cargo.yellow)} for the next yellow monster put or moved into a port cell; ` +
    `the red and blue squares: ${coins(b.cargo.redblue)} for the next red or blue one.`));
  node.append(mark(head, `bhead-${b.board}`, [b.loot, b.stone, b.cargo]));
  node.append(halfNode(game, b, order[0], mySide));
  node.append(mark(track, `track-${b.board}`, [b.marker]));
  node.append(halfNode(game, b, order[1], mySide));
  return node;
}

// ----- personnel department ----------------------------------------------------------------------

function personnel(game) {
  const node = el("section", {class: "ec-panel ec-dept", id: "ec-personnel"},
    el("div", {class: "ec-phead"}, el("h3", {}, "Personnel department"),
      stat(I.bag("Evil Corp. bag", "#a8182f"), game.corp_bag_count, "Monsters left in the Evil Corp. bag"),
      game.queue_discard.length ? stat(I.discardPile("Applicants sent away"), game.queue_discard.length,
        "Applicants discarded from \u201cWe'll call you back\u201d") : null));
  // (a tile picked: the applicants wait without amber, as in the hire strip)
  const row = el("div", {class: "ec-queue" + (picked !== null ? " ec-later" : "")});
  for (const q of game.queue) {
    const last = q.slot === game.queue.length - 1;
    const name = last ? "We'll call you back" : q.surcharge ? `Raise +${q.surcharge}` : "Applicant";
    const cell = el("div", {class: "ec-qcell" + (q.surcharge ? " raise" : "") + (last ? " last" : ""),
      title: last ? "We'll call you back: leaves at night" : q.surcharge ? `With a raise to the salary: +${q.surcharge} gold` : "Applicant"},
    el("span", {}, name));
    if (q.tile) {
      cell.append(tileNode(game, q.tile, {size: "big", where: "In the applicant queue" +
        (q.surcharge ? ` (with a raise to the salary: +${q.surcharge} gold)` : "")}),
      el("span", {class: "ec-price", "aria-label": `price ${q.price} gold`}, I.goldCoin(null), String(q.price)));
    } else {
      cell.append(el("span", {class: "ec-muted"}, "empty"));
    }
    for (const a of actionsWhere((x) => (x.type === "hire" || x.type === "use") && x.slot === q.slot)) clickable(cell, a);
    row.append(mark(cell, `queue-${q.slot}`, q.tile));
  }
  node.append(row);
  const demons = el("div", {class: "ec-demons"});
  for (const d of game.demons) {
    // the head beside the name, the level rows under both: the rows' words (below) then keep
    // the three demons on one row at 1366 px
    const dn = el("div", {class: "ec-demon" + (d.active ? "" : " inactive"),
      "aria-label": `${d.name}, ${d.active ? "active" : "inactive"}`},
    el("div", {class: "ec-dname"}, I.demon(d.active), el("strong", {}, d.name)),
    // each level and the summoning strength it takes in words (rulebook "Summoning a Demon":
    // "Apply the level that corresponds to the summoning strength"): the flames and "3+" alone
    // read as pictures to a new user
    el("div", {class: "lv-cap"}, "By summoning strength:"));
    d.levels.forEach((lv, i) => {
      const line = el("div", {class: "lv"});
      const pips = I.levelPips(i + 1); pips.classList.add("pips");
      line.append(pips, el("span", {class: "lv-word"}, `Level ${i + 1}: ${lv.min_ss}+`));
      for (const e of lv.effects || []) line.append(I.abilitySymbol(e), mult(e) || "");
      if (lv.pay) line.append(I.goldCoin(lv.pay, `Pay ${lv.pay} gold`));
      dn.append(line);
    });
    attachCard(dn, () => demonCard(d));
    for (const a of actionsWhere((x) => (x.type === "summon" || x.type === "flip_demon") && x.demon === d.demon)) {
      clickable(dn, a);
    }
    demons.append(mark(dn, `demon-${d.demon}`, d.active));
  }
  node.append(demons);
  return node;
}

/** Your Day turn offers a hire and a monster to put into play: the applicants you may hire
 *  (the hires offered: those your side can pay), as small tiles with their names and prices, on
 *  the head line of your screen, so that your screen, the boards you may use and the applicants
 *  are on screen at once (issue 14, item 6; the new-user trial: at 1366×768 and 375×812 the
 *  personnel department lies below the boards, out of sight). A click hires, as in the
 *  personnel department, whose full queue stays below. Null on any other prompt. */
function hireRow(view, game) {
  const hires = actionsWhere((a) => a.type === "hire");
  if (!view.prompt || view.prompt.kind !== "turn" || !hires.length || !actionsWhere((a) => a.type === "play").length) {
    return null;
  }
  const node = el("span", {class: "ec-hire" + (picked !== null ? " ec-later" : ""), id: "ec-hire", role: "group",
    "aria-label": "Applicants you may hire"},
    el("span", {class: "ec-hire-word"}, el("span", {class: "long"}, "You may hire:"), el("span", {class: "short"}, "Hire:")));
  const list = el("span", {class: "ec-hire-list"});
  for (const a of hires) {
    const q = game.queue.find((x) => x.slot === a.slot);
    if (!q || !q.tile) continue;
    const last = q.slot === game.queue.length - 1;
    const cell = el("span", {class: "ec-hcell"},
      tileNode(game, q.tile, {size: "small", where: "In the applicant queue" + (last ? " (\u201cWe'll call you back\u201d)" : "") +
        (q.surcharge ? ` (with a raise to the salary: +${q.surcharge} gold)` : "")}),
      el("span", {class: "ec-hname"}, typeOf(game, q.tile).name),
      el("span", {class: "ec-price", "aria-label": `price ${q.price} gold`}, I.goldCoin(null), String(q.price)));
    list.append(clickable(cell, a));
  }
  // (a phone's list scrolls sideways: its cues, kept in place as for your screen's row)
  list.addEventListener("scroll", () => rowEnds(list), {passive: true});
  node.append(list, moreCue(list, -1), moreCue(list, 1));
  rowWatch.observe(list);
  node.append(el("button", {type: "button", class: "ec-hire-all", onclick: () => {
    const dept = document.getElementById("ec-personnel");
    if (dept) dept.scrollIntoView({block: "start", behavior: "smooth"});
  }}, "All applicants \u2193"));
  return node;
}

function demonCard(d) {
  const card = el("div", {class: "ec-card"}, el("div", {class: "head"}, I.demon(d.active), el("span", {}, d.name)),
    el("div", {}, d.active ? "Active: may be summoned." : "Inactive: already summoned this round."));
  d.levels.forEach((lv, i) => {
    const text = (lv.effects || []).map((e) => I.wording(e)).join(" ");
    card.append(el("div", {class: "ab"}, I.levelPips(i + 1),
      el("span", {}, el("span", {class: "kind"}, `Level ${i + 1} (summoning strength ${lv.min_ss}` +
        (i < d.levels.length - 1 ? `-${d.levels[i + 1].min_ss - 1}` : " or more") + "). "),
      text + (lv.pay ? ` Pay ${lv.pay} gold coins if your demon summoning strength is ${lv.pay_if_ss}.` : ""))));
  });
  return card;
}

// ----- screens and sides -------------------------------------------------------------------------

function sideMoney(game, side) {
  const sd = game.sides[side];
  return el("span", {class: "ec-money"},
    stat(I.goldCoin(null, "Gold"), sd.gold, "Gold"),
    stat(I.magicCoin(null, "Magic coins"), sd.magic, "Magic coins"),
    stat(I.victoryToken(null, "Victory tokens"), `${sd.vp}/${game.victory_to_win}`, "Victory tokens (of those needed to win)"),
    stat(I.bag("Bag"), sd.bag_count, "Monsters in the bag"));
}

function discardNode(game, side) {
  const sd = game.sides[side];
  const node = el("div", {class: "ec-row ec-discard", "aria-label": "Discard pile"},
    stat(I.discardPile("Discard pile"), sd.discard.length, "Discard pile (face up)"));
  for (const t of sd.discard) {
    const tn = tileNode(game, t, {size: "small", where: `In ${sideName(game, side)}'s discard pile`});
    const acts = actionsWhere((a) => (a.type === "return" || a.type === "remove") && a.tile === t.id);
    if (acts.length === 1) clickable(tn, acts[0]);
    node.append(tn);
  }
  return node;
}

/** A seat's screen: its own tiles (pickable) for the viewer, backs and revealed tiles otherwise. */
function screenNode(game, s, mine) {
  const panel = el("section", {class: "ec-panel" + (mine ? " ec-mine" : ""), id: mine ? "ec-my-screen" : null,
    style: mine ? {"--seat": table.seatColor(s.seat)} : null,
    "aria-label": mine ? "Your screen" : `${table.seatName(s.seat)}'s screen`});
  panel.append(el("div", {class: "ec-phead"}, I.screenIcon(), chip(s.seat), mine ? el("strong", {class: "ec-word"}, "your screen") : null,
    s.passed ? el("strong", {}, "passed") : null, sideMoney(game, s.side)));
  const row = el("div", {class: "ec-row ec-supply"});
  const shownIds = new Set(s.shown.map((t) => t.id));
  if (s.supply) {
    const why = mine ? notChosenWhy(game, s, shownIds) : new Map();
    for (const t of s.supply) {
      const name = typeOf(game, t).name;
      const no = why.get(t.id) || {};
      const tn = tileNode(game, t, {size: mine ? "big" : "", why: no.why, short: no.short, twin: no.twin, where: shownIds.has(t.id)
        ? "Revealed: in front of the screen until the end of the round" : "Behind your screen"});
      if (shownIds.has(t.id)) {
        tn.append(iconCard(I.revealedMark(), "Revealed", "Shown in front of the screen until the end of the round.", {touch: false}));
      }
      const direct = actionsWhere((a) => ["discard", "remove", "reveal"].includes(a.type) && a.tile === t.id);
      if (direct.length === 1) clickable(tn, direct[0]);
      else {
        const plays = actionsWhere((a) => a.type === "play" && a.tile === t.id);
        if (plays.length) {
          pickable(tn, t.id, name);
          for (const a of plays) table.claim(a);  // reachable: pick, then a highlighted cell
        }
      }
      row.append(tn);
    }
    if (!s.supply.length) row.append(el("span", {class: "ec-muted"}, "No monster behind the screen."));
  } else {
    for (const t of s.shown) row.append(tileNode(game, t, {where: "Revealed in front of the screen"}));
    const hidden = s.supply_count - s.shown.length;
    for (let i = 0; i < hidden; i++) row.append(el("span", {class: "ec-tile back", "aria-hidden": "true"}));
    row.append(el("span", {class: "ec-muted"}, plural(s.supply_count, "monster", "monsters") + " behind the screen"));
  }
  panel.append(row);
  if (mine) {
    row.append(discardNode(game, s.side));
    // a row wider than the screen (phones) scrolls sideways: the keyboard may focus it to
    // scroll it with the arrow keys; watched while it is drawn, so a phone turned (or a window
    // resized) after the last redraw keeps it in the focus order exactly while it scrolls
    row.setAttribute("role", "group");
    row.setAttribute("aria-label", "Monsters behind your screen, and your discard pile");
    row.addEventListener("scroll", () => rowEnds(row), {passive: true});
    panel.append(moreCue(row, -1), moreCue(row, 1));
    rowWatch.observe(row);
  }
  return mark(panel, `screen-${s.seat}`, [s.supply_count, s.shown, s.passed, s.supply]);
}

/** Your screen's row of tiles takes the keyboard's focus exactly while it scrolls sideways. */
function rowFocusStop(row) {
  rowEnds(row);
  if (row.scrollWidth > row.clientWidth + 1) row.tabIndex = 0;
  else if (row !== document.activeElement) row.removeAttribute("tabindex");
  // (the focused row keeps its stop until the focus leaves it)
  else row.addEventListener("blur", () => rowFocusStop(row), {once: true});
}
const rowWatch = new ResizeObserver((entries) => {
  // (the applicants' list needs no focus stop of its own: each applicant is one)
  for (const e of entries) (e.target.classList.contains("ec-supply") ? rowFocusStop : rowEnds)(e.target);
});

/** Each end of your screen's row with more tiles beyond it (more-left, more-right) shows its
 *  cue (the fourth trial saw the cut-off tile at the edge as no sign of more to the right). */
function rowEnds(row) {
  const ends = {left: row.scrollLeft > 2, right: row.scrollLeft + row.clientWidth < row.scrollWidth - 2};
  row.classList.toggle("more-left", ends.left);
  row.classList.toggle("more-right", ends.right);
  for (const cue of row.parentElement.querySelectorAll(":scope > .ec-more")) {
    const side = cue.classList.contains("left") ? "left" : "right";
    if (ends[side]) placeCue(row, cue, side === "left" ? -1 : 1);
    else cue.hidden = true;
  }
}

/** A cue at an end of your screen's row or of the applicants to hire (a phone's, which scroll
 *  sideways): "‹ 2 more" / "› 2 more" over the pieces at that end not wholly in view, so that
 *  none shows cut in half
 *  (the fresh review: the fourth tile's "Ju…" at the edge read as a clipped word, not as more
 *  to scroll to); a tap scrolls the row that way. `dir`: -1 the left end, 1 the right. */
function moreCue(row, dir) {
  const reduce = matchMedia("(prefers-reduced-motion: reduce)").matches;
  return el("span", {class: `ec-more ${dir < 0 ? "left" : "right"}`, "aria-hidden": "true", hidden: true,
    onclick: (e) => {
      e.stopPropagation();
      row.scrollBy({left: dir * Math.max(CUE_MIN, row.clientWidth - 2 * CUE_MIN), behavior: reduce ? "auto" : "smooth"});
    }},
  el("b", {class: "ec-more-arrow"}, dir < 0 ? "\u2039" : "\u203A"), el("span", {class: "ec-more-n"}));
}
/** A cue's least width: a finger's (its words, "3 more", take two lines in it; the row's
 *  scroll-padding, 4rem, keeps a tile brought into view clear of it). */
const CUE_MIN = 44;

/** Lay the cue at the `dir` end of `row` over every item there (tile, applicant, discard pile)
 *  not wholly in view, and as many more as it takes to be CUE_MIN wide; it counts the monsters
 *  under it and beyond. */
function placeCue(row, cue, dir) {
  const box = row.getBoundingClientRect();
  const items = [...row.children].map((n) => ({n, r: n.getBoundingClientRect()}));
  if (dir < 0) items.reverse();
  // (mirrored for the left end: x grows inwards from the edge)
  const edge = dir > 0 ? box.right : -box.left;
  const near = (r) => (dir > 0 ? r.left : -r.right) - 3;   // the item's side toward the middle
  const far = (r) => (dir > 0 ? r.right : -r.left);       // ... and toward the edge
  let k = items.findIndex(({r}) => far(r) > edge + 0.5);
  if (k < 0) { cue.hidden = true; return; }
  const piece = (n) => n.matches(".ec-tile, .ec-hcell");
  // at least as wide as its words on one line (a narrow cue cut "1 more" to "1 m"), measured
  // with the most it may count, and over whole items only
  const words = cue.querySelector(".ec-more-n");
  words.textContent = `${items.filter(({n}) => piece(n)).length} more`;
  cue.hidden = false;
  cue.style.width = "max-content";
  const need = Math.max(CUE_MIN, cue.getBoundingClientRect().width);
  while (k > 0 && edge - near(items[k].r) < need) k--;
  const from = Math.max(near(items[k].r), edge - box.width / 2);
  const n = items.slice(k).filter(({n}) => piece(n)).length;
  const parent = row.parentElement;
  const panel = parent.getBoundingClientRect();
  const tiles = items.filter(({n}) => piece(n)).map(({r}) => r);
  if (!tiles.length) tiles.push(box);
  // (and over a picked or pickable tile's outline above and below it, but within its own line:
  // the applicants' cue within their strip, your screen's row's below the strip and above the
  // panel's edge, so that the two cues never lie on each other nor on the key line below)
  let top = Math.min(...tiles.map((r) => r.top)) - 6, bottom = Math.max(...tiles.map((r) => r.bottom)) + 6;
  if (parent.id === "ec-hire") {
    top = Math.max(top, panel.top);
    bottom = Math.min(bottom, panel.bottom);
  } else {
    const above = row.previousElementSibling;
    if (above) top = Math.max(top, above.getBoundingClientRect().bottom + 2);
    bottom = Math.min(bottom, panel.bottom - parent.clientTop);
  }
  words.textContent = n ? `${n} more` : "more";
  const [left, right] = dir > 0 ? [Math.min(from, edge - need), edge] : [-edge, Math.max(-from, -edge + need)];
  Object.assign(cue.style, {left: `${left - panel.left - parent.clientLeft}px`, width: `${right - left}px`,
    top: `${top - panel.top - parent.clientTop}px`, height: `${bottom - top}px`});
}

/** Review item 2: while some tiles behind your screen are a choice (to put into play, discard,
 *  reveal…), and on your Day turn even when none is, the others are drawn faded: `tile id ->
 *  {why, short}`, why in words on its card (hover, focus, a click or a tap), short on the tile
 *  itself (the fresh review's worst problem 3: a faded tile with its reason a hover away read
 *  as a bug). Of identical tiles (same monster, both revealed or both not) the engine offers
 *  one, the lowest id (engines/evil_corp/effects.py `_dedupe`: one choice, not two), so a twin
 *  names the highlighted one; a tile that cannot be put into play says what it lacks, as the
 *  engine's `can_place` checks it (engines/evil_corp/day.py): the gold its spawn ability costs,
 *  the other monsters it needs behind the screen, a free cell on your half that may take it. */
function notChosenWhy(game, s, shownIds) {
  const out = new Map();
  const acted = (t) => actionsWhere((a) => ["discard", "remove", "reveal", "play"].includes(a.type) && a.tile === t.id);
  const offered = new Set(s.supply.filter((t) => acted(t).length).map((t) => t.id));
  // your Day turn (you may pass) asks for a monster too, even when none can be put into play
  const playing = actionsWhere((a) => a.type === "play" || a.type === "pass").length > 0;
  if (!offered.size && !playing) return out;
  for (const t of s.supply) {
    if (offered.has(t.id)) continue;
    const c = typeOf(game, t);
    const twin = s.supply.find((u) => offered.has(u.id) && u.type === t.type && shownIds.has(u.id) === shownIds.has(t.id));
    if (twin) {
      out.set(t.id, {short: `play the other ${c.name}`, twin: true, why: `Same monster as the highlighted ${c.name}: ` +
        `${playing ? "put that one into play" : "choose that one"} (identical tiles are one choice).`});
    } else if (!playing) {
      out.set(t.id, {short: "not a choice", why: "Not one of the choices now."});
    } else {
      out.set(t.id, cannotPlay(game, s, c));
    }
  }
  return out;
}

/** Why the monster `c` behind your screen cannot be put into play now, {why, short} (the
 *  engine's `can_place`, engines/evil_corp/day.py: its spawn ability's gold, counting magic
 *  coins, "used in the same way as gold coins"; the other monsters it needs behind the screen;
 *  a free cell on your half of a board you may use, the demon portal for blue monsters only,
 *  no fortress for a monster whose passive ability forbids it). */
function cannotPlay(game, s, c) {
  const req = (c.abilities || {}).requires || {};
  const sd = game.sides[s.side];
  const funds = sd.gold + sd.magic;
  const others = s.supply.length - 1;
  if (req.gold && funds < req.gold) {
    return {short: `${req.gold - funds} gold short`,
            why: `Cannot be put into play now: it costs ${req.gold} gold when put into play, and your side has ${funds}.`};
  }
  if (req.supply && others < req.supply) {
    return {short: `${plural(req.supply - others, "tile", "tiles")} short`,
            why: `Cannot be put into play now: it needs ${plural(req.supply, "other monster", "other monsters")} behind your screen.`};
  }
  const free = freeCells(game, s.side, s.seat);
  if (!free.length) {
    return {short: "no free cell", why: "Cannot be put into play now: every cell on your half of the boards you may use is taken."};
  }
  const noFortress = ((c.abilities || {}).passive || []).some((p) => p.kind === "no_fortress");
  const kinds = new Set(free.map((x) => x.kind));
  const bars = [kinds.has("portal") && c.colour !== "blue" ? "the demon portal takes only blue monsters" : null,
                kinds.has("fortress") && noFortress ? "this monster may not go into a fortress" : null].filter(Boolean);
  return {short: "no cell fits", why: "Cannot be put into play now: no free cell on your half of a board may take it" +
    (bars.length ? ` (${bars.join("; ")}).` : ".")};
}

/** The free cells on side `side`'s half of the boards seat `seat` may use. */
function freeCells(game, side, seat) {
  return (game.boards || []).filter((b) => (b.available_to || []).includes(seat))
    .flatMap((b) => (b.halves || []).filter((h) => h.side === side))
    .flatMap((h) => (h.cells || []).filter((c) => !c.tile));
}

function othersNode(game, list) {
  const node = el("div", {class: "ec-screens"});
  // each side's discard pile once: yours under your screen, another side's under its first screen
  const me = lastView ? lastView.you : null;
  const doneSides = new Set(game.screens.filter((x) => x.seat === me).map((x) => x.side));
  for (const s of list) {
    const panel = screenNode(game, s, false);
    if (!doneSides.has(s.side)) {
      panel.append(discardNode(game, s.side));
      doneSides.add(s.side);
    }
    node.append(panel);
  }
  if (game.box.length) {
    const bx = el("section", {class: "ec-panel"}, el("div", {class: "ec-phead"}, I.boxIcon(), el("strong", {}, "Removed from the game")));
    const row = el("div", {class: "ec-row"});
    for (const t of game.box) row.append(tileNode(game, t, {size: "small", where: "Removed from the game (in the box)"}));
    bx.append(row);
    node.append(bx);
  }
  return node;
}
