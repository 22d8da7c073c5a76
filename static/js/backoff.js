// Reconnect back-off, shared by the table (table/wire.js) and the waiting room (waiting.js):
// the wait doubles from `firstMs` up to `capMs`, with ±25 % jitter so that clients dropped
// together do not all come back together.

/** Milliseconds to wait before retry number `attempt` (0: the first retry). */
export function backoffDelay(attempt, firstMs, capMs) {
  const base = Math.min(capMs, firstMs * 2 ** Math.max(0, attempt));
  return Math.min(capMs, Math.round(base * (0.75 + Math.random() * 0.5)));
}

/** The slow back-off: 1 s doubling to 30 s, stopping (and saying so) after MAX_FAILURES
 *  failures in a row. The waiting room's for every failure; the table's when the server
 *  refused it for too many sockets from its address, where attempts soon would be refused too. */
export const SLOW_FIRST_MS = 1000;
export const SLOW_CAP_MS = 30_000;
export const MAX_FAILURES = 6;

/** Close code: too many sockets open from this address (`WS_PER_ADDRESS`, docs/wire.md). */
export const CROWDED_CLOSE_CODE = 4429;
