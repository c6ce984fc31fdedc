/**
 * Credential policy: which requests need credentials (the profile's writes and protected paths), which scheme the
 * harness uses on which transport, where the OAuth tokens come from, and which base URL a request goes to.
 */
import type { AuthScheme, Authenticator } from '../auth/authenticator.js';
import type { ResolvedProfile, Scheme } from '../profile/schema.js';
import { createTokenSource, type TokenSource } from '../oauth/index.js';
import type { ExecDeps } from './exec-types.js';

export const STANDARD_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'];

const UNSAFE = new Set(['POST', 'PUT', 'DELETE', 'PATCH']);

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Does the profile say this request needs credentials? Writes to articles when `writeAuth`, and anything but
 * OPTIONS on a protected resource. OPTIONS on articles is authenticated too when writes need credentials, so that
 * `Allow` shows everything an authenticated client may do.
 */
export function needsCredentials(method: string, path: string, profile: ResolvedProfile): boolean {
  const q = path.indexOf('?');
  const p = q < 0 ? path : path.slice(0, q);
  const m = method.toUpperCase();
  if (profile.articles.writeAuth && (UNSAFE.has(m) || m === 'OPTIONS') && isArticlePath(p, articlePaths(profile)))
    return true;
  return m !== 'OPTIONS' && protectedPatterns(profile).some((re) => re.test(p));
}

interface ArticlePaths {
  collection: string;
  /** The collection followed by "/": its children. */
  below: string;
  /** The fixed parts of the item and alias templates (`/articles/` of `/articles/{id}`). */
  templates: string[];
}

const articleCache = new WeakMap<ResolvedProfile, ArticlePaths>();

function articlePaths(profile: ResolvedProfile): ArticlePaths {
  let a = articleCache.get(profile);
  if (!a) {
    const { collection, item, aliases } = profile.articles;
    a = { collection, below: `${collection}/`, templates: [item, ...aliases].map((t) => t.split('{')[0] ?? t) };
    articleCache.set(profile, a);
  }
  return a;
}

function isArticlePath(p: string, a: ArticlePaths): boolean {
  return p === a.collection || p.startsWith(a.below) || a.templates.some((t) => p.startsWith(t));
}

/** The profile's protected path templates as regular expressions, compiled once per profile (not per request). */
const protectedCache = new WeakMap<ResolvedProfile, RegExp[]>();

function protectedPatterns(profile: ResolvedProfile): RegExp[] {
  let patterns = protectedCache.get(profile);
  if (!patterns) {
    patterns = profile.protected.map(
      (r) =>
        new RegExp(
          `^${r.path
            .split(/\{[^}]*\}/)
            .map(escapeRe)
            .join('[^/]+')}$`,
        ),
    );
    protectedCache.set(profile, patterns);
  }
  return patterns;
}

const PREFERENCE: Scheme[] = ['hmac-nonce', 'hmac', 'basic', 'oauth2', 'oauth1'];

/** Can the harness authenticate with this scheme without being given a token? The OAuth family needs its settings. */
function usable(profile: ResolvedProfile, s: Scheme): boolean {
  if (!profile.auth.schemes.includes(s)) return false;
  // OAuth 2 where some grant gives a user's token: a user-less token opens only what the target chose.
  if (s === 'oauth2') return profile.auth.oauth2?.actor?.user !== undefined;
  if (s === 'oauth1') return profile.auth.oauth1 !== undefined;
  return true;
}

/**
 * The scheme `auto` uses: the strongest the profile lists that works on this transport. The per-user schemes come
 * first; the OAuth family (a token obtained from the target first) only when the profile offers nothing else.
 */
export function chooseScheme(profile: ResolvedProfile, secure: boolean): Scheme | undefined {
  return PREFERENCE.find((s) => usable(profile, s) && (secure || !profile.auth.tlsOnly.includes(s)));
}

/**
 * Every scheme the harness can authenticate with against these base URLs, strongest first: a TLS-only scheme only
 * when a TLS base URL is known (requests with it then go there).
 */
export function usableSchemes(profile: ResolvedProfile, bases: { primary: string; tls?: string }): Scheme[] {
  const secure = bases.primary.startsWith('https:') || bases.tls !== undefined;
  return PREFERENCE.filter((s) => usable(profile, s) && (secure || !profile.auth.tlsOnly.includes(s)));
}

/** Token sources by authenticator: one per run, so tokens are obtained once and reused until they expire. */
const tokenSources = new WeakMap<Authenticator, TokenSource>();

export function tokensOf(deps: ExecDeps): TokenSource {
  if (deps.tokens) return deps.tokens;
  let t = tokenSources.get(deps.authenticator);
  if (!t) {
    t = createTokenSource({
      client: deps.client,
      profile: deps.profile,
      authenticator: deps.authenticator,
      secret: (v) => deps.redactor.add(v),
    });
    tokenSources.set(deps.authenticator, t);
  }
  return t;
}

/** The base URL credentials go to: the primary one, or the TLS one when no usable scheme works on the primary. */
function credentialsBase(deps: ExecDeps): string {
  const primarySecure = deps.bases.primary.startsWith('https:');
  if (!chooseScheme(deps.profile, primarySecure) && deps.bases.tls && chooseScheme(deps.profile, true))
    return deps.bases.tls;
  return deps.bases.primary;
}

export function pickBase(
  deps: ExecDeps,
  via: 'plain' | 'tls' | 'credentials' | undefined,
  scheme: AuthScheme | undefined,
): { base: string } | { error: string } {
  if (via === 'credentials') return { base: credentialsBase(deps) };
  if (via === 'plain')
    return deps.bases.plain
      ? { base: deps.bases.plain }
      : { error: 'the step needs a plain-HTTP target (profile target.http or an http:// --target)' };
  if (via === 'tls')
    return deps.bases.tls
      ? { base: deps.bases.tls }
      : { error: 'the step needs a TLS target (profile target.https or an https:// --target)' };
  const family = scheme === 'oauth2-client' ? 'oauth2' : scheme;
  if (family && deps.profile.auth.tlsOnly.includes(family) && deps.bases.tls) return { base: deps.bases.tls };
  return { base: deps.bases.primary };
}
