import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalText, describeNormalization, explainNormalization, sameTextModulo } from './normalize.js';

describe('text normalizations that keep meaning', () => {
  it('compares exactly with no normalization', () => {
    expect(sameTextModulo(' a', 'a', [])).toBe(false);
    expect(sameTextModulo('é', 'e\u0301', [])).toBe(false);
    expect(sameTextModulo('a b', 'a b', [])).toBe(true);
  });

  it('accepts each declared normalization, and only it', () => {
    expect(sameTextModulo('  a  b ', 'a  b', ['trim'])).toBe(true);
    expect(sameTextModulo('  a  b ', 'a b', ['trim'])).toBe(false);
    expect(sameTextModulo('a \t\n b', 'a b', ['collapse'])).toBe(true);
    expect(sameTextModulo('é', 'e\u0301', ['nfd'])).toBe(true);
    expect(sameTextModulo('e\u0301', 'é', ['nfc'])).toBe(true);
  });

  it('never accepts what changes meaning: truncation, dropped whitespace, compatibility folding, replacement', () => {
    const all = ['trim', 'collapse', 'nfc'] as const;
    expect(sameTextModulo('abcdef', 'abc', all)).toBe(false);
    expect(sameTextModulo('a b', 'ab', all)).toBe(false);
    expect(sameTextModulo('x²', 'x2', all)).toBe(false);
    expect(sameTextModulo('ﬁ', 'fi', all)).toBe(false);
    expect(sameTextModulo('😀', '?', all)).toBe(false);
  });

  it('explains a served text by the smallest set, telling NFC from NFD', () => {
    const bait = '\t conform  probe \u00e9 e\u0301\n ';
    expect(explainNormalization(bait, bait)).toEqual([]);
    expect(explainNormalization(bait, bait.trim())).toEqual(['trim']);
    expect(explainNormalization(bait, 'conform probe \u00e9 e\u0301')).toEqual(['trim', 'collapse']);
    expect(explainNormalization(bait, bait.normalize('NFC'))).toEqual(['nfc']);
    expect(explainNormalization(bait, bait.normalize('NFD'))).toEqual(['nfd']);
    expect(explainNormalization(bait, 'conform probe é é'.normalize('NFD'))).toEqual(['trim', 'collapse', 'nfd']);
    expect(explainNormalization(bait, bait.normalize('NFKC').slice(0, 5))).toBeUndefined();
    expect(describeNormalization(['trim'])).toBe('edge whitespace trimmed');
    expect(describeNormalization([])).toBe('exactly as sent');
  });

  it('is idempotent and the identity is always accepted (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.subarray(['trim', 'collapse', 'nfc'] as const), (s, set) => {
        expect(canonicalText(canonicalText(s, set), set)).toBe(canonicalText(s, set));
        expect(sameTextModulo(s, s, set)).toBe(true);
        expect(sameTextModulo(s, canonicalText(s, set), set)).toBe(true);
      }),
    );
  });
});
