/** Arbitraries for the article resource (§2): titles, prices, currencies, slugs and whole articles. */
import fc from 'fast-check';
import type { ArticleBounds } from '../profile/schema.js';

/** An article value as the harness means it: field texts exactly as sent. */
export interface ArticleValue {
  title: string;
  /** Decimal text with a fractional part, e.g. `12.50`. Compared as a decimal value, never as a float. */
  price: string;
  /** Lowercase ISO 4217 code. */
  currency: string;
  /** Optional text fields the profile declares (`articles.optionalFields`), by element name. */
  fields: Record<string, string>;
}

const XML_SPECIALS = ['&', '<', '>', '"', "'", '&amp;', '<![CDATA[', ']]>', '&#233;'];

/**
 * Text a store's shortcuts alter (issue 24): whitespace runs, tabs and newlines (collapsed or trimmed), a decomposed
 * accent (NFC), a ligature, a fullwidth letter and a superscript (NFKC), characters outside the BMP (a utf8mb3
 * column). Each must come back exactly as sent.
 */
const SHORTCUT_BAIT = ['  ', '\t', '\n', ' \t ', 'e\u0301', 'ﬁ', 'Ａ', '²', '😀', '𝄞'];

/** Whitespace a title may start or end with: a store that trims it has altered the title. */
const EDGE_SPACE = ['', '', '', ' ', '  ', '\t', '\n '];

/** Characters XML 1.0 cannot carry in element content without normalization: controls, CR, lone surrogates. */
const XML_UNSAFE =
  /[\u0000-\u001f\u007f-\u009f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/gu;
/** {@link XML_UNSAFE} but for tab and newline, which element content carries as they are. */
const XML_UNSAFE_KEEP_SPACE =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/gu;

/** `lead + middle + trail` within `max` code points: the edges are kept (they are the point), the middle is cut. */
function fitCodePoints(lead: string, middle: string, trail: string, max: number): string {
  const room = max - codePointLength(lead) - codePointLength(trail);
  if (room < 1) return firstCodePoints(middle, max).trim() || '&';
  return lead + (firstCodePoints(middle, room).trim() || '&') + trail;
}

/** Characters of titles drawn at an exact length: XML specials, letters of several scripts, one outside the BMP. */
const TITLE_CHARS = ['a', 'Z', '7', ' ', '&', '<', '>', '"', "'", ']', ';', '#', 'é', 'ß', 'Ж', '中', 'ك', '😀', '€'];

/** Unicode code points in `s` (a character outside the BMP counts once). */
export function codePointLength(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

function firstCodePoints(s: string, n: number): string {
  return Array.from(s).slice(0, n).join('');
}

/**
 * Any Unicode text a title may hold, mixing printable graphemes of every script with the XML special characters
 * `& < > " '`, `]]>` and reference look-alikes, and the text a store's shortcuts alter ({@link SHORTCUT_BAIT}):
 * runs of spaces, tabs and newlines inside and at either end, decomposed and compatibility characters, characters
 * outside the BMP. Never blank; no control characters but tab and newline (XML carries both in element content; a
 * CR it normalizes). At most `maxGraphemes` units and at most `maxCodePoints` code points
 * (`articles.bounds.titleMaxLength`); now and then exactly `maxCodePoints` long, so the declared bound itself is tried.
 */
export function titleArb(maxGraphemes = 40, maxCodePoints = Number.POSITIVE_INFINITY): fc.Arbitrary<string> {
  const unit = fc.oneof(
    fc.constantFrom(...XML_SPECIALS),
    fc.constantFrom(...SHORTCUT_BAIT),
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }),
    fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }),
  );
  const core = fc
    .string({ unit, minLength: 1, maxLength: maxGraphemes })
    .map((s) => s.replace(XML_UNSAFE_KEEP_SPACE, '').trim() || '&');
  const free = fc
    .tuple(fc.constantFrom(...EDGE_SPACE), core, fc.constantFrom(...EDGE_SPACE))
    .map(([lead, middle, trail]) => fitCodePoints(lead, middle, trail, maxCodePoints));
  if (!Number.isFinite(maxCodePoints) || maxCodePoints > 2_000) return free;
  // withCrossShrink: a title drawn at the bound shrinks to a short free one when that fails the same (issue 26: a
  // failure at the first POST no longer keeps a 200-character title).
  return fc.oneof(
    { withCrossShrink: true },
    { weight: 5, arbitrary: free },
    { weight: 1, arbitrary: titleOfLengthArb(maxCodePoints) },
  );
}

