import { collectionRoute, itemRoute } from './articles.js';
import { recordsRoute, rootRoute, unknownRoute } from './documents.js';
import type { Route } from './route.js';

/** RFC 3986 unreserved characters, 1–200 of them; `.` and `..` are excluded separately. */
const SEGMENT = '([A-Za-z0-9._~-]{1,200})';

interface Entry {
  pattern: RegExp;
  build: (match: RegExpExecArray) => Route | undefined;
}

const TABLE: readonly Entry[] = [
  { pattern: /^\/$/, build: () => rootRoute() },
  { pattern: /^\/articles$/, build: () => collectionRoute() },
  { pattern: new RegExp(`^/articles/${SEGMENT}$`), build: (m) => withSegment(m, (id) => itemRoute(id, 'plural')) },
  { pattern: new RegExp(`^/article/${SEGMENT}$`), build: (m) => withSegment(m, (id) => itemRoute(id, 'singular')) },
  { pattern: new RegExp(`^/users/${SEGMENT}/financialrecords$`), build: (m) => withSegment(m, recordsRoute) },
];

/**
 * Matches a raw request path (no query, not percent-decoded) against the route table. Percent-encoded bytes never
 * match a segment, so such paths fall through to the unknown route.
 */
export function matchRoute(path: string): Route {
  for (const entry of TABLE) {
    const match = entry.pattern.exec(path);
    const route = match ? entry.build(match) : undefined;
    if (route) return route;
  }
  return unknownRoute();
}

function withSegment(match: RegExpExecArray, build: (segment: string) => Route): Route | undefined {
  const segment = match[1];
  if (segment === undefined || segment === '.' || segment === '..') return undefined;
  return build(segment);
}
