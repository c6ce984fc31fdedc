import { collectionRoute, itemRoute } from './articles.js';
import { withLocks } from './locks.js';
import { recordsRoute, rootRoute, unknownRoute } from './documents.js';
import type { Handler, Route } from '../types.js';
import type { Method } from '../records.js';
import type { VariantName } from '../variants.js';

/** RFC 3986 unreserved characters, 1–200 of them; `.` and `..` are excluded separately. */
const SEGMENT = '([A-Za-z0-9._~-]{1,200})';

interface Entry {
  /** Left out of the table when this variant is on. */
  unlessVariant?: VariantName;
  pattern: RegExp;
  build: (match: RegExpExecArray) => Route | undefined;
}

const TABLE: readonly Entry[] = [
  { pattern: /^\/$/, build: () => rootRoute() },
  { pattern: /^\/articles$/, build: () => collectionRoute() },
  { pattern: new RegExp(`^/articles/${SEGMENT}$`), build: (m) => withSegment(m, (id) => itemRoute(id, 'plural')) },
  {
    unlessVariant: 'no-alias',
    pattern: new RegExp(`^/article/${SEGMENT}$`),
    build: (m) => withSegment(m, (id) => itemRoute(id, 'singular')),
  },
  { pattern: new RegExp(`^/users/${SEGMENT}/financialrecords$`), build: (m) => withSegment(m, recordsRoute) },
];

const NO_VARIANTS: ReadonlySet<VariantName> = new Set();

/**
 * Matches a raw request path (no query, not percent-decoded) against the route table, shaped by the switched-on
 * `variants` (no-alias, not-deletable, post-updates, options-partial, webdav-lock). Percent-encoded bytes never match a
 * segment, so such paths fall through to the unknown route.
 */
export function matchRoute(path: string, variants: ReadonlySet<VariantName> = NO_VARIANTS): Route {
  for (const entry of TABLE) {
    if (entry.unlessVariant !== undefined && variants.has(entry.unlessVariant)) continue;
    const match = entry.pattern.exec(path);
    const route = match ? entry.build(match) : undefined;
    if (route) return variants.size === 0 ? route : withVariants(route, variants);
  }
  return unknownRoute();
}

function withVariants(route: Route, variants: ReadonlySet<VariantName>): Route {
  let out = route;
  if (out.kind === 'item' && variants.has('not-deletable')) out = without(out, 'DELETE');
  if (out.kind === 'item' && variants.has('post-updates')) out = withPostUpdate(out);
  if ((out.kind === 'root' || out.kind === 'records') && variants.has('options-partial')) out = without(out, 'OPTIONS');
  // Last, so the POST that post-updates adds is locked too.
  if (variants.has('webdav-lock')) out = withLocks(out);
  return out;
}

function without(route: Route, method: Method): Route {
  const drop = (list: readonly Method[]) => list.filter((m) => m !== method);
  const handlers = { ...route.handlers };
  delete handlers[method];
  return { ...route, methods: drop(route.methods), writes: drop(route.writes), guarded: drop(route.guarded), handlers };
}

function withPostUpdate(route: Route): Route {
  const { GET: get, PUT: put } = route.handlers;
  if (get === undefined || put === undefined) return route;
  const methods = route.methods.flatMap((m): Method[] => (m === 'PUT' ? ['POST', 'PUT'] : [m]));
  return {
    ...route,
    methods,
    writes: [...route.writes, 'POST'],
    guarded: [...route.guarded, 'POST'],
    handlers: { ...route.handlers, POST: postUpdate(get, put) },
  };
}

/** POST on an existing item replaces it through `put` and answers 200 with what GET serves; it never creates (404). */
function postUpdate(get: Handler, put: Handler): Handler {
  return (ctx) => {
    const before = get(ctx);
    if (before.status === 404) return before;
    const replaced = put(ctx);
    return replaced.status >= 300 ? replaced : get(ctx);
  };
}

function withSegment(match: RegExpExecArray, build: (segment: string) => Route): Route | undefined {
  const segment = match[1];
  if (segment === undefined || segment === '.' || segment === '..') return undefined;
  return build(segment);
}
