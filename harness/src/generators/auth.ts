/**
 * Arbitraries for authentication (§5): nonce shapes, clock skews inside and outside the profile's window,
 * malformed dates, and mutations of digests and passwords (as descriptors: the secret itself never appears in a
 * counterexample).
 */
import fc from 'fast-check';
import type { Mutation } from '../auth/mutations.js';

/** Digits the `freshNonce` filter appends to a prefix. */
export const FRESH_DIGITS = 16;

/** What a target accepts as a nonce (profile `auth.nonceMax`, `auth.nonceLeadingZeros`). */
export interface NonceBounds {
  /** Largest nonce, as a number. */
  max: bigint;
  /** Nonces with leading zeros are accepted (as distinct nonces). */
  leadingZeros: boolean;
}

/** Default bounds: a signed 64-bit integer, no leading zeros. */
export const INT64_NONCES: NonceBounds = { max: 9223372036854775807n, leadingZeros: false };

/**
 * Leading parts of nonces: `minLength`–`maxLength` digits (at most 4). The `freshNonce` filter appends 16 digits
 * drawn from the clock and a counter, so every nonce sent is new to the target (a run never collides with an earlier
 * one still inside the target's window) and distinct as a number too. Nonces shorter than 16 digits are not sent: a
 * target rightly refuses a reuse inside its window, and short values would be reused by the next run.
 * Only nonces the target accepts by the profile are made: the prefix followed by any 16 digits stays at most
 * `bounds.max` (by default the signed 64-bit maximum, so 0–3 prefix digits), and starts with a zero only when
 * `bounds.leadingZeros` (then zeros-only prefixes are weighted in). A prefix that cannot fit is left out (`''`).
 */
export function noncePrefixArb(maxLength = 4, bounds: NonceBounds = INT64_NONCES, minLength = 0): fc.Arbitrary<string> {
  const fits = (prefix: string) =>
    BigInt(prefix === '' ? '0' : prefix) * 10n ** BigInt(FRESH_DIGITS) + (10n ** BigInt(FRESH_DIGITS) - 1n) <=
    bounds.max;
  const lengths = Array.from({ length: Math.max(0, Math.min(4, maxLength)) + 1 }, (_, n) => n).filter(
    (n) => n >= minLength && fits(n === 0 ? '' : `1${'0'.repeat(n - 1)}`),
  );
  if (lengths.length === 0 || (lengths.length === 1 && lengths[0] === 0)) return fc.constant('');
  const longest = Math.max(...lengths);
  const shortest = Math.min(...lengths);
  const first = bounds.leadingZeros ? '[0-9]' : '[1-9]';
  const digits =
    shortest === 0 ? `(?:${first}[0-9]{0,${longest - 1}})?` : `${first}[0-9]{${shortest - 1},${longest - 1}}`;
  const options = [fc.stringMatching(new RegExp(`^${digits}$`))];
  if (shortest === 0) options.push(fc.constant(''));
  if (bounds.leadingZeros) options.push(fc.stringMatching(new RegExp(`^0{${Math.max(1, shortest)},${longest}}$`)));
  return fc.oneof(...options).filter(fits);
}

/** Several distinct nonce prefixes; the `freshNonce` suffix makes the nonces distinct as numbers too. */
export function noncePrefixesArb(min: number, max: number, bounds: NonceBounds = INT64_NONCES): fc.Arbitrary<string[]> {
  return fc.uniqueArray(noncePrefixArb(4, bounds), { minLength: min, maxLength: max });
}

/**
 * A skew strictly inside the window, kept more than `margin` seconds clear of its edge, in either direction (one
 * second more: the Date is written in whole seconds, so a past skew can grow by up to a second).
 */
export function skewInsideArb(window: number, margin: number): fc.Arbitrary<number> {
  const edge = Math.max(0, Math.ceil(window - margin) - 1);
  return fc.integer({ min: -edge, max: edge });
}

/**
 * A skew beyond the window by more than `margin`, in either direction (one second more: the Date is written in
 * whole seconds, so a future skew can shrink by up to a second): just past the edge, far out, and whole days (the
 * same time of day on another day).
 */
export function skewOutsideArb(window: number, margin: number): fc.Arbitrary<number> {
  const edge = Math.floor(window + margin) + 2;
  const magnitude = fc.oneof(
    fc.integer({ min: edge, max: edge + 120 }),
    fc.integer({ min: edge, max: 400 * 86_400 }),
    fc
      .integer({ min: 1, max: 400 })
      .map((days) => days * 86_400)
      .filter((s) => s >= edge),
  );
  return fc.tuple(magnitude, fc.boolean()).map(([m, past]) => (past ? -m : m));
}

