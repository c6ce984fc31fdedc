/** Helpers for OAuth tests through {@link handle}: token and revocation requests, bearer use, OAuth 1 signing. */
import { createHash } from 'node:crypto';
import { basicAuthorization } from '../src/auth/sign.js';
import { formBody, parseFormBytes, percentEncode, wireBytes } from '../src/oauth/encoding.js';
import { baseStringUri, encodeParam, signatureBaseString, signatureFor } from '../src/oauth1/base-string.js';
import { signOAuth1 } from '../src/oauth1/sign.js';
import type { OAuth1Signed } from '../src/oauth1/sign.js';
import { text } from './index.js';
import type { TestServer } from './index.js';
import type { HeaderMap, ResponseRecord } from '../src/records.js';

/** The Host header of the TLS requests these helpers send. */
export const TLS_HOST = '127.0.0.1:8443';
/** alice's records: the default client's and consumer's user. */
export const RECORDS = '/users/alice/financialrecords';
/** The form media type. */
export const FORM = 'application/x-www-form-urlencoded';
/** The default OAuth 1 consumer. */
export const CONSUMER = { key: 'conform-consumer', secret: 'consumer-secret-1' };

/** HTTP Basic client authentication as RFC 6749 §2.3.1 wants it: id and secret form-urlencoded, then base64. */
export function clientBasic(id: string, secret: string): string {
  return basicAuthorization(percentEncode(id), percentEncode(secret));
}

/** A token (or revocation) request; every field has a correct default. */
export interface TokenRequestOptions {
  path?: string;
  /** Default: `grant_type=client_credentials`. */
  body?: string;
  /** Default: Basic for `reporting` / `rep-secret`; null for none. */
  authorization?: string | null;
  /** Default: true. */
  secure?: boolean;
  /** Default: the form type; null for none. */
  contentType?: string | null;
  method?: string;
}

/** Sends a token request (POST /oauth2/token over TLS by default). */
export function tokenRequest(s: TestServer, o: TokenRequestOptions = {}): ResponseRecord {
  const headers: HeaderMap = {};
  const authorization = o.authorization === undefined ? clientBasic('reporting', 'rep-secret') : o.authorization;
  if (authorization !== null) headers.authorization = authorization;
  const contentType = o.contentType === undefined ? FORM : o.contentType;
  if (contentType !== null) headers['content-type'] = contentType;
  const body = o.body ?? 'grant_type=client_credentials';
  return s.send({
    method: o.method ?? 'POST',
    target: o.path ?? '/oauth2/token',
    body,
    headers,
    secure: o.secure ?? true,
  });
}

/** Issues an access token for the default client; throws when the server refuses. */
export function issueToken(s: TestServer, o: TokenRequestOptions = {}): string {
  const res = tokenRequest(s, o);
  if (res.status !== 200) throw new Error(`token request refused: ${res.status} ${text(res)}`);
  return (JSON.parse(text(res)) as { access_token: string }).access_token;
}

/** Revokes a token as the default client (POST /oauth2/revoke over TLS). */
export function revoke(s: TestServer, token: string, o: TokenRequestOptions = {}): ResponseRecord {
  return tokenRequest(s, { path: '/oauth2/revoke', body: `token=${encodeURIComponent(token)}`, ...o });
}

/** A request with `Authorization: Bearer <token>` (GET of alice's records over TLS by default). */
export function bearerRequest(
  s: TestServer,
  token: string,
  o: { target?: string; method?: string; secure?: boolean; body?: string } = {},
): ResponseRecord {
  const headers: HeaderMap = { authorization: `Bearer ${token}` };
  if (o.body !== undefined) headers['content-type'] = 'application/xml';
  return s.send({
    method: o.method ?? 'GET',
    target: o.target ?? RECORDS,
    headers,
    secure: o.secure ?? true,
    ...(o.body === undefined ? {} : { body: o.body }),
  });
}

