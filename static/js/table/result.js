// The final result (ranks, scores, reason, tiebreak, score breakdown). Shared by the live table
// and the replay viewer, so both show it with the same words and seat colours.
//
// ctx: the kv.js context {seatName, seatColor, seatShape, seats}

import {el} from "../dom.js";
import {humanize, renderValue, seatChip} from "../kv.js";

export function ordinal(n) {
  const s = ["th", "st", "nd", "rd"], v = n % 100;
  return n + (s[(v - 20) % 10] || s[v] || s[0]);
}

/** The nodes of the result panel for view.result `r`: a title, the ranks (ties, resignations),
 *  the reason, the tiebreak and the breakdown table. The reason is the result's own (a
 *  resignation), else `gameReason`: the game's words for how it ended (the renderer's
 *  `resultReason(view)`, docs/renderer-contract.md), the one place the page says why. */
export function resultParts(r, ctx, gameReason = null) {
  const scores = r.scores || {};
  const scoreOf = (s) => scores[s] ?? scores[String(s)];
  const gone = new Set(Array.isArray(r.resigned) ? r.resigned : []);
  const ranks = el("ol", {class: "ranks"});
  let place = 1;
  for (const group of r.ranks || []) {
    const seats = Array.isArray(group) ? group : [group];
    for (const s of seats) {
      const sc = scoreOf(s);
      ranks.append(el("li", {class: `rank rank-${place}`, dataset: {seat: String(s)}},
        el("span", {class: "rank-place"}, ordinal(place)), seatChip(s, ctx),
        sc !== undefined ? el("span", {class: "rank-score"}, String(sc)) : null,
        seats.length > 1 ? el("span", {class: "muted"}, " (tied)") : null,
        gone.has(Number(s)) ? el("span", {class: "badge badge-resigned"}, "resigned") : null));
    }
    place += seats.length;
  }
  const parts = [el("h2", {id: "result-title"}, "Final result"), ranks];
  const reason = r.reason || gameReason;
  if (reason) parts.push(el("p", {class: "result-reason"}, String(reason)));
  if (r.tiebreak) {
    // Equal scores on different places: say who won the tie and by which rule (review item 10).
    const ties = brokenTies(r, scoreOf, ctx);
    parts.push(el("p", {class: "tiebreak"}, el("span", {class: "muted"}, "Tiebreak: "),
      ties.length ? `${ties.join(" ")} (${String(r.tiebreak)})` : String(r.tiebreak)));
  }
  if (r.breakdown) parts.push(breakdownTable(r.breakdown, scoreOf, ctx));
  return parts;
}

/** Sentences for the ties the tiebreak decided: seats with the same score on different places
 *  ("Ana and Bo tie on 47: Ana ranks ahead by the tiebreak."). [] when there is none. */
export function brokenTies(r, scoreOf, ctx) {
  const order = [];   // [seat, its rank group's index] best first
  (r.ranks || []).forEach((group, i) => (Array.isArray(group) ? group : [group]).forEach((s) => order.push([s, i])));
  const out = [];
  for (let i = 0; i < order.length;) {
    const sc = scoreOf(order[i][0]);
    let j = i + 1;
    while (j < order.length && sc !== undefined && scoreOf(order[j][0]) === sc) j++;
    const run = order.slice(i, j);
    if (run.length > 1 && new Set(run.map(([, g]) => g)).size > 1) {
      const names = run.map(([s]) => ctx.seatName(s));
      const list = names.length === 2 ? names.join(" and ") : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
      out.push(`${list} tie on ${sc}: ${names[0]} ranks ahead by the tiebreak.`);
    }
    i = j;
  }
  return out;
}

/** view.result.breakdown: {seat: {category: points}} (or [{label, points}] per seat). */
function breakdownTable(breakdown, scoreOf, ctx) {
  const seats = [...Array(ctx.seats || 0).keys()];
  const perSeat = seats.map((s) => {
    const b = Array.isArray(breakdown) ? breakdown[s] : breakdown[s] ?? breakdown[String(s)];
    if (Array.isArray(b) && b.every((x) => x && typeof x === "object")) {
      return Object.fromEntries(b.map((x) => [x.label ?? x.name ?? x.category ?? "?", x.points ?? x.score ?? x.value]));
    }
    return b;
  });
  const tabular = perSeat.every((b) => b === undefined || (b && typeof b === "object" && !Array.isArray(b) &&
    Object.values(b).every((v) => v === null || typeof v !== "object")));
  const wrap = el("div", {class: "breakdown"}, el("h3", {}, "Score breakdown"));
  if (!tabular) {
    wrap.append(renderValue(breakdown, ctx));
    return wrap;
  }
  const cats = [];
  // The client adds its own Total row from the scores, so a game's own "Total" is not repeated.
  for (const b of perSeat) {
    for (const k of Object.keys(b || {})) if (!cats.includes(k) && k.toLowerCase() !== "total") cats.push(k);
  }
  const body = el("tbody", {},
    cats.map((c) => el("tr", {}, el("th", {scope: "row"}, humanize(c)),
      perSeat.map((b) => el("td", {}, b && b[c] !== undefined && b[c] !== null ? String(b[c]) : "—")))),
    el("tr", {class: "total"}, el("th", {scope: "row"}, "Total"),
      seats.map((s) => el("td", {}, scoreOf(s) !== undefined ? String(scoreOf(s)) : "—"))));
  const tbl = el("table", {class: "breakdown-table"},
    el("thead", {}, el("tr", {}, el("th", {scope: "col"}, ""), seats.map((s) => el("th", {scope: "col"}, seatChip(s, ctx))))),
    body);
  wrap.append(el("div", {class: "kv-table-wrap"}, tbl));
  return wrap;
}
