/**
 * The client rule of §4.1: the body of a PUT is a complete representation (article XML, §2). Judged by the spec's
 * words, not by what the reference server stores: §2 shows `title`, `price` and its `currency` in every example and
 * says other fields are "not shown", so a complete article has those three, well-formed, and may carry more; and any
 * encoding the document declares is read (XML 1.0 §4.3.3), where the server's own parser takes UTF-8 only.
 */
import { TextDecoder } from 'node:util';
import type { RecordedExchange } from '../recording.js';
import type { XmlElement } from '../xml/reader.js';
import { readXml } from '../xml/reader.js';
import { first } from './hmac-rules.js';
import type { Tally } from './verdicts.js';

/** The client rule this module judges. */
export const ARTICLE_CLIENT_RULES = ['4.1-put-complete-body'] as const;

const RULE = '4.1-put-complete-body';
const PRICE = /^[+-]?[0-9]+\.[0-9]+$/;
const CURRENCY = /^[a-z]+$/;

/** Matches a request path against item path templates (`/articles/{id}`): `{…}` stands for one segment. */
export function itemMatcher(templates: readonly string[]): (path: string) => boolean {
  const patterns = templates.map(
    (t) =>
      new RegExp(
        `^${t
          .split(/\{[^}]+\}/)
          .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, '\\$&'))
          .join('[^/]+')}$`,
      ),
  );
  return (path) => patterns.some((p) => p.test(path));
}

/** What the judge made of a PUT body: complete, incomplete (why), or a document it cannot read (why). */
export type Completeness = { kind: 'complete' } | { kind: 'incomplete' | 'unreadable'; reason: string };

/** Judges §4.1's client rule on one request: a PUT to an article item carries a complete article document. */
export function judgeArticle(ex: RecordedExchange, isItem: (path: string) => boolean, tally: Tally): void {
  if (ex.method !== 'PUT' || !isItem(ex.target.replace(/\?.*$/s, ''))) return;
  const found = completeArticle(ex.body, first(ex.headers['content-type']));
  if (found.kind === 'complete') tally.exercise(RULE);
  else if (found.kind === 'unreadable') tally.notJudged(RULE, { seq: ex.seq, reason: found.reason });
  else
    tally.fail(RULE, {
      seq: ex.seq,
      reason: `the PUT body is not a complete article (§2: <article> with <title> and <price currency="…">): ${found.reason}`,
    });
}

/**
 * Whether an article document is complete: well-formed XML in the encoding it declares, root `<article>`, a `<title>`
 * holding text, a `<price>` holding a decimal with a fractional part and a lowercase `currency`. Other elements,
 * attributes and text are "not shown" (§2): allowed.
 */
export function completeArticle(body: Uint8Array, contentType?: string): Completeness {
  const text = decode(body, contentType);
  if (typeof text !== 'string') return text;
  const read = readXml(text, {
    decoded: true,
    maxDepth: Number.MAX_SAFE_INTEGER,
    maxElements: Number.MAX_SAFE_INTEGER,
  });
  if (!read.ok) {
    // A DOCTYPE is well-formed XML the judge's reader does not take: it says so rather than failing the client.
    if (read.code === 'doctype')
      return { kind: 'unreadable', reason: `the judge does not read documents with a DOCTYPE (${read.detail})` };
    return { kind: 'incomplete', reason: `not well-formed XML: ${read.detail}` };
  }
  const { root } = read;
  if (root.name !== 'article') return incomplete(`the root element is <${root.name}>, not <article>`);
  const children = root.children.filter((c): c is XmlElement => typeof c !== 'string');
  const titles = children.filter((c) => c.name === 'title');
  const prices = children.filter((c) => c.name === 'price');
  if (titles.length === 0) return incomplete('<article> has no <title>');
  if (prices.length === 0) return incomplete('<article> has no <price>');
  if (titles.some((t) => textOf(t) === undefined)) return incomplete('<title> holds elements, not text');
  for (const price of prices) {
    const value = textOf(price);
    if (value === undefined) return incomplete('<price> holds elements, not a number');
    if (!PRICE.test(value.trim()))
      return incomplete(`<price> is ${JSON.stringify(value)}: a decimal number with a fractional part (12.50)`);
    const currency = price.attributes.get('currency');
    if (currency === undefined) return incomplete('<price> has no currency attribute');
    if (!CURRENCY.test(currency))
      return incomplete(`currency ${JSON.stringify(currency)} is not a lowercase currency code (eur)`);
  }
  return { kind: 'complete' };
}

/**
 * The document's text, decoded by its byte order mark, else the encoding its XML declaration names, else the
 * Content-Type's charset, else UTF-8 (XML 1.0 §4.3.3, Appendix F; RFC 7303 §3).
 */
function decode(body: Uint8Array, contentType: string | undefined): string | Completeness {
  const bytes = Buffer.from(body);
  let label = 'utf-8';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) label = 'utf-16be';
  else if (bytes[0] === 0xff && bytes[1] === 0xfe) label = 'utf-16le';
  else {
    const head = bytes.subarray(0, 256).toString('latin1');
    const declared = /^(?:\uFEFF|\u00EF\u00BB\u00BF)?<\?xml[^?]*?encoding\s*=\s*["']([A-Za-z][\w.:-]*)["']/.exec(
      head,
    )?.[1];
    const charset = /;\s*charset\s*=\s*"?([\w.:-]+)"?/i.exec(contentType ?? '')?.[1];
    label = declared ?? charset ?? 'utf-8';
  }
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(label, { fatal: true });
  } catch {
    return {
      kind: 'unreadable',
      reason: `the document's encoding ${JSON.stringify(label)} is not one the judge knows`,
    };
  }
  try {
    return decoder.decode(bytes);
  } catch {
    return { kind: 'incomplete', reason: `not well-formed XML: the bytes are not ${label}` };
  }
}

function textOf(element: XmlElement): string | undefined {
  let text = '';
  for (const child of element.children) {
    if (typeof child !== 'string') return undefined;
    text += child;
  }
  return text;
}

function incomplete(reason: string): Completeness {
  return { kind: 'incomplete', reason };
}
