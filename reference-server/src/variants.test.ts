import { describe, expect, it } from 'vitest';
import { VARIANT_NAMES, VariantError, applyProfilePatch, combinableVariants, parseVariantNames } from './variants.js';

describe('profile patches', () => {
  it('merges objects, replaces arrays and scalars, removes with null, and changes neither input', () => {
    const base = { a: { b: 1, c: [1, 2], d: 'x' }, e: true };
    const out = applyProfilePatch(base, { a: { c: [3], d: null, f: { g: 2 } }, e: false });
    expect(out).toEqual({ a: { b: 1, c: [3], f: { g: 2 } }, e: false });
    expect(base).toEqual({ a: { b: 1, c: [1, 2], d: 'x' }, e: true });
  });
});

describe('variant names', () => {
  it('accepts known names, trims, drops blanks and duplicates', () => {
    const first = VARIANT_NAMES[0]!;
    expect(parseVariantNames([` ${first} `, '', first])).toEqual([first]);
  });

  it('refuses an unknown name with a typed error that lists the valid ones', () => {
    expect(() => parseVariantNames(['no-such-variant'])).toThrow(VariantError);
    expect(() => parseVariantNames(['no-such-variant'])).toThrow(/valid variants: /);
  });

  it('combines every variant that excludes none taken before it', () => {
    expect(combinableVariants().length).toBeGreaterThan(0);
    expect(() => parseVariantNames(combinableVariants())).not.toThrow();
  });
});
