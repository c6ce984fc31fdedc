import type { FaultName } from '../faults.js';
import type { RequestRecord } from '../records.js';
import type { HandlerDeps, ServerState } from '../types.js';
import { decodeBasic, passwordMatches } from './basic.js';
import { acceptedMessages, digestMatches } from './candidates.js';
import { dateText, parseLenientDate, parseSignedDate } from './date.js';
import { int64Nonce, parseHmac } from './hmac.js';
import type { HmacCredentials } from './hmac.js';
import { hmacDigest } from './message.js';
import { windowSeconds, withinWindow } from './window.js';
import { verifyBearer } from '../oauth2/bearer.js';
import { carriesOAuth1Params } from '../oauth1/params.js';
import { verifyOAuth1Resource } from '../oauth1/resource.js';
import type { PendingNonce, Verification } from './verification.js';

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
  const hmac = oneLineByFault(req.headers[HMAC_HEADER], deps);
  const authorization = oneLineByFault(req.headers[BASIC_HEADER], deps);
  const refused = refusedByVariant(req, deps);
  if (refused !== undefined) return invalid(refused);
  if (hmac === undefined && authorization === undefined) {
    return carriesOAuth1Params(req, deps.variants.has('oauth1-header-only')) ? verifyOAuth1Resource(req, state, deps) : { kind: 'none' };
  }
  if (hmac !== undefined && authorization !== undefined && !deps.faults.has('basic-beside-hmac-ignored')) return invalid('send one credential: Authorization or Authentication, not both');
  if (Array.isArray(hmac) || Array.isArray(authorization)) return invalid('send one credential header, once');
  if (authorization !== undefined) return verifyAuthorization(authorization, req, state, deps);
  return verifyHmac(hmac ?? '', req, state, deps);
}

/** The faults `credential-field-first-line` and `-last-line`: a repeated credential field read by one of its lines. */
function oneLineByFault(value: string | string[] | undefined, deps: HandlerDeps): string | string[] | undefined {
  if (!Array.isArray(value)) return value;
  if (deps.faults.has('credential-field-first-line')) return value[0];
  if (deps.faults.has('credential-field-last-line')) return value[value.length - 1];
  return value;
}

/**
 * The variants `basic-only` and `oauth-only` offer fewer schemes for resource access: credentials of another scheme
 * are refused like wrong ones. (The OAuth 1 authorize endpoint checks the owner's Basic credentials on its own.)
 */
function refusedByVariant(req: RequestRecord, deps: HandlerDeps): string | undefined {
  const basicOnly = deps.variants.has('basic-only');
  const oauthOnly = deps.variants.has('oauth-only');
  if (!basicOnly && !oauthOnly) return undefined;
  const offered = basicOnly ? 'this server accepts Basic (over TLS) only' : 'this server accepts OAuth 2 bearer tokens and OAuth 1 (over TLS) only';
  if (req.headers[HMAC_HEADER] !== undefined) return offered;
  const authorization = req.headers[BASIC_HEADER];
  const scheme = typeof authorization === 'string' ? /^(\S+)/.exec(authorization.trim())?.[1]?.toLowerCase() : undefined;
  if (basicOnly && (scheme === 'bearer' || scheme === 'oauth' || (authorization === undefined && carriesOAuth1Params(req, deps.variants.has('oauth1-header-only'))))) return offered;
  if (oauthOnly && scheme !== undefined && scheme !== 'bearer' && scheme !== 'oauth') return offered;
  return undefined;
}

function verifyAuthorization(value: string, req: RequestRecord, state: ServerState, deps: HandlerDeps): Verification {
  const scheme = /^(\S+)/.exec(value.trim())?.[1]?.toLowerCase();
  if (scheme === 'bearer') return verifyBearer(value, req, state, deps);
  if (scheme === 'oauth') return verifyOAuth1Resource(req, state, deps);
  return verifyBasic(value, req, state, deps.faults);
}

