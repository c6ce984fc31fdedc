import { decodeBasic, passwordMatches } from '../auth/basic.js';
import { REALM, nonceStoreFull } from '../auth/challenge.js';
import { authenticateWith } from '../auth/identity.js';
import { verifyOwnerHmac } from '../auth/verify.js';
import { DEFAULT_OAUTH1_REDIRECT_URI, isHttpUri } from '../oauth/accounts.js';
import type { OAuth1Consumer } from '../oauth/accounts.js';
import { formBody, isFormContentType, parseFormText, wireBytes } from '../oauth/encoding.js';
import { TEMPORARY_TTL, TOKEN_CREDENTIALS_TTL, randomToken } from '../oauth/state.js';
import type { TemporaryCredentials } from '../oauth/state.js';
import { headerValue } from '../request.js';
import { problem } from '../responses.js';
import type { RequestRecord, ResponseRecord } from '../records.js';
import { rulesOf } from '../rules.js';
import type { HandlerDeps, ServerState } from '../types.js';
import { consumeNonce, credentialStoreFull, formResponse, oauth1Refusal, tlsRequired } from './responses.js';
import { verifyOAuth1 } from './verify.js';

/**
 * `POST <temporaryEndpoint>` (RFC 5849 §2.1): signed with the client credentials and no token, with
 * `oauth_callback` (`oob` or an absolute http(s) URI). Answers `oauth_token`, `oauth_token_secret` and
 * `oauth_callback_confirmed=true`; the temporary credentials live {@link TEMPORARY_TTL} seconds.
 */
export function temporaryCredentialsEndpoint(
  req: RequestRecord,
  state: ServerState,
  deps: HandlerDeps,
): ResponseRecord {
  if (!req.secure && rulesOf(deps).tlsOnly.oauth1Temporary) return tlsRequired(req);
  const v = verifyOAuth1(req, state, deps, { required: ['oauth_callback'] });
  if (v.kind === 'invalid') return oauth1Refusal(req, v.status, v.reason);
  const callback = v.protocol.get('oauth_callback') ?? '';
  if (callback !== 'oob' && !isHttpUri(callback))
    return oauth1Refusal(req, 400, 'oauth_callback must be "oob" or an absolute http(s) URI');
  const spent = consumeNonce(req, state, deps, v.nonce);
  if (spent !== undefined) return spent;
  const now = deps.now().getTime();
  const token = randomToken(deps.random);
  const secret = randomToken(deps.random);
  const stored = state.oauth1.temporary.add(
    token,
    { consumer: v.consumer.key, secret, callback },
    now + TEMPORARY_TTL * 1000,
    now,
  );
  if (stored.kind === 'full') return credentialStoreFull(stored.retryAfterSeconds);
  return formResponse([
    ['oauth_token', token],
    ['oauth_token_secret', secret],
    ['oauth_callback_confirmed', 'true'],
  ]);
}

/**
 * `GET <authorizeEndpoint>?oauth_token=…` (RFC 5849 §2.2): the resource owner authenticates with HTTP Basic (TLS)
 * and, being the consumer's user, approves at once: `200` with the out-of-band form `oauth_token=…&oauth_verifier=…`
 * (whatever the callback). 401 with a Basic challenge without valid owner credentials, 403 for another user, 400
 * for a missing, repeated, unknown, expired or already approved `oauth_token`.
 *
 * Under the `oauth1-approve-post` variant the GET only shows an HTML form describing the pending request (no
 * credentials needed, nothing granted), and `POST <authorizeEndpoint>` answers it: see {@link approvalByPost}.
 * Under `oauth1-any-approver` any user may approve, and the token credentials act for that user.
 */
