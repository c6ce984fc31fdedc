/** Building one step's request: URL, headers, body, and the credentials the policy asks for. */
import type { AuthOptions, AuthScheme, SignedParts } from '../auth/authenticator.js';
import { applyMutation, type Mutation } from '../auth/mutations.js';
import type { HttpRequest } from '../http/client.js';
import { formEncode } from '../http/percent.js';
import type { ArticleValue } from '../generators/article.js';
import type { OAuth2Actor, Scheme } from '../profile/schema.js';
import type { StepData } from '../suite/schema.js';
import { stringify, type Scope } from '../suite/template.js';
import { serializeArticle } from '../xml/article-xml.js';
import type { TokenExchange } from '../oauth/index.js';
import { chooseScheme, needsCredentials, pickBase, tokensOf } from './credentials.js';
import type { ExecDeps } from './exec-types.js';
import { instanceBase, targetHost, type BuiltRequest } from './instances.js';
import { render } from './render.js';
import { explicitAuth } from './auth-options.js';
import type { SentCredential } from './types.js';

function joinUrl(base: string, path: string): string {
  return base.replace(/\/$/, '') + (path.startsWith('/') ? path : `/${path}`);
}

type BodyData = NonNullable<NonNullable<StepData['request']>['body']>;

function bodyOf(b: BodyData | undefined, scope: Scope): string | undefined {
  if (!b) return undefined;
  if ('article' in b) return serializeArticle(render(b.article, scope) as ArticleValue);
  if ('form' in b)
    return Object.entries(b.form)
      .map(([k, v]) => `${formEncode(k)}=${formEncode(stringify(render(v, scope)))}`)
      .join('&');
  return stringify(render(b.raw, scope));
}

const lines = (v: string | string[], scope: Scope): string[] => [v].flat().map((t) => stringify(render(t, scope)));

/** `addHeaders`: lines put before and after what the request carries once signed, so a field goes out repeated. */
function addLines(req: HttpRequest, add: NonNullable<StepData['request']>['addHeaders'], scope: Scope): HttpRequest {
  if (add === undefined) return req;
  const headers = { ...req.headers };
  for (const [k, { before, after }] of Object.entries(add)) {
    const name = stringify(render(k, scope)).toLowerCase();
    const current = headers[name];
    const all = [
      ...(before === undefined ? [] : lines(before, scope)),
      ...(current === undefined ? [] : [current].flat()),
      ...(after === undefined ? [] : lines(after, scope)),
    ];
    if (all.length > 0) headers[name] = all.length === 1 ? all[0]! : all;
  }
  return { ...req, headers };
}

const MEDIA_TYPES = { form: 'application/x-www-form-urlencoded' } as const;

/**
 * The knobs that make credentials other than a correct client's (a fixed nonce or date, a skew, a mutated digest,
 * another user's secret, a tampered body): a fresh signature of the same request is not what was sent.
 */
const ALTERING: ReadonlyArray<keyof AuthOptions> = [
  'secretOf',
  'passwordMutation',
  'nonce',
  'date',
  'skew',
  'omitDate',
  'signAs',
  'digestMutation',
  'tokenMutation',
  'secretMutation',
  'clientSecret',
  'asConsumer',
  'signUrl',
  'omitParams',
];

/** How a request was authenticated, for the report: scheme, user, what was signed, and what the scenario altered. */
function sentCredential(
  scheme: AuthScheme,
  user: string,
  options: AuthOptions,
  signed: SignedParts | undefined,
  tampered: boolean,
): SentCredential {
  // Most requests carry the options of a correct client: none (this runs for every signed request).
  const altered: string[] = Object.keys(options).length === 0 ? [] : ALTERING.filter((k) => options[k] !== undefined);
  if (tampered) altered.push('bodyAfterSigning');
  const credential: SentCredential = { scheme, user, ...signed };
  if (altered.length > 0) credential.altered = altered;
  return credential;
}

type Built = (BuiltRequest | { error: string }) & { obtained?: TokenExchange[] };

