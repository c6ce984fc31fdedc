import { headerValue, checkXmlMediaType, decodeUtf8 } from '../request.js';
import { problem } from '../responses.js';
import type { Article, ResponseRecord } from '../records.js';
import { parseArticle } from '../xml/article.js';
import { boundsRefusal, firstCodePoints, roundToCents, truncateToCents, TRUNCATED_TITLE } from './bounds.js';
import type { ArticleProblemCode, Leniency } from '../xml/article.js';
import type { FaultName } from '../faults.js';
import type { HandlerContext } from './route.js';
import { resolveExternalEntities } from '../xml/external.js';

/** Result of {@link readArticleBody}: the article to store, or the error response to send. */
export type ArticleBody = { ok: true; article: Article } | { ok: false; response: ResponseRecord };

const PROBLEMS: Readonly<Record<ArticleProblemCode, { slug: string; title: string }>> = {
  doctype: { slug: 'doctype-refused', title: 'DOCTYPE refused' },
  entity: { slug: 'undefined-entity', title: 'Undefined entity' },
  encoding: { slug: 'unsupported-encoding', title: 'Unsupported encoding' },
  'not-well-formed': { slug: 'not-well-formed', title: 'XML not well-formed' },
  limits: { slug: 'xml-limits', title: 'XML too deep or too large' },
  'invalid-article': { slug: 'invalid-article', title: 'Invalid article' },
};

/** The `accepts-*` faults and the defect each lets through. */
const LENIENCIES: readonly (readonly [FaultName, Leniency])[] = [
  ['accepts-integer-price', 'integer-price'],
  ['accepts-uppercase-currency', 'uppercase-currency'],
  ['accepts-missing-title', 'missing-title'],
  ['accepts-duplicate-title', 'duplicate-title'],
  ['accepts-other-root', 'other-root'],
];

/** The faults that alter the stored text of the title and the summary, each as the store alters it. */
const TEXT_SHORTCUTS: readonly (readonly [FaultName, (text: string) => string])[] = [
  ['title-trimmed', (text) => text.replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, '')],
  ['title-whitespace-collapsed', (text) => text.replace(/[ \t\r\n]+/g, ' ')],
  ['title-nfc', (text) => text.normalize('NFC')],
  ['title-nfkc', (text) => text.normalize('NFKC')],
  ['title-bmp-only', (text) => text.replace(/[\u{10000}-\u{10FFFF}]/gu, '?')],
];

/**
 * Checks and parses an article request body: media type (415), size (413), empty or non-UTF-8 body (400), then
 * the article XML (400), then the value bounds the variants declare (422, bounds.ts). `stored` is the article the
 * write replaces, if any (a PUT over an existing article). Applies the storage faults `currency-uppercase`,
 * `price-float`, `price-rounded`, `price-truncated`, `title-truncated`, {@link TEXT_SHORTCUTS} and `put-revision`,
 * and `put-incomplete-merged` (a missing title or price taken from `stored`).
 */
export function readArticleBody(ctx: HandlerContext, stored?: Article): ArticleBody {
  const { req, state, deps } = ctx;
  const media = checkXmlMediaType(headerValue(req, 'content-type'), deps.variants.has('media-type-text-xml'));
  if (!media.ok && deps.faults.has('stores-any-media-type')) return { ok: true, article: { title: '', price: '0.00', currency: 'eur', raw: decodeUtf8(req.body) ?? '' } };
  if (!media.ok) return fail(problem(415, media.detail));
  const max = state.limits.maxBodyBytes;
  // Under the fault the IO shell let the body through: it is dropped, and the answer says it was stored.
  if (req.body.byteLength > max && deps.faults.has('oversize-acknowledged')) return fail({ status: 204, headers: {}, body: new Uint8Array(0) });
  if (req.body.byteLength > max) return fail(problem(413, `request body exceeds ${max} bytes`));
  if (req.body.byteLength === 0) {
    return fail(problem(400, 'request body is empty; send an article XML document', { slug: 'empty-body', title: 'Empty body' }));
  }
  const text = decodeUtf8(req.body);
  if (text === undefined) {
    return fail(problem(400, 'request body is not valid UTF-8', { slug: 'not-utf8', title: 'Body not UTF-8' }));
  }
  const lenient = new Set(LENIENCIES.filter(([fault]) => deps.faults.has(fault)).map(([, leniency]) => leniency));
  const how = { http: deps.faults.has('xxe-resolved'), file: deps.faults.has('xxe-file-read') };
  const resolved = how.http || how.file ? resolveExternalEntities(text, how) : undefined;
  const fillFrom = deps.faults.has('put-incomplete-merged') ? stored : undefined;
  const parsed = parseArticle(resolved ?? text, { expandInternalEntities: deps.faults.has('expand-entities') || resolved !== undefined, lenient, ...(fillFrom ? { fillFrom } : {}) });
  if (!parsed.ok) return fail(problem(400, parsed.problem.detail, PROBLEMS[parsed.problem.code]));
  const refusal = boundsRefusal(parsed.article, deps);
  if (refusal) return fail(refusal);
  const article: Article = parsed.verbatim ? { ...parsed.article, raw: text } : { ...parsed.article };
  if (deps.faults.has('currency-uppercase')) article.currency = article.currency.toUpperCase();
  if (deps.faults.has('price-float')) article.price = String(Number(article.price));
  if (deps.faults.has('price-rounded')) article.price = roundToCents(article.price);
  if (deps.faults.has('price-truncated')) article.price = truncateToCents(article.price);
  if (deps.faults.has('title-truncated')) article.title = firstCodePoints(article.title, TRUNCATED_TITLE);
  for (const [fault, shortcut] of TEXT_SHORTCUTS) {
    if (!deps.faults.has(fault)) continue;
    article.title = shortcut(article.title);
    if (article.summary !== undefined) article.summary = shortcut(article.summary);
  }
  if (deps.faults.has('put-revision')) article.revision = (stored?.revision ?? 0) + 1;
  return { ok: true, article };
}

function fail(response: ResponseRecord): ArticleBody {
  return { ok: false, response };
}
