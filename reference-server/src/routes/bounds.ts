import { problem } from '../responses.js';
import type { Article, ResponseRecord } from '../records.js';
import type { HandlerDeps } from '../types.js';

/** Bounds of the `price-two-decimals` variant: the largest price it stores (DECIMAL(7,2)) and its scale. */
export const TWO_DECIMALS = { scale: 2, max: '99999.99' } as const;
/** Longest title the `title-bounded` variant stores, in code points. */
export const TITLE_BOUND = 64;

/** Fraction digits a decimal text needs for its value: trailing zeros do not count (`"12.500"` → 1). */
export function neededScale(price: string): number {
  const fraction = (price.split('.')[1] ?? '').replace(/0+$/, '');
  return fraction.length;
}

/** True when the non-negative decimal text `a` is larger in value than `b`. */
export function decimalAbove(a: string, b: string): boolean {
  const [ai = '0', af = ''] = a.replace(/^-/, '').split('.');
  const [bi = '0', bf = ''] = b.split('.');
  const x = BigInt(ai);
  const y = BigInt(bi);
  if (x !== y) return x > y;
  const width = Math.max(af.length, bf.length);
  return af.padEnd(width, '0') > bf.padEnd(width, '0');
}

/** Code points of a text (a character outside the BMP counts once). */
export function codePoints(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/**
 * The refusal (422) of an article beyond the bounds the switched-on variants declare, or undefined when it is
 * inside them: `price-two-decimals` (a price needing more than two fraction digits, or above 99999.99) and
 * `title-bounded` (a title longer than 64 code points). A correct server refuses what it cannot store exactly.
 */
export function boundsRefusal(article: Article, deps: HandlerDeps): ResponseRecord | undefined {
  const opts = { slug: 'value-out-of-bounds', title: 'Value out of bounds' };
  if (deps.variants.has('price-two-decimals')) {
    if (neededScale(article.price) > TWO_DECIMALS.scale) {
      return problem(
        422,
        `price ${article.price} has more than ${TWO_DECIMALS.scale} fraction digits; this server stores prices to the cent`,
        opts,
      );
    }
    if (article.price.startsWith('-') || decimalAbove(article.price, TWO_DECIMALS.max)) {
      return problem(422, `price ${article.price} is outside 0 to ${TWO_DECIMALS.max}`, opts);
    }
  }
  if (deps.variants.has('title-bounded') && codePoints(article.title) > TITLE_BOUND) {
    return problem(422, `title has ${codePoints(article.title)} characters; at most ${TITLE_BOUND} are stored`, opts);
  }
  return undefined;
}
