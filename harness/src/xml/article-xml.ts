/**
 * The harness's own article XML: serialization of what it sends, and reading of what a target answers, compared
 * as data. A document type declaration is refused outright: the harness never expands entities.
 */
import type { ArticleValue } from '../generators/article.js';
import { sameTextModulo, type TextNormalization } from './normalize.js';
import { readXml } from './reader.js';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
export const escapeXml = (s: string): string => s.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);

/** Serializes an article; optional fields follow `price` in name order. */
export function serializeArticle(a: ArticleValue): string {
  // A loop, not `.map(...).join('')` (see renderTemplate in suite/template.ts).
  const names = Object.keys(a.fields).sort();
  let fields = '';
  for (let i = 0; i < names.length; i++)
    fields += `<${names[i]!}>${escapeXml(a.fields[names[i]!] ?? '')}</${names[i]!}>`;
  return `<?xml version="1.0" encoding="UTF-8"?><article><title>${escapeXml(a.title)}</title><price currency="${escapeXml(a.currency)}">${escapeXml(a.price)}</price>${fields}</article>`;
}

/** What a response document says, element by element (every occurrence kept, to catch duplicates). */
export interface ReadArticle {
  root: string;
  /** Text of each direct child element, by name, decoded. */
  children: Map<string, string[]>;
  /** Attributes of each direct child element, by element name. */
  attributes: Map<string, Array<Record<string, string>>>;
  /** Direct children that hold elements where text was expected. */
  nested: Set<string>;
}

export type ReadResult = { ok: true; article: ReadArticle } | { ok: false; problem: string };

/** Decodes the five predefined entities and numeric character references; anything else is an error. */
export function decodeXmlText(raw: string): string {
  const r = readXml(`<t>${raw}</t>`);
  if (!r.ok) throw new Error(r.problem.replace(/ \(line.*\)$/, ''));
  return r.root.text;
}

/** Reads an article-shaped XML document without trusting it (no DTD, no entity expansion). */
export function readArticleXml(text: string): ReadResult {
  const r = readXml(text);
  if (!r.ok)
    return {
      ok: false,
      problem: /DTD/.test(r.problem)
        ? 'the document has a DOCTYPE or ENTITY declaration'
        : `not well-formed XML: ${r.problem}`,
    };
  const children = new Map<string, string[]>();
  const attributes = new Map<string, Array<Record<string, string>>>();
  const nested = new Set<string>();
  for (const child of r.root.children) {
    children.set(child.name, [...(children.get(child.name) ?? []), child.text]);
    attributes.set(child.name, [...(attributes.get(child.name) ?? []), child.attributes]);
    if (child.children.length > 0) nested.add(child.name);
  }
  return { ok: true, article: { root: r.root.name, children, attributes, nested } };
}

/** Normalizes decimal text for value comparison: `0012.500` → `12.5`, `-0.0` → `0`. Null when not a decimal. */
export function normalizeDecimal(s: string): string | null {
  const m = /^\s*([+-]?)(\d*)(?:\.(\d*))?\s*$/.exec(s);
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) return null;
  const int = (m[2] ?? '').replace(/^0+(?=\d)|^0+$/, '') || '0';
  const frac = (m[3] ?? '').replace(/0+$/, '');
  const body = frac ? `${int}.${frac}` : int;
  return body === '0' ? '0' : `${m[1] === '-' ? '-' : ''}${body}`;
}

/**
 * Compares a response document with the article that was sent. Returns one sentence per difference (empty when
 * equal). Fields the harness does not know of (ids, links) are allowed; optional fields the profile declares must
 * be present exactly when sent. Text (the title and the optional fields) is compared modulo `normalization`, the
 * meaning-preserving normalizations the target applies (`articles.textNormalization`; none: exactly).
 */
