/**
 * Faults of stored values and of parsing and serving articles: each a patch of the article rules (routes/rules.ts)
 * made once at start — a lossy column the values go through (`stored`), a lenient or dangerous parser setting, a
 * title left unescaped, a second store key for the alias.
 */
import type { Article } from '../records.js';
import { decodeUtf8 } from '../request.js';
import type { ParseSettings } from '../routes/rules.js';
import type { Leniency } from '../xml/article.js';
import { sameArticle } from './define.js';
import type { FaultGroup, RulesPatch } from './define.js';
import { resolveExternalEntities } from './external.js';
import type { Resolve } from './external.js';

/** Code points the `title-truncated` fault keeps of a title: the reference profile's `titleMaxLength`. */
export const TRUNCATED_TITLE = 200;

/** A price rounded half-up to two fraction digits (the `price-rounded` fault); shorter fractions are kept. */
export function roundToCents(price: string): string {
  const negative = price.startsWith('-');
  const [int = '0', frac = ''] = price.replace(/^-/, '').split('.');
  if (frac.length <= 2) return price;
  let cents = BigInt(int + frac.slice(0, 2));
  if (frac.charCodeAt(2) >= '5'.charCodeAt(0)) cents += 1n;
  const digits = cents.toString().padStart(3, '0');
  return `${negative ? '-' : ''}${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

/** A price cut to two fraction digits, not rounded (the `price-truncated` fault); shorter fractions are kept. */
export function truncateToCents(price: string): string {
  const [int = '0', frac = ''] = price.split('.');
  return frac.length <= 2 ? price : `${int}.${frac.slice(0, 2)}`;
}

/** The first `n` code points of a text (the `title-truncated` fault). */
export function firstCodePoints(text: string, n: number): string {
  return Array.from(text).slice(0, n).join('');
}

/** A patch storing each article as `change` makes it (`previous`: the article it replaces). */
function storedAs(change: (article: Article, previous: Article | undefined) => Article): RulesPatch {
  return { articles: (prev) => ({ stored: (article, previous) => change(prev.stored(article, previous), previous) }) };
}

/** A patch storing the title and the summary as `shortcut` alters them. */
function textStoredAs(shortcut: (text: string) => string): RulesPatch {
  return storedAs((article) => ({
    ...article,
    title: shortcut(article.title),
    ...(article.summary === undefined ? {} : { summary: shortcut(article.summary) }),
  }));
}

/** A patch of the parser settings. */
function parsed(change: (prev: ParseSettings) => Partial<ParseSettings>): RulesPatch {
  return { articles: (prev) => ({ parse: { ...prev.parse, ...change(prev.parse) } }) };
}

/** A patch letting the parser through `leniency`. */
function lenient(leniency: Leniency): RulesPatch {
  return parsed((prev) => ({ lenient: new Set([...prev.lenient, leniency]) }));
}

/** Which external references each resolver of {@link resolving} resolves, so a second fault adds to the first. */
const RESOLVES = new WeakMap<object, Resolve>();

/** A patch resolving external entities: loopback http URLs contacted, or temporary files read (or both). */
function resolving(more: Partial<Resolve>): RulesPatch {
  return parsed((prev) => {
    const how = { ...(RESOLVES.get(prev.resolveExternal) ?? { http: false, file: false }), ...more };
    const resolveExternal = (text: string) => resolveExternalEntities(text, how);
    RESOLVES.set(resolveExternal, how);
    return { resolveExternal };
  });
}

export const ARTICLE_FAULTS = {
  'put-merge': {
    rules: storedAs((article, previous) =>
      previous && article.summary === undefined && previous.summary !== undefined
        ? { ...article, summary: previous.summary }
        : article,
    ),
  },
  'put-incomplete-merged': { rules: parsed(() => ({ fillFromStored: true })) },
  'put-not-idempotent': {
    rules: storedAs((article, previous) =>
      previous && sameArticle(previous, article) ? { ...article, title: `${article.title} (2)` } : article,
    ),
  },
  'put-revision': { rules: storedAs((article, previous) => ({ ...article, revision: (previous?.revision ?? 0) + 1 })) },
  'title-unescaped': { rules: { articles: () => ({ titleEscape: 'none' }) } },
  'title-gt-unescaped': {
    rules: { articles: (prev) => ({ titleEscape: prev.titleEscape === 'none' ? 'none' : 'amp-lt' }) },
  },
  'price-float': { rules: storedAs((article) => ({ ...article, price: String(Number(article.price)) })) },
  // A float column: the value goes through a binary double, printed back with its fractional part (issue 37). Every
  // ordinary price survives; one with 17 or more significant digits, or an integer part past 2^53, does not.
  'price-double': {
    rules: storedAs((article) => {
      const printed = String(Number(article.price));
      return { ...article, price: /[.e]/.test(printed) ? printed : `${printed}.0` };
    }),
  },
  'currency-uppercase': { rules: storedAs((article) => ({ ...article, currency: article.currency.toUpperCase() })) },
  'price-rounded': { rules: storedAs((article) => ({ ...article, price: roundToCents(article.price) })) },
  'price-truncated': { rules: storedAs((article) => ({ ...article, price: truncateToCents(article.price) })) },
  'title-truncated': {
    rules: storedAs((article) => ({ ...article, title: firstCodePoints(article.title, TRUNCATED_TITLE) })),
  },
  'title-trimmed': { rules: textStoredAs((text) => text.replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, '')) },
  'title-whitespace-collapsed': { rules: textStoredAs((text) => text.replace(/[ \t\r\n]+/g, ' ')) },
  'title-nfc': { rules: textStoredAs((text) => text.normalize('NFC')) },
  'title-nfkc': { rules: textStoredAs((text) => text.normalize('NFKC')) },
  'title-bmp-only': { rules: textStoredAs((text) => text.replace(/[\u{10000}-\u{10FFFF}]/gu, '?')) },
  'stores-any-media-type': {
    // A body that is not XML is stored as sent, and served back verbatim as the article.
    rules: {
      articles: () => ({
        unsupportedMedia: (body) => ({ title: '', price: '0.00', currency: 'eur', raw: decodeUtf8(body) ?? '' }),
      }),
    },
  },
  'accepts-integer-price': { rules: lenient('integer-price') },
  'accepts-uppercase-currency': { rules: lenient('uppercase-currency') },
  'accepts-missing-title': { rules: lenient('missing-title') },
  'accepts-duplicate-title': { rules: lenient('duplicate-title') },
  'accepts-other-root': { rules: lenient('other-root') },
  'expand-entities': { rules: parsed(() => ({ expandEntities: true })) },
  'xxe-resolved': { rules: resolving({ http: true }) },
  'xxe-file-read': { rules: resolving({ file: true }) },
  'alias-separate': {
    rules: {
      articles: (prev) => ({ key: (id, form) => (form === 'singular' ? `article/${id}` : prev.key(id, form)) }),
    },
  },
} satisfies FaultGroup;
