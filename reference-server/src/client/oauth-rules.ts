/**
 * The client rules of §5 (no Basic and no OAuth over plain HTTP) and of the OAuth standards (RFC 5849 §3.4,
 * RFC 6749 §2.3 and §2.3.1, RFC 6750 §2.1), judged on one recorded request at a time.
 */
import type { RecordedExchange } from '../recording.js';
import { first } from './hmac-rules.js';
import type { Tally } from './verdicts.js';

/** The client rules this module judges. */
export const OAUTH_CLIENT_RULES = [
  '5-client-tls-only',
  'rfc5849-client-signature',
  'rfc6749-client-credentials-not-in-uri',
  'rfc6749-client-one-auth-method',
  'rfc6750-client-bearer-header',
] as const;

/** What the judge knows of the server's OAuth 2 endpoints (paths without query) that take client credentials. */
export interface OAuthContext {
  clientEndpoints: readonly string[];
}

/** The parameters of a request's query and of its form body. */
interface Params {
  query: URLSearchParams;
  form: URLSearchParams;
}

/** Judges §5's plain-HTTP rule and the OAuth client rules on one request. */
export function judgeOAuth(ex: RecordedExchange, ctx: OAuthContext, tally: Tally): void {
  const params = paramsOf(ex);
  const authorization = first(ex.headers['authorization']);
  const scheme = authorization === undefined ? undefined : /^\s*(\S+)/.exec(authorization)?.[1]?.toLowerCase();
  const path = ex.target.replace(/\?.*$/s, '');
  const endpoint = ctx.clientEndpoints.includes(path);
  const oauth1 = scheme === 'oauth' || has(params, 'oauth_signature') || has(params, 'oauth_consumer_key');
  const bearerParam = has(params, 'access_token');
  const clientSecret = has(params, 'client_secret');
  const credential = plainCredential(scheme, oauth1, bearerParam, clientSecret, endpoint);
  if (credential !== undefined) {
    if (ex.transport === 'http')
      tally.fail('5-client-tls-only', { seq: ex.seq, reason: `${credential} sent over plain HTTP; use TLS` });
    else tally.exercise('5-client-tls-only');
  }
  if (oauth1 && ex.transport === 'https') judgeOAuth1(ex, tally);
  if (scheme === 'bearer' || bearerParam) {
    if (bearerParam) {
      const where = params.query.has('access_token') ? 'in the query' : 'as a form parameter';
      tally.fail('rfc6750-client-bearer-header', {
        seq: ex.seq,
        reason: `the access token is sent ${where}; send Authorization: Bearer <token>`,
      });
    } else tally.exercise('rfc6750-client-bearer-header');
  }
  if (endpoint) judgeClientAuth(ex, params, scheme, tally);
}

function plainCredential(
  scheme: string | undefined,
  oauth1: boolean,
  bearerParam: boolean,
  clientSecret: boolean,
  endpoint: boolean,
): string | undefined {
  if (scheme === 'basic') return endpoint ? 'OAuth 2 client credentials (HTTP Basic)' : 'Basic credentials';
  if (oauth1) return 'an OAuth 1 signed request';
  if (scheme === 'bearer' || bearerParam) return 'an OAuth 2 access token';
  if (clientSecret) return 'an OAuth 2 client secret';
  return undefined;
}

/** RFC 5849 §3.4: judged by the server's own recomputation (it knows the token secrets it issued). */
function judgeOAuth1(ex: RecordedExchange, tally: Tally): void {
  if (ex.status === 401 && /wrong signature/.test(ex.detail ?? '')) {
    tally.fail('rfc5849-client-signature', {
      seq: ex.seq,
      reason: `the server's signature over the base string of the request as received does not match oauth_signature (or the consumer or token is unknown): ${ex.detail ?? ''}`,
    });
  } else tally.exercise('rfc5849-client-signature');
}

/** RFC 6749 §2.3 and §2.3.1 at an endpoint that authenticates the client. */
function judgeClientAuth(ex: RecordedExchange, params: Params, scheme: string | undefined, tally: Tally): void {
  const inUri = ['client_id', 'client_secret'].filter((n) => params.query.has(n));
  if (inUri.length > 0) {
    tally.fail('rfc6749-client-credentials-not-in-uri', {
      seq: ex.seq,
      reason: `${inUri.join(' and ')} in the request URI; send them in the form body, or use HTTP Basic`,
    });
  } else tally.exercise('rfc6749-client-credentials-not-in-uri');
  if (scheme === 'basic' && (params.form.has('client_secret') || params.query.has('client_secret'))) {
    tally.fail('rfc6749-client-one-auth-method', {
      seq: ex.seq,
      reason: 'HTTP Basic client authentication and a client_secret parameter in one request; use one method',
    });
  } else tally.exercise('rfc6749-client-one-auth-method');
}

function paramsOf(ex: RecordedExchange): Params {
  const question = ex.target.indexOf('?');
  const query = new URLSearchParams(question >= 0 ? ex.target.slice(question + 1) : '');
  const type = first(ex.headers['content-type']) ?? '';
  const form = /^application\/x-www-form-urlencoded\b/i.test(type)
    ? new URLSearchParams(Buffer.from(ex.body).toString('utf8'))
    : new URLSearchParams();
  return { query, form };
}

function has(params: Params, name: string): boolean {
  return params.query.has(name) || params.form.has(name);
}
