/**
 * The parts undici needs from an absolute URL: its origin and the path with its query, as WHATWG URL parsing gives
 * them (dot segments resolved, non-ASCII percent-encoded, default ports dropped). A URL whose path holds only
 * characters that parsing leaves as they are, no dot segment and no empty query, is split directly, with the origin of its prefix
 * parsed once and remembered: a run sends thousands of requests to a handful of bases.
 */
const PLAIN_PATH = /^\/[A-Za-z0-9\-_~!$&()*+,;=:@%/?.]*$/;
const DOT_SEGMENT = /\/\.\.?(?:[/?]|$)/;
const ORIGINS = new Map<string, string>();

/** The URL split last: a step's URL is split for each of its requests, its message and the ledger, one after another. */
let last: { url: string; origin: string; path: string } | undefined;

export function splitUrl(url: string): { origin: string; path: string } {
  if (last !== undefined && last.url === url) return { origin: last.origin, path: last.path };
  const parts = split(url);
  last = { url, origin: parts.origin, path: parts.path };
  return parts;
}

function split(url: string): { origin: string; path: string } {
  const slash = url.indexOf('/', url.indexOf('//') + 2);
  if (slash > 0) {
    const path = url.slice(slash);
    const prefix = url.slice(0, slash);
    let origin = ORIGINS.get(prefix);
    if (origin === undefined && ORIGINS.size < 64 && /^https?:\/\/[A-Za-z0-9.\-[\]:]+$/.test(prefix))
      ORIGINS.set(prefix, (origin = new URL(prefix).origin));
    if (origin !== undefined && PLAIN_PATH.test(path) && !path.endsWith('?') && !DOT_SEGMENT.test(path.split('?')[0]!))
      return { origin, path };
  }
  const u = new URL(url);
  return { origin: u.origin, path: u.pathname + u.search };
}