export function compareArticle(
  expected: ArticleValue,
  xml: string,
  optionalFields: readonly string[],
  normalization: readonly TextNormalization[] = [],
): string[] {
  const modulo = normalization.length > 0 ? ` (even modulo ${normalization.join(', ')})` : '';
  const same = (sent: string, served: string) => sameTextModulo(sent, served, normalization);
  const read = readArticleXml(xml);
  if (!read.ok) return [read.problem];
  const { root, children, attributes, nested } = read.article;
  const diffs: string[] = [];
  if (root !== 'article') diffs.push(`root element is <${root}>, expected <article>`);
  for (const name of nested) diffs.push(`<${name}> holds elements, expected text`);
  const one = (name: string): string | undefined => {
    const v = children.get(name);
    if (!v || v.length === 0) {
      diffs.push(`<${name}> is missing`);
      return undefined;
    }
    if (v.length > 1) diffs.push(`<${name}> appears ${v.length} times`);
    return v[0];
  };
  const title = one('title');
  if (title !== undefined && !same(expected.title, title))
    diffs.push(`title is ${JSON.stringify(title)}, expected ${JSON.stringify(expected.title)}${modulo}`);
  const price = one('price');
  if (price !== undefined) {
    if (!/^\s*[+-]?\d+\.\d+\s*$/.test(price))
      diffs.push(`price ${JSON.stringify(price)} is not a decimal with a fractional part`);
    if (normalizeDecimal(price) !== normalizeDecimal(expected.price))
      diffs.push(`price is ${JSON.stringify(price)}, expected the value ${expected.price}`);
    const currency = attributes.get('price')?.[0]?.['currency'];
    if (currency === undefined) diffs.push('price has no currency attribute');
    else if (currency !== expected.currency)
      diffs.push(`currency is ${JSON.stringify(currency)}, expected ${JSON.stringify(expected.currency)}`);
  }
  for (const name of optionalFields) {
    const sent = expected.fields[name];
    const got = children.get(name);
    if (sent === undefined && got && got.length > 0)
      diffs.push(`<${name}> is present (${JSON.stringify(got[0])}) but the representation sent had none`);
    if (sent !== undefined) {
      if (!got || got.length === 0) diffs.push(`<${name}> is missing, expected ${JSON.stringify(sent)}`);
      else if (!same(sent, got[0]!))
        diffs.push(`<${name}> is ${JSON.stringify(got[0])}, expected ${JSON.stringify(sent)}${modulo}`);
    }
  }
  return diffs;
}

/**
 * What makes a served document an invalid §2 article, whatever its values (empty when valid): the root
 * `<article>`, exactly one `<title>` holding text, exactly one `<price>` holding a decimal with a fractional part,
 * and its `currency` attribute a lowercase currency code (three letters, as ISO 4217 codes are). Other fields are
 * allowed (§2: "Other fields of the article: not shown").
 */
export function validateArticle(xml: string): string[] {
  const read = readArticleXml(xml);
  if (!read.ok) return [read.problem];
  const { root, children, attributes, nested } = read.article;
  const diffs: string[] = [];
  if (root !== 'article') diffs.push(`root element is <${root}>, expected <article>`);
  for (const name of ['title', 'price']) {
    const n = children.get(name)?.length ?? 0;
    if (n === 0) diffs.push(`<${name}> is missing`);
    if (n > 1) diffs.push(`<${name}> appears ${n} times`);
    if (nested.has(name)) diffs.push(`<${name}> holds elements, expected text`);
  }
  const price = children.get('price')?.[0];
  if (price !== undefined && !/^\s*[+-]?\d+\.\d+\s*$/.test(price))
    diffs.push(`price ${JSON.stringify(price)} is not a decimal with a fractional part`);
  if (price !== undefined) {
    const currency = attributes.get('price')?.[0]?.['currency'];
    if (currency === undefined) diffs.push('price has no currency attribute');
    else if (!/^[a-z]{3}$/.test(currency))
      diffs.push(`currency ${JSON.stringify(currency)} is not a lowercase currency code`);
  }
  return diffs;
}
