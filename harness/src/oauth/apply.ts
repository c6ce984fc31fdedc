/**
 * How the harness applies OAuth credentials to a request: an RFC 6750 bearer token, RFC 6749 §2.3.1 client
 * authentication at a token endpoint, and an RFC 5849 signed request (its signature methods are in signature.ts),
 * with the knobs scenarios use to probe a target. The authenticator (auth/authenticator.ts) calls these.
 */
import type { AuthOptions } from '../auth/options.js';
import { applyDigestMutation, applyMutation, applyPasswordMutation } from '../auth/mutations.js';
import { basicHeader } from '../auth/signers.js';
import type { HttpRequest } from '../http/client.js';
import { formEncode, percentEncodeAll } from '../http/percent.js';
import type { ResolvedProfile } from '../profile/schema.js';
import {
  mutatePlaintext,
  oauth1BaseString,
  oauth1Header,
  oauth1Plaintext,
  oauth1SignWith,
  oauthEncode,
} from './signature.js';

/** A request with the credentials applied, or why they cannot be. */
export type Applied = { ok: true; request: HttpRequest } | { ok: false; reason: string };

/** What an OAuth 1 signature needs besides the request: the profile, the clock, and fresh nonces. */
export interface OAuth1Signer {
  profile: ResolvedProfile;
  now: () => Date;
  freshNonce: () => string;
}

/** RFC 6750 bearer tokens, and RFC 6749 §2.3.1 client authentication at the token endpoint. */
export function applyOAuth2(
  request: HttpRequest,
  scheme: 'oauth2' | 'oauth2-client',
  options: AuthOptions,
  profile: ResolvedProfile,
  user?: string,
): Applied {
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
  const client = options.otherClient
    ? settings.otherClient
    : options.client !== undefined
      ? settings.clients.find((c) => c.clientId === options.client)
      : settings;
  if (!client)
    return {
      ok: false,
      reason: options.otherClient
        ? 'the profile has no auth.oauth2.otherClient'
        : `the profile has no OAuth 2 client "${options.client ?? ''}"`,
    };
  if (options.grant !== undefined) {
    const made = grantParams(options, profile, user, request.url.startsWith('https:'));
    if (!made.ok) return made;
    const params = made.body;
    const body = typeof request.body === 'string' && request.body !== '' ? `${request.body}&${params}` : params;
    request = {
      ...request,
      body,
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...request.headers },
    };
    headers['content-type'] ??= 'application/x-www-form-urlencoded';
  }
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
}

/**
 * The form parameters of a token request for `options.grant` (RFC 6749 §4.3.2, §4.4.2, §6), or why it cannot be
 * made: the password grant carries the resource owner's password, so it goes over TLS only (§4.3: "the client MUST
 * discard the credentials once an access token has been obtained", and §1.6 asks for TLS).
 */
function grantParams(
  options: AuthOptions,
  profile: ResolvedProfile,
  user: string | undefined,
  secure: boolean,
): { ok: true; body: string } | { ok: false; reason: string } {
  const pairs: Array<[string, string]> = [['grant_type', options.grant ?? '']];
  if (options.grant === 'password') {
    if (!secure) return { ok: false, reason: 'the password grant sends a password: over TLS only' };
    const owner = profile.users.find((u) => u.name === user);
    if (owner?.password === undefined)
      return { ok: false, reason: `the profile gives ${user ?? 'no user'} no password for the password grant` };
    const mutated = options.passwordMutation
      ? applyPasswordMutation(owner.password, options.passwordMutation)
      : owner.password;
    // An empty parameter is an omitted one (RFC 6749 §3.1): a wrong password is never empty.
    const password = mutated === '' ? `${owner.password}x` : mutated;
    pairs.push(['username', owner.name], ['password', password]);
  } else if (options.grant === 'authorization_code') {
    if (options.code === undefined) return { ok: false, reason: 'the authorization_code grant needs a code' };
    pairs.push(['code', options.code]);
    if (options.redirectUri !== undefined) pairs.push(['redirect_uri', options.redirectUri]);
    if (options.codeVerifier !== undefined) pairs.push(['code_verifier', options.codeVerifier]);
  } else if (options.grant === 'refresh_token') {
    if (options.refreshToken === undefined)
      return { ok: false, reason: 'the refresh_token grant needs a refresh token' };
    pairs.push(['refresh_token', options.refreshToken]);
  }
  return { ok: true, body: pairs.map(([k, v]) => `${formEncode(k)}=${formEncode(v)}`).join('&') };
}

/** RFC 5849 HMAC-SHA1, protocol parameters in the header (default), the query or the form body. */
export function applyOAuth1(request: HttpRequest, options: AuthOptions, clock: OAuth1Signer): Applied {
  const { profile, now, freshNonce } = clock;
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
    signature = oauth1SignWith(method, base, signer.consumerSecret, options.tokenSecret ?? '');
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
}

/** Methods whose request content has no generally defined meaning (RFC 9110 §9.3): never given a form body. */
const BODYLESS = new Set(['GET', 'HEAD', 'DELETE', 'OPTIONS', 'TRACE', 'CONNECT']);

/** `url` with the authority of a Host header value (host and optional port). */
function withHost(url: string, host: string): string {
  const u = new URL(url);
  return `${u.protocol}//${host}${u.pathname}${u.search}`;
}
