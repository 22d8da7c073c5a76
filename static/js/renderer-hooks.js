// A game renderer's optional hooks (docs/renderer-contract.md), called one way by the live
// table (table/board.js), the replay viewer (replay.js) and the log's wording (table/log.js):
// a missing hook answers undefined; one that throws is logged and answers undefined, so the
// page works on without it.

/** `renderer[name](...args)`: its answer, or undefined when there is no renderer, it has no
 *  such function, or the call throws (logged as "<where>: <name> failed"). */
export function callHook(renderer, where, name, ...args) {
  if (!renderer || typeof renderer[name] !== "function") return undefined;
  try {
    return renderer[name](...args);
  } catch (e) {
    console.error(`${where}: ${name} failed`, e);
    return undefined;
  }
}

/** The renderer module's own words for a round and a score (its optional `roundWord`,
 *  `scoreWord` strings: Covil's "Day", "Victory points"): `{roundWord, scoreWord}`, with the
 *  table's defaults "Round" and "Score". */
export function rendererWords(mod) {
  const word = (name, fallback) => (mod && typeof mod[name] === "string" ? mod[name] : fallback);
  return {roundWord: word("roundWord", "Round"), scoreWord: word("scoreWord", "Score")};
}

/** The game's picture of its score (the renderer's optional `scoreIcon()`): a node, or null. */
export function scoreIconOf(renderer, where) {
  const node = callHook(renderer, where, "scoreIcon");
  return node instanceof Node ? node : null;
}

/** The renderer's answer to a place hook (`logPlaces`, `hintPlaces`: an iterable of nodes)
 *  kept to the nodes drawn inside `board` now; [] without the hook or when it fails. */
export function placesOnBoard(board, renderer, where, name, ...args) {
  return [...(callHook(renderer, where, name, ...args) || [])].filter((n) => n && board.contains(n));
}
