import { randomUuid } from '../oauth/state.js';
import { problem, xmlResponse } from '../responses.js';
import type { Article, ResponseRecord } from '../records.js';
import { rulesOf } from '../rules.js';
import type { ArticleCall, Handler, HandlerContext, Route } from '../types.js';
import { serializeArticle } from '../xml/article.js';
import { readArticleBody } from './article-body.js';

/** Which path form addressed an item: `/articles/<id>` (plural) or its alias `/article/<id>` (singular). */
export type ItemForm = 'plural' | 'singular';

const MAX_ID_DRAWS = 16;

/** `/articles`: POST creates an article at a server-chosen id. */
export function collectionRoute(): Route {
  return {
    kind: 'collection',
    methods: ['POST', 'OPTIONS'],
    writes: ['POST'],
    guarded: ['POST'],
    unlisted: 405,
    handlers: { POST: hooked({ method: 'POST' }, post) },
  };
}

/** `/articles/<id>` and its alias `/article/<id>`: one resource, one store key. */
export function itemRoute(id: string, form: ItemForm): Route {
  const key = (ctx: HandlerContext) => rulesOf(ctx.deps).articles.key(id, form);
  const on = (method: ArticleCall['method'], handler: (ctx: HandlerContext, key: string) => ResponseRecord): Handler =>
    hooked({ method, id, form }, (ctx) => handler(ctx, key(ctx)), key);
  return {
    kind: 'item',
    id,
    methods: ['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS'],
    writes: ['PUT', 'DELETE'],
    guarded: ['PUT', 'DELETE'],
    unlisted: 405,
    handlers: { GET: on('GET', read), HEAD: on('HEAD', read), PUT: on('PUT', put), DELETE: on('DELETE', remove) },
    exists: (ctx) => ctx.state.store.has(key(ctx)),
  };
}

/** `handler`, run through the faults' `article` hook when there is one. */
function hooked(call: Omit<ArticleCall, 'key'>, handler: Handler, key?: (ctx: HandlerContext) => string): Handler {
  return (ctx) => {
    const around = ctx.deps.hooks?.article;
    return around === undefined
      ? handler(ctx)
      : around(ctx, key === undefined ? call : { ...call, key: key(ctx) }, handler);
  };
}

/** The public origin the `location-other-origin` variant writes, as a proxy in front of the server would. */
export const PUBLIC_ORIGIN = 'https://public.example';

/**
 * The `Location` of a new article: its path (RFC 9110 allows a relative reference), or under the variants an
 * absolute URL on the request's own origin (`location-absolute`) or on the public origin of a proxy
 * (`location-other-origin`).
 */
function locationOf(ctx: HandlerContext, path: string): string {
  const { variants } = ctx.deps;
  if (variants.has('location-other-origin')) return `${PUBLIC_ORIGIN}${path}`;
  if (variants.has('location-absolute')) {
    const host = ctx.req.headers['host'];
    const h = Array.isArray(host) ? host[0] : host;
    if (h !== undefined) return `${ctx.req.secure ? 'https' : 'http'}://${h}${path}`;
  }
  return path;
}

/** POST: the article created at a fresh id, `201` with its `Location`. */
function post(ctx: HandlerContext): ResponseRecord {
  const body = readArticleBody(ctx);
  if (!body.ok) return body.response;
  const id = ctx.deps.hooks?.postId?.(ctx) ?? freshId(ctx);
  if (id === undefined) return problem(500, `could not draw an unused id in ${MAX_ID_DRAWS} attempts`);
  if (ctx.state.store.set(id, body.article, true) === 'full') return storeFull(ctx);
  return xmlResponse(201, render(ctx, body.article), { location: locationOf(ctx, `/articles/${id}`) });
}

/** PUT: the article replaced whole (`200`, or `204` under `replace-204`) or created (`201` with `Location`). */
function put(ctx: HandlerContext, key: string): ResponseRecord {
  const old = ctx.state.store.get(key);
  const body = readArticleBody(ctx, old);
  if (!body.ok) return body.response;
  if (old === undefined && ctx.deps.variants.has('no-client-put'))
    return problem(404, `no article at ${ctx.req.path}; create articles with POST to /articles`);
  const outcome = ctx.state.store.set(key, body.article);
  if (outcome === 'full') return storeFull(ctx);
  if (outcome === 'replaced')
    return ctx.deps.variants.has('replace-204')
      ? { status: 204, headers: {} }
      : xmlResponse(200, render(ctx, body.article));
  return xmlResponse(201, render(ctx, body.article), { location: locationOf(ctx, ctx.req.path) });
}

function read(ctx: HandlerContext, key: string): ResponseRecord {
  const article = ctx.state.store.get(key);
  if (article === undefined) return notFound(ctx);
  return xmlResponse(200, render(ctx, article));
}

function remove(ctx: HandlerContext, key: string): ResponseRecord {
  if (!ctx.state.store.has(key)) return notFound(ctx);
  ctx.state.store.delete(key);
  return { status: 204, headers: {} };
}

/** Draws ids until one is unused (and differs from `avoid`); undefined after {@link MAX_ID_DRAWS} collisions. */
export function freshId(ctx: Pick<HandlerContext, 'state' | 'deps'>, avoid?: string): string | undefined {
  for (let i = 0; i < MAX_ID_DRAWS; i++) {
    const id = ctx.deps.variants.has('ids-uuid') ? randomUuid(ctx.deps.random) : ctx.deps.newId();
    if (id !== avoid && !ctx.state.store.has(id)) return id;
  }
  return undefined;
}

/** The representation of an article: the document as sent when it was kept verbatim, else serialized. */
export function render(ctx: Pick<HandlerContext, 'deps'>, article: Article): string {
  if (article.raw !== undefined) return article.raw;
  return serializeArticle(article, { titleEscape: rulesOf(ctx.deps).articles.titleEscape });
}

function notFound(ctx: HandlerContext): ResponseRecord {
  return problem(404, `no article at ${ctx.req.path}`);
}

function storeFull(ctx: HandlerContext): ResponseRecord {
  const detail = `the article store is full (${ctx.state.store.capacity} articles); delete one first`;
  return problem(507, detail, { slug: 'store-full', title: 'Store full' });
}
