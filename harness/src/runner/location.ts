/** Reading a `Location` (or any path the target names) through the target's base URL; path templates and path equality. */

/** Which origins a Location may name (see {@link locationPath}). */
export interface LocationOrigins {
  /** Base URLs (origin, optionally a path prefix) besides `baseUrl` that are the target's own: its other listener, `target.origins`. */
  own?: readonly string[];
  /** Only `baseUrl` and `own` are accepted (the profile lists `target.origins`); otherwise any origin is read by its path. */
  strict?: boolean;
}

const prefixOf = (u: URL) => u.pathname.replace(/\/$/, '');

/** Base URLs parsed once: a run has a handful, and every created resource's Location is read against one. */
const BASES = new Map<string, URL>();
function parsedBase(url: string): URL {
  let u = BASES.get(url);
  if (!u) {
    u = new URL(url);
    if (BASES.size < 64) BASES.set(url, u);
  }
  return u;
}

/**
 * Resolves a Location against the request URL and reads it through the target's base URL: the path below the base,
 * or a problem. A relative or same-origin Location loses the base's path prefix (`/api`); an absolute one on an origin
 * the target owns (`own`, e.g. the public URL in front of a proxy) loses that origin's own prefix, else the base's. An
 * absolute Location on any other origin is read the same way by its path — a Location identifies the resource by
 * its path, and the steps that follow read it — unless `strict`, where it is a problem.
 */
export function locationPath(
  location: string,
  requestUrl: string,
  baseUrl: string,
  origins: LocationOrigins = {},
): { path: string } | { problem: string } {
  let resolved: URL;
  try {
    resolved = new URL(location.trim(), requestUrl);
  } catch {
    return { problem: `Location ${JSON.stringify(location)} is not a valid URI reference` };
  }
  const base = parsedBase(baseUrl);
  let prefix = prefixOf(base);
  if (resolved.origin !== base.origin) {
    const owner = (origins.own ?? []).map((o) => new URL(o)).find((o) => o.origin === resolved.origin);
    if (owner) prefix = prefixOf(owner) || prefix;
    else if (origins.strict) {
      const listed = [base.origin, ...(origins.own ?? []).map((o) => new URL(o).origin)];
      return {
        problem: `Location ${JSON.stringify(location)} points outside the target (its origins: ${[...new Set(listed)].join(', ')}; profile target.origins)`,
      };
    }
  }
  let p = resolved.pathname;
  if (prefix && p.startsWith(prefix + '/')) p = p.slice(prefix.length);
  return { path: p + resolved.search };
}

/** Compares paths segment by segment after percent-decoding, so `/a%2Db` equals `/a-b`. */
export function samePath(a: string, b: string): boolean {
  if (a === b) return true;
  const norm = (p: string) =>
    p
      .split('?')[0]!
      .split('/')
      .map((seg) => {
        try {
          return decodeURIComponent(seg);
        } catch {
          return seg;
        }
      })
      .join('/');
  return norm(a) === norm(b);
}

/** A path template such as `/articles/{id}` as a regular expression; each placeholder is one non-empty segment. */
export function shapeRegex(template: string): RegExp {
  const parts = template.split(/\{[^}]*\}/).map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('[^/?#]+')}$`);
}
