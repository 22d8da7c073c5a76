// Evil Corp.'s "Last Night" recap (issue 14, the table): what the Night that opened this Day
// gave each side, read from the view alone: the log's public lines of that Night (every seat
// reads them: `to === "all"`, never a line addressed to some seats, such as "You drew ...") and
// the view's public numbers (victory tokens, magic coins, the fear tracks as they are now).
// The Night's lines lie between "Every player has passed: Night phase." and "Round N: Day
// phase. ..." (engines/evil_corp/day.py, night.py); their words are the engine's (versions 1 to
// 3: engines/evil_corp/README.md "Changelog"), with the seats' names in place of "Player N".

const NIGHT_START = /^Every player has passed: Night phase\.$/;
const DAY_START = /^Round (\d+): Day phase\./;

/** The Night's line patterns: [regexp, kind]. Names are matched against the sides' names. */
const LINES = [
  [/^Board (\d+): the fear marker is (\d+) cells? toward (.+); (.+) wins\.$/, "won"],
  [/^Board (\d+): tie, nobody wins\.$/, "tie"],
  [/^Board (\d+): tie, won with the power stone by (.+), whose conquest token moves (\d+) steps? toward the centre\.$/, "stone"],
  [/^Board (\d+): tie; (.+) holds the power stone and moves its conquest token (\d+) steps?/, "stone"],  // v1-2
  [/^The conquest token of (.+) moves (\d+) steps? toward the centre\.$/, "conquest"],
  [/^(.+) moves its conquest token (\d+) steps?/, "conquest"],                  // versions 1-2
  [/^(.+) receives a victory token on board (\d+) \((.+)\)\.$/, "token"],
  [/^Board (\d+) is flipped to side B/, "flip"],
  [/^(.+) receives (\d+) magic coins?/, "magic"],
  [/^(.+) keeps (.+) in the fortress of board (\d+) for (.+)\.$/, "keep"],
];

/** The name the log gives a seat: the seat list's name without "(greedy bot)", which the
 *  seat list adds while a bot plays for an away player (app/matches/views.py `seat_label`). */
export function logName(view, seat, seatName) {
  const s = Array.isArray(view.seats) ? view.seats[seat] : null;
  const name = (s && s.name) || seatName(seat);
  return String(name).replace(/ \([A-Za-z]+ bot\)$/, "");
}

/** The side a name of the log means: with 4 players "Team 1 (Ana + Cy)", else the seat's name;
 *  among `among` (sides) when given. null when no side (or more than one) has that name. */
function sideOf(game, view, name, seatName, among = null) {
  const sides = (among || game.sides.map((sd) => sd.side));
  const hits = sides.filter((side) => (game.players === 4
    ? name.startsWith(`Team ${side + 1} (`) || name === `Team ${side + 1}`
    : game.sides[side].seats.some((s) => logName(view, s, seatName) === name)));
  return hits.length === 1 ? hits[0] : null;
}

/** The index of this Day's first line ("Round N: Day phase.") in the view's log, or -1. */
function dayStart(log, round) {
  for (let i = log.length - 1; i >= 0; i--) {
    const m = DAY_START.exec(String(log[i].text || ""));
    if (m && log[i].to === "all") return Number(m[1]) === round ? i : -1;
  }
  return -1;
}

/** Whether `seat` has made a move this Day: a public line of the Day begins with its name
 *  (puts into play, activates, hires, passes, and every choice of its effects). */
export function movedToday(view, seat, seatName) {
  const game = view.game;
  const log = view.log || [];
  const start = dayStart(log, game.round);
  if (start < 0) return false;
  const name = logName(view, seat, seatName);
  return log.slice(start + 1).some((e) => e.to === "all" && String(e.text || "").startsWith(`${name} `));
}

/** The recap of the Night before this Day, or null (the first Day; a phase that is not the
 *  Day; a log that does not reach back to that Night):
 *  `{round (the Night's round), sides: [{side, magic, vp, tokens: [{board, why}],
 *  conquest: [{board, steps}], keeps: [{board, name, price}]}] (every side, in side order),
 *  boards: [{board, result: "won"|"tie"|"stone"|null, winner: side|null, cells, flipped}]}`
 *  (boards 0-based, in board order). Only lines every seat reads are read. */
export function nightRecap(view, seatName) {
  const game = view && view.game;
  if (!game || game.phase !== "day" || game.round < 2) return null;
  const log = view.log || [];
  const end = dayStart(log, game.round);
  if (end < 0) return null;
  let start = end - 1;
  while (start >= 0 && !(log[start].to === "all" && NIGHT_START.test(String(log[start].text || "")))) start--;
  if (start < 0) return null;
  const sides = game.sides.map((sd) => ({side: sd.side, magic: 0, vp: 0, tokens: [], conquest: [], keeps: []}));
  const boards = game.boards.map((b) => ({board: b.board, result: null, winner: null, cells: 0, flipped: false}));
  let current = null;   // the board the last "Board N: ..." line was about (conquest lines follow it)
  for (const e of log.slice(start + 1, end)) {
    if (e.to !== "all") continue;
    const text = String(e.text || "");
    for (const [re, kind] of LINES) {
      const m = re.exec(text);
      if (!m) continue;
      if (kind === "won" || kind === "tie" || kind === "stone") {
        const bd = boards[Number(m[1]) - 1];
        if (!bd) break;
        current = bd;
        bd.result = kind;
        const halves = game.boards[bd.board].halves.map((h) => h.side);
        if (kind === "won") {
          bd.cells = Number(m[2]);
          bd.winner = sideOf(game, view, m[4], seatName, halves);
        }
        if (kind === "stone") {
          bd.winner = sideOf(game, view, m[2], seatName, halves);
          if (bd.winner !== null && m[3]) sides[bd.winner].conquest.push({board: bd.board, steps: Number(m[3])});
        }
      } else if (kind === "conquest") {
        const side = sideOf(game, view, m[1], seatName);
        if (side !== null && current) sides[side].conquest.push({board: current.board, steps: Number(m[2])});
      } else if (kind === "token") {
        const side = sideOf(game, view, m[1], seatName);
        if (side !== null) {
          sides[side].vp += 1;
          sides[side].tokens.push({board: Number(m[2]) - 1, why: m[3]});
        }
      } else if (kind === "flip") {
        const bd = boards[Number(m[1]) - 1];
        if (bd) bd.flipped = true;
      } else if (kind === "magic") {
        const side = sideOf(game, view, m[1], seatName);
        if (side !== null) sides[side].magic += Number(m[2]);
      } else if (kind === "keep") {
        const seat = game.sides.flatMap((sd) => sd.seats).find((s) => logName(view, s, seatName) === m[1]);
        const side = seat === undefined ? null : (game.screens || []).find((x) => x.seat === seat)?.side;
        if (side !== null && side !== undefined) sides[side].keeps.push({board: Number(m[3]) - 1, name: m[2], price: m[4]});
      }
      break;
    }
  }
  return {round: game.round - 1, sides, boards};
}