/** One OAuth 1 request to sign and send; defaults: GET over TLS, the default consumer, a fresh nonce, the clock's time. */
export interface OAuth1TestRequest {
  method?: string;
  /** Raw path plus `?query`, as signed. */
  target: string;
  /** Target actually sent, when it differs from the signed one. Default: `target`. */
  sendTarget?: string;
  token?: { key: string; secret: string };
  extra?: ReadonlyArray<readonly [string, string]>;
  /** A form body (signed, sent with the form media type). */
  formBody?: string;
  /** Another body, not signed, sent with `contentType`. */
  rawBody?: { body: string; contentType: string };
  /** Where the protocol parameters travel. Default: header. */
  place?: 'header' | 'body' | 'query';
  timestamp?: number;
  nonce?: string;
  consumer?: { key: string; secret: string };
  secure?: boolean;
  /** The `realm` of the `Authorization` header. Default: none. */
  realm?: string;
}

let nonces = 0;

/** Signs (with the server's own signer) and sends an OAuth 1 request. */
export function oauth1Request(s: TestServer, r: OAuth1TestRequest): { res: ResponseRecord; signed: OAuth1Signed } {
  const method = r.method ?? 'GET';
  const consumer = r.consumer ?? CONSUMER;
  const secure = r.secure ?? true;
  const timestamp = r.timestamp ?? Math.floor(s.clock.now().getTime() / 1000);
  const signed = signOAuth1({
    method,
    url: `${secure ? 'https' : 'http'}://${TLS_HOST}${r.target}`,
    consumerKey: consumer.key,
    consumerSecret: consumer.secret,
    ...(r.token ? { token: r.token.key, tokenSecret: r.token.secret } : {}),
    nonce: r.nonce ?? `nonce-${++nonces}`,
    timestamp,
    ...(r.extra ? { extra: r.extra } : {}),
    ...(r.formBody !== undefined ? { formBody: r.formBody } : {}),
    ...(r.realm !== undefined ? { realm: r.realm } : {}),
  });
  const place = r.place ?? 'header';
  const protocol = formBody(signed.protocol);
  let target = r.sendTarget ?? r.target;
  let body = r.formBody;
  const headers: HeaderMap = { host: TLS_HOST };
  if (place === 'header') headers.authorization = signed.authorization;
  if (place === 'query') target += `${target.includes('?') ? '&' : '?'}${protocol}`;
  if (place === 'body') body = body === undefined || body === '' ? protocol : `${body}&${protocol}`;
  if (body !== undefined) headers['content-type'] = FORM;
  if (r.rawBody !== undefined) {
    body = r.rawBody.body;
    headers['content-type'] = r.rawBody.contentType;
  }
  const res = s.send({ method, target, headers, secure, ...(body === undefined ? {} : { body }) });
  return { res, signed };
}

/** The parameters of a form response body. */
export function formOf(res: ResponseRecord): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(text(res)));
}

/** The OAuth 1 three-legged flow through the server; the token credentials. Throws when a leg fails. */
export function oauth1Tokens(s: TestServer, user = 'alice'): { key: string; secret: string } {
  const leg = (res: ResponseRecord, name: string): Record<string, string> => {
    if (res.status !== 200) throw new Error(`${name} refused: ${res.status} ${text(res)}`);
    return formOf(res);
  };
  const temporary = leg(
    oauth1Request(s, { method: 'POST', target: '/oauth1/request_token', extra: [['oauth_callback', 'oob']] }).res,
    'request_token',
  );
  const approval = leg(
    s.send({
      method: 'GET',
      target: `/oauth1/authorize?oauth_token=${temporary.oauth_token ?? ''}`,
      headers: s.basic(user),
      secure: true,
    }),
    'authorize',
  );
  const token = { key: temporary.oauth_token ?? '', secret: temporary.oauth_token_secret ?? '' };
  const credentials = leg(
    oauth1Request(s, {
      method: 'POST',
      target: '/oauth1/access_token',
      token,
      extra: [['oauth_verifier', approval.oauth_verifier ?? '']],
    }).res,
    'access_token',
  );
  return { key: credentials.oauth_token ?? '', secret: credentials.oauth_token_secret ?? '' };
}

