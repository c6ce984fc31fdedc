/** Invalid article bodies (§2): one defect at a time, each breaking one sentence of the representation. */
import fc from 'fast-check';
import type { ArticleBounds } from '../profile/schema.js';
import { articleArb, WIDE_BOUNDS, type ArticleValue } from './article.js';

/** An invalid article body: one defect of a §2 representation, and the XML that carries it. */
export interface InvalidArticle {
  defect: string;
  xml: string;
}

/**
 * The defects {@link invalidArticleArb} draws, one at a time; the first ones come first when fast-check shrinks.
 * Each breaks one sentence of §2: the root `article`, a `title`, a `price` "written with a fractional part", and
 * its currency "a lowercase currency code".
 */
export const ARTICLE_DEFECTS = [
  'integer price',
  'uppercase currency',
  'currency not a code',
  'no title',
  'second title',
  'other root',
  'no price',
  'no currency',
] as const;

/**
 * Invalid articles: a valid article (inside `bounds`) with exactly one defect of {@link ARTICLE_DEFECTS}. Shrinks
 * to the shortest article with the first defect that still shows the failure.
 */
export function invalidArticleArb(
  bounds: ArticleBounds = WIDE_BOUNDS,
  only?: ArticleDefect,
): fc.Arbitrary<InvalidArticle> {
  // Each defect as likely as any other (fast-check biases constantFrom toward its first values). That every defect
  // is tried at all is the runner's doing: the generator's cases ({@link invalidArticleCases}) come first.
  const defect = only === undefined ? fc.noBias(fc.constantFrom(...ARTICLE_DEFECTS)) : fc.constant(only);
  return fc
    .record({ a: articleArb([], {}, bounds), defect })
    .map(({ a, defect }) => ({ defect, xml: invalidXml(a, defect) }));
}

/** One arbitrary per defect of {@link ARTICLE_DEFECTS}, in that order: the cases a run tries first. */
export function invalidArticleCases(bounds: ArticleBounds = WIDE_BOUNDS): Array<fc.Arbitrary<InvalidArticle>> {
  return ARTICLE_DEFECTS.map((d) => invalidArticleArb(bounds, d));
}

export type ArticleDefect = (typeof ARTICLE_DEFECTS)[number];

function invalidXml(a: ArticleValue, defect: ArticleDefect): string {
  const esc = (s: string) =>
    s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] ?? c);
  const currency =
    defect === 'uppercase currency' ? a.currency.toUpperCase() : defect === 'currency not a code' ? 'euro' : a.currency;
  const priceText = defect === 'integer price' ? (a.price.split('.')[0] ?? '0') : a.price;
  const title = defect === 'no title' ? '' : `<title>${esc(a.title)}</title>`;
  const second = defect === 'second title' ? `<title>${esc(`${a.title} (second)`)}</title>` : '';
  const attr = defect === 'no currency' ? '' : ` currency="${esc(currency)}"`;
  const price = defect === 'no price' ? '' : `<price${attr}>${esc(priceText)}</price>`;
  const root = defect === 'other root' ? 'item' : 'article';
  return `<?xml version="1.0" encoding="UTF-8"?><${root}>${title}${second}${price}</${root}>`;
}
