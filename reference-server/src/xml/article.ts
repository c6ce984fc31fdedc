import type { Article } from '../records.js';
import { isBlank } from './chars.js';
import { readXml } from './reader.js';
import type { XmlElement, XmlFaultCode } from './reader.js';

/** Why an article body was refused: an XML-level fault, or well-formed XML that is not a valid article. */
export type ArticleProblemCode = XmlFaultCode | 'invalid-article';

/** A refused article body with a detail that says precisely what is wrong. */
export interface ArticleProblem {
  code: ArticleProblemCode;
  detail: string;
}

/** Result of {@link parseArticle}. */
export type ArticleParseResult =
  { ok: true; article: Article; verbatim?: boolean } | { ok: false; problem: ArticleProblem };

/** Options for {@link parseArticle}. */
export interface ParseArticleOptions {
  /** Accept a DOCTYPE and expand internal entities. Default: false. */
  expandInternalEntities?: boolean;
  /**
   * Defects let through (only faults ask): an integer price or a currency in any case kept as sent; a missing
   * or second `<title>` or another root element accepted with `verbatim` set (the document is then kept as sent).
   */
  lenient?: ReadonlySet<Leniency>;
  /**
   * The stored article a missing `<title>` or `<price>` (with its currency) is taken from instead of refusing the
   * document (only a fault asks). Default: none, both are required.
   */
  fillFrom?: Article;
}

/** A defect {@link parseArticle} can be told to let through. */
export type Leniency = 'integer-price' | 'uppercase-currency' | 'missing-title' | 'duplicate-title' | 'other-root';

/**
 * How a title is escaped: `all` (as {@link escapeText}), `none`, or `amp-lt` — `&` and `<` only, `>` raw, so a title
 * holding `]]>` is not well-formed XML. Only faults ask for the last two.
 */
export type TitleEscape = 'all' | 'none' | 'amp-lt';

/** Options for {@link serializeArticle}. */
export interface SerializeArticleOptions {
  /** How the title is escaped. Default: `all`. */
  titleEscape?: TitleEscape;
}

const FIELDS = ['title', 'price', 'summary'] as const;
type Field = (typeof FIELDS)[number];
const PRICE = /^-?[0-9]+\.[0-9]+$/;
const CURRENCY = /^[a-z]{3}$/;

/**
 * Parses an article document: root `<article>` with `title` (once, not blank), `price` (once, decimal with a
 * fractional part, attribute `currency` of three lowercase letters) and optional `summary` (at most once).
 * Text is kept exactly as decoded; the price text is never converted to a number.
 */
export function parseArticle(text: string, options: ParseArticleOptions = {}): ArticleParseResult {
  const read = readXml(text, options);
  if (!read.ok) return { ok: false, problem: { code: read.code, detail: read.detail } };
  const root = read.root;
  const lenient = options.lenient ?? new Set<Leniency>();
  let verbatim = false;
  if (root.name !== 'article') {
    if (!lenient.has('other-root')) return invalid(`the root element must be <article>, not <${root.name}>`);
    verbatim = true;
  }
  const found: Partial<Record<Field, XmlElement>> = {};
  for (const child of root.children) {
    if (typeof child === 'string') {
      if (!isBlank(child)) return invalid(`unexpected text ${quote(child.trim())} directly inside <article>`);
      continue;
    }
    const field = FIELDS.find((f) => f === child.name);
    if (field === undefined)
      return invalid(`unexpected element <${child.name}> in <article>; allowed: title, price, summary`);
    if (found[field]) {
      if (field !== 'title' || !lenient.has('duplicate-title'))
        return invalid(`<${field}> must appear at most once in <article>`);
      verbatim = true;
      continue;
    }
    found[field] = child;
  }
  if (!found.title && lenient.has('missing-title')) {
    found.title = { name: 'title', attributes: new Map(), children: ['(untitled)'] };
    verbatim = true;
  }
  // The put-incomplete-merged fault: a missing title or price (with its currency) is taken from the stored article.
  const fill = options.fillFrom;
  if (fill !== undefined) {
    found.title ??= { name: 'title', attributes: new Map(), children: [fill.title] };
    found.price ??= { name: 'price', attributes: new Map([['currency', fill.currency]]), children: [fill.price] };
  }
  if (!found.title) return invalid('<article> is missing the required <title> element');
  if (!found.price) return invalid('<article> is missing the required <price> element');
  const title = textOf(found.title);
  if (title === undefined) return invalid('<title> must contain only text, not elements');
  if (isBlank(title)) return invalid('<title> must not be empty or whitespace-only');
  const price = textOf(found.price);
  if (price === undefined) return invalid('<price> must contain only text, not elements');
  if (!PRICE.test(price) && !(lenient.has('integer-price') && /^-?[0-9]+$/.test(price))) {
    if (/^-?[0-9]+$/.test(price)) return invalid(`price must have a fractional part, e.g. 12.50 (got ${quote(price)})`);
    return invalid(`price must be a decimal number with a fractional part, e.g. 12.50 (got ${quote(price)})`);
  }
  const currency = found.price.attributes.get('currency');
  if (currency === undefined) return invalid('<price> is missing the required currency attribute, e.g. currency="eur"');
  if (!CURRENCY.test(lenient.has('uppercase-currency') ? currency.toLowerCase() : currency))
    return invalid(`currency must be three lowercase letters, e.g. eur (got ${quote(currency)})`);
  const article: Article = { title, price, currency };
  if (found.summary) {
    const summary = textOf(found.summary);
    if (summary === undefined) return invalid('<summary> must contain only text, not elements');
    article.summary = summary;
  }
  return verbatim ? { ok: true, article, verbatim } : { ok: true, article };
}

/** Writes the article document (with XML declaration, no whitespace between elements). */
export function serializeArticle(article: Article, options: SerializeArticleOptions = {}): string {
  const mode = options.titleEscape ?? 'all';
  const title =
    mode === 'none'
      ? article.title
      : mode === 'amp-lt'
        ? article.title.replace(/[&<]/g, (ch) => ESCAPES[ch] ?? ch)
        : escapeText(article.title);
  const summary = article.summary === undefined ? '' : `<summary>${escapeText(article.summary)}</summary>`;
  const revision = article.revision === undefined ? '' : `<revision>${article.revision}</revision>`;
  return (
    '<?xml version="1.0" encoding="UTF-8"?>' +
    `<article><title>${title}</title><price currency="${escapeAttribute(article.currency)}">${escapeText(article.price)}</price>` +
    `${summary}${revision}</article>`
  );
}

/** Escapes text content: the five predefined entities, and CR as `&#13;` so line-end normalisation keeps it. */
export function escapeText(text: string): string {
  return text.replace(/[&<>"'\r]/g, (ch) => ESCAPES[ch] ?? ch);
}

/** Escapes an attribute value: as {@link escapeText}, plus tab and LF as references (attribute normalisation). */
export function escapeAttribute(text: string): string {
  return text.replace(/[&<>"'\r\t\n]/g, (ch) => ESCAPES[ch] ?? ch);
}

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
  '\r': '&#13;',
  '\t': '&#9;',
  '\n': '&#10;',
};

function textOf(element: XmlElement): string | undefined {
  let text = '';
  for (const child of element.children) {
    if (typeof child !== 'string') return undefined;
    text += child;
  }
  return text;
}

function quote(value: string): string {
  return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
}

function invalid(detail: string): ArticleParseResult {
  return { ok: false, problem: { code: 'invalid-article', detail } };
}