/**
 * Builds one step's request on the base its transport and credentials call for — or, with `instance`, on that
 * instance's base URL for the same transport, with the target's Host (runner/instances.ts); OAuth tokens it needs
 * are then obtained from that instance too. Synchronous unless a token must be obtained first (a promise then):
 * this runs for every request, and most need no token. The rarer parts (an explicit `auth:`, a token to obtain, an
 * instance) are functions of their own: V8 optimizes a function after an amount of its bytecode has run that grows
 * with its length, so the common path kept short is optimized hundreds of requests earlier.
 */
export function buildRequest(step: StepData, scope: Scope, deps: ExecDeps, instance?: number): Built | Promise<Built> {
  const r = step.request;
  if (!r) return { error: 'the step has neither request nor replayOf' };
  const method = stringify(render(r.method, scope)).toUpperCase();
  const path = stringify(render(r.path, scope));
  const headers = r.headers === undefined ? {} : renderHeaders(r.headers, scope);
  const body = bodyOf(r.body, scope);
  if (body !== undefined)
    headers['content-type'] ??= r.body && 'form' in r.body ? MEDIA_TYPES.form : deps.profile.articles.mediaType;
  const auth = r.auth ?? 'auto';
  const explicit = typeof auth === 'object' ? (stringify(render(auth.scheme, scope)) as AuthScheme) : undefined;
  const needed = auth === 'auto' && needsCredentials(method, path, deps.profile);
  const placed = placeRequest(deps, r.via, explicit, needed, instance, headers);
  if ('error' in placed) return placed;
  const request: HttpRequest = { method, url: joinUrl(placed.base, path), headers };
  if (body !== undefined) request.body = body;
  if (auth === 'none' || (auth === 'auto' && !needed))
    return unsigned(finish(request, r, scope), placed.base, instance);
  let scheme: AuthScheme | undefined = explicit;
  let user = deps.profile.users[0]?.name;
  let options: AuthOptions = {};
  if (auth === 'auto') {
    scheme = placed.scheme;
    if (scheme === 'oauth2' && deps.profile.auth.oauth2?.user) user = deps.profile.auth.oauth2.user;
    if (scheme === 'oauth1' && deps.profile.auth.oauth1?.user) user = deps.profile.auth.oauth1.user;
    if (!scheme)
      return {
        error: `the profile says ${method} ${path} needs credentials but lists no scheme the harness can use over ${request.url.startsWith('https:') ? 'TLS' : 'plain HTTP'}`,
      };
  } else {
    const given = explicitAuth(auth, explicit, scope, deps.profile);
    user = given.user ?? user;
    options = given.options;
  }
  if (!user) return { error: 'the profile lists no users to authenticate as' };
  const signing: Signing = { request, scheme: scheme!, user, r, scope, deps, base: placed.base, instance };
  // No token given: obtain one from the target (kept for the run), as a client of that scheme would. An OAuth 1
  // request with a callback and no token asks for temporary credentials (RFC 5849 §2.1) and is signed as it is.
  if ((scheme === 'oauth2' || (scheme === 'oauth1' && options.callback === undefined)) && options.token === undefined)
    return withToken(signing, options, auth);
  return signRequest(signing, options);
}

/** A step's header fields, names and values rendered (a list of values goes out as repeated lines). */
function renderHeaders(given: NonNullable<NonNullable<StepData['request']>['headers']>, scope: Scope) {
  const headers: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(given))
    headers[stringify(render(k, scope)).toLowerCase()] =
      typeof v === 'string' ? stringify(render(v, scope)) : lines(v, scope);
  return headers;
}

/**
 * Where a request goes: the base its transport calls for (an instance's when `instance` is given, the target's Host
 * then set in `headers`), and the scheme `auto` signs with when `needed` — over TLS when the plain listener carries
 * none of the profile's schemes and a TLS base URL is known.
 */
