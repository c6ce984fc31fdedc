import { OAUTH1_CHALLENGE } from '../auth/challenge.js';
import type { PendingNonce } from '../auth/verification.js';
import { windowSeconds } from '../auth/window.js';
import type { OAuth1Consumer } from '../oauth/accounts.js';
import { percentEncode } from '../oauth/encoding.js';
import type { CredentialStore } from '../store/interfaces.js';
import { headerValue } from '../request.js';
import type { RequestRecord } from '../records.js';
import { rulesOf } from '../rules.js';
import type { HandlerDeps, ServerState } from '../types.js';
import { baseStringUri } from './base-string.js';
import { readOAuth1Params } from './params.js';
import type { OAuth1Rules } from './rules.js';

/** Credentials an `oauth_token` names: bound to a consumer, with the secret that completes the signing key. */
export interface TokenSecret {
  consumer: string;
  secret: string;
}

/** What {@link verifyOAuth1} expects of a request. */
export interface OAuth1Expectation<T extends TokenSecret> {
  /** Where `oauth_token` is looked up; absent for the temporary credential request, which has no token. */
  tokens?: Pick<CredentialStore<T>, 'get'>;
  /** The token is accepted with any registered consumer, not only its own. Default: false. */
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
      /** The nonce to spend (absent only where the rules check none). */
      nonce?: PendingNonce;
    }
  /** 400 for a malformed request, 401 for wrong or unknown credentials, a stale timestamp. */
  | { kind: 'invalid'; status: 400 | 401; reason: string };

const TIMESTAMP = /^[0-9]{1,12}$/;
const DUMMY = '\u0000 no such credential';
/** The one realm the server takes under the `oauth1-realm-configured` variant (and none). */
export const CONFIGURED_REALM = 'photos';
/** The signature methods the `oauth1-methods-extra` variant takes beside HMAC-SHA1. */
export const EXTRA_METHODS = ['HMAC-SHA256', 'PLAINTEXT'] as const;
/** Scope prefix of OAuth 1 nonces in the shared store; user names cannot contain a colon, so scopes never collide. */
export const OAUTH1_NONCE_SCOPE = 'oauth1:';

/**
 * Verifies an OAuth 1.0a request (RFC 5849 §3.2) without touching the nonce store: protocol parameters present
 * once each (400 otherwise), `HMAC-SHA1` only and `oauth_version` 1.0 when sent (400), `oauth_timestamp` within
 * the §5.2 window (401), then the signature over the base string of the request as received, compared in constant
 * time, with a dummy secret for an unknown consumer or token so the work is the same (401). The caller checks TLS.
 * Under the `oauth1-header-only` variant the protocol parameters are read from the `Authorization` header only.
 */
