/**
 * Reads one raw exchange into an {@link Observation}: the facts the diff compares, normalized where the spec leaves
 * the representation free (Allow as a set, Location as a verdict on its shape, challenge scheme names only, article
 * XML as data). Pure.
 */
import type { Bases, RawExchange } from '../runner/exec-types.js';
import { headerValue, parseAllow } from '../runner/response-parts.js';
import { locationPath, shapeRegex } from '../runner/location.js';
import type { ResolvedProfile } from '../profile/schema.js';
import { readArticleXml } from '../xml/article-xml.js';
import type { ArticleData, LocationVerdict, Observation, ResourceKind, SideContext } from './types.js';

/** The side's base URL that a request URL was sent under (the longest matching one; an instance's, too). */
export function baseUrlOf(
  url: string,
  bases: Bases,
  instances: ReadonlyArray<{ http?: string; https?: string }> = [],
): string {
  const candidates = [bases.primary, bases.plain, bases.tls, ...instances.flatMap((i) => [i.http, i.https])].filter(
    (b): b is string => b !== undefined,
  );
  const matching = candidates.filter((b) => url.startsWith(b.replace(/\/$/, '')));
  return matching.sort((a, b) => b.length - a.length)[0] ?? bases.primary;
}

/** The request path below the base (query included). */
export function pathBelow(url: string, base: string): string {
  const u = new URL(url);
  const prefix = new URL(base).pathname.replace(/\/$/, '');
  const p = prefix && u.pathname.startsWith(prefix + '/') ? u.pathname.slice(prefix.length) : u.pathname;
  return p + u.search;
}

/** What the side's profile says a path is. */
export function resourceKind(path: string, profile: ResolvedProfile): ResourceKind {
  const p = path.split('?')[0] ?? path;
  if (p === profile.articles.collection) return 'collection';
  if ([profile.articles.item, ...profile.articles.aliases].some((t) => shapeRegex(t).test(p))) return 'item';
  if (profile.protected.some((r) => shapeRegex(r.path).test(p))) return 'protected';
  return 'other';
}

/** Whether a path is one of the profile's owner-only protected resources (per-user records). */
export function isOwnerOnly(path: string, profile: ResolvedProfile): boolean {
  const p = path.split('?')[0] ?? path;
  return profile.protected.some((r) => r.ownerOnly && shapeRegex(r.path).test(p));
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+/;

/** Splits a header value at commas outside quoted strings. */
function splitOutsideQuotes(value: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < value.length; i++) {
    const c = value[i]!;
    if (quoted && c === '\\') {
      cur += c + (value[++i] ?? '');
      continue;
    }
    if (c === '"') quoted = !quoted;
    if (c === ',' && !quoted) {
      out.push(cur);
      cur = '';
    } else cur += c;
  }
  out.push(cur);
  return out;
}

/**
 * The challenge scheme names of a WWW-Authenticate value (RFC 9110 §11.6.1), lower-case. A list member that starts
 * with `name=` is an auth-param of the challenge before it; any other member starts with a scheme name.
 */
export function challengeSchemes(value: string | undefined): string[] {
  if (value === undefined) return [];
  const names = new Set<string>();
  for (const member of splitOutsideQuotes(value)) {
    const m = member.trim();
    if (m === '' || /^[!#$%&'*+.^_`|~0-9A-Za-z-]+\s*=/.test(m)) continue;
    const scheme = TOKEN.exec(m)?.[0];
    if (scheme) names.add(scheme.toLowerCase());
  }
  return [...names].sort();
}

function locationVerdict(
  x: RawExchange,
  base: string,
  profile: ResolvedProfile,
): { verdict: LocationVerdict; path?: string } {
  const loc = x.response ? headerValue(x.response, 'location') : undefined;
  if (loc === undefined) return { verdict: 'absent' };
  const r = locationPath(loc, x.request.url, base, {
    own: profile.target.origins ?? [],
    strict: profile.target.origins !== undefined,
  });
  if ('problem' in r) return { verdict: 'invalid', path: loc };
  const p = r.path.split('?')[0]!;
  if (shapeRegex(profile.articles.item).test(p)) return { verdict: 'item', path: r.path };
  if (profile.articles.aliases.some((t) => shapeRegex(t).test(p))) return { verdict: 'alias', path: r.path };
  return { verdict: 'other', path: r.path };
}

function articleOf(text: string, optionalNames: readonly string[]): ArticleData | undefined {
  const read = readArticleXml(text);
  if (!read.ok || read.article.root !== 'article') return undefined;
  const { children, attributes } = read.article;
  const first = (name: string) => children.get(name)?.[0] ?? null;
  return {
    title: first('title'),
    price: first('price'),
    currency: attributes.get('price')?.[0]?.['currency'] ?? null,
    fields: Object.fromEntries(optionalNames.map((n) => [n, first(n)])),
  };
}

/**
 * Observes one exchange of one side. `optionalNames` are the optional article fields either profile declares (the
 * comparison decides which of them count).
 */
export function observe(x: RawExchange, side: SideContext, optionalNames: readonly string[]): Observation {
  const base = baseUrlOf(x.request.url, side.bases, side.profile.target.instances);
  const path = pathBelow(x.request.url, base);
  const obs: Observation = {
    method: x.request.method,
    path,
    resource: resourceKind(path, side.profile),
    location: 'absent',
    challenges: [],
    body: 'empty',
  };
  const res = x.response;
  if (!res) {
    obs.error = x.error?.code ?? 'NO_RESPONSE';
    return obs;
  }
  obs.status = res.status;
  const allow = headerValue(res, 'allow');
  if (allow !== undefined) obs.allow = [...new Set(parseAllow(allow).methods.map((m) => m.toUpperCase()))].sort();
  const loc = locationVerdict(x, base, side.profile);
  obs.location = loc.verdict;
  if (loc.path !== undefined) obs.locationPath = loc.path;
  obs.challenges = challengeSchemes(headerValue(res, 'www-authenticate'));
  const type = headerValue(res, 'content-type');
  if (type !== undefined) obs.contentType = (type.split(';')[0] ?? '').trim().toLowerCase();
  const text = Buffer.from(res.body).toString('utf8');
  if (text.trim() !== '') {
    const article = articleOf(text, optionalNames);
    obs.body = article ? 'article' : 'other';
    if (article) obs.article = article;
  }
  return obs;
}
