import { decodeBasic, passwordMatches } from '../auth/basic.js';
import { textEqual } from '../auth/compare.js';
import { REALM } from '../auth/challenge.js';
import type { FaultName } from '../faults.js';
import { parseFormText, wireBytes } from '../oauth/encoding.js';
import { TEMPORARY_TTL, TOKEN_CREDENTIALS_TTL, randomToken } from '../oauth/state.js';
import { problem } from '../responses.js';
import type { HeaderMap, RequestRecord, ResponseRecord } from '../records.js';
import type { HandlerDeps, ServerState } from '../types.js';
import { consumeNonce, credentialStoreFull, formResponse, oauth1Refusal, tlsRequired } from './responses.js';
import { verifyOAuth1 } from './verify.js';

const NO_FAULTS: ReadonlySet<FaultName> = new Set();

/**
 * `POST <temporaryEndpoint>` (RFC 5849 §2.1): signed with the client credentials and no token, with
 * `oauth_callback` (`oob` or an absolute http(s) URI). Answers `oauth_token`, `oauth_token_secret` and
 * `oauth_callback_confirmed=true`; the temporary credentials live {@link TEMPORARY_TTL} seconds. Fault:
 * `oauth1-callback-unconfirmed`.
 */
export function temporaryCredentialsEndpoint(req: RequestRecord, state: ServerState, deps: HandlerDeps): ResponseRecord {
  if (!req.secure && !deps.faults.has('oauth1-temporary-over-http')) return tlsRequired(req);
  const v = verifyOAuth1(req, state, deps, { required: ['oauth_callback'] });
  if (v.kind === 'invalid') return oauth1Refusal(req, v.status, v.reason, deps.faults);
  const callback = v.protocol.get('oauth_callback') ?? '';
  if (callback !== 'oob' && !isHttpUri(callback)) return oauth1Refusal(req, 400, 'oauth_callback must be "oob" or an absolute http(s) URI', deps.faults);
  const spent = deps.faults.has('oauth1-temporary-replay') ? undefined : consumeNonce(req, state, deps, v.nonce);
  if (spent !== undefined) return spent;
  const now = deps.now().getTime();
  const token = randomToken(deps.random);
  const secret = randomToken(deps.random);
  const stored = state.oauth1.temporary.add(token, { consumer: v.consumer.key, secret, callback }, now + TEMPORARY_TTL * 1000, now);
  if (stored.kind === 'full') return credentialStoreFull(stored.retryAfterSeconds);
  const confirmed: Array<[string, string]> = deps.faults.has('oauth1-callback-unconfirmed') ? [] : [['oauth_callback_confirmed', 'true']];
  return formResponse([['oauth_token', token], ['oauth_token_secret', secret], ...confirmed]);
}

/**
 * `GET <authorizeEndpoint>?oauth_token=…` (RFC 5849 §2.2): the resource owner authenticates with HTTP Basic (TLS)
 * and, being the consumer's user, approves at once: `200` with the out-of-band form `oauth_token=…&oauth_verifier=…`
 * (whatever the callback). 401 with a Basic challenge without valid owner credentials, 403 for another user, 400
 * for a missing, repeated, unknown, expired or already approved `oauth_token`.
 */
export function authorizeEndpoint(req: RequestRecord, state: ServerState, deps: HandlerDeps): ResponseRecord {
  if (!req.secure) return tlsRequired(req);
  const owner = resourceOwner(req, state);
  if (owner === undefined) {
    const headers: HeaderMap = deps.faults.has('no-www-authenticate') ? {} : { 'www-authenticate': `Basic realm="${REALM}", charset="UTF-8"` };
    return problem(401, `${req.path} needs the resource owner's Basic credentials`, { headers });
  }
  const tokens = (parseFormText(wireBytes(req.query)) ?? []).filter(([name]) => name === 'oauth_token');
  const [first] = tokens;
  if (first === undefined || tokens.length > 1) return problem(400, 'send oauth_token once in the query');
  const token = first[1];
  const temporary = state.oauth1.temporary.get(token, deps.now().getTime());
  if (temporary === undefined) return problem(400, 'unknown or expired temporary credentials');
  const consumer = state.oauth1.consumers.get(temporary.consumer);
  if (consumer === undefined) return problem(403, `${owner} may not authorize this client; only its user may`);
  if (consumer.user !== owner && !deps.faults.has('oauth1-authorize-any-user')) return problem(403, `${owner} may not authorize this client; only its user may`);
  if (temporary.verifier !== undefined && !deps.faults.has('oauth1-authorize-twice')) return problem(400, 'these temporary credentials are already authorized');
  temporary.verifier = randomToken(deps.random);
  temporary.user = owner;
  return formResponse([
    ['oauth_token', token],
    ['oauth_verifier', temporary.verifier],
  ]);
}