export function verifyOAuth1<T extends TokenSecret>(
  req: RequestRecord,
  state: ServerState,
  deps: HandlerDeps,
  expect: OAuth1Expectation<T>,
): OAuth1Verification<T> {
  const rules = rulesOf(deps).oauth1;
  const read = readOAuth1Params(req, {
    ignoreQuery: !rules.readsQuery,
    queryProtocolOnly: !rules.signsQueryBesideProtocol,
    headerOnly: deps.variants.has('oauth1-header-only'),
  });
  if (!read.ok) return malformed(read.reason);
  const { protocol } = read.params;
  // Under `oauth1-methods-extra` PLAINTEXT (§3.4.4) and HMAC-SHA256 are taken beside HMAC-SHA1.
  const methods = deps.variants.has('oauth1-methods-extra')
    ? [...new Set([...rules.signatureMethods, ...EXTRA_METHODS])]
    : rules.signatureMethods;
  const problem = checkProtocol(protocol, expect, { ...rules, signatureMethods: methods });
  if (problem !== undefined) return malformed(problem);
  const configured = deps.variants.has('oauth1-realm-configured') ? CONFIGURED_REALM : undefined;
  if (!rules.realmAccepted(read.params.realm, configured))
    return refused(
      read.params.realm === undefined
        ? 'the Authorization header names no realm'
        : `the realm ${JSON.stringify(read.params.realm)} is not this server's`,
    );
  const now = deps.now().getTime();
  const seconds = Number(protocol.get('oauth_timestamp'));
  const window = windowSeconds(state, deps.variants);
  if (!rules.withinWindow(seconds * 1000, now, window)) {
    return refused(`oauth_timestamp is more than ${window} s away from the server's clock`);
  }
  const uri = baseStringUri(req.secure ? 'https' : 'http', rules.baseHost(headerValue(req, 'host') ?? ''), req.path);
  if (uri === undefined) return malformed('the request needs a Host header naming host[:port]');
  const consumerKey = protocol.get('oauth_consumer_key') ?? '';
  const consumer = state.oauth1.consumers.get(consumerKey);
  const tokenKey = protocol.get('oauth_token') ?? '';
  const found = expect.tokens?.get(tokenKey, now);
  const credentials =
    found !== undefined && (found.consumer === consumerKey || expect.unbound === true) ? found : undefined;
  const tokenSecret = expect.tokens === undefined ? '' : (credentials?.secret ?? DUMMY);
  const temporary = expect.tokens === undefined;
  const check = {
    method: req.method,
    uri,
    params: read.params,
    consumerSecret: consumer?.secret ?? DUMMY,
    consumers: state.oauth1.consumers,
    tokenSecret,
    temporary,
  };
  if (!rules.signatureVerifies(check)) return refused('unknown credentials or wrong signature');
  if (consumer === undefined || (expect.tokens !== undefined && credentials === undefined))
    return refused('unknown credentials or wrong signature');
  const token = credentials === undefined ? {} : { token: { key: tokenKey, credentials } };
  const nonce = rules.nonce(
    {
      scope: `${OAUTH1_NONCE_SCOPE}${percentEncode(consumerKey)}`,
      key: `${percentEncode(tokenKey)}&${percentEncode(protocol.get('oauth_nonce') ?? '')}&${seconds}`,
      expiresAt: Math.max(seconds * 1000, now) + window * 1000,
      replay: {
        reason: 'this oauth_nonce was already used with this timestamp and these credentials',
        challenge: OAUTH1_CHALLENGE,
      },
    },
    temporary,
  );
  return { kind: 'valid', consumer, protocol, ...token, ...(nonce === undefined ? {} : { nonce }) };
}

function checkProtocol(
  protocol: ReadonlyMap<string, string>,
  expect: OAuth1Expectation<TokenSecret>,
  rules: OAuth1Rules,
): string | undefined {
  const required = [
    ...rules.required,
    ...(expect.tokens === undefined ? [] : ['oauth_token']),
    ...(expect.required ?? []),
  ];
  for (const name of required) if (!protocol.has(name)) return `the protocol parameter ${name} is missing`;
  if (expect.tokens === undefined && (protocol.get('oauth_token') ?? '') !== '')
    return 'the temporary credential request carries no oauth_token';
  const method = protocol.get('oauth_signature_method');
  if (!rules.signatureMethods.includes(method ?? ''))
    return `oauth_signature_method ${JSON.stringify(method)} is not supported; use ${rules.signatureMethods.join(' or ')}`;
  const version = protocol.get('oauth_version');
  if (version !== undefined && version !== '1.0')
    return `oauth_version must be 1.0 when sent, not ${JSON.stringify(version)}`;
  if (!TIMESTAMP.test(protocol.get('oauth_timestamp') ?? ''))
    return 'oauth_timestamp must be a whole number of seconds since 1970';
  return undefined;
}

function malformed(reason: string): OAuth1Verification<never> {
  return { kind: 'invalid', status: 400, reason };
}

function refused(reason: string): OAuth1Verification<never> {
  return { kind: 'invalid', status: 401, reason };
}