/**
 * Date header values malformed under any reasonable reading (VERDICTS.md §1): a target may accept other
 * well-formed dates than the spec's shape (an HTTP-date, ISO 8601), so these are impossible calendar dates and
 * times, unknown months, and text that is no date at all. Every other shape is {@link otherDateShapeArb}'s.
 */
export function malformedDateArb(): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(
      '31 Feb 2026 10:00:00',
      '30 Feb 2026 10:00:00',
      '29 Feb 2026 10:00:00',
      '31 Nov 2026 10:00:00',
      '31 Apr 2026 10:00:00',
      '32 Nov 2026 10:00:00',
      '0 Nov 2026 10:00:00',
      '22 Nov 2026 25:00:00',
      '22 Nov 2026 10:61:00',
      '22 Nov 2026 10:00:61',
      '22 Foo 2026 10:00:00',
      'Sun, 31 Feb 2026 10:00:00 GMT',
      '2026-02-30T10:00:00Z',
      '',
      'yesterday',
    ),
    fc.string({ unit: 'grapheme-ascii', maxLength: 30 }).filter((s) => !/\d/.test(s)),
  );
}

/**
 * Well-formed dates of other shapes than the spec's, for the `dateShape` filter; refused only by a strict target. A
 * lowercase month is not among them: §5.2's own <date_text> is the Date in lowercase month form, so a strict target
 * may take `26 nov 2026 10:00:00` as the spec's shape (the `dateShape` filter still writes it, as `lowercase-month`).
 */
export const OTHER_DATE_SHAPES = ['imf', 'rfc850', 'asctime', 'iso', 'no-seconds', 'dashes', 'epoch'] as const;

/** One of {@link OTHER_DATE_SHAPES}. */
export type OtherDateShape = (typeof OTHER_DATE_SHAPES)[number];

/** A well-formed date shape other than the spec's `DD Mon YYYY hh:mm:ss` (IMF-fixdate, ISO 8601, epoch seconds…). */
export function otherDateShapeArb(): fc.Arbitrary<OtherDateShape> {
  return fc.constantFrom(...OTHER_DATE_SHAPES);
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Any single-character change, a truncation, a dropped character or a case change of a base64 digest. */
export function digestMutationArb(): fc.Arbitrary<Mutation> {
  return fc.oneof(
    fc.record({ kind: fc.constant('replace' as const), index: fc.nat(43), char: fc.constantFrom(...BASE64) }),
    // Long prefixes as often as short ones: a server that compares only a prefix is caught by a long one.
    fc.record({
      kind: fc.constant('truncate' as const),
      length: fc.oneof(fc.nat(43), fc.integer({ min: 8, max: 42 })),
    }),
    fc.record({ kind: fc.constant('drop' as const), index: fc.nat(43) }),
    fc.record({ kind: fc.constant('flipCase' as const), index: fc.nat(43) }),
    fc.record({ kind: fc.constant('extend' as const), suffix: fc.constantFrom('A', '=', 'x1') }),
  );
}

/** Wrong passwords near the right one: prefixes, extensions, case variants, one character changed or dropped. */
export function passwordMutationArb(): fc.Arbitrary<Mutation> {
  return fc.oneof(
    fc.record({ kind: fc.constant('prefix' as const), length: fc.nat(64) }),
    fc.record({
      kind: fc.constant('extend' as const),
      suffix: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 3 }),
    }),
    fc.record({ kind: fc.constant('flipCase' as const), index: fc.nat(64) }),
    fc.record({
      kind: fc.constant('replace' as const),
      index: fc.nat(64),
      char: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }),
    }),
    fc.record({ kind: fc.constant('drop' as const), index: fc.nat(64) }),
  );
}

/** How an OAuth 2 client authenticates, among what the profile offers: Basic (plain or fully percent-encoded), form fields. */
export function oauth2ClientAuthArb(offered: readonly ('basic' | 'form')[]): fc.Arbitrary<'basic' | 'form'> {
  // Basic carries the id and secret as RFC 6749 §2.3.1 has the client encode them (application/x-www-form-urlencoded,
  // Appendix B) — not every character percent-encoded, which the algorithm does not produce.
  return fc.constantFrom(...(offered.length > 0 ? offered : (['basic'] as const)));
}
