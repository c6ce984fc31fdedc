import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { digestMutationArb, passwordMutationArb } from '../generators/auth.js';
import { applyDigestMutation, applyMutation, applyPasswordMutation, preparedPassword } from './mutations.js';

const bytes = (text: string) => Buffer.from(text, 'base64');
/** A base64 digest of a SHA-256 (32 bytes, one `=`) or SHA-1 (20 bytes, one `=`) HMAC, or of any other length. */
const digestArb = fc
  .oneof(
    fc.uint8Array({ minLength: 32, maxLength: 32 }),
    fc.uint8Array({ minLength: 20, maxLength: 20 }),
    fc.uint8Array({ minLength: 1, maxLength: 40 }),
  )
  .map((b) => Buffer.from(b).toString('base64'));

describe('digest mutations change the bytes (VERDICTS.md §4)', () => {
  it('every generated mutation decodes to other bytes, even with the most lenient decoder', () => {
    fc.assert(
      fc.property(digestArb, digestMutationArb(), (digest, m) => {
        const out = applyDigestMutation(digest, m);
        expect(out).not.toBe(digest);
        expect(bytes(out).equals(bytes(digest)), `${m.kind} of ${digest} → ${out}`).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });

  it('the text-only mutation could leave the bytes alone: padding, the unused bits of the last character, junk after "="', () => {
    const digest = 'tgCQ4wUil661oICInOL8S8qVfnVvrrTffTGADKHncew=';
    for (const m of [
      { kind: 'truncate', length: 43 },
      { kind: 'drop', index: 43 },
      { kind: 'extend', suffix: '=' },
      { kind: 'extend', suffix: 'x1' },
      { kind: 'replace', index: 42, char: 'x' },
    ] as const) {
      expect(bytes(applyMutation(digest, m)).equals(bytes(digest)), m.kind).toBe(true);
      expect(bytes(applyDigestMutation(digest, m)).equals(bytes(digest)), m.kind).toBe(false);
    }
  });

  it('keeps the kind of change where it already changes the bytes', () => {
    const digest = 'tgCQ4wUil661oICInOL8S8qVfnVvrrTffTGADKHncew=';
    expect(applyDigestMutation(digest, { kind: 'truncate', length: 10 })).toBe(digest.slice(0, 10));
    expect(applyDigestMutation(digest, { kind: 'flipCase', index: 0 })).toBe(`T${digest.slice(1)}`);
    expect(applyDigestMutation(digest, { kind: 'extend', suffix: 'A' })).toBe(
      'tgCQ4wUil661oICInOL8S8qVfnVvrrTffTGADKHncewA',
    );
  });
});

describe('password mutations give another password (VERDICTS.md §4)', () => {
  it('every generated mutation differs after RFC 8265 preparation', () => {
    const password = fc.oneof(
      fc.constantFrom('wonder:land', 'builder', 'pä:ss wörd✓', 'aud secret+/:2', 'é', 'e\u0301'),
      fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }),
    );
    fc.assert(
      fc.property(password, passwordMutationArb(), (pw, m) => {
        expect(preparedPassword(applyPasswordMutation(pw, m))).not.toBe(preparedPassword(pw));
      }),
      { numRuns: 2000 },
    );
  });

  it('the same password written differently is not a mutation', () => {
    expect(applyMutation('caf\u00e9', { kind: 'replace', index: 3, char: 'e\u0301' })).not.toBe('caf\u00e9');
    expect(preparedPassword(applyMutation('caf\u00e9', { kind: 'replace', index: 3, char: 'e\u0301' }))).toBe(
      'caf\u00e9',
    );
    expect(applyPasswordMutation('caf\u00e9', { kind: 'replace', index: 3, char: 'e\u0301' })).toBe('caf\u00e9x');
    expect(applyPasswordMutation('pä:ss wörd', { kind: 'replace', index: 5, char: '\u00a0' })).toBe('pä:ss wördx');
  });
});
