import { OAUTH1_CHALLENGE } from '../auth/challenge.js';
import { textEqual } from '../auth/compare.js';
import type { PendingNonce } from '../auth/verification.js';
import { windowSeconds, withinWindow } from '../auth/window.js';
import type { FaultName } from '../faults.js';
import type { OAuth1Consumer } from '../oauth/accounts.js';
import { percentEncode } from '../oauth/encoding.js';
import type { CredentialStore } from '../store/interfaces.js';
import { headerValue } from '../request.js';
import type { RequestRecord } from '../records.js';
import type { HandlerDeps, ServerState } from '../types.js';
import { baseStringUri, hmacSha1Signature, signatureBaseString } from './base-string.js';
import { readOAuth1Params } from './params.js';
import type { OAuth1Params } from './params.js';

/** Credentials an `oauth_token` names: bound to a consumer, with the secret that completes the signing key. */
export interface TokenSecret {
  consumer: string;
  secret: string;
}

/** What {@link verifyOAuth1} expects of a request. */
export interface OAuth1Expectation<T extends TokenSecret> {
  /** Where `oauth_token` is looked up; absent for the temporary credential request, which has no token. */
  tokens?: Pick<CredentialStore<T>, 'get'>;
  /** The token is accepted with any registered consumer, not only its own (the `oauth1-token-any-consumer` fault). */
  unbound?: boolean;
  /** Protocol parameters required beyond the consumer key, signature method, signature, timestamp and nonce. */
  required?: readonly string[];
}

/** Outcome of {@link verifyOAuth1}; `valid` still needs its nonce consumed. */
export type OAuth1Verification<T> =
  | {
      kind: 'valid';
      consumer: OAuth1Consumer;
      protocol: ReadonlyMap<string, string>;
      token?: { key: string; credentials: T };
      /** Absent only under the `oauth1-nonce-unchecked` fault. */
      nonce?: PendingNonce;
    }
  /** 400 for a malformed request, 401 for wrong or unknown credentials, a stale timestamp. */
  | { kind: 'invalid'; status: 400 | 401; reason: string };

const ALWAYS = ['oauth_consumer_key', 'oauth_signature_method', 'oauth_signature', 'oauth_timestamp', 'oauth_nonce'];
const TIMESTAMP = /^[0-9]{1,12}$/;
const NO_FAULTS: ReadonlySet<FaultName> = new Set();
const DUMMY = '\u0000 no such credential';
/** Scope prefix of OAuth 1 nonces in the shared store; user names cannot contain a colon, so scopes never collide. */
export const OAUTH1_NONCE_SCOPE = 'oauth1:';

/**
 * Verifies an OAuth 1.0a request (RFC 5849 §3.2) without touching the nonce store: protocol parameters present
 * once each (400 otherwise), `HMAC-SHA1` only and `oauth_version` 1.0 when sent (400), `oauth_timestamp` within
 * the §5.2 window (401), then the signature over the base string of the request as received, compared in constant
 * time, with a dummy secret for an unknown consumer or token so the work is the same (401). The caller checks TLS.
 * Faults: `oauth1-ignores-query`, `oauth1-timestamp-unchecked`, `oauth1-nonce-unchecked`, `oauth1-token-secret-ignored`,
 * `oauth1-base-uri-no-port`, `oauth1-any-consumer-secret`, `oauth1-plaintext-unverified`, `oauth1-nonce-optional`,
 * `oauth1-temporary-unsigned`. Under the `oauth1-header-only` variant the protocol parameters are read from the
 * `Authorization` header only.
 */