function placeRequest(
  deps: ExecDeps,
  via: NonNullable<StepData['request']>['via'],
  explicit: AuthScheme | undefined,
  needed: boolean,
  instance: number | undefined,
  headers: Record<string, string | string[]>,
): { base: string; scheme?: Scheme } | { error: string } {
  const picked = pickBase(deps, via, explicit);
  if ('error' in picked) return picked;
  let base = picked.base;
  let scheme: Scheme | undefined;
  if (needed) {
    scheme = chooseScheme(deps.profile, base.startsWith('https:'));
    // The only usable schemes are TLS-only: a request that needs credentials goes over TLS; the plain listener
    // stays for the scenarios about plain HTTP.
    if (!scheme && via === undefined && deps.bases.tls) {
      scheme = chooseScheme(deps.profile, true);
      if (scheme) base = deps.bases.tls;
    }
  }
  if (instance === undefined) return { base, ...(scheme ? { scheme } : {}) };
  const own = instanceBase(deps, instance, base.startsWith('https:'));
  if ('error' in own) return own;
  headers['host'] ??= targetHost(base);
  return { base: own.base, ...(scheme ? { scheme } : {}) };
}

/** The request as it goes out once signed: `bodyAfterSigning` and `addHeaders` applied (most steps have neither). */
function finish(req: HttpRequest, r: NonNullable<StepData['request']>, scope: Scope): HttpRequest {
  const t = r.bodyAfterSigning;
  if (t === undefined) return r.addHeaders === undefined ? req : addLines(req, r.addHeaders, scope);
  const tampered =
    'mutate' in t ? applyMutation(stringify(req.body ?? ''), render(t.mutate, scope) as Mutation) : bodyOf(t, scope);
  return addLines({ ...req, body: tampered ?? '' }, r.addHeaders, scope);
}

function unsigned(request: HttpRequest, base: string, instance: number | undefined): BuiltRequest {
  const built: BuiltRequest = { request, base };
  if (instance !== undefined) built.instance = instance;
  return built;
}

/** What signing a request needs besides the options. */
interface Signing {
  request: HttpRequest;
  scheme: AuthScheme;
  user: string;
  r: NonNullable<StepData['request']>;
  scope: Scope;
  deps: ExecDeps;
  base: string;
  instance: number | undefined;
}

function signRequest(s: Signing, options: AuthOptions, obtained?: TokenExchange[]): Built {
  const applied = s.deps.authenticator.apply(s.request, s.scheme, s.user, options);
  if (!applied.ok) return { error: applied.reason, ...(obtained ? { obtained } : {}) };
  const built: Built = unsigned(finish(applied.request, s.r, s.scope), s.base, s.instance);
  built.credential = sentCredential(s.scheme, s.user, options, applied.signed, s.r.bodyAfterSigning !== undefined);
  if (obtained) built.obtained = obtained;
  return built;
}

/** Signs with a token obtained from the target first (its token source keeps it for the run). */
function withToken(s: Signing, given: AuthOptions, auth: NonNullable<StepData['request']>['auth']): Promise<Built> {
  const { scheme, deps, scope, user, base } = s;
  // A target whose OAuth 2 tokens act for nobody: a request naming no user gets the user-less token.
  const actor = deps.profile.auth.oauth2?.actor;
  const explicit = typeof auth === 'object' ? auth : undefined;
  const userless =
    scheme === 'oauth2' && actor !== undefined && actor.user === undefined && explicit?.user === undefined;
  const named =
    scheme === 'oauth2' && explicit?.actor !== undefined
      ? (render(explicit.actor, scope) as OAuth2Actor | undefined)
      : undefined;
  const obtaining =
    named !== undefined && typeof named === 'object'
      ? tokensOf(deps).oauth2As(named, base)
      : userless
        ? tokensOf(deps).oauth2As(actor, base)
        : scheme === 'oauth2'
          ? tokensOf(deps).oauth2(user, base)
          : tokensOf(deps).oauth1(user, base);
  return obtaining.then((got): Built => {
    if (!got.ok) return { error: got.reason, obtained: got.exchanges };
    const token = { token: got.token, ...(got.tokenSecret !== undefined ? { tokenSecret: got.tokenSecret } : {}) };
    return signRequest(s, { ...given, ...token }, got.exchanges);
  });
}
