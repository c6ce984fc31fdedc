/**
 * Arbitraries for authentication (§5): nonce shapes, clock skews inside and outside the profile's window,
 * malformed dates, and mutations of digests and passwords (as descriptors: the secret itself never appears in a
 * counterexample).
 */
import fc from 'fast-check';
import type { Mutation } from '../auth/mutations.js';

/**
 * Leading parts of nonces: 0–4 digits, leading zeros included. The `freshNonce` filter appends 16 digits drawn
 * from the clock and a counter, so every nonce sent is 16–20 digits long (values beyond 2^53), new to the target
 * (a run never collides with an earlier one still inside the target's window), and distinct as a number too.
 * Nonces shorter than 16 digits are not sent: a target rightly refuses a reuse inside its window, and short values
 * would be reused by the next run.
 */
export function noncePrefixArb(maxLength = 4): fc.Arbitrary<string> {
  const max = Math.max(0, Math.min(4, maxLength));
  if (max === 0) return fc.constant('');
  return fc.oneof(fc.constant(''), fc.stringMatching(new RegExp(`^0{1,${max}}$`)), fc.stringMatching(new RegExp(`^[0-9]{1,${max}}$`)));
}

/** Several distinct nonce prefixes; the `freshNonce` suffix makes the nonces distinct as numbers too. */
export function noncePrefixesArb(min: number, max: number): fc.Arbitrary<string[]> {
  return fc.uniqueArray(noncePrefixArb(), { minLength: min, maxLength: max });
}

/** A skew strictly inside the window, kept `margin` seconds clear of its edge, in either direction. */
export function skewInsideArb(window: number, margin: number): fc.Arbitrary<number> {
  const edge = Math.max(0, Math.floor(window - margin));
  return fc.integer({ min: -edge, max: edge });
}

/**
 * A skew beyond the window by at least `margin`, in either direction: just past the edge, far out, and whole days
 * (the same time of day on another day).
 */
export function skewOutsideArb(window: number, margin: number): fc.Arbitrary<number> {
  const edge = Math.ceil(window + margin);
  const magnitude = fc.oneof(
    fc.integer({ min: edge, max: edge + 120 }),
    fc.integer({ min: edge, max: 400 * 86_400 }),
    fc.integer({ min: 1, max: 400 }).map((days) => days * 86_400).filter((s) => s >= edge),
  );
  return fc.tuple(magnitude, fc.boolean()).map(([m, past]) => (past ? -m : m));
}

/** Date header values that are not of the spec's shape `DD Mon YYYY hh:mm:ss`. */
export function malformedDateArb(): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(
      'Sun, 22 Nov 2026 10:00:00 GMT',
      '2026-11-22T10:00:00Z',
      '1795341600',
      '22 Nov 2026',
      '22 Nov 2026 10:00',
      '22 Foo 2026 10:00:00',
      '32 Nov 2026 10:00:00',
      '22 Nov 2026 25:00:00',
      '22 Nov 2026 10:61:00',
      '22-Nov-2026 10:00:00',
      '',
      'yesterday',
    ),
    fc.string({ unit: 'grapheme-ascii', maxLength: 30 }).filter((s) => !/^\d{1,2} [A-Z][a-z]{2} \d{4} \d\d:\d\d:\d\d$/.test(s)),
  );
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Any single-character change, a truncation, a dropped character or a case change of a base64 digest. */
export function digestMutationArb(): fc.Arbitrary<Mutation> {
  return fc.oneof(
    fc.record({ kind: fc.constant('replace' as const), index: fc.nat(43), char: fc.constantFrom(...BASE64) }),
    fc.record({ kind: fc.constant('truncate' as const), length: fc.nat(43) }),
    fc.record({ kind: fc.constant('drop' as const), index: fc.nat(43) }),
    fc.record({ kind: fc.constant('flipCase' as const), index: fc.nat(43) }),
    fc.record({ kind: fc.constant('extend' as const), suffix: fc.constantFrom('A', '=', 'x1') }),
  );
}

/** Wrong passwords near the right one: prefixes, extensions, case variants, one character changed or dropped. */
export function passwordMutationArb(): fc.Arbitrary<Mutation> {
  return fc.oneof(
    fc.record({ kind: fc.constant('prefix' as const), length: fc.nat(64) }),
    fc.record({ kind: fc.constant('extend' as const), suffix: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 3 }) }),
    fc.record({ kind: fc.constant('flipCase' as const), index: fc.nat(64) }),
    fc.record({ kind: fc.constant('replace' as const), index: fc.nat(64), char: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }) }),
    fc.record({ kind: fc.constant('drop' as const), index: fc.nat(64) }),
  );
}

/** How an OAuth 2 client authenticates, among what the profile offers: Basic (plain or fully percent-encoded), form fields. */
export function oauth2ClientAuthArb(offered: readonly ('basic' | 'form')[]): fc.Arbitrary<'basic' | 'basic-encoded' | 'form'> {
  const ways = offered.flatMap((w) => (w === 'basic' ? (['basic', 'basic-encoded'] as const) : (['form'] as const)));
  return fc.constantFrom(...(ways.length > 0 ? ways : (['basic'] as const)));
}