function verifyBasic(value: string, req: RequestRecord, state: ServerState, faults: ReadonlySet<FaultName>): Verification {
  if (!/^basic(?: |$)/i.test(value.trim())) return invalid('the Authorization scheme is not supported; use Basic, Bearer or OAuth (over TLS) or hmac');
  if (!req.secure && !faults.has('basic-over-http')) return invalid('Basic authentication is refused over plain HTTP; use TLS or hmac');
  const credentials = decodeBasic(value, faults.has('basic-last-colon'));
  if (credentials === undefined) return invalid('the Basic credential is not base64 of UTF-8 "<user>:<password>"');
  const account = state.auth.users.get(credentials.user);
  if (account === undefined && faults.has('unknown-user-500')) throw new Error(`no account ${credentials.user}`);
  let match = passwordMatches(credentials.password, account, faults);
  if (faults.has('basic-any-user-password') && account !== undefined) {
    for (const other of state.auth.users.values()) match = passwordMatches(credentials.password, other, faults) || match;
  }
  if (!match) return invalid('unknown user or wrong password');
  return { kind: 'valid', user: credentials.user };
}

/**
 * The request's hmac credentials (simple or date-and-nonce form, body hash rules included) checked exactly as for a
 * resource, whatever the scheme variants offer for resource access; any other credential, or none, is refused
 * (`invalid`). For the OAuth 1 authorize endpoint under the `oauth1-approve-post` variant, where the resource owner
 * signs the approval. The nonce is still to be consumed.
 */
export function verifyOwnerHmac(req: RequestRecord, state: ServerState, deps: HandlerDeps): Verification {
  const hmac = oneLineByFault(req.headers[HMAC_HEADER], deps);
  if (req.headers[BASIC_HEADER] !== undefined) return invalid('the resource owner approves with a signed request (hmac), not with the Authorization header');
  if (hmac === undefined) return invalid('the resource owner must sign the approval (Authentication: hmac …)');
  if (Array.isArray(hmac)) return invalid('send one credential header, once');
  return verifyHmac(hmac, req, state, deps);
}

function verifyHmac(value: string, req: RequestRecord, state: ServerState, deps: HandlerDeps): Verification {
  const int64 = deps.variants.has('nonce-int64');
  const parsed = parseHmac(value, int64);
  if (typeof parsed === 'string') {
    if (deps.faults.has('hmac-missing-parts-500')) throw new Error(`unparsed hmac credential: ${parsed}`);
    return invalid(parsed);
  }
  const number = int64 && parsed.nonce !== undefined ? int64Nonce(parsed.nonce) : undefined;
  if (int64 && parsed.nonce !== undefined && number === undefined) {
    return { kind: 'invalid', status: 400, reason: 'the nonce must be a signed 64-bit integer: decimal digits, no leading zero, at most 9223372036854775807' };
  }
  const now = deps.now().getTime();
  const window = windowSeconds(state, deps.variants);
  let dated: { dateText: string; nonce: string } | undefined;
  let dateMs = now;
  if (parsed.nonce !== undefined) {
    const date = signedDate(req, deps.faults, { anyCaseMonth: deps.variants.has('date-month-any-case'), ...(deps.variants.has('date-formats-extra') ? { lenientAt: now } : {}) });
    if (typeof date === 'string') return invalid(date);
    if (date.ms !== undefined && !withinWindow(date.ms, now, window, deps.faults)) {
      return invalid(`the Date is more than ${window} s away from the server's clock`);
    }
    dateMs = date.ms ?? date.loose ?? now;
    dated = { dateText: date.text, nonce: parsed.nonce };
  }
  if (deps.faults.has('unknown-user-500') && !state.auth.users.has(parsed.user)) throw new Error(`no account ${parsed.user}`);
  const nonce: PendingNonce | undefined = parsed.nonce === undefined || deps.faults.has('nonce-unchecked') ? undefined : {
    scope: deps.faults.has('nonce-global') ? '' : parsed.user,
    key: deps.faults.has('nonce-as-number') ? String(Number(parsed.nonce)) : (number?.toString() ?? parsed.nonce),
    expiresAt: deps.faults.has('nonce-forgotten-early') ? now + FORGOTTEN_EARLY_MS : Math.max(dateMs, now) + window * 1000,
  };
  if (nonce !== undefined && deps.faults.has('nonce-stored-before-verify')) {
    // The fault: the nonce is consumed before the digest is known to be right.
    if (state.nonces.checkAndStore(nonce.scope, nonce.key, nonce.expiresAt, now).kind === 'replayed') return invalid('this nonce was already used by this user');
    return digestVerifies(parsed, req, state, deps, dated) ? { kind: 'valid', user: parsed.user } : invalid('unknown user or wrong digest');
  }
  if (!digestVerifies(parsed, req, state, deps, dated)) return invalid('unknown user or wrong digest');
  return nonce === undefined ? { kind: 'valid', user: parsed.user } : { kind: 'valid', user: parsed.user, nonce };
}

