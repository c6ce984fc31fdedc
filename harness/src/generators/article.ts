/** Arbitraries for the article resource (§2): titles, prices, currencies, slugs and whole articles. */
import fc from 'fast-check';

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

/** Characters XML 1.0 cannot carry in element content without normalization: controls, CR, lone surrogates. */
const XML_UNSAFE = /[\u0000-\u001f\u007f-\u009f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/gu;

/**
 * Any Unicode text a title may hold, mixing printable graphemes of every script with the XML special characters
 * `& < > " '`, `]]>` and reference look-alikes; never empty, no leading or trailing whitespace (the spec says
 * nothing of whitespace handling), no control characters.
 */
export function titleArb(maxLength = 40): fc.Arbitrary<string> {
  const unit = fc.oneof(
    fc.constantFrom(...XML_SPECIALS),
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }),
    fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }),
  );
  return fc.string({ unit, minLength: 1, maxLength }).map((s) => s.replace(XML_UNSAFE, '').trim() || '&');
}

/**
 * Decimal prices with a fractional part of 1–4 digits, trailing zeros included (`7.0`, `12.50`), integer part
 * without leading zeros. Precision stays within what an exact decimal store keeps; losing a digit or the fractional
 * part is a failure.
 */
export function priceArb(): fc.Arbitrary<string> {
  const intPart = fc.oneof(
    fc.integer({ min: 0, max: 99 }),
    fc.integer({ min: 100, max: 999_999 }),
  );
  const fraction = fc.oneof(
    { weight: 2, arbitrary: fc.stringMatching(/^[0-9]{1,4}$/) },
    { weight: 1, arbitrary: fc.constantFrom('0', '00', '50', '10', '000', '9999', '05') },
  );
  return fc.tuple(intPart, fraction).map(([i, f]) => `${i}.${f}`);
}

const CURRENCIES = ['eur', 'usd', 'gbp', 'jpy', 'chf', 'sek', 'nok', 'dkk', 'pln', 'czk', 'cad', 'aud', 'nzd', 'inr', 'cny', 'brl', 'mxn', 'zar', 'krw', 'sgd'];

/** Lowercase ISO 4217 codes (real ones: a target may validate against the list). */
export function currencyArb(): fc.Arbitrary<string> {
  return fc.constantFrom(...CURRENCIES);
}

/** URL slugs: lowercase letters and digits in hyphen-separated words, 1–40 characters. */
export function slugArb(): fc.Arbitrary<string> {
  return fc
    .array(fc.stringMatching(/^[a-z0-9]{1,8}$/), { minLength: 1, maxLength: 4 })
    .map((words) => words.join('-'));
}

export interface ArticleOptions {
  /** Fill the profile's optional fields: `always`, `never` (default) or `sometimes`. */
  optional?: 'always' | 'never' | 'sometimes';
}

/** Whole articles; `optionalFields` are the profile's `articles.optionalFields`. */
export function articleArb(optionalFields: readonly string[], options: ArticleOptions = {}): fc.Arbitrary<ArticleValue> {
  const mode = options.optional ?? 'never';
  const fieldArb = (name: string) =>
    mode === 'always' ? titleArb(60).map((v) => [name, v] as const) : fc.option(titleArb(60).map((v) => [name, v] as const), { nil: undefined });
  const fields = mode === 'never' || optionalFields.length === 0
    ? fc.constant({})
    : fc.tuple(...optionalFields.map(fieldArb)).map((pairs) => Object.fromEntries(pairs.filter((p) => p !== undefined)) as Record<string, string>);
  return fc.record({ title: titleArb(), price: priceArb(), currency: currencyArb(), fields });
}
