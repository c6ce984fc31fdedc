import type { FaultName } from '../faults.js';
import type { VariantName } from '../variants.js';

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

/** The window of the `window-300` variant, seconds. */
export const VARIANT_WINDOW = 300;

/**
 * The accepted clock difference in use, seconds: the `window` setting, or 300 s under the `window-300` variant
 * (which wins over the setting). It bounds the §5.2 Date and the OAuth 1 timestamp, and how long their nonces are
 * kept.
 */
export function windowSeconds(state: { auth: { window: number } }, variants: ReadonlySet<VariantName>): number {
  return variants.has('window-300') ? VARIANT_WINDOW : state.auth.window;
}
