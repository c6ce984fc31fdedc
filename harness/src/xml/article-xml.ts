/**
 * The harness's own article XML: serialization of what it sends, and reading of what a target answers, compared
 * as data. A document type declaration is refused outright: the harness never expands entities.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { ArticleValue } from '../generators/article.js';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
export const escapeXml = (s: string): string => s.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);

/** Serializes an article; optional fields follow `price` in name order. */
export function serializeArticle(a: ArticleValue): string {
  const fields = Object.keys(a.fields)
    .sort()
    .map((name) => `<${name}>${escapeXml(a.fields[name] ?? '')}</${name}>`)
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?><article><title>${escapeXml(a.title)}</title><price currency="${escapeXml(a.currency)}">${escapeXml(a.price)}</price>${fields}</article>`;
}

/** What a response document says, element by element (every occurrence kept, to catch duplicates). */
export interface ReadArticle {
  root: string;
  /** Text of each direct child element, by name, decoded. */
  children: Map<string, string[]>;
  /** Attributes of each direct child element, by element name. */
  attributes: Map<string, Array<Record<string, string>>>;
}

export type ReadResult = { ok: true; article: ReadArticle } | { ok: false; problem: string };

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  attributesGroupName: false,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  processEntities: false,
  htmlEntities: false,
  cdataPropName: '#cdata',
  commentPropName: '#comment',
  ignoreDeclaration: true,
  ignorePiTags: true,
});

const PREDEFINED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Decodes the five predefined entities and numeric character references; anything else is an error. */
export function decodeXmlText(raw: string): string {
  return raw.replace(/&([^;&\s]{0,12});/g, (_m, name: string) => {
    if (name.startsWith('#x') || name.startsWith('#X')) return fromCodePoint(parseInt(name.slice(2), 16), name);
    if (name.startsWith('#')) return fromCodePoint(parseInt(name.slice(1), 10), name);
    const v = PREDEFINED[name];
    if (v === undefined) throw new Error(`undeclared entity &${name};`);
    return v;
  });
}

function fromCodePoint(cp: number, ref: string): string {
  if (!Number.isInteger(cp) || cp < 1 || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) throw new Error(`bad character reference &${ref};`);
  return String.fromCodePoint(cp);
}

type Node = Record<string, unknown> & { ':@'?: Record<string, string> };

function textOf(nodes: Node[]): string {
  let out = '';
  for (const n of nodes) {
    if ('#text' in n) out += decodeXmlText(String(n['#text']));
    else if ('#cdata' in n) out += (n['#cdata'] as Node[]).map((c) => String(c['#text'] ?? '')).join('');
    else if (!('#comment' in n)) throw new Error('element content where text was expected');
  }
  return out;
}

/** Reads an article-shaped XML document without trusting it. */
export function readArticleXml(text: string): ReadResult {
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) return { ok: false, problem: 'the document has a DOCTYPE or ENTITY declaration' };
  const valid = XMLValidator.validate(text);
  if (valid !== true) return { ok: false, problem: `not well-formed XML: ${valid.err.msg} (line ${valid.err.line}, column ${valid.err.col})` };
  try {
    const nodes = (parser.parse(text) as Node[]).filter((n) => !('#comment' in n) && !('#text' in n && String(n['#text']).trim() === ''));
    const rootNode = nodes[0];
    if (!rootNode || nodes.length !== 1) return { ok: false, problem: 'expected exactly one root element' };
    const root = Object.keys(rootNode).find((k) => k !== ':@') ?? '';
    const children = new Map<string, string[]>();
    const attributes = new Map<string, Array<Record<string, string>>>();
    for (const child of rootNode[root] as Node[]) {
      const name = Object.keys(child).find((k) => k !== ':@');
      if (!name || name === '#text' || name === '#comment' || name === '#cdata') continue;
      let value: string;
      try {
        value = textOf(child[name] as Node[]);
      } catch {
        value = '';
      }
      children.set(name, [...(children.get(name) ?? []), value]);
      const attrs = Object.fromEntries(Object.entries(child[':@'] ?? {}).map(([k, v]) => [k, decodeXmlText(String(v))]));
      attributes.set(name, [...(attributes.get(name) ?? []), attrs]);
    }
    return { ok: true, article: { root, children, attributes } };
  } catch (err) {
    return { ok: false, problem: `unreadable XML: ${(err as Error).message}` };
  }
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
 * be present exactly when sent.
 */
export function compareArticle(expected: ArticleValue, xml: string, optionalFields: readonly string[]): string[] {
  const read = readArticleXml(xml);
  if (!read.ok) return [read.problem];
  const { root, children, attributes } = read.article;
  const diffs: string[] = [];
  if (root !== 'article') diffs.push(`root element is <${root}>, expected <article>`);
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
  if (title !== undefined && title !== expected.title) diffs.push(`title is ${JSON.stringify(title)}, expected ${JSON.stringify(expected.title)}`);
  const price = one('price');
  if (price !== undefined) {
    if (!/^\s*[+-]?\d+\.\d+\s*$/.test(price)) diffs.push(`price ${JSON.stringify(price)} is not a decimal with a fractional part`);
    if (normalizeDecimal(price) !== normalizeDecimal(expected.price)) diffs.push(`price is ${JSON.stringify(price)}, expected the value ${expected.price}`);
    const currency = attributes.get('price')?.[0]?.['currency'];
    if (currency === undefined) diffs.push('price has no currency attribute');
    else if (currency !== expected.currency) diffs.push(`currency is ${JSON.stringify(currency)}, expected ${JSON.stringify(expected.currency)}`);
  }
  for (const name of optionalFields) {
    const sent = expected.fields[name];
    const got = children.get(name);
    if (sent === undefined && got && got.length > 0) diffs.push(`<${name}> is present (${JSON.stringify(got[0])}) but the representation sent had none`);
    if (sent !== undefined) {
      if (!got || got.length === 0) diffs.push(`<${name}> is missing, expected ${JSON.stringify(sent)}`);
      else if (got[0] !== sent) diffs.push(`<${name}> is ${JSON.stringify(got[0])}, expected ${JSON.stringify(sent)}`);
    }
  }
  return diffs;
}