export function authorizeEndpoint(req: RequestRecord, state: ServerState, deps: HandlerDeps): ResponseRecord {
  if (!req.secure) return tlsRequired(req);
  if (deps.variants.has('oauth1-approve-post'))
    return req.method === 'POST' ? approvalByPost(req, state, deps) : approvalPage(req, state, deps);
  const owner = resourceOwner(req, state);
  if (owner === undefined) {
    const headers = { 'www-authenticate': `Basic realm="${REALM}", charset="UTF-8"` };
    return problem(401, `${req.path} needs the resource owner's Basic credentials`, { headers });
  }
  const pending = pendingRequest(parseFormText(wireBytes(req.query)) ?? [], 'in the query', state, deps);
  if (pending.kind === 'refused') return pending.response;
  const refused = grant(pending, owner, deps);
  if (refused !== undefined) return refused;
  return formResponse([
    ['oauth_token', pending.token],
    ['oauth_verifier', pending.temporary.verifier ?? ''],
  ]);
}

/** A pending authorization: temporary credentials not yet approved, and their consumer. */
type Pending =
  | { kind: 'pending'; token: string; temporary: TemporaryCredentials; consumer: OAuth1Consumer }
  | { kind: 'refused'; response: ResponseRecord };

/**
 * The temporary credentials `oauth_token` (once among `pairs`) names, and their consumer: 400 when it is missing,
 * repeated, unknown or expired, 403 when their consumer is no longer registered. Whether they are already approved
 * is the caller's question.
 */
function pendingRequest(
  pairs: ReadonlyArray<readonly [string, string]>,
  where: string,
  state: ServerState,
  deps: HandlerDeps,
): Pending {
  const refused = (status: number, detail: string): Pending => ({ kind: 'refused', response: problem(status, detail) });
  const tokens = pairs.filter(([name]) => name === 'oauth_token');
  const [first] = tokens;
  if (first === undefined || tokens.length > 1) return refused(400, `send oauth_token once ${where}`);
  const token = first[1];
  const temporary = state.oauth1.temporary.get(token, deps.now().getTime());
  if (temporary === undefined) return refused(400, 'unknown or expired temporary credentials');
  const consumer = state.oauth1.consumers.get(temporary.consumer);
  if (consumer === undefined) return refused(403, 'these temporary credentials belong to no registered client');
  return { kind: 'pending', token, temporary, consumer };
}

/**
 * The user the token credentials will act for if `owner` approves `pending`: `owner`, when they may answer for it
 * (the consumer's user, or anyone under `oauth1-any-approver`); undefined when they may not.
 */
function actingUser(pending: Pending & { kind: 'pending' }, owner: string, deps: HandlerDeps): string | undefined {
  return rulesOf(deps).oauth1.approval(pending.consumer.user, owner, deps.variants.has('oauth1-any-approver'));
}

/** True when `pending` was approved already and may not be again. */
function approvedAlready(pending: Pending & { kind: 'pending' }, deps: HandlerDeps): boolean {
  return pending.temporary.verifier !== undefined && rulesOf(deps).oauth1.approvesOnce;
}

/**
 * Records `owner`'s approval of `pending` (a fresh verifier), or answers why not: 403 for a user who may not approve,
 * 400 when already approved.
 */
function grant(pending: Pending & { kind: 'pending' }, owner: string, deps: HandlerDeps): ResponseRecord | undefined {
  const user = actingUser(pending, owner, deps);
  if (user === undefined) return problem(403, `${owner} may not authorize this client; only its user may`);
  if (approvedAlready(pending, deps)) return problem(400, 'these temporary credentials are already authorized');
  pending.temporary.verifier = randomToken(deps.random);
  pending.temporary.user = user;
  return undefined;
}

/** Media type of the approval page of `oauth1-approve-post`. */
export const HTML_TYPE = 'text/html; charset=utf-8';

/**
 * `GET <authorizeEndpoint>?oauth_token=…` under `oauth1-approve-post`: `200` with an HTML page describing the
 * pending request and holding the form the resource owner answers with a signed POST (`oauth_token` hidden,
 * `confirm=yes` or `confirm=no`). It needs no credentials and grants nothing; 400 for a missing, repeated, unknown,
 * expired or already approved `oauth_token`.
 */
