/**
 * The client rules of §5 (no Basic and no OAuth over plain HTTP) and of the OAuth standards (RFC 5849 §3.4,
 * RFC 6749 §2.3 and §2.3.1, RFC 6750 §2.1 and §2.2), judged on one recorded request at a time.
 */
import type { RequestRecord } from '../records.js';
import type { RecordedExchange } from '../recording.js';
import { CREDENTIAL_PARAMS, bodyParams, type BodyParams } from './body-params.js';
import { first } from './hmac-rules.js';
import { JUDGED_METHODS, readOAuth1Request } from './oauth1-mistakes.js';
import type { Tally } from './verdicts.js';

const RULE_OAUTH1 = 'rfc5849-client-signature';
const RULE_BODY_TOKEN = 'rfc6750-client-body-token';

/** The client rules this module judges. */
export const OAUTH_CLIENT_RULES = [
  '5-client-tls-only',
  'rfc5849-client-signature',
  'rfc6749-client-credentials-not-in-uri',
  'rfc6749-client-one-auth-method',
  'rfc6750-client-bearer-header',
  'rfc6750-client-body-token',
] as const;

/** What the judge knows: the OAuth 2 endpoints (paths) that take client credentials, the OAuth 1 consumers. */
export interface OAuthContext {
  clientEndpoints: readonly string[];
  /** The server's listener ports: a base string URI signed with the other one is named (`port-wrong`). */
  ports: readonly number[];
  /** OAuth 1 consumer secrets by consumer key. */
  consumers: ReadonlyMap<string, string>;
}

/** OAuth 1 token secrets the server issued (read from its answers in the recording), by token. */
export type TokenSecrets = Map<string, string>;

/**
 * The parameters of a request: its query, its body as the server reads it (a form body, only when labelled
 * `application/x-www-form-urlencoded`), and its body as the judge reads it for credentials, whatever its label.
 */
interface Params {
  query: URLSearchParams;
  form: URLSearchParams;
  body: BodyParams;
}

/** Judges §5's plain-HTTP rule and the OAuth client rules on one request. */
export function judgeOAuth(ex: RecordedExchange, ctx: OAuthContext, tokens: TokenSecrets, tally: Tally): void {
  const params = paramsOf(ex);
  const authorization = first(ex.headers['authorization']);
  const scheme = authorization === undefined ? undefined : /^\s*(\S+)/.exec(authorization)?.[1]?.toLowerCase();
  const path = ex.target.replace(/\?.*$/s, '');
  const endpoint = ctx.clientEndpoints.includes(path);
  const oauth1 = scheme === 'oauth' || anywhere(params, 'oauth_signature') || anywhere(params, 'oauth_consumer_key');
  const bearerParam = anywhere(params, 'access_token');
  const credential = plainCredential(scheme, oauth1, bearerParam, params, endpoint);
  if (credential !== undefined) {
    if (ex.transport === 'http')
      tally.fail('5-client-tls-only', { seq: ex.seq, reason: `${credential} sent over plain HTTP; use TLS` });
    else tally.exercise('5-client-tls-only');
  }
  if (oauth1 && ex.transport === 'https') judgeOAuth1(ex, ctx, tokens, tally);
  learnTokenSecrets(ex, tokens);
  if (scheme === 'bearer' || bearerParam) {
    if (bearerParam) {
      const where = params.query.has('access_token') ? 'in the query' : 'in the request body';
      tally.fail('rfc6750-client-bearer-header', {
        seq: ex.seq,
        reason: `the access token is sent ${where}; send Authorization: Bearer <token>`,
      });
    } else tally.exercise('rfc6750-client-bearer-header');
  }
  if (params.body.params.has('access_token')) judgeBodyToken(ex, params.body, tally);
  if (endpoint) judgeClientAuth(ex, params, scheme, tally);
}

/** Methods whose request content has no defined semantics (RFC 9110 §9.3.1, §9.3.2, §9.3.5, §9.3.8). */
const NO_BODY_SEMANTICS = new Set(['GET', 'HEAD', 'DELETE', 'TRACE']);

/**
 * RFC 6750 §2.2: a client "MUST NOT use this method [the access token in the body] unless all of the following
 * conditions are met": a form-encoded Content-Type, a single-part body, ASCII only, and a method whose request body
 * has defined semantics ("the GET method MUST NOT be used").
 */
function judgeBodyToken(ex: RecordedExchange, body: BodyParams, tally: Tally): void {
  const unmet: string[] = [];
  if (body.mediaType !== 'application/x-www-form-urlencoded')
    unmet.push(
      `the Content-Type is ${body.mediaType === '' ? 'missing' : body.mediaType}, not application/x-www-form-urlencoded`,
    );
  if (!body.ascii) unmet.push('the body is not entirely ASCII');
  if (NO_BODY_SEMANTICS.has(ex.method.toUpperCase()))
    unmet.push(`${ex.method} is a method whose request body has no defined semantics (GET MUST NOT be used)`);
  if (unmet.length === 0) return tally.exercise(RULE_BODY_TOKEN);
  tally.fail(RULE_BODY_TOKEN, {
    seq: ex.seq,
    reason: `the access token is sent in the request body, where RFC 6750 §2.2 allows it only under conditions this request does not meet: ${unmet.join('; ')}`,
  });
}

