import { randomUuid } from '../oauth/state.js';
import { problem, xmlResponse } from '../responses.js';
import type { Article, HeaderMap, ResponseRecord } from '../records.js';
import { ArticleStore } from '../store/articles.js';
import { serializeArticle } from '../xml/article.js';
import { readArticleBody } from './article-body.js';
import { deferWrite } from './deferred.js';
import type { Handler, HandlerContext, Route } from './route.js';

/** Which path form addressed an item: `/articles/<id>` (plural) or its alias `/article/<id>` (singular). */
export type ItemForm = 'plural' | 'singular';

/** The id every POST reuses under the `post-same-id` fault. */
export const SAME_ID = '0000000000000000';
const MAX_ID_DRAWS = 16;
/** Most entries each memory of the article faults (`ServerState.articleFaults`) keeps; the oldest goes first. */
const MAX_FAULT_MEMORY = 10_000;

/** `/articles`: POST creates an article at a server-chosen id. */
export function collectionRoute(): Route {
  return { kind: 'collection', methods: ['POST', 'OPTIONS'], writes: ['POST'], guarded: ['POST'], unlisted: 405, handlers: { POST: wholeStoreWrite(post) } };
}

/** `/articles/<id>` and its alias `/article/<id>`: one resource, one store key (unless `alias-separate`). */
export function itemRoute(id: string, form: ItemForm): Route {
  const key = (ctx: HandlerContext) => (form === 'singular' && ctx.deps.faults.has('alias-separate') ? `article/${id}` : id);
  // Under `alias-diverges-after-replace` the alias reads and writes its own copy besides the store.
  const copied = (ctx: HandlerContext) => form === 'singular' && ctx.deps.faults.has('alias-diverges-after-replace');
  const get = (ctx: HandlerContext) => (copied(ctx) ? readAliasCopy(ctx, id, key(ctx)) : read(ctx, key(ctx)));
  return {
    kind: 'item',
    id,
    methods: ['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS'],
    writes: ['PUT', 'DELETE'],
    guarded: ['PUT', 'DELETE'],
    unlisted: 405,
    handlers: {
      GET: get,
      HEAD: get,
      PUT: wholeStoreWrite((ctx) => (copied(ctx) ? putThroughAlias(ctx, id, key(ctx)) : put(ctx, key(ctx)))),
      DELETE: wholeStoreWrite((ctx) => remove(ctx, key(ctx), id)),
    },
    exists: (ctx) => ctx.state.store.has(key(ctx)),
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

function post(ctx: HandlerContext): ResponseRecord {
  const body = readArticleBody(ctx);
  if (!body.ok) return body.response;
  const { faults } = ctx.deps;
  const id = faults.has('post-same-id') ? SAME_ID : (reusedId(ctx) ?? freshId(ctx));
  if (id === undefined) return problem(500, `could not draw an unused id in ${MAX_ID_DRAWS} attempts`);
  if (ctx.state.store.set(id, body.article, true) === 'full') return storeFull(ctx);
  const headers: HeaderMap = {};
  if (!faults.has('post-no-location')) {
    if (faults.has('post-location-nowhere')) headers.location = locationOf(ctx, `/articles/${freshId(ctx, id) ?? `${id}-elsewhere`}`);
    else if (faults.has('post-location-shape')) headers.location = locationOf(ctx, `/items/${id}`);
    else headers.location = locationOf(ctx, `/articles/${id}`);
  }
  return xmlResponse(faults.has('post-200') ? 200 : 201, render(ctx, body.article), headers);
}

function put(ctx: HandlerContext, key: string): ResponseRecord {
  const { faults } = ctx.deps;
  if (faults.has('put-generated-405') && ctx.state.store.isGenerated(key)) {
    const allow = 'GET, HEAD, DELETE, OPTIONS';
    return problem(405, `PUT is not allowed on ${ctx.req.path}; allowed: ${allow}`, { headers: { allow } });
  }
  const old = ctx.state.store.get(key);
  const body = readArticleBody(ctx, old);
  if (!body.ok) return body.response;
  if (old === undefined && ctx.deps.variants.has('no-client-put')) return problem(404, `no article at ${ctx.req.path}; create articles with POST to /articles`);
  let article = body.article;
  if (old && faults.has('put-merge') && article.summary === undefined && old.summary !== undefined) {
    article = { ...article, summary: old.summary };
  }
  // `delete-then-put-resurrects`, `put-after-delete-200`: a create where an article was deleted (and kept aside).
  const tombstone = old === undefined ? tombstoneAt(ctx, key) : undefined;
  if (tombstone && faults.has('delete-then-put-resurrects') && article.summary === undefined && tombstone.summary !== undefined) {
    article = { ...article, summary: tombstone.summary };
  }
  if (old && faults.has('put-not-idempotent') && sameArticle(old, article)) {
    article = { ...article, title: `${article.title} (2)` };
  }
  const outcome = old && faults.has('put-non-atomic') ? inTwoSteps(ctx, key, old, article) : ctx.state.store.set(key, article);
  if (outcome === 'full') return storeFull(ctx);
  if (outcome === 'replaced') return ctx.deps.variants.has('replace-204') ? { status: 204, headers: {} } : xmlResponse(200, render(ctx, article));
  if (tombstone) {
    ctx.state.articleFaults.tombstones.delete(key);
    if (faults.has('put-after-delete-200')) return xmlResponse(200, render(ctx, article));
  }
  const headers: HeaderMap = faults.has('put-create-no-location') ? {} : { location: locationOf(ctx, ctx.req.path) };
  return xmlResponse(faults.has('put-create-200') ? 200 : 201, render(ctx, article), headers);
}

/**
 * The `put-non-atomic` fault: the title is written now, price, currency and summary later (after an await under
 * {@link handleAsync}), each step over whatever is stored by then.
 */
function inTwoSteps(ctx: HandlerContext, key: string, old: Article, article: Article): 'created' | 'replaced' | 'full' {
  const { store } = ctx.state;
  const outcome = store.set(key, { ...old, title: article.title });
  deferWrite(ctx.req, () => {
    const now = store.get(key);
    if (now === undefined) return;
    const { summary } = article;
    store.set(key, { title: now.title, price: article.price, currency: article.currency, ...(summary !== undefined ? { summary } : {}) });
  });
  return outcome;
}

/**
 * The `lost-update` fault: `handler` works on a copy of the whole store taken when the request arrived, and when it
 * succeeded (2xx) the store is made equal to that copy by a deferred write (after an await under
 * {@link handleAsync}), as a server rewriting one JSON file of all articles would: whatever another request wrote
 * in between is undone.
 */
function wholeStoreWrite(handler: Handler): Handler {
  return (ctx) => {
    if (!ctx.deps.faults.has('lost-update')) return handler(ctx);
    const store = ctx.state.store;
    const copy = new ArticleStore(store.capacity);
    for (const key of [...store.keys()]) {
      const article = store.get(key);
      if (article !== undefined) copy.restore({ kind: 'article-set', key, article, generated: store.isGenerated(key) });
    }
    const response = handler({ ...ctx, state: { ...ctx.state, store: copy } });
    if (response.status >= 300) return response;
    deferWrite(ctx.req, () => {
      for (const key of [...store.keys()]) if (!copy.has(key)) store.delete(key);
      for (const key of copy.keys()) {
        const article = copy.get(key);
        const now = store.get(key);
        if (article !== undefined && (now === undefined || !sameArticle(now, article) || now.raw !== article.raw)) store.set(key, article, copy.isGenerated(key));
      }
    });
    return response;
  };
}

function read(ctx: HandlerContext, key: string): ResponseRecord {
  const article = ctx.state.store.get(key);
  if (article === undefined) return notFound(ctx);
  return xmlResponse(200, render(ctx, article));
}

/** `alias-diverges-after-replace`: the alias serves its copy, made from the store when it has none. */
function readAliasCopy(ctx: HandlerContext, id: string, key: string): ResponseRecord {
  const copies = ctx.state.articleFaults.aliasCopies;
  const article = copies.get(id) ?? ctx.state.store.get(key);
  if (article === undefined) return notFound(ctx);
  if (!copies.has(id)) remember(copies, id, { ...article });
  return xmlResponse(200, render(ctx, article));
}

/** `alias-diverges-after-replace`: a PUT through the alias writes the store and the alias's copy. */
function putThroughAlias(ctx: HandlerContext, id: string, key: string): ResponseRecord {
  const response = put(ctx, key);
  const stored = ctx.state.store.get(key);
  if (response.status < 300 && stored !== undefined) remember(ctx.state.articleFaults.aliasCopies, id, { ...stored });
  return response;
}

/** DELETE of the article under `key`, addressed by `id` (the key unless `alias-separate` made it `article/<id>`). */
function remove(ctx: HandlerContext, key: string, id: string): ResponseRecord {
  const { faults } = ctx.deps;
  const { store, articleFaults } = ctx.state;
  if (!store.has(key)) return notFound(ctx);
  if (!faults.has('delete-noop')) {
    // `delete-then-put-resurrects`, `put-after-delete-200`: the deleted article is kept aside.
    if (faults.has('delete-then-put-resurrects') || faults.has('put-after-delete-200')) {
      const deleted = store.get(key);
      if (deleted !== undefined) remember(articleFaults.tombstones, key, { ...deleted });
    }
    // `post-reuses-deleted-id`: the id is offered to the next POST (not an `alias-separate` key, no POST makes those).
    if (faults.has('post-reuses-deleted-id') && key === id) {
      articleFaults.deletedIds.push(id);
      if (articleFaults.deletedIds.length > MAX_FAULT_MEMORY) articleFaults.deletedIds.shift();
    }
    // `alias-diverges-after-replace`: deleting either form drops the alias's copy.
    if (faults.has('alias-diverges-after-replace')) articleFaults.aliasCopies.delete(id);
    store.delete(key);
  }
  return { status: 204, headers: {} };
}

/** `delete-then-put-resurrects`, `put-after-delete-200`: the article deleted at `key`, kept aside; else undefined. */
function tombstoneAt(ctx: HandlerContext, key: string): Article | undefined {
  const { faults } = ctx.deps;
  if (!faults.has('delete-then-put-resurrects') && !faults.has('put-after-delete-200')) return undefined;
  return ctx.state.articleFaults.tombstones.get(key);
}

/** `post-reuses-deleted-id`: the id deleted last (taken off the list), unless the store holds it again. */
function reusedId(ctx: HandlerContext): string | undefined {
  if (!ctx.deps.faults.has('post-reuses-deleted-id')) return undefined;
  const id = ctx.state.articleFaults.deletedIds.pop();
  return id !== undefined && !ctx.state.store.has(id) ? id : undefined;
}

/** Remembers `value` under `key` as the newest entry, dropping the oldest beyond {@link MAX_FAULT_MEMORY}. */
function remember(map: Map<string, Article>, key: string, value: Article): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > MAX_FAULT_MEMORY) {
    const oldest = map.keys().next();
    if (oldest.done !== true) map.delete(oldest.value);
  }
}