/**
 * A GET over TLS with protocol parameters built by hand, for what {@link signOAuth1} never produces: `omit` drops
 * parameters before signing (HMAC-SHA1), `plaintext` sends the PLAINTEXT method with that `oauth_signature`.
 */
export function oauth1Raw(
  s: TestServer,
  r: {
    target: string;
    token: { key: string; secret: string };
    omit?: readonly string[];
    plaintext?: string;
    consumer?: { key: string; secret: string };
    /** An HMAC method: HMAC-SHA1 (default) or HMAC-SHA256. */
    method?: 'HMAC-SHA1' | 'HMAC-SHA256';
  },
): ResponseRecord {
  const consumer = r.consumer ?? CONSUMER;
  const all: Array<[string, string]> = [
    ['oauth_consumer_key', consumer.key],
    ['oauth_token', r.token.key],
    ['oauth_signature_method', r.plaintext === undefined ? (r.method ?? 'HMAC-SHA1') : 'PLAINTEXT'],
    ['oauth_timestamp', String(Math.floor(s.clock.now().getTime() / 1000))],
    ['oauth_nonce', `raw-nonce-${++nonces}`],
    ['oauth_version', '1.0'],
  ];
  const protocol = all.filter(([name]) => !(r.omit ?? []).includes(name));
  const uri = baseStringUri('https', TLS_HOST, r.target.replace(/\?.*$/, '')) ?? '';
  const query = /\?(.*)$/.exec(r.target)?.[1] ?? '';
  const params = [
    ...parseFormBytes(wireBytes(query)).map((p) => encodeParam(p.name, p.value)),
    ...protocol.map(([n, v]) => encodeParam(n, v)),
  ];
  const signature =
    r.plaintext ??
    signatureFor(r.method ?? 'HMAC-SHA1', signatureBaseString('GET', uri, params), consumer.secret, r.token.secret)!;
  const authorization = `OAuth ${[...protocol, ['oauth_signature', signature]].map(([n, v]) => `${percentEncode(n!)}="${percentEncode(v!)}"`).join(', ')}`;
  return s.send({ method: 'GET', target: r.target, headers: { host: TLS_HOST, authorization }, secure: true });
}

/** The redirect URI every OAuth 2 client registers by default. */
export const REDIRECT_URI = 'https://client.example/oauth2/callback';
/** A PKCE verifier (43 unreserved characters) and its S256 challenge. */
export const PKCE = {
  verifier: 'conform-pkce-verifier-0123456789abcdefghijk',
  challenge: createHash('sha256').update('conform-pkce-verifier-0123456789abcdefghijk').digest('base64url'),
};

/**
 * An authorization request (GET /oauth2/authorize over TLS) for `reporting`, approved by `user` with Basic: the
 * answer, and the code its Location carries (empty when none).
 */
export function authorizeCode(
  s: TestServer,
  o: { user?: string; query?: string } = {},
): { res: ResponseRecord; code: string } {
  const query =
    o.query ??
    `response_type=code&client_id=reporting&redirect_uri=${encodeURIComponent(REDIRECT_URI)}&state=st&code_challenge=${PKCE.challenge}&code_challenge_method=S256`;
  const res = s.send({
    method: 'GET',
    target: `/oauth2/authorize?${query}`,
    headers: s.basic(o.user ?? 'alice'),
    secure: true,
  });
  const location = String(res.headers.location ?? '');
  const code = new URLSearchParams(location.split('?')[1] ?? '').get('code') ?? '';
  return { res, code };
}

/** Exchanges a code (POST /oauth2/token as `reporting`): the redirect URI and verifier default to the right ones. */
export function exchangeCode(
  s: TestServer,
  code: string,
  o: { redirectUri?: string | null; verifier?: string } = {},
): ResponseRecord {
  const redirect = o.redirectUri === undefined ? REDIRECT_URI : o.redirectUri;
  const body = `grant_type=authorization_code&code=${encodeURIComponent(code)}${redirect === null ? '' : `&redirect_uri=${encodeURIComponent(redirect)}`}&code_verifier=${o.verifier ?? PKCE.verifier}`;
  return tokenRequest(s, { body });
}
