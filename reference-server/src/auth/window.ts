import type { FaultName } from '../faults.js';

const DAY_MS = 86_400_000;
/** Under `date-window-narrow`, the part of the configured window actually accepted. */
const NARROW = 0.1;

/**
 * True when a signed `Date` (ms) lies within `windowSeconds` of the clock (ms), in both directions, edges
 * included. The faults `date-ignored`, `date-future-unlimited`, `date-past-unlimited` and `date-time-of-day`
 * each loosen it in their own way; `date-window-narrow` accepts only a tenth of the window.
 */
export function withinWindow(dateMs: number, nowMs: number, windowSeconds: number, faults: ReadonlySet<FaultName>): boolean {
  if (faults.has('date-ignored')) return true;
  const limit = windowSeconds * 1000 * (faults.has('date-window-narrow') ? NARROW : 1);
  let ahead = dateMs - nowMs;
  if (faults.has('date-time-of-day')) {
    ahead = (((ahead % DAY_MS) + DAY_MS) % DAY_MS);
    if (ahead > DAY_MS / 2) ahead -= DAY_MS;
  }
  const futureOk = faults.has('date-future-unlimited') || ahead <= limit;
  const pastOk = faults.has('date-past-unlimited') || -ahead <= limit;
  return futureOk && pastOk;
}