/** Draws ids until one is unused (and differs from `avoid`); undefined after {@link MAX_ID_DRAWS} collisions. */
function freshId(ctx: HandlerContext, avoid?: string): string | undefined {
  for (let i = 0; i < MAX_ID_DRAWS; i++) {
    const id = ctx.deps.variants.has('ids-uuid') ? randomUuid(ctx.deps.random) : ctx.deps.newId();
    if (id !== avoid && !ctx.state.store.has(id)) return id;
  }
  return undefined;
}

function render(ctx: HandlerContext, article: Article): string {
  const faults = ctx.deps.faults;
  if (article.raw !== undefined) return article.raw;
  return serializeArticle(article, { titleEscape: faults.has('title-unescaped') ? 'none' : faults.has('title-gt-unescaped') ? 'amp-lt' : 'all' });
}

function sameArticle(a: Article, b: Article): boolean {
  return a.title === b.title && a.price === b.price && a.currency === b.currency && a.summary === b.summary;
}

function notFound(ctx: HandlerContext): ResponseRecord {
  return problem(404, `no article at ${ctx.req.path}`);
}

function storeFull(ctx: HandlerContext): ResponseRecord {
  const detail = `the article store is full (${ctx.state.store.capacity} articles); delete one first`;
  return problem(507, detail, { slug: 'store-full', title: 'Store full' });
}
