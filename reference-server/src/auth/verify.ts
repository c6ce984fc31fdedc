import type { RequestRecord } from '../records.js';
import { rulesOf } from '../rules.js';
import type { HandlerDeps, ServerState } from '../types.js';
import { decodeBasic } from './basic.js';
import { decodedEqual, textEqual } from './compare.js';
import { parseLenientDate, parseSignedDate } from './date.js';
import { int64Nonce } from './hmac.js';
import type { HmacCredentials } from './hmac.js';
import { hmacDigest } from './message.js';
import type { UserAccount } from './users.js';
import { windowSeconds } from './window.js';
import { verifyBearer } from '../oauth2/bearer.js';
import { carriesOAuth1Params } from '../oauth1/params.js';
import { verifyOAuth1Resource } from '../oauth1/resource.js';
import type { Verification } from './verification.js';

/** Header carrying `hmac …` credentials (docs/auth.md), lowercased as in {@link RequestRecord.headers}. */
export const HMAC_HEADER = 'authentication';
/** Header carrying Basic credentials (and `Bearer` tokens, and `OAuth` 1 protocol parameters). */
export const BASIC_HEADER = 'authorization';

/**
 * Checks the credentials a request carries, without touching the nonce store: none, invalid (with a reason
 * for the problem detail) or valid (with the nonce to consume, for the date-and-nonce form and OAuth 1).
 * `Authorization` carries Basic, `Bearer` (OAuth 2) or `OAuth` (OAuth 1) credentials, `Authentication` the hmac
 * ones; OAuth 1 protocol parameters may also come in the query or a form body. Two credentials at once are
 * invalid; Basic, Bearer and OAuth 1 over plain HTTP are refused without being checked.
 */
export function verifyCredentials(req: RequestRecord, state: ServerState, deps: HandlerDeps): Verification {
  const hmac = oneLine(req.headers[HMAC_HEADER], deps);
  const authorization = oneLine(req.headers[BASIC_HEADER], deps);
  const refused = refusedByVariant(req, deps);
  if (refused !== undefined) return invalid(refused);
  if (hmac === undefined && authorization === undefined) {
    return carriesOAuth1Params(req, deps.variants.has('oauth1-header-only'))
      ? verifyOAuth1Resource(req, state, deps)
      : { kind: 'none' };
  }
  if (hmac !== undefined && authorization !== undefined && rulesOf(deps).auth.oneCredential)
    return invalid('send one credential: Authorization or Authentication, not both');
  if (Array.isArray(hmac) || Array.isArray(authorization)) return invalid('send one credential header, once');
  if (authorization !== undefined) return verifyAuthorization(authorization, req, state, deps);
  return verifyHmac(hmac ?? '', req, state, deps);
}

/** A credential field as the rules read it: a field sent once is its value; one sent more often stays all its lines. */
function oneLine(value: string | string[] | undefined, deps: HandlerDeps): string | string[] | undefined {
  return Array.isArray(value) ? rulesOf(deps).auth.oneLine(value) : value;
}

/**
 * The variants `basic-only` and `oauth-only` offer fewer schemes for resource access: credentials of another scheme
 * are refused like wrong ones. (The OAuth 1 authorize endpoint checks the owner's Basic credentials on its own.)
 */
function refusedByVariant(req: RequestRecord, deps: HandlerDeps): string | undefined {
  const basicOnly = deps.variants.has('basic-only');
  const oauthOnly = deps.variants.has('oauth-only');
  if (!basicOnly && !oauthOnly) return undefined;
  const offered = basicOnly
    ? 'this server accepts Basic (over TLS) only'
    : 'this server accepts OAuth 2 bearer tokens and OAuth 1 (over TLS) only';
  if (req.headers[HMAC_HEADER] !== undefined) return offered;
  const authorization = req.headers[BASIC_HEADER];
  const scheme =
    typeof authorization === 'string' ? /^(\S+)/.exec(authorization.trim())?.[1]?.toLowerCase() : undefined;
  if (
    basicOnly &&
    (scheme === 'bearer' ||
      scheme === 'oauth' ||
      (authorization === undefined && carriesOAuth1Params(req, deps.variants.has('oauth1-header-only'))))
  )
    return offered;
  if (oauthOnly && scheme !== undefined && scheme !== 'bearer' && scheme !== 'oauth') return offered;
  return undefined;
}

function verifyAuthorization(value: string, req: RequestRecord, state: ServerState, deps: HandlerDeps): Verification {
  const scheme = /^(\S+)/.exec(value.trim())?.[1]?.toLowerCase();
  if (scheme === 'bearer') return verifyBearer(value, req, state, deps);
  if (scheme === 'oauth') return verifyOAuth1Resource(req, state, deps);
  return verifyBasic(value, req, state, deps);
}

function verifyBasic(value: string, req: RequestRecord, state: ServerState, deps: HandlerDeps): Verification {
  const rules = rulesOf(deps);
  if (!/^basic(?: |$)/i.test(value.trim()))
    return invalid('the Authorization scheme is not supported; use Basic, Bearer or OAuth (over TLS) or hmac');
  if (!req.secure && rules.tlsOnly.basic)
    return invalid('Basic authentication is refused over plain HTTP; use TLS or hmac');
  const credentials = decodeBasic(value, rules.auth.basicSplit === 'last');
  if (credentials === undefined) return invalid('the Basic credential is not base64 of UTF-8 "<user>:<password>"');
  const { users } = state.auth;
  if (!rules.auth.passwordMatches(credentials.password, rules.auth.account(users, credentials.user), users))
    return invalid('unknown user or wrong password');
  return { kind: 'valid', user: credentials.user };
}