/** Titles of exactly `length` code points (XML specials, several scripts, a character outside the BMP). */
export function titleOfLengthArb(length: number): fc.Arbitrary<string> {
  const inner = fc.constantFrom(...TITLE_CHARS);
  const edge = fc.constantFrom(...TITLE_CHARS.filter((c) => c !== ' '));
  if (length === 1) return edge;
  return fc
    .tuple(edge, fc.array(inner, { minLength: length - 2, maxLength: length - 2 }), edge)
    .map(([first, middle, last]) => first + middle.join('') + last);
}

/**
 * Titles longer than `maxCodePoints` (1 to 64 code points beyond it, the first one past the bound most often):
 * values a target may refuse, and must never store cut.
 */
export function titleBeyondArb(maxCodePoints: number): fc.Arbitrary<string> {
  const extra = fc.oneof(
    { weight: 2, arbitrary: fc.constant(1) },
    { weight: 3, arbitrary: fc.integer({ min: 2, max: 64 }) },
  );
  return extra.chain((n) => titleOfLengthArb(maxCodePoints + n));
}

/** Integer and fraction digits of a non-negative decimal text (`"12.50"` → `["12", "50"]`), leading zeros dropped. */
function splitDecimal(text: string): [bigint, string] {
  const [int = '0', frac = ''] = text.split('.');
  return [BigInt(int), frac];
}

/** Compares two non-negative decimal texts by value: negative, zero or positive. */
export function compareDecimal(a: string, b: string): number {
  const [ai, af] = splitDecimal(a);
  const [bi, bf] = splitDecimal(b);
  if (ai !== bi) return ai < bi ? -1 : 1;
  const width = Math.max(af.length, bf.length);
  const x = af.padEnd(width, '0');
  const y = bf.padEnd(width, '0');
  return x === y ? 0 : x < y ? -1 : 1;
}

/**
 * Decimal prices inside `bounds`: a fractional part of 1 to `priceScale` digits, trailing zeros included (`7.0`,
 * `12.50`), integer part without leading zeros, value at most `priceMax` (and now and then exactly it). Precision
 * stays within what the target declares it stores exactly; losing a digit or the fractional part is a failure.
 */
export function priceArb(
  bounds: Pick<ArticleBounds, 'priceScale' | 'priceMax'> = { priceScale: 4, priceMax: '999999.9999' },
): fc.Arbitrary<string> {
  const [maxInt] = splitDecimal(bounds.priceMax);
  const small = maxInt < 99n ? maxInt : 99n;
  const intPart = fc.oneof(fc.bigInt({ min: 0n, max: small }), fc.bigInt({ min: small, max: maxInt }));
  const scale = bounds.priceScale;
  const fraction = fc.oneof(
    { weight: 2, arbitrary: fc.stringMatching(new RegExp(`^[0-9]{1,${scale}}$`)) },
    {
      weight: 1,
      arbitrary: fc.constantFrom('0', '00', '50', '10', '000', '9999', '05').filter((f) => f.length <= scale),
    },
  );
  const drawn = fc
    .tuple(intPart, fraction)
    .map(([i, f]) => `${i}.${f}`)
    .filter((p) => compareDecimal(p, bounds.priceMax) <= 0);
  const maxText = withFraction(bounds.priceMax);
  if (fractionDigits(maxText) > scale) return drawn;
  return fc.oneof({ weight: 9, arbitrary: drawn }, { weight: 1, arbitrary: fc.constant(maxText) });
}

function withFraction(text: string): string {
  return text.includes('.') ? text : `${text}.0`;
}

function fractionDigits(text: string): number {
  return (text.split('.')[1] ?? '').length;
}

/**
 * Decimal prices beyond `bounds` by value, never only by their text: either one to four fraction digits more than
 * `priceScale` with the last one non-zero (so no store of `priceScale` digits holds the value), or an integer part
 * above `priceMax` (up to a thousand times it, and 18 digits at most). Values a target may refuse, and must never
 * store rounded or clipped.
 */
