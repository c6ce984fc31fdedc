import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_BOUNDS } from '../profile/schema.js';
import type { ArticleBounds } from '../profile/schema.js';
import {
  articleArb,
  codePointLength,
  compareDecimal,
  priceArb,
  priceBeyondArb,
  titleArb,
  titleBeyondArb,
} from './article.js';

const BOUNDS: ArticleBounds[] = [
  DEFAULT_BOUNDS,
  { priceScale: 4, priceMax: '999999.9999', titleMaxLength: 200 },
  { priceScale: 1, priceMax: '5', titleMaxLength: 3 },
];

/** Fraction digits the value of a decimal text needs (trailing zeros do not count). */
function neededScale(price: string): number {
  return (price.split('.')[1] ?? '').replace(/0+$/, '').length;
}

describe('article values and the profile bounds', () => {
  it('compares decimals by value', () => {
    expect(compareDecimal('12.50', '12.5')).toBe(0);
    expect(compareDecimal('99999.99', '100000')).toBeLessThan(0);
    expect(compareDecimal('7.01', '7.009')).toBeGreaterThan(0);
  });

  it.each(BOUNDS)('inside %o: every price and title is within the bounds, with a fractional part', (bounds) => {
    fc.assert(
      fc.property(priceArb(bounds), titleArb(40, bounds.titleMaxLength), (price, title) => {
        expect(price).toMatch(/^[0-9]+\.[0-9]+$/);
        expect((price.split('.')[1] ?? '').length).toBeLessThanOrEqual(bounds.priceScale);
        expect(compareDecimal(price, bounds.priceMax)).toBeLessThanOrEqual(0);
        expect(codePointLength(title)).toBeLessThanOrEqual(bounds.titleMaxLength);
        expect(title.length).toBeGreaterThan(0);
      }),
    );
  });

  it.each(BOUNDS)(
    'beyond %o: every price exceeds them by value (never only by trailing zeros), every title by length',
    (bounds) => {
      fc.assert(
        fc.property(priceBeyondArb(bounds), titleBeyondArb(bounds.titleMaxLength), (price, title) => {
          expect(price).toMatch(/^[0-9]+\.[0-9]+$/);
          expect(neededScale(price) > bounds.priceScale || compareDecimal(price, bounds.priceMax) > 0).toBe(true);
          expect(codePointLength(title)).toBeGreaterThan(bounds.titleMaxLength);
          expect(title).toBe(title.trim());
        }),
      );
    },
  );

  it('the bound itself is drawn: a title of exactly titleMaxLength and a price equal to priceMax', () => {
    const titles = fc.sample(titleArb(40, 64), { numRuns: 400, seed: 1 });
    expect(titles.some((t) => codePointLength(t) === 64)).toBe(true);
    expect(fc.sample(priceArb(DEFAULT_BOUNDS), { numRuns: 400, seed: 1 })).toContain('99999.99');
  });

  it('a title drawn at the bound shrinks to a short one when any title fails (issue 26: no 200-character counterexample)', () => {
    for (let seed = 1; seed <= 30; seed++) {
      const r = fc.check(
        fc.property(titleArb(40, 200), () => false),
        { seed, numRuns: 5 },
      );
      expect(codePointLength(String(r.counterexample![0])), `seed ${seed}`).toBeLessThanOrEqual(2);
    }
  });

  it('values: beyond puts the title, the price or both beyond the bounds, and the rest inside', () => {
    fc.assert(
      fc.property(articleArb([], { values: 'beyond' }, DEFAULT_BOUNDS), (a) => {
        const titleBeyond = codePointLength(a.title) > DEFAULT_BOUNDS.titleMaxLength;
        const priceBeyond =
          neededScale(a.price) > DEFAULT_BOUNDS.priceScale || compareDecimal(a.price, DEFAULT_BOUNDS.priceMax) > 0;
        expect(titleBeyond || priceBeyond).toBe(true);
        expect(a.currency).toMatch(/^[a-z]{3}$/);
      }),
    );
  });
});