/**
 * `POST <tokenEndpoint>` (RFC 5849 §2.3): signed with the client and the authorized temporary credentials, with
 * `oauth_verifier`; answers `oauth_token` and `oauth_token_secret` (living {@link TOKEN_CREDENTIALS_TTL} seconds)
 * and forgets the temporary credentials, so they and the verifier work once. Faults: `oauth1-verifier-reusable`.
 */
export function tokenCredentialsEndpoint(req: RequestRecord, state: ServerState, deps: HandlerDeps): ResponseRecord {
  if (!req.secure && !deps.faults.has('oauth1-token-over-http')) return tlsRequired(req);
  const replayKey = deps.faults.has('oauth1-token-endpoint-replay') ? JSON.stringify([req.headers.authorization ?? '', req.query, Buffer.from(req.body).toString('latin1')]) : undefined;
  const answered = replayKey === undefined ? undefined : answeredTokenRequests(state).get(replayKey);
  if (answered !== undefined) return answered;
  const { temporary, tokens } = state.oauth1;
  const v = verifyOAuth1(req, state, deps, { tokens: temporary, required: ['oauth_verifier'] });
  if (v.kind === 'invalid') return oauth1Refusal(req, v.status, v.reason, deps.faults);
  const spent = consumeNonce(req, state, deps, v.nonce);
  if (spent !== undefined) return spent;
  const credentials = v.token?.credentials;
  const expected = credentials?.verifier;
  if (credentials?.user === undefined || expected === undefined) return oauth1Refusal(req, 401, 'the resource owner has not authorized these temporary credentials', deps.faults);
  if (!textEqual(v.protocol.get('oauth_verifier') ?? '', expected)) return oauth1Refusal(req, 401, 'wrong oauth_verifier', deps.faults);
  const now = deps.now().getTime();
  const token = randomToken(deps.random);
  const secret = randomToken(deps.random);
  const stored = tokens.add(token, { consumer: v.consumer.key, secret, user: credentials.user }, now + TOKEN_CREDENTIALS_TTL * 1000, now);
  if (stored.kind === 'full') return credentialStoreFull(stored.retryAfterSeconds);
  if (!deps.faults.has('oauth1-verifier-reusable')) temporary.delete(v.token?.key ?? '');
  const response = formResponse([
    ['oauth_token', token],
    ['oauth_token_secret', secret],
  ]);
  if (replayKey !== undefined) remember(answeredTokenRequests(state), replayKey, response);
  return response;
}

/**
 * Under `oauth1-token-endpoint-replay`: the answers of earlier token requests, by their exact bytes (at most 256),
 * per server (keyed by its consumer table, which lives as long as the server, whatever state a request sees).
 */
const ANSWERED = new WeakMap<object, Map<string, ResponseRecord>>();
const MAX_ANSWERED = 256;

function answeredTokenRequests(state: ServerState): Map<string, ResponseRecord> {
  let map = ANSWERED.get(state.oauth1.consumers);
  if (map === undefined) ANSWERED.set(state.oauth1.consumers, (map = new Map()));
  return map;
}

function remember(map: Map<string, ResponseRecord>, key: string, response: ResponseRecord): void {
  if (map.size >= MAX_ANSWERED) map.delete(map.keys().next().value as string);
  map.set(key, response);
}

/** The user whose Basic credentials (RFC 7617) the request carries, or undefined (the Basic faults do not apply). */
function resourceOwner(req: RequestRecord, state: ServerState): string | undefined {
  const value = req.headers.authorization;
  if (typeof value !== 'string' || req.headers.authentication !== undefined) return undefined;
  const credentials = decodeBasic(value);
  if (credentials === undefined) return undefined;
  const account = state.auth.users.get(credentials.user);
  return passwordMatches(credentials.password, account, NO_FAULTS) ? credentials.user : undefined;
}

function isHttpUri(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}