export function priceBeyondArb(bounds: Pick<ArticleBounds, 'priceScale' | 'priceMax'>): fc.Arbitrary<string> {
  const [maxInt] = splitDecimal(bounds.priceMax);
  const scale = bounds.priceScale;
  const tooPrecise = fc
    .tuple(
      fc.bigInt({ min: 0n, max: maxInt }),
      fc.integer({ min: 1, max: 4 }).chain((extra) => fc.stringMatching(new RegExp(`^[0-9]{${scale + extra - 1}}$`))),
      fc.constantFrom('1', '3', '5', '7', '9'),
    )
    .map(([i, f, last]) => `${i}.${f}${last}`);
  const ceiling = (maxInt + 1n) * 1000n;
  const tooLarge = fc
    .tuple(
      fc.bigInt({ min: maxInt + 1n, max: ceiling < 10n ** 18n ? ceiling : 10n ** 18n - 1n }),
      fc.stringMatching(new RegExp(`^[0-9]{1,${scale}}$`)),
    )
    .map(([i, f]) => `${i}.${f}`);
  // Values a binary double cannot hold (issue 37): past 2^53 an odd integer part has no double of its own, and 17 or
  // more significant digits are more than a double carries. A store keeping prices as floats serves them altered.
  // Each kind is drawn only where its smallest value is beyond the bounds — and then all of its values are.
  const beyond = (p: string) => compareDecimal(p, bounds.priceMax) > 0 || fractionDigits(p) > scale;
  const doubleUnsafe: fc.Arbitrary<string>[] = [];
  if (beyond('9007199254740993.5'))
    doubleUnsafe.push(
      fc
        .tuple(fc.bigInt({ min: 2n ** 53n, max: 2n ** 62n }), fc.constantFrom('5', '25', '75', '125'))
        .map(([i, f]) => `${i | 1n}.${f}`),
    );
  if (beyond('100000000000.00001'))
    doubleUnsafe.push(
      fc
        .tuple(
          fc.bigInt({ min: 10n ** 11n, max: 10n ** 15n }),
          fc.stringMatching(/^[0-9]{4,7}$/),
          fc.constantFrom('1', '3', '7', '9'),
        )
        .map(([i, f, last]) => `${i}.${f}${last}`),
    );
  return fc.oneof(tooPrecise, tooLarge, ...doubleUnsafe);
}

const CURRENCIES = [
  'eur',
  'usd',
  'gbp',
  'jpy',
  'chf',
  'sek',
  'nok',
  'dkk',
  'pln',
  'czk',
  'cad',
  'aud',
  'nzd',
  'inr',
  'cny',
  'brl',
  'mxn',
  'zar',
  'krw',
  'sgd',
];

/** Lowercase ISO 4217 codes (real ones: a target may validate against the list). */
export function currencyArb(): fc.Arbitrary<string> {
  return fc.constantFrom(...CURRENCIES);
}

/** URL slugs: lowercase letters and digits in hyphen-separated words, 1–40 characters. */
export function slugArb(): fc.Arbitrary<string> {
  return fc.array(fc.stringMatching(/^[a-z0-9]{1,8}$/), { minLength: 1, maxLength: 4 }).map((words) => words.join('-'));
}

export interface ArticleOptions {
  /** Fill the profile's optional fields: `always`, `never` (default) or `sometimes`. */
  optional?: 'always' | 'never' | 'sometimes';
  /**
   * `inside` (default): every value inside `bounds`, so it must round-trip exactly. `beyond`: the title, the price or
   * both beyond them (the currency stays ordinary), so a target may refuse it but never store it altered.
   * `oversized`: ordinary values, the title padded so the serialized body is larger than `bodyBytesOver`.
   */
  values?: 'inside' | 'beyond' | 'oversized';
  /** For `values: oversized`: the size the body must exceed, bytes (the profile's `articles.maxBodyBytes`). */
  bodyBytesOver?: number;
}

/** The bounds used when none are given: what the reference server declares. */
export const WIDE_BOUNDS: ArticleBounds = { priceScale: 4, priceMax: '999999.9999', titleMaxLength: 200 };

/** Whole articles; `optionalFields` are the profile's `articles.optionalFields`, `bounds` its `articles.bounds`. */
export function articleArb(
  optionalFields: readonly string[],
  options: ArticleOptions = {},
  bounds: ArticleBounds = WIDE_BOUNDS,
): fc.Arbitrary<ArticleValue> {
  const mode = options.optional ?? 'never';
  const text = () => titleArb(60, bounds.titleMaxLength);
  const fieldArb = (name: string) =>
    mode === 'always'
      ? text().map((v) => [name, v] as const)
      : fc.option(
          text().map((v) => [name, v] as const),
          { nil: undefined },
        );
  const fields =
    mode === 'never' || optionalFields.length === 0
      ? fc.constant({})
      : fc
          .tuple(...optionalFields.map(fieldArb))
          .map((pairs) => Object.fromEntries(pairs.filter((p) => p !== undefined)) as Record<string, string>);
  const title = titleArb(40, bounds.titleMaxLength);
  const price = priceArb(bounds);
  if (options.values === 'oversized') {
    const padding = 'x'.repeat((options.bodyBytesOver ?? 65_536) + 1);
    return fc.record({ title: title.map((t) => t + padding), price, currency: currencyArb(), fields });
  }
  if (options.values !== 'beyond') return fc.record({ title, price, currency: currencyArb(), fields });
  const which = fc.constantFrom('title', 'price', 'both');
  return which.chain((w) =>
    fc.record({
      title: w === 'price' ? title : titleBeyondArb(bounds.titleMaxLength),
      price: w === 'title' ? price : priceBeyondArb(bounds),
      currency: currencyArb(),
      fields,
    }),
  );
}
