/**
 * Adds credentials to requests for every scheme the harness knows, with the knobs scenarios use to probe a
 * target: explicit or fresh nonces, dates at any skew, a digest signed for another verb or path, mutated digests
 * and passwords, no body hash.
 */
import { randomInt } from 'node:crypto';
import type { HttpRequest } from '../http/client.js';
import { formEncode, percentEncodeAll } from '../http/percent.js';
import type { ResolvedProfile, Scheme } from '../profile/schema.js';
import { applyDigestMutation, applyMutation, applyPasswordMutation, type Mutation } from './mutations.js';
import {
  mutatePlaintext,
  oauth1BaseString,
  oauth1Header,
  oauth1Plaintext,
  oauth1Signature,
  oauthEncode,
} from './oauth1.js';
import { basicHeader, bodyHash, formatSpecDate, hmacDigest, hmacHeader, signedMessage } from './signers.js';

/** What a step can authenticate as: a profile scheme, or the OAuth 2 client itself (at the token endpoint). */
export type AuthScheme = Scheme | 'oauth2-client';

/** Per-request knobs, already rendered from the scenario. Everything is optional. */
export interface AuthOptions {
  /**
   * Basic, hmac, hmac-nonce: name the user but sign with (or send the password of) this other profile user, so a
   * target that checks the digest or password against any user's is caught (identity binding).
   */
  secretOf?: string;
  /** Basic: send the user's password changed by this mutation. */
  passwordMutation?: Mutation;
  /** Exact nonce to send (date-and-nonce form). */
  nonce?: string;
  /** Exact Date text to send. */
  date?: string;
  /** Seconds added to the harness clock for the Date. */
  skew?: number;
  /** Send no Date header (the digest is computed with an empty date text). */
  omitDate?: boolean;
  /** Compute the digest over these instead of the request's own values. */
  signAs?: { method?: string; path?: string; date?: string; nonce?: string; body?: string; simple?: boolean };
  /** Change the digest after computing it. */
  digestMutation?: Mutation;
  /** false: sign a PUT/POST without the body hash although the profile uses it. */
  bodyHash?: boolean;
  /** oauth2: the access token; oauth1: the token. */
  token?: string;
  /** oauth1: the token secret. */
  tokenSecret?: string;
  /** oauth1: oauth_verifier. */
  verifier?: string;
  /** oauth1: oauth_callback. */
  callback?: string;
  /** oauth1: where the protocol parameters travel (default the Authorization header). */
  placement?: 'header' | 'query' | 'form';
  /** oauth2: change the token sent. */
  tokenMutation?: Mutation;
  /** oauth2-client: change the client secret sent. */
  secretMutation?: Mutation;
  /**
   * oauth2-client: Basic (default, unless the profile's `auth.oauth2.clientAuth` lacks it), Basic with every
   * character percent-encoded (RFC 6749 §2.3.1 has the server form-urldecode id and secret, so this must work too),
   * or form fields (only when `auth.oauth2.clientAuth` lists form).
   */
  clientAuth?: 'basic' | 'basic-encoded' | 'form';
  /** oauth2-client: authenticate as the profile's second client (`auth.oauth2.otherClient`). */
  otherClient?: boolean;
  /** oauth2-client: the client id with no secret (`omit`: no password in Basic, no client_secret field) or an empty one. */
  clientSecret?: 'omit' | 'empty';
  /** oauth1: name this consumer (the profile's `auth.oauth1.otherConsumer`, by key) and sign with its own secret. */
  asConsumer?: string;
  /** oauth1: sign for this path and query instead of the request's own. */
  signUrl?: string;
  /** oauth1: HMAC-SHA1 (default) or PLAINTEXT (RFC 5849 §3.4.4). */
  signatureMethod?: 'HMAC-SHA1' | 'PLAINTEXT';
  /** oauth1: protocol parameters left out of the request and of the base string. */
  omitParams?: ReadonlyArray<'oauth_nonce' | 'oauth_timestamp' | 'oauth_version'>;
  /** oauth1: send no `realm` in the header although the profile declares one (RFC 5849 §3.5.1: it is OPTIONAL). */
  omitRealm?: boolean;
}