function approvalPage(req: RequestRecord, state: ServerState, deps: HandlerDeps): ResponseRecord {
  const pending = pendingRequest(parseFormText(wireBytes(req.query)) ?? [], 'in the query', state, deps);
  if (pending.kind === 'refused') return pending.response;
  if (approvedAlready(pending, deps)) return problem(400, 'these temporary credentials are already authorized');
  const client = escapeHtml(pending.consumer.key);
  const body = [
    '<!DOCTYPE html>',
    '<html lang="en">',
    `<head><meta charset="utf-8"><title>Authorize ${client}</title></head>`,
    '<body>',
    `<h1>Authorize ${client}</h1>`,
    `<p>The client <strong>${client}</strong> asks for access to your protected resources. Answer with a POST of this form signed with your own credentials (hmac).</p>`,
    `<form method="post" action="${escapeHtml(req.path)}">`,
    `<input type="hidden" name="oauth_token" value="${escapeHtml(pending.token)}">`,
    '<button type="submit" name="confirm" value="yes">Authorize</button>',
    '<button type="submit" name="confirm" value="no">Deny</button>',
    '</form>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
  return { status: 200, headers: { 'content-type': HTML_TYPE, 'cache-control': 'no-store' }, body };
}

/** The challenge of a refused approval under `oauth1-approve-post`: the owner signs with hmac. */
const HMAC_CHALLENGE = `hmac realm="${REALM}"`;

/**
 * `POST <authorizeEndpoint>` under `oauth1-approve-post`: the resource owner's answer to the approval form. The owner
 * signs it with the §5.2 hmac scheme (simple or date-and-nonce form, verified exactly as for a resource: nonce
 * store, body hash of the form body) — Basic or any other credential is refused like wrong credentials (401 with an
 * hmac challenge; a full nonce store 503). The body is `application/x-www-form-urlencoded` (else 415) with
 * `oauth_token` once and `confirm` at most once (else 400). `confirm=yes` approves: `302 Found` to the callback given
 * with the temporary credentials, with `oauth_token` and `oauth_verifier` added to its query (for `oob`, to the
 * consumer's registered redirect URI, as Authlib does); the verifier never travels in a body. Any other `confirm`, or
 * none, denies: the temporary credentials are forgotten and the 302 carries `error=access_denied`. A user who may
 * not answer gets 403, credentials already approved 400.
 */
function approvalByPost(req: RequestRecord, state: ServerState, deps: HandlerDeps): ResponseRecord {
  const identity = authenticateWith(req, state, deps, verifyOwnerHmac(req, state, deps));
  if (identity.kind === 'unavailable') return nonceStoreFull(identity.retryAfterSeconds);
  if (identity.kind === 'anonymous') {
    const detail = `${req.method} ${req.path} needs the resource owner's signed request (hmac): ${identity.reason ?? 'none was sent'}`;
    if (identity.status === 400) return problem(400, detail);
    return problem(401, detail, { headers: { 'www-authenticate': HMAC_CHALLENGE } });
  }
  const owner = identity.user;
  if (!isFormContentType(headerValue(req, 'content-type')))
    return problem(415, 'send the approval form as application/x-www-form-urlencoded');
  const pairs = parseFormText(req.body);
  if (pairs === undefined) return problem(400, 'the approval form is not UTF-8');
  if (pairs.filter(([name]) => name === 'confirm').length > 1) return problem(400, 'send confirm at most once');
  const pending = pendingRequest(pairs, 'in the form body', state, deps);
  if (pending.kind === 'refused') return pending.response;
  const target = redirectTarget(pending);
  const confirmed = rulesOf(deps).oauth1.approves(pairs);
  if (!confirmed) {
    if (actingUser(pending, owner, deps) === undefined)
      return problem(403, `${owner} may not answer for this client; only its user may`);
    if (pending.temporary.verifier !== undefined)
      return problem(400, 'these temporary credentials are already authorized');
    rulesOf(deps).oauth1.deny(state.oauth1.temporary, pending.token, pending.temporary, owner);
    return redirect(withQuery(target, [['error', 'access_denied']]));
  }
  const refused = grant(pending, owner, deps);
  if (refused !== undefined) return refused;
  return redirect(
    withQuery(target, [
      ['oauth_token', pending.token],
      ['oauth_verifier', pending.temporary.verifier ?? ''],
    ]),
  );
}

/** Where the owner goes back to: the callback of the temporary credentials, or for `oob` the consumer's redirect URI. */
function redirectTarget(pending: Pending & { kind: 'pending' }): string {
  const { callback } = pending.temporary;
  return callback === 'oob' ? (pending.consumer.redirectUri ?? DEFAULT_OAUTH1_REDIRECT_URI) : callback;
}

/**
 * `uri` with `pairs` added to its query (before any fragment), form-encoded; characters a header field may not hold
 * as they are (spaces, controls, non-ASCII) are percent-encoded as UTF-8.
 */
export function withQuery(uri: string, pairs: ReadonlyArray<readonly [string, string]>): string {
  const safe = uri.replace(/[^\x21-\x7e]/gu, (c) => encodeURIComponent(c));
  const hash = safe.indexOf('#');
  const base = hash < 0 ? safe : safe.slice(0, hash);
  const fragment = hash < 0 ? '' : safe.slice(hash);
  const separator = !base.includes('?') ? '?' : base.endsWith('?') || base.endsWith('&') ? '' : '&';
  return `${base}${separator}${formBody(pairs)}${fragment}`;
}

function redirect(location: string): ResponseRecord {
  return { status: 302, headers: { location, 'cache-control': 'no-store', pragma: 'no-cache' } };
}

/** Text made safe inside HTML text and double- or single-quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * `POST <tokenEndpoint>` (RFC 5849 §2.3): signed with the client and the authorized temporary credentials, with
 * `oauth_verifier`; answers `oauth_token` and `oauth_token_secret` (living {@link TOKEN_CREDENTIALS_TTL} seconds)
 * and forgets the temporary credentials, so they and the verifier work once.
 */
export function tokenCredentialsEndpoint(req: RequestRecord, state: ServerState, deps: HandlerDeps): ResponseRecord {
  const rules = rulesOf(deps);
  if (!req.secure && rules.tlsOnly.oauth1Token) return tlsRequired(req);
  const { temporary, tokens } = state.oauth1;
  const v = verifyOAuth1(req, state, deps, { tokens: temporary, required: ['oauth_verifier'] });
  if (v.kind === 'invalid') return oauth1Refusal(req, v.status, v.reason);
  const spent = consumeNonce(req, state, deps, v.nonce);
  if (spent !== undefined) return spent;
  const credentials = v.token?.credentials;
  const expected = credentials?.verifier;
  if (credentials?.user === undefined || expected === undefined)
    return oauth1Refusal(req, 401, 'the resource owner has not authorized these temporary credentials');
  if (!rules.oauth1.verifierMatches(v.protocol.get('oauth_verifier') ?? '', expected))
    return oauth1Refusal(req, 401, 'wrong oauth_verifier');
  const now = deps.now().getTime();
  const token = randomToken(deps.random);
  const secret = randomToken(deps.random);
  const stored = tokens.add(
    token,
    { consumer: v.consumer.key, secret, user: credentials.user },
    now + TOKEN_CREDENTIALS_TTL * 1000,
    now,
  );
  if (stored.kind === 'full') return credentialStoreFull(stored.retryAfterSeconds);
  rules.oauth1.spendTemporary(temporary, v.token?.key ?? '');
  return formResponse([
    ['oauth_token', token],
    ['oauth_token_secret', secret],
  ]);
}

/** The user whose Basic credentials (RFC 7617) the request carries, or undefined (checked as docs/auth.md says, whatever the rules). */
function resourceOwner(req: RequestRecord, state: ServerState): string | undefined {
  const value = req.headers.authorization;
  if (typeof value !== 'string' || req.headers.authentication !== undefined) return undefined;
  const credentials = decodeBasic(value);
  if (credentials === undefined) return undefined;
  const account = state.auth.users.get(credentials.user);
  return passwordMatches(credentials.password, account) ? credentials.user : undefined;
}