export function verifyOAuth1<T extends TokenSecret>(req: RequestRecord, state: ServerState, deps: HandlerDeps, expect: OAuth1Expectation<T>): OAuth1Verification<T> {
  const { faults } = deps;
  const read = readOAuth1Params(req, { ignoreQuery: faults.has('oauth1-ignores-query'), headerOnly: deps.variants.has('oauth1-header-only') });
  if (!read.ok) return malformed(read.reason);
  const { protocol } = read.params;
  const problem = checkProtocol(protocol, expect, faults);
  if (problem !== undefined) return malformed(problem);
  const now = deps.now().getTime();
  const seconds = Number(protocol.get('oauth_timestamp'));
  const window = windowSeconds(state, deps.variants);
  if (!faults.has('oauth1-timestamp-unchecked') && !withinWindow(seconds * 1000, now, window, NO_FAULTS)) {
    return refused(`oauth_timestamp is more than ${window} s away from the server's clock`);
  }
  const host = headerValue(req, 'host') ?? '';
  const uri = baseStringUri(req.secure ? 'https' : 'http', faults.has('oauth1-base-uri-no-port') ? host.replace(/:[0-9]*$/, '') : host, req.path);
  if (uri === undefined) return malformed('the request needs a Host header naming host[:port]');
  const consumerKey = protocol.get('oauth_consumer_key') ?? '';
  const consumer = state.oauth1.consumers.get(consumerKey);
  const tokenKey = protocol.get('oauth_token') ?? '';
  const found = expect.tokens?.get(tokenKey, now);
  const credentials = found !== undefined && (found.consumer === consumerKey || expect.unbound === true) ? found : undefined;
  const tokenSecret = expect.tokens === undefined ? '' : (credentials?.secret ?? DUMMY);
  // The oauth1-any-consumer-secret fault: every consumer's secret is tried, not only the named consumer's.
  const secrets = faults.has('oauth1-any-consumer-secret') ? [...state.oauth1.consumers.values()].map((c) => c.secret) : [consumer?.secret ?? DUMMY];
  // The oauth1-temporary-unsigned fault: the temporary-credential request (the one without a token) is not checked.
  const unsigned = faults.has('oauth1-temporary-unsigned') && expect.tokens === undefined;
  if (!unsigned && !secrets.some((secret) => signatureMatches(req.method, uri, read.params, secret, tokenSecret, faults))) return refused('unknown credentials or wrong signature');
  if (consumer === undefined || (expect.tokens !== undefined && credentials === undefined)) return refused('unknown credentials or wrong signature');
  const token = credentials === undefined ? {} : { token: { key: tokenKey, credentials } };
  if (faults.has('oauth1-nonce-unchecked')) return { kind: 'valid', consumer, protocol, ...token };
  const nonce: PendingNonce = {
    scope: `${OAUTH1_NONCE_SCOPE}${percentEncode(consumerKey)}`,
    key: `${percentEncode(tokenKey)}&${percentEncode(protocol.get('oauth_nonce') ?? '')}&${seconds}`,
    expiresAt: Math.max(seconds * 1000, now) + window * 1000,
    replay: { reason: 'this oauth_nonce was already used with this timestamp and these credentials', challenge: OAUTH1_CHALLENGE },
  };
  return { kind: 'valid', consumer, protocol, ...token, nonce };
}

function checkProtocol(protocol: ReadonlyMap<string, string>, expect: OAuth1Expectation<TokenSecret>, faults: ReadonlySet<FaultName>): string | undefined {
  const always = faults.has('oauth1-nonce-optional') ? ALWAYS.filter((name) => name !== 'oauth_nonce') : ALWAYS;
  const required = [...always, ...(expect.tokens === undefined ? [] : ['oauth_token']), ...(expect.required ?? [])];
  for (const name of required) if (!protocol.has(name)) return `the protocol parameter ${name} is missing`;
  if (expect.tokens === undefined && (protocol.get('oauth_token') ?? '') !== '') return 'the temporary credential request carries no oauth_token';
  const method = protocol.get('oauth_signature_method');
  if (method !== 'HMAC-SHA1' && !(method === 'PLAINTEXT' && faults.has('oauth1-plaintext-unverified'))) return `oauth_signature_method ${JSON.stringify(method)} is not supported; use HMAC-SHA1`;
  const version = protocol.get('oauth_version');
  if (version !== undefined && version !== '1.0') return `oauth_version must be 1.0 when sent, not ${JSON.stringify(version)}`;
  if (!TIMESTAMP.test(protocol.get('oauth_timestamp') ?? '')) return 'oauth_timestamp must be a whole number of seconds since 1970';
  return undefined;
}

function signatureMatches(method: string, uri: string, params: OAuth1Params, consumerSecret: string, tokenSecret: string, faults: ReadonlySet<FaultName>): boolean {
  const base = signatureBaseString(method, uri, params.signed);
  const given = params.protocol.get('oauth_signature') ?? '';
  // The oauth1-plaintext-unverified fault: a PLAINTEXT "signature" is never compared with the secrets.
  if (params.protocol.get('oauth_signature_method') === 'PLAINTEXT') return faults.has('oauth1-plaintext-unverified');
  let match = textEqual(given, hmacSha1Signature(base, consumerSecret, tokenSecret));
  if (faults.has('oauth1-token-secret-ignored')) match = textEqual(given, hmacSha1Signature(base, consumerSecret, '')) || match;
  return match;
}

function malformed(reason: string): OAuth1Verification<never> {
  return { kind: 'invalid', status: 400, reason };
}

function refused(reason: string): OAuth1Verification<never> {
  return { kind: 'invalid', status: 401, reason };
}
