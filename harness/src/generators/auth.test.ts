import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatSpecDate } from '../auth/signers.js';
import { INT64_NONCES, malformedDateArb, noncePrefixArb, skewInsideArb, skewOutsideArb } from './auth.js';

/** Seconds between the Date the harness writes for `skew` (whole seconds) and the instant it was written. */
const written = (now: number, skew: number) =>
  (Date.parse(`${formatSpecDate(new Date(now + skew * 1000))} GMT`) - now) / 1000;

describe('clock skews (VERDICTS.md §4)', () => {
  it('a skew outside the window is outside by more than the margin, as written in whole seconds', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 86_400 }),
        fc.nat(30),
        fc.integer({ min: 1.7e12, max: 1.9e12 }),
        (window, margin, now) => {
          return (
            fc.assert(
              fc.property(skewOutsideArb(window, margin), (skew) => Math.abs(written(now, skew)) > window + margin),
              { numRuns: 20 },
            ) === undefined
          );
        },
      ),
      { numRuns: 100 },
    );
  });

  it('a skew inside the window stays at least the margin inside it, as written in whole seconds', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 60, max: 86_400 }),
        fc.nat(30),
        fc.integer({ min: 1.7e12, max: 1.9e12 }),
        (window, margin, now) => {
          return (
            fc.assert(
              fc.property(skewInsideArb(window, margin), (skew) => Math.abs(written(now, skew)) <= window - margin),
              { numRuns: 20 },
            ) === undefined
          );
        },
      ),
      { numRuns: 100 },
    );
  });

  it('the old edges were not: a future skew of window + margin is written a second short', () => {
    const now = 1.8e12 + 500;
    expect(Math.abs(written(now, 600 + 5))).toBeLessThan(605);
  });
});

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/**
 * A lenient reader's view: `Date.parse` understands the value, and the value is that instant written in one of the
 * usual shapes (so "31 Feb", which `Date.parse` rolls over to 3 Mar, is no date, and nor is what it cannot parse).
 */
function readableDate(value: string): boolean {
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) return false;
  const d = new Date(ms);
  const two = (n: number) => String(n).padStart(2, '0');
  const [day, mon, year, dow] = [
    two(d.getUTCDate()),
    MONTHS[d.getUTCMonth()]!,
    d.getUTCFullYear(),
    DAYS[d.getUTCDay()]!,
  ];
  const hm = `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}`;
  const hms = `${hm}:${two(d.getUTCSeconds())}`;
  const shapes = [
    `${day} ${mon} ${year} ${hms}`,
    `${dow}, ${day} ${mon} ${year} ${hms} GMT`,
    `${dow} ${mon} ${String(d.getUTCDate()).padStart(2, ' ')} ${hms} ${year}`,
    d.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    `${day} ${mon} ${year} ${hm}`,
    `${day} ${mon} ${year}`,
    `${day}-${mon}-${year} ${hms}`,
  ];
  return shapes.some((shape) => shape.toLowerCase() === value.toLowerCase().replace(/^0?(\d) /, '0$1 '));
}

describe('malformed dates (VERDICTS.md §1: no invented MUST)', () => {
  it('are dates under no reasonable reading, so a server that reads any well-formed date still refuses them', () => {
    fc.assert(
      fc.property(malformedDateArb(), (value) => !readableDate(value)),
      { numRuns: 2000 },
    );
  });

  it('the other shapes are dates a lenient reader takes', () => {
    expect(readableDate('Sun, 22 Nov 2026 10:00:00 GMT')).toBe(true);
    expect(readableDate('2026-11-22T10:00:00Z')).toBe(true);
    expect(readableDate('22 Nov 2026 10:00:00')).toBe(true);
    expect(readableDate('31 Feb 2026 10:00:00')).toBe(false);
  });
});

describe('nonce prefixes (within what the target accepts)', () => {
  const full = (prefix: string) => BigInt(`${prefix}${'9'.repeat(16)}`);

  it('by default a nonce stays a signed 64-bit integer and never starts with 0', () => {
    fc.assert(
      fc.property(noncePrefixArb(), (prefix) => full(prefix) <= 9223372036854775807n && !prefix.startsWith('0')),
      { numRuns: 2000 },
    );
  });

  it('with min 1 every nonce is beyond 2^53; wider bounds allow four digits and leading zeros', () => {
    fc.assert(
      fc.property(
        noncePrefixArb(3, INT64_NONCES, 1),
        (prefix) => BigInt(`${prefix}${'0'.repeat(16)}`) > 2n ** 53n && full(prefix) <= 9223372036854775807n,
      ),
    );
    const wide = { max: 99999999999999999999n, leadingZeros: true };
    const seen = fc.sample(noncePrefixArb(4, wide), 500);
    expect(seen.some((p) => p.startsWith('0'))).toBe(true);
    expect(seen.some((p) => p.length === 4)).toBe(true);
  });

  it('the old prefixes did not: "9" and three digits then 16 make 20 digits, beyond int64', () => {
    expect(full('9999') > 9223372036854775807n).toBe(true);
  });
});
