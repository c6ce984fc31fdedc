/** Building one step's request: URL, headers, body, and the credentials the policy asks for. */
import type { AuthOptions, AuthScheme, SignedParts } from '../auth/authenticator.js';
import { applyMutation, type Mutation } from '../auth/mutations.js';
import type { HttpRequest } from '../http/client.js';
import { formEncode } from '../http/percent.js';
import type { ArticleValue } from '../generators/article.js';
import type { Grant, OAuth2Actor, Scheme } from '../profile/schema.js';
import type { StepData } from '../suite/schema.js';
import { stringify, type Scope } from '../suite/template.js';
import { serializeArticle } from '../xml/article-xml.js';
import type { TokenExchange } from '../oauth/index.js';
import { chooseScheme, needsCredentials, pickBase, tokensOf } from './credentials.js';
import type { ExecDeps } from './exec-types.js';
import { instanceBase, targetHost, type BuiltRequest } from './instances.js';
import { num, render } from './render.js';
import type { SentCredential } from './types.js';

function joinUrl(base: string, path: string): string {
  return base.replace(/\/$/, '') + (path.startsWith('/') ? path : `/${path}`);
}

function clientAuthOf(v: string | undefined): 'basic' | 'basic-encoded' | 'form' {
  return v === 'form' || v === 'basic-encoded' ? v : 'basic';
}