/**
 * The signed Date: `<date_text>`, and its instant when the window applies, or a reason to refuse. With `lenientAt`
 * (the `date-formats-extra` variant: the server's clock) any HTTP-date or ISO 8601 instant is read too; with
 * `anyCaseMonth` (the `date-month-any-case` variant) the spec's shape takes its month in any case. The instant is
 * absent only under faults: `date-missing-ok` (no Date at all) and `date-lenient` (a Date of another shape that
 * `Date.parse` understands is taken as it is, without the strict checks: shape, calendar, window).
 */
function signedDate(req: RequestRecord, faults: ReadonlySet<FaultName>, how: { lenientAt?: number; anyCaseMonth: boolean }): { ms?: number; loose?: number; text: string } | string {
  const raw = req.headers.date;
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (value === undefined) return faults.has('date-missing-ok') ? { text: '' } : 'the date-and-nonce form needs a Date header';
  const ms = how.lenientAt === undefined ? parseSignedDate(value, how.anyCaseMonth) : parseLenientDate(value, how.lenientAt, how.anyCaseMonth);
  if (ms !== undefined) return { ms, text: dateText(value) };
  const loose = faults.has('date-lenient') ? Date.parse(value) : Number.NaN;
  if (!Number.isNaN(loose)) return { loose, text: dateText(value) };
  return 'the Date must be "DD Mon YYYY hh:mm:ss" (UTC) and name a real instant';
}

/**
 * Recomputes every accepted message's digest and compares each (no early exit); unknown users get a dummy key.
 * Under `digest-base64url` the expected digest is written in unpadded base64url instead of standard base64.
 */
function digestVerifies(
  credentials: HmacCredentials,
  req: RequestRecord,
  state: ServerState,
  deps: HandlerDeps,
  dated: { dateText: string; nonce: string } | undefined,
): boolean {
  const { faults, variants } = deps;
  const account = state.auth.users.get(credentials.user);
  if (faults.has('write-digest-unchecked') && WRITES.has(req.method)) return account !== undefined;
  const secrets = [account?.secret ?? '\u0000 no such user'];
  if (faults.has('digest-any-user-secret')) for (const other of state.auth.users.values()) secrets.push(other.secret);
  const sent = req.target ?? (req.query === '' ? req.path : `${req.path}?${req.query}`);
  // The variant `path-without-query` signs the path alone (whether <path> holds the query is open in §5.2).
  // The fault `digest-ignores-query` does the same although the profile says the query is signed.
  const pathOnly = variants.has('path-without-query') || faults.has('digest-ignores-query');
  const target = pathOnly ? sent.replace(/\?.*$/s, '') : sent;
  const messages = acceptedMessages({ method: req.method, target, body: req.body, ...(dated ? { dated } : {}) }, state, faults);
  const url = faults.has('digest-base64url');
  let match = false;
  for (const secret of secrets) {
    for (const message of messages) {
      const digest = hmacDigest(secret, message);
      match = digestMatches(credentials.digest, url ? Buffer.from(digest, 'base64').toString('base64url') : digest, faults, variants) || match;
    }
  }
  return match && account !== undefined;
}

/** How long the `nonce-forgotten-early` fault keeps a nonce. */
const FORGOTTEN_EARLY_MS = 2000;

const WRITES = new Set(['PUT', 'POST', 'DELETE', 'PATCH']);

function invalid(reason: string): Verification {
  return { kind: 'invalid', reason };
}
