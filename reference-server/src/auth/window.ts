import type { VariantName } from '../variants.js';

/**
 * True when a signed `Date` (ms) lies within `windowSeconds` of the clock (ms), in both directions, edges
 * included.
 */
export function withinWindow(dateMs: number, nowMs: number, windowSeconds: number): boolean {
  return Math.abs(dateMs - nowMs) <= windowSeconds * 1000;
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