/** Applies credentials of a scheme and user to a request, or says why it cannot. */
export interface Authenticator {
  apply(
    request: HttpRequest,
    scheme: AuthScheme,
    user: string,
    options?: AuthOptions,
  ): { ok: true; request: HttpRequest } | { ok: false; reason: string };
  /** A nonce no earlier request of this process used: 16 digits from the clock and a counter. */
  freshNonce(): string;
  /** The same signers (clock, nonce counter) for another profile: the one the harness learned (harness/src/learn). */
  withProfile(profile: ResolvedProfile): Authenticator;
}

export interface AuthenticatorDeps {
  profile: ResolvedProfile;
  /** The harness clock (injectable for tests). */
  now?: () => Date;
  /** Where fresh nonces come from (default: a new counter seeded from the clock). */
  freshNonce?: () => string;
}

/** The harness's own implementation of the spec's schemes (Basic, HMAC, OAuth 2 and 1): it signs requests for scenarios and fetches tokens; it shares no code with the reference server. */
export function createAuthenticator(deps: AuthenticatorDeps): Authenticator {
  const now = deps.now ?? (() => new Date());
  const { profile } = deps;
  const freshNonce = deps.freshNonce ?? nonceCounter();

  const apply: Authenticator['apply'] = (request, scheme, userName, options = {}) => {
    if (scheme === 'oauth2' || scheme === 'oauth2-client') return oauth2(request, scheme, options);
    if (scheme === 'oauth1') return oauth1(request, options);
    const named = profile.users.find((u) => u.name === userName);
    if (!named) return { ok: false, reason: `the profile has no user "${userName}"` };
    // The user named in the credentials, and the one whose secret or password is used (the same unless secretOf).
    const keyOwner = options.secretOf ?? userName;
    const owner = profile.users.find((u) => u.name === keyOwner);
    if (!owner) return { ok: false, reason: `the profile has no user "${keyOwner}"` };
    const user = { name: named.name, password: owner.password, secret: owner.secret };
    const headers = { ...request.headers };
    const target = new URL(request.url);
    // Whether <path> holds the query is open in §5.2: the profile's auth.signedPathIncludesQuery says.
    const path = target.pathname + (profile.auth.signedPathIncludesQuery ? target.search : '');
    switch (scheme) {
      case 'basic': {
        if (user.password === undefined)
          return { ok: false, reason: `the profile gives user "${keyOwner}" no password for Basic` };
        const password = options.passwordMutation
          ? applyPasswordMutation(user.password, options.passwordMutation)
          : user.password;
        headers['authorization'] = basicHeader(user.name, password);
        break;
      }
      case 'hmac':
      case 'hmac-nonce': {
        if (user.secret === undefined)
          return { ok: false, reason: `the profile gives user "${keyOwner}" no secret for signed requests` };
        const sign = options.signAs ?? {};
        const method = sign.method ?? request.method;
        const withBody = profile.auth.bodyHash && options.bodyHash !== false && (method === 'PUT' || method === 'POST');
        const hash = withBody ? bodyHash(sign.body ?? request.body) : undefined;
        let nonce: string | undefined;
        let date: string | undefined;
        if (scheme === 'hmac-nonce') {
          nonce = options.nonce ?? freshNonce();
          date = options.date ?? formatSpecDate(new Date(now().getTime() + (options.skew ?? 0) * 1000));
          if (!options.omitDate) headers['date'] = date;
        }
        const message = signedMessage({
          method,
          path: sign.path ?? path,
          ...(nonce !== undefined && !sign.simple
            ? { nonce: sign.nonce ?? nonce, date: options.omitDate ? '' : (sign.date ?? date ?? '') }
            : {}),
          ...(hash !== undefined ? { bodyHash: hash } : {}),
        });
        let digest = hmacDigest(user.secret, message);
        if (options.digestMutation) digest = applyDigestMutation(digest, options.digestMutation);
        headers[profile.auth.hmacHeader.toLowerCase()] = hmacHeader(user.name, digest, nonce);
        break;
      }
      default: {
        const never: never = scheme;
        return { ok: false, reason: `unknown scheme ${String(never)}` };
      }
    }
    return { ok: true, request: { ...request, headers } };
  };

  /** RFC 6750 bearer tokens, and RFC 6749 §2.3.1 client authentication at the token endpoint. */
  const oauth2 = (
    request: HttpRequest,
    scheme: 'oauth2' | 'oauth2-client',
    options: AuthOptions,
  ): ReturnType<Authenticator['apply']> => {
    const settings = profile.auth.oauth2;
    if (!settings) return { ok: false, reason: 'the profile has no auth.oauth2 settings' };
    const headers = { ...request.headers };
    if (scheme === 'oauth2') {
      if (options.token === undefined)
        return { ok: false, reason: 'oauth2 needs a token (capture access_token from the token endpoint)' };
      headers['authorization'] =
        `Bearer ${options.tokenMutation ? applyMutation(options.token, options.tokenMutation) : options.token}`;
      return { ok: true, request: { ...request, headers } };
    }
    const client = options.otherClient ? settings.otherClient : settings;
    if (!client) return { ok: false, reason: 'the profile has no auth.oauth2.otherClient' };
    // Basic unless the profile offers only form fields; form fields only where the profile declares them (RFC 6749
    // §2.3.1: servers must support Basic, and may support the NOT RECOMMENDED body parameters).
    const how = options.clientAuth ?? (settings.clientAuth.includes('basic') ? 'basic' : 'form');
    if (how === 'form' && !settings.clientAuth.includes('form'))
      return { ok: false, reason: 'the profile does not list form in auth.oauth2.clientAuth' };
    if (how !== 'form' && !settings.clientAuth.includes('basic'))
      return { ok: false, reason: 'the profile does not list basic in auth.oauth2.clientAuth' };
    const secret =
      options.clientSecret !== undefined
        ? ''
        : options.secretMutation
          ? applyPasswordMutation(client.clientSecret, options.secretMutation)
          : client.clientSecret;
    if (how === 'form') {
      const fields = `client_id=${formEncode(client.clientId)}${options.clientSecret === 'omit' ? '' : `&client_secret=${formEncode(secret)}`}`;
      const body = typeof request.body === 'string' && request.body !== '' ? `${request.body}&${fields}` : fields;
      headers['content-type'] ??= 'application/x-www-form-urlencoded';
      return { ok: true, request: { ...request, headers, body } };
    }
    headers['authorization'] =
      how === 'basic-encoded'
        ? basicHeader(percentEncodeAll(client.clientId), percentEncodeAll(secret))
        : basicHeader(formEncode(client.clientId), formEncode(secret));
    return { ok: true, request: { ...request, headers } };
  };

  /** RFC 5849 HMAC-SHA1, protocol parameters in the header (default), the query or the form body. */
  const oauth1 = (request: HttpRequest, options: AuthOptions): ReturnType<Authenticator['apply']> => {
    const settings = profile.auth.oauth1;
    if (!settings) return { ok: false, reason: 'the profile has no auth.oauth1 settings' };
    // secretOf: name the profile's consumer but sign with the secret of the consumer with that key (identity binding);
    // asConsumer: name that other consumer and sign with its own secret.
    const wanted = options.asConsumer ?? options.secretOf ?? settings.consumerKey;
    const signer = wanted === settings.consumerKey ? settings : settings.otherConsumer;
    if (!signer || signer.consumerKey !== wanted)
      return { ok: false, reason: `the profile has no OAuth 1 consumer "${wanted}" (auth.oauth1.otherConsumer)` };
    const named = options.asConsumer !== undefined ? signer.consumerKey : settings.consumerKey;
    const method = options.signatureMethod ?? 'HMAC-SHA1';
    const omit: readonly string[] = options.omitParams ?? [];
    const protocol: Array<[string, string]> = (
      [
        ['oauth_consumer_key', named],
        ['oauth_signature_method', method],
        ['oauth_timestamp', String(Math.floor(now().getTime() / 1000) + (options.skew ?? 0))],
        ['oauth_nonce', options.nonce ?? freshNonce()],
        ['oauth_version', '1.0'],
      ] as Array<[string, string]>
    ).filter(([name]) => !omit.includes(name));
    if (options.token !== undefined) protocol.push(['oauth_token', options.token]);
    if (options.verifier !== undefined) protocol.push(['oauth_verifier', options.verifier]);
    if (options.callback !== undefined) protocol.push(['oauth_callback', options.callback]);
    const isForm = /^application\/x-www-form-urlencoded/i.test([request.headers['content-type'] ?? ''].flat()[0] ?? '');
    // The base string URI's authority is the Host the request carries (RFC 5849 §3.4.1.2), which a request sent to
    // one instance of a cluster sets to the load-balanced target's.
    const host = [request.headers['host'] ?? []].flat()[0];
    const sent = host === undefined ? request.url : withHost(request.url, host);
    const signedUrl = options.signUrl !== undefined ? new URL(options.signUrl, sent).toString() : sent;
    const formBody = isForm && typeof request.body === 'string' ? request.body : '';
    const base = oauth1BaseString(options.signAs?.method ?? request.method, signedUrl, formBody, protocol);
    let signature: string;
    if (method === 'PLAINTEXT') {
      signature = oauth1Plaintext(signer.consumerSecret, options.tokenSecret ?? '');
      if (options.digestMutation) signature = mutatePlaintext(signature, options.digestMutation);
    } else {
      signature = oauth1Signature(base, signer.consumerSecret, options.tokenSecret ?? '');
      if (options.digestMutation) signature = applyDigestMutation(signature, options.digestMutation);
    }
    const all: Array<[string, string]> = [...protocol, ['oauth_signature', signature]];
    const headers = { ...request.headers };
    const encoded = all.map(([k, v]) => `${oauthEncode(k)}=${oauthEncode(v)}`).join('&');
    switch (options.placement ?? 'header') {
      case 'header':
        // RFC 5849 §3.5.1: the realm is OPTIONAL, and a server may refuse one it does not know: only a declared one.
        headers['authorization'] = oauth1Header(all, options.omitRealm ? undefined : settings.realm);
        return { ok: true, request: { ...request, headers } };
      case 'query': {
        const u = new URL(request.url);
        return {
          ok: true,
          request: { ...request, url: `${u.origin}${u.pathname}${u.search ? `${u.search}&` : '?'}${encoded}` },
        };
      }
      case 'form': {
        // RFC 5849 §3.5.2: the body only when the request's content is form-encoded, which a GET's never is (RFC
        // 9110 §9.3.1 gives GET content no meaning): a request without content gets one only where content means
        // something.
        const empty = request.body === undefined || request.body === '';
        if (empty ? BODYLESS.has(request.method.toUpperCase()) : !isForm)
          return {
            ok: false,
            reason: `OAuth 1 protocol parameters go in the body only of a request whose content is form-encoded (RFC 5849 §3.5.2); ${request.method} ${empty ? 'carries no content' : 'carries other content'}`,
          };
        headers['content-type'] ??= 'application/x-www-form-urlencoded';
        const body = typeof request.body === 'string' && request.body !== '' ? `${request.body}&${encoded}` : encoded;
        return { ok: true, request: { ...request, headers, body } };
      }
    }
  };
  return { apply, freshNonce, withProfile: (other) => createAuthenticator({ ...deps, profile: other, freshNonce }) };
}

/** Methods whose request content has no generally defined meaning (RFC 9110 §9.3): never given a form body. */
const BODYLESS = new Set(['GET', 'HEAD', 'DELETE', 'OPTIONS', 'TRACE', 'CONNECT']);

/** Nonces unique across this process and, through the clock, across earlier runs against the same target. */
function nonceCounter(): () => string {
  let counter = BigInt(Date.now()) * 1000n + BigInt(randomInt(0, 1000));
  return () => (counter++).toString();
}

/** `url` with the authority of a Host header value (host and optional port). */
function withHost(url: string, host: string): string {
  const u = new URL(url);
  return `${u.protocol}//${host}${u.pathname}${u.search}`;
}
