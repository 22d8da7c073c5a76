// Counted nouns in words (issue 14, "Names, not codes": the log reads as English). One home for
// the plural rule, shared by the three renderers (their own drawings and their logText, which
// mends the stored log lines: "1 coins", "2 Worm", "3 tile(s)").

/** "1 coin", "2 coins", "0 coins": `n` and `one` or `many` (by default `one` + "s"). Only
 *  exactly 1 (or -1) takes the singular. */
export function plural(n, one, many = `${one}s`) {
  return `${n} ${Math.abs(Number(n)) === 1 ? one : many}`;
}

/** The noun alone: `one` for 1 (or -1), else `many`. */
export function nounFor(n, one, many = `${one}s`) {
  return Math.abs(Number(n)) === 1 ? one : many;
}

function escape(s) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** `text` with its counts mended: every "N noun(s)" reads "N noun" or "N nouns", and every
 *  "N <noun>" of `nouns` (`[[one, many], …]`, e.g. `[["Worm", "Worms"], ["cell", "cells"]]`)
 *  takes the form N asks for, whichever form the text had. A number is a whole token ("+1",
 *  "-1" count too); anything else is left as it is. */
export function mendCounts(text, nouns = []) {
  let out = String(text).replace(/(^|[^\w.])([-+]?\d+) ((?:[A-Za-z]+ ){0,2}[A-Za-z]+)\(s\)/g,
    (all, pre, n, one) => `${pre}${plural(n, one)}`);
  // longest names first: "Free Rats" before "Rats"
  const pairs = [...nouns].sort((a, b) => b[0].length - a[0].length);
  for (const [one, many = `${one}s`] of pairs) {
    const forms = one === many ? escape(one) : `(?:${escape(many)}|${escape(one)})`;
    const re = new RegExp(`(^|[^\\w.])([-+]?\\d+) ${forms}(?![\\w(])`, "g");
    out = out.replace(re, (all, pre, n) => `${pre}${plural(n, one, many)}`);
  }
  return out;
}

/** Whether the player's main pointer is a finger (a phone or a tablet): instructions then say
 *  "tap", not "click" (table review item 10). */
const TOUCH = typeof matchMedia === "function" ? matchMedia("(pointer: coarse)") : null;

/** The verb of an instruction to press something on the board: "Tap" on a touch screen, else
 *  "Click"; lower case with `lower`. */
export function clickVerb(lower = false) {
  const verb = TOUCH && TOUCH.matches ? "Tap" : "Click";
  return lower ? verb.toLowerCase() : verb;
}

/** The verb that opens a piece's card: "Long-press" on a touch screen (no hover there), else
 *  "Hover"; lower case with `lower`. */
export function hoverVerb(lower = false) {
  const verb = TOUCH && TOUCH.matches ? "Long-press" : "Hover";
  return lower ? verb.toLowerCase() : verb;
}

/** A keyboard hint ("Esc to cancel") where the main pointer is a mouse, else `touch`: a touch
 *  screen seldom has a keyboard, so it says what to tap instead, or nothing (new-user trial:
 *  "(Esc: cancel)" on a phone). */
export function keyHint(keys, touch = "") {
  return TOUCH && TOUCH.matches ? touch : keys;
}