function plainCredential(
  scheme: string | undefined,
  oauth1: boolean,
  bearerParam: boolean,
  params: Params,
  endpoint: boolean,
): string | undefined {
  if (scheme === 'basic') return endpoint ? 'OAuth 2 client credentials (HTTP Basic)' : 'Basic credentials';
  const where = (name: string) => (params.query.has(name) ? 'in the query' : whereInBody(params.body));
  if (oauth1) return 'an OAuth 1 signed request';
  if (scheme === 'bearer') return 'an OAuth 2 access token';
  if (bearerParam) return `an OAuth 2 access token (access_token ${where('access_token')})`;
  const other = CREDENTIAL_PARAMS.find((name) => anywhere(params, name));
  if (other === 'client_secret') return `an OAuth 2 client secret (client_secret ${where(other)})`;
  if (other !== undefined) return `a credential (${other} ${where(other)})`;
  return undefined;
}

function whereInBody(body: BodyParams): string {
  return `in the request body${body.mediaType === '' ? ', without a Content-Type' : `, sent as ${body.mediaType}`}`;
}

/**
 * RFC 5849 §3.4: the signature recomputed over the base string of the request as received, with the consumer secret
 * and the token secret the server issued (read from its answers); a wrong one names the common mistake that explains
 * it. A token whose secret the recording does not hold is judged by the server's own recomputation (its refusal).
 */
function judgeOAuth1(ex: RecordedExchange, ctx: OAuthContext, tokens: TokenSecrets, tally: Tally): void {
  const read = readOAuth1Request(requestOf(ex), { ports: ctx.ports });
  if (read === undefined) return;
  if (!read.ok) return tally.fail(RULE_OAUTH1, { seq: ex.seq, reason: read.reason });
  const consumer = read.protocol.get('oauth_consumer_key') ?? '';
  const consumerSecret = ctx.consumers.get(consumer);
  if (consumerSecret === undefined)
    return tally.fail(RULE_OAUTH1, { seq: ex.seq, reason: `unknown oauth_consumer_key ${JSON.stringify(consumer)}` });
  const token = read.protocol.get('oauth_token') ?? '';
  const tokenSecret = token === '' ? '' : tokens.get(token);
  if (tokenSecret === undefined) {
    if (ex.status === 401 && /wrong signature/.test(ex.detail ?? ''))
      return tally.fail(RULE_OAUTH1, {
        seq: ex.seq,
        reason: `the server's signature over the base string of the request as received does not match oauth_signature (or the token is unknown): ${ex.detail ?? ''}`,
      });
    return tally.exercise(RULE_OAUTH1);
  }
  const finding = read.explain(consumerSecret, tokenSecret);
  if (finding.kind === 'unsupported')
    return tally.notJudged(RULE_OAUTH1, {
      seq: ex.seq,
      reason: `oauth_signature_method ${JSON.stringify(finding.method)} is not one the reference server supports (${JUDGED_METHODS.join(', ')}); RFC 5849 §3.4 lets a server choose, so the signature is neither right nor wrong here`,
    });
  if (finding.kind === 'right') return tally.exercise(RULE_OAUTH1);
  if (finding.kind === 'mistake')
    return tally.fail(RULE_OAUTH1, { seq: ex.seq, reason: finding.explanation, mistake: finding.mistake });
  tally.fail(RULE_OAUTH1, {
    seq: ex.seq,
    reason:
      finding.sent === undefined
        ? 'oauth_signature matches neither the signature over the base string the server built (below) nor a common mistake: check the consumer and token secrets (key: enc(consumer secret)&enc(token secret))'
        : `oauth_signature matches neither the signature over the base string the server built nor a common mistake; rebuilt with the parameters as the request encodes them, the base string first differs at ${finding.difference ?? '?'} (both below)`,
    signed: read.base,
    ...(finding.sent === undefined ? {} : { sent: finding.sent, difference: finding.difference ?? '' }),
  });
}

/** The OAuth 1 credentials an answer issued, remembered for the signatures made with them. */
function learnTokenSecrets(ex: RecordedExchange, tokens: TokenSecrets): void {
  if (ex.formAnswer === undefined || ex.status !== 200) return;
  const answer = new URLSearchParams(ex.formAnswer);
  const token = answer.get('oauth_token');
  const secret = answer.get('oauth_token_secret');
  if (token !== null && secret !== null) tokens.set(token, secret);
}

/** The exchange as the server's request record (what its OAuth 1 parameter reader takes). */
function requestOf(ex: RecordedExchange): RequestRecord {
  const q = ex.target.indexOf('?');
  return {
    method: ex.method,
    path: q < 0 ? ex.target : ex.target.slice(0, q),
    query: q < 0 ? '' : ex.target.slice(q + 1),
    target: ex.target,
    headers: ex.headers,
    body: ex.body,
    secure: ex.transport === 'https',
  };
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
  return { query, form, body: bodyParams(ex) };
}

/** A parameter in the query or the body, whatever the body's label. */
function anywhere(params: Params, name: string): boolean {
  return params.query.has(name) || params.form.has(name) || params.body.params.has(name);
}
