import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatSpecDate } from '../auth/signers.js';
import { skewInsideArb, skewOutsideArb } from './auth.js';

/** Seconds between the Date the harness writes for `skew` (whole seconds) and the instant it was written. */
const written = (now: number, skew: number) => (Date.parse(`${formatSpecDate(new Date(now + skew * 1000))} GMT`) - now) / 1000;

describe('clock skews (VERDICTS.md §3)', () => {
  it('a skew outside the window is outside by more than the margin, as written in whole seconds', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 86_400 }), fc.nat(30), fc.integer({ min: 1.7e12, max: 1.9e12 }), (window, margin, now) => {
        return fc.assert(fc.property(skewOutsideArb(window, margin), (skew) => Math.abs(written(now, skew)) > window + margin), { numRuns: 20 }) === undefined;
      }),
      { numRuns: 100 },
    );
  });

  it('a skew inside the window stays at least the margin inside it, as written in whole seconds', () => {
    fc.assert(
      fc.property(fc.integer({ min: 60, max: 86_400 }), fc.nat(30), fc.integer({ min: 1.7e12, max: 1.9e12 }), (window, margin, now) => {
        return fc.assert(fc.property(skewInsideArb(window, margin), (skew) => Math.abs(written(now, skew)) <= window - margin), { numRuns: 20 }) === undefined;
      }),
      { numRuns: 100 },
    );
  });

  it('the old edges were not: a future skew of window + margin is written a second short', () => {
    const now = 1.8e12 + 500;
    expect(Math.abs(written(now, 600 + 5))).toBeLessThan(605);
  });
});