/**
 * The request's hmac credentials (simple or date-and-nonce form, body hash rules included) checked exactly as for a
 * resource, whatever the scheme variants offer for resource access; any other credential, or none, is refused
 * (`invalid`). For the OAuth 1 authorize endpoint under the `oauth1-approve-post` variant, where the resource owner
 * signs the approval. The nonce is still to be consumed.
 */
export function verifyOwnerHmac(req: RequestRecord, state: ServerState, deps: HandlerDeps): Verification {
  const hmac = oneLine(req.headers[HMAC_HEADER], deps);
  if (req.headers[BASIC_HEADER] !== undefined)
    return invalid('the resource owner approves with a signed request (hmac), not with the Authorization header');
  if (hmac === undefined) return invalid('the resource owner must sign the approval (Authentication: hmac …)');
  if (Array.isArray(hmac)) return invalid('send one credential header, once');
  return verifyHmac(hmac, req, state, deps);
}

function verifyHmac(value: string, req: RequestRecord, state: ServerState, deps: HandlerDeps): Verification {
  const rules = rulesOf(deps).auth;
  const int64 = deps.variants.has('nonce-int64');
  const parsed = rules.parseHmac(value, int64);
  if (typeof parsed === 'string') return invalid(parsed);
  const number = int64 && parsed.nonce !== undefined ? int64Nonce(parsed.nonce) : undefined;
  if (int64 && parsed.nonce !== undefined && number === undefined) {
    return {
      kind: 'invalid',
      status: 400,
      reason: 'the nonce must be a signed 64-bit integer: decimal digits, no leading zero, at most 9223372036854775807',
    };
  }
  const now = deps.now().getTime();
  const window = windowSeconds(state, deps.variants);
  let dated: { dateText: string; nonce: string } | undefined;
  let dateMs = now;
  if (parsed.nonce !== undefined) {
    const date = rules.signedDate(dateHeader(req), dateReader(deps, now));
    if (typeof date === 'string') return invalid(date);
    if (date.ms !== undefined && !rules.withinWindow(date.ms, now, window)) {
      return invalid(`the Date is more than ${window} s away from the server's clock`);
    }
    dateMs = date.ms ?? date.loose ?? now;
    dated = { dateText: date.text, nonce: parsed.nonce };
  }
  const account = rules.account(state.auth.users, parsed.user);
  const key = number?.toString() ?? parsed.nonce;
  const nonce =
    parsed.nonce === undefined || key === undefined
      ? undefined
      : rules.nonce({ user: parsed.user, sent: parsed.nonce, key, dateMs, nowMs: now, windowSeconds: window });
  const verification: Verification = !digestVerifies(parsed, account, req, state, deps, dated)
    ? invalid('unknown user or wrong digest')
    : nonce === undefined
      ? { kind: 'valid', user: parsed.user }
      : { kind: 'valid', user: parsed.user, nonce };
  return nonce === undefined
    ? verification
    : (deps.hooks?.digestChecked?.(verification, nonce, state.nonces, now) ?? verification);
}

/** The Date header of a request (its first line when repeated). */
function dateHeader(req: RequestRecord): string | undefined {
  const raw = req.headers.date;
  return Array.isArray(raw) ? raw[0] : raw;
}

/**
 * How a Date is read: the spec's shape (`DD Mon YYYY hh:mm:ss`, its month in any case under `date-month-any-case`),
 * or under `date-formats-extra` any HTTP-date or ISO 8601 instant too (relative to the clock `nowMs`).
 */
function dateReader(deps: HandlerDeps, nowMs: number): (value: string) => number | undefined {
  const anyCase = deps.variants.has('date-month-any-case');
  return deps.variants.has('date-formats-extra')
    ? (value) => parseLenientDate(value, nowMs, anyCase)
    : (value) => parseSignedDate(value, anyCase);
}

/**
 * Recomputes every accepted message's digest and compares each with every secret (no early exit); unknown users
 * get a dummy key.
 */
function digestVerifies(
  credentials: HmacCredentials,
  account: UserAccount | undefined,
  req: RequestRecord,
  state: ServerState,
  deps: HandlerDeps,
  dated: { dateText: string; nonce: string } | undefined,
): boolean {
  const rules = rulesOf(deps).auth;
  if (!rules.digestRequired(req.method)) return account !== undefined;
  const sent = req.target ?? (req.query === '' ? req.path : `${req.path}?${req.query}`);
  // The variant `path-without-query` signs the path alone (whether <path> holds the query is open in §5.2).
  const target = deps.variants.has('path-without-query') ? sent.replace(/\?.*$/s, '') : rules.signedTarget(sent);
  const messages = rules.signedMessages(
    { method: req.method, target, body: req.body, bodyHash: state.auth.bodyHash, ...(dated ? { dated } : {}) },
    state,
  );
  const equal = deps.variants.has('digest-decoded') ? decodedEqual : textEqual;
  let match = false;
  for (const secret of rules.digestSecrets(account, state.auth.users)) {
    for (const message of messages)
      match = rules.digestMatches(credentials.digest, hmacDigest(secret, message), equal) || match;
  }
  return match && account !== undefined;
}

function invalid(reason: string): Verification {
  return { kind: 'invalid', reason };
}
