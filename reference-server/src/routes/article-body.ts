import { headerValue, checkXmlMediaType, decodeUtf8 } from '../request.js';
import { problem } from '../responses.js';
import type { Article, ResponseRecord } from '../records.js';
import { rulesOf } from '../rules.js';
import { parseArticle } from '../xml/article.js';
import type { ArticleProblemCode } from '../xml/article.js';
import type { HandlerContext, HandlerDeps } from '../types.js';
import { boundsRefusal } from './bounds.js';

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

/**
 * Checks and parses an article request body: media type (415), size (413), empty or non-UTF-8 body (400), then
 * the article XML (400), then the value bounds the variants declare (422, bounds.ts). `stored` is the article the
 * write replaces, if any (a PUT over an existing article). The article to store is then the rules' `stored` form.
 */
export function readArticleBody(ctx: HandlerContext, stored?: Article): ArticleBody {
  const { req, state, deps } = ctx;
  const rules = rulesOf(deps).articles;
  const media = checkXmlMediaType(headerValue(req, 'content-type'), deps.variants.has('media-type-text-xml'));
  if (!media.ok) {
    const taken = rules.unsupportedMedia(req.body);
    return taken === undefined ? fail(problem(415, media.detail)) : { ok: true, article: taken };
  }
  const max = state.limits.maxBodyBytes;
  if (req.body.byteLength > max) return fail(problem(413, `request body exceeds ${max} bytes`));
  if (req.body.byteLength === 0) {
    return fail(
      problem(400, 'request body is empty; send an article XML document', { slug: 'empty-body', title: 'Empty body' }),
    );
  }
  const text = decodeUtf8(req.body);
  if (text === undefined) {
    return fail(problem(400, 'request body is not valid UTF-8', { slug: 'not-utf8', title: 'Body not UTF-8' }));
  }
  const { parse } = rules;
  const resolved = parse.resolveExternal(text);
  const fillFrom = parse.fillFromStored ? stored : undefined;
  const parsed = parseArticle(resolved ?? text, {
    expandInternalEntities: parse.expandEntities || resolved !== undefined,
    lenient: parse.lenient,
    ...(fillFrom ? { fillFrom } : {}),
  });
  if (!parsed.ok) return fail(problem(400, parsed.problem.detail, PROBLEMS[parsed.problem.code]));
  const refusal = boundsRefusal(parsed.article, deps);
  if (refusal) return fail(refusal);
  const article: Article = parsed.verbatim ? { ...parsed.article, raw: text } : { ...parsed.article };
  return { ok: true, article: rules.stored(normalizedText(article, deps), stored) };
}

/** The text fields as the `text-trimmed` and `text-nfd` variants store them (meaning kept: trimmed, collapsed, NFD). */
function normalizedText(article: Article, deps: HandlerDeps): Article {
  const trim = deps.variants.has('text-trimmed');
  const nfd = deps.variants.has('text-nfd');
  if (!trim && !nfd) return article;
  const text = (t: string) => {
    const spaced = trim ? t.replace(/[ \t\r\n]+/g, ' ').replace(/^ | $/g, '') : t;
    return nfd ? spaced.normalize('NFD') : spaced;
  };
  return {
    ...article,
    title: text(article.title),
    ...(article.summary === undefined ? {} : { summary: text(article.summary) }),
  };
}

function fail(response: ResponseRecord): ArticleBody {
  return { ok: false, response };
}