function placementOf(v: string | undefined): 'header' | 'query' | 'form' {
  return v === 'query' || v === 'form' ? v : 'header';
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
 * this runs for every request, and most need no token.
 */
export function buildRequest(step: StepData, scope: Scope, deps: ExecDeps, instance?: number): Built | Promise<Built> {
  const r = step.request;
  if (!r) return { error: 'the step has neither request nor replayOf' };
  const method = stringify(render(r.method, scope)).toUpperCase();
  const path = stringify(render(r.path, scope));
  const headers: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(r.headers ?? {}))
    headers[stringify(render(k, scope)).toLowerCase()] =
      typeof v === 'string' ? stringify(render(v, scope)) : lines(v, scope);
  const body = bodyOf(r.body, scope);
  if (body !== undefined)
    headers['content-type'] ??= r.body && 'form' in r.body ? MEDIA_TYPES.form : deps.profile.articles.mediaType;
  const auth = r.auth ?? 'auto';
  const explicit = typeof auth === 'object' ? (stringify(render(auth.scheme, scope)) as AuthScheme) : undefined;
  let picked = pickBase(deps, r.via, explicit);
  if ('error' in picked) return picked;
  let autoScheme: Scheme | undefined;
  const needed = auth === 'auto' && needsCredentials(method, path, deps.profile);
  if (needed) {
    autoScheme = chooseScheme(deps.profile, picked.base.startsWith('https:'));
    // The only usable schemes are TLS-only: a request that needs credentials goes over TLS; the plain listener
    // stays for the scenarios about plain HTTP.
    if (!autoScheme && r.via === undefined && deps.bases.tls) {
      autoScheme = chooseScheme(deps.profile, true);
      if (autoScheme) picked = { base: deps.bases.tls };
    }
  }
  const at = instance === undefined ? {} : { instance };
  if (instance !== undefined) {
    const own = instanceBase(deps, instance, picked.base.startsWith('https:'));
    if ('error' in own) return own;
    headers['host'] ??= targetHost(picked.base);
    picked = own;
  }
  const request: HttpRequest = {
    method,
    url: joinUrl(picked.base, path),
    headers,
    ...(body !== undefined ? { body } : {}),
  };
  const after = (req: HttpRequest): HttpRequest => {
    const t = r.bodyAfterSigning;
    if (t === undefined) return addLines(req, r.addHeaders, scope);
    const tampered =
      'mutate' in t ? applyMutation(stringify(req.body ?? ''), render(t.mutate, scope) as Mutation) : bodyOf(t, scope);
    return addLines({ ...req, body: tampered ?? '' }, r.addHeaders, scope);
  };
  if (auth === 'none') return { request: after(request), base: picked.base, ...at };
  const secure = request.url.startsWith('https:');
  let scheme: AuthScheme | undefined = explicit;
  let user = deps.profile.users[0]?.name;
  let options: AuthOptions = {};
  if (auth === 'auto') {
    if (!needed) return { request: after(request), base: picked.base, ...at };
    scheme = autoScheme;
    if (scheme === 'oauth2' && deps.profile.auth.oauth2?.user) user = deps.profile.auth.oauth2.user;
    if (scheme === 'oauth1' && deps.profile.auth.oauth1?.user) user = deps.profile.auth.oauth1.user;
    if (!scheme)
      return {
        error: `the profile says ${method} ${path} needs credentials but lists no scheme the harness can use over ${secure ? 'TLS' : 'plain HTTP'}`,
      };
  } else {
    // A user rendered empty (an actor acting for nobody: `{{ a.user | default: '' }}`) names no user.
    const named = auth.user === undefined ? '' : stringify(render(auth.user, scope));
    if (named !== '') user = named;
    // An OAuth scheme named without a user acts for the user its client or consumer acts for.
    else if (auth.user === undefined && explicit === 'oauth2' && deps.profile.auth.oauth2?.user)
      user = deps.profile.auth.oauth2.user;
    else if (auth.user === undefined && explicit === 'oauth1' && deps.profile.auth.oauth1?.user)
      user = deps.profile.auth.oauth1.user;
    const signAs = auth.signAs;
    const text = (t: string | undefined) => (t === undefined ? undefined : stringify(render(t, scope)));
    options = {
      ...(auth.secretOf !== undefined ? { secretOf: text(auth.secretOf)! } : {}),
      ...(auth.passwordMutation !== undefined
        ? { passwordMutation: render(auth.passwordMutation, scope) as Mutation }
        : {}),
      ...(auth.nonce !== undefined ? { nonce: text(auth.nonce)! } : {}),
      ...(auth.date !== undefined ? { date: text(auth.date)! } : {}),
      ...(num(auth.skew === undefined ? undefined : render(auth.skew, scope)) !== undefined
        ? { skew: num(render(auth.skew!, scope))! }
        : {}),
      ...(auth.omitDate ? { omitDate: true } : {}),
      ...(signAs
        ? {
            signAs: Object.fromEntries(
              Object.entries({
                method: text(signAs.method)?.toUpperCase(),
                path: text(signAs.path),
                date: text(signAs.date),
                nonce: text(signAs.nonce),
                body: text(signAs.body),
                simple: signAs.simple,
              }).filter(([, v]) => v !== undefined),
            ),
          }
        : {}),
      ...(auth.digestMutation !== undefined ? { digestMutation: render(auth.digestMutation, scope) as Mutation } : {}),
      ...(auth.bodyHash === false ? { bodyHash: false } : {}),
      ...(auth.token !== undefined ? { token: text(auth.token)! } : {}),
      ...(auth.tokenSecret !== undefined ? { tokenSecret: text(auth.tokenSecret)! } : {}),
      ...(auth.verifier !== undefined ? { verifier: text(auth.verifier)! } : {}),
      ...(auth.callback !== undefined ? { callback: text(auth.callback)! } : {}),
      ...(auth.placement !== undefined ? { placement: placementOf(text(auth.placement)) } : {}),
      ...(auth.tokenMutation !== undefined ? { tokenMutation: render(auth.tokenMutation, scope) as Mutation } : {}),
      ...(auth.secretMutation !== undefined ? { secretMutation: render(auth.secretMutation, scope) as Mutation } : {}),
      ...(auth.clientAuth !== undefined ? { clientAuth: clientAuthOf(text(auth.clientAuth)) } : {}),
      ...(auth.otherClient ? { otherClient: true } : {}),
      ...(auth.client !== undefined ? { client: text(auth.client)! } : {}),
      ...(auth.grant !== undefined ? { grant: text(auth.grant) as Grant } : {}),
      ...(auth.refreshToken !== undefined ? { refreshToken: text(auth.refreshToken)! } : {}),
      ...(auth.code !== undefined ? { code: text(auth.code)! } : {}),
      ...(auth.redirectUri !== undefined && text(auth.redirectUri) !== ''
        ? { redirectUri: text(auth.redirectUri)! }
        : {}),
      ...(auth.codeVerifier !== undefined && text(auth.codeVerifier) !== ''
        ? { codeVerifier: text(auth.codeVerifier)! }
        : {}),
      ...(auth.clientSecret !== undefined
        ? { clientSecret: text(auth.clientSecret) === 'omit' ? ('omit' as const) : ('empty' as const) }
        : {}),
      ...(auth.asConsumer !== undefined ? { asConsumer: text(auth.asConsumer)! } : {}),
      ...(signAs?.url !== undefined ? { signUrl: text(signAs.url)! } : {}),
      ...(auth.signatureMethod !== undefined
        ? { signatureMethod: text(auth.signatureMethod) as 'HMAC-SHA1' | 'HMAC-SHA256' | 'PLAINTEXT' }
        : {}),
      ...(auth.omitParams !== undefined ? { omitParams: auth.omitParams } : {}),
      ...(auth.omitRealm ? { omitRealm: true } : {}),
    };
  }
  if (!user) return { error: 'the profile lists no users to authenticate as' };
  const signed = (options: AuthOptions, obtained?: TokenExchange[]): Built => {
    const applied = deps.authenticator.apply(request, scheme!, user, options);
    if (!applied.ok) return { error: applied.reason, ...(obtained ? { obtained } : {}) };
    const built: Built = { request: after(applied.request), base: picked.base };
    if (instance !== undefined) built.instance = instance;
    built.credential = sentCredential(scheme!, user, options, applied.signed, r.bodyAfterSigning !== undefined);
    if (obtained) built.obtained = obtained;
    return built;
  };
  // No token given: obtain one from the target (kept for the run), as a client of that scheme would. An OAuth 1
  // request with a callback and no token asks for temporary credentials (RFC 5849 §2.1) and is signed as it is.
  if ((scheme === 'oauth2' || (scheme === 'oauth1' && options.callback === undefined)) && options.token === undefined) {
    // A target whose OAuth 2 tokens act for nobody: a request naming no user gets the user-less token.
    const actor = deps.profile.auth.oauth2?.actor;
    const userless =
      scheme === 'oauth2' &&
      actor !== undefined &&
      actor.user === undefined &&
      (auth === 'auto' || auth.user === undefined);
    const named =
      scheme === 'oauth2' && auth !== 'auto' && auth.actor !== undefined
        ? (render(auth.actor, scope) as OAuth2Actor | undefined)
        : undefined;
    const obtaining =
      named !== undefined && typeof named === 'object'
        ? tokensOf(deps).oauth2As(named, picked.base)
        : userless
          ? tokensOf(deps).oauth2As(actor, picked.base)
          : scheme === 'oauth2'
            ? tokensOf(deps).oauth2(user, picked.base)
            : tokensOf(deps).oauth1(user, picked.base);
    const given = options;
    return obtaining.then((got): Built => {
      if (!got.ok) return { error: got.reason, obtained: got.exchanges };
      const token = { token: got.token, ...(got.tokenSecret !== undefined ? { tokenSecret: got.tokenSecret } : {}) };
      return signed({ ...given, ...token }, got.exchanges);
    });
  }
  return signed(options);
}
