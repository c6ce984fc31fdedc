import type { RequestRecord } from '../records.js';
import type { HandlerDeps, ServerState } from '../types.js';
import { sessionCookie } from './memory.js';
import type { NonceOutcome } from './nonces.js';
import { verifyCredentials } from './verify.js';
import type { PendingNonce, Verification } from './verification.js';

/** Who a request is from, as the access rules see it. */
export type Identity =
  /** Authenticated; `setCookie` is only ever set under the `session-cookie` fault. */
  | { kind: 'user'; user: string; setCookie?: string }
  /**
   * No usable credentials; `reason` says why presented ones were refused, `status` and `challenge` how (a
   * `Refusal` of `challenge.ts`: 400 for a malformed OAuth 1 request, else 401 with that challenge).
   */
  | { kind: 'anonymous'; reason?: string; status?: 400; challenge?: string }
  /** Valid nonce-form credentials but the nonce store is full: answer 503 with `Retry-After`. */
  | { kind: 'unavailable'; retryAfterSeconds: number };

/** Nonces kept per user under the `nonce-store-small` fault. */
const SMALL_STORE = 100;
/**
 * The macrotask the `nonce-race` fault awaits between check and store: a timer, long enough that requests sent
 * together over a network (not only within one event-loop turn) all pass the check.
 */
const RACE_DELAY_MS = 10;

/**
 * Authenticates a request in one synchronous step: verifies its credentials, then checks and stores the nonce
 * of the date-and-nonce form atomically (a valid nonce is consumed whatever the method or resource).
 */
export function authenticate(req: RequestRecord, state: ServerState, deps: HandlerDeps): Identity {
  return authenticateWith(req, state, deps, verifyCredentials(req, state, deps));
}

/**
 * {@link authenticate} for a verification made another way (the OAuth 1 authorize endpoint's hmac-only check): the
 * nonce of a valid verification is checked and stored in the same synchronous step.
 */
export function authenticateWith(req: RequestRecord, state: ServerState, deps: HandlerDeps, verification: Verification): Identity {
  if (verification.kind !== 'valid' || verification.nonce === undefined) return recall(req, state, deps, verification);
  const outcome = state.nonces.checkAndStore(verification.nonce.scope, verification.nonce.key, verification.nonce.expiresAt, nowMs(deps), keep(deps));
  return afterNonce(req, state, deps, verification, outcome);
}

/**
 * The `nonce-race` fault's authentication: the nonce is checked, then a macrotask (a 10 ms timer) passes, then it
 * is stored — so identical requests arriving together are all accepted.
 */
export async function authenticateRacy(req: RequestRecord, state: ServerState, deps: HandlerDeps): Promise<Identity> {
  const verification = verifyCredentials(req, state, deps);
  if (verification.kind !== 'valid' || verification.nonce === undefined) return recall(req, state, deps, verification);
  const pending: PendingNonce = verification.nonce;
  if (state.nonces.has(pending.scope, pending.key, nowMs(deps))) return afterNonce(req, state, deps, verification, { kind: 'replayed' });
  await new Promise<void>((resolve) => setTimeout(resolve, RACE_DELAY_MS));
  const outcome = state.nonces.add(pending.scope, pending.key, pending.expiresAt, nowMs(deps), keep(deps));
  return afterNonce(req, state, deps, verification, outcome);
}

function afterNonce(req: RequestRecord, state: ServerState, deps: HandlerDeps, verification: Verification, outcome: NonceOutcome): Identity {
  if (outcome.kind === 'full') return { kind: 'unavailable', retryAfterSeconds: outcome.retryAfterSeconds };
  if (outcome.kind === 'replayed') {
    const replay = verification.kind === 'valid' ? verification.nonce?.replay : undefined;
    return recall(req, state, deps, { kind: 'invalid', reason: replay?.reason ?? 'this nonce was already used by this user', ...(replay ? { challenge: replay.challenge } : {}) });
  }
  return recall(req, state, deps, verification);
}

/**
 * Turns a verification into an identity. The correct server stops there; the faults `connection-remembers`
 * and `session-cookie` remember a user across requests (per socket, or by cookie).
 */
function recall(req: RequestRecord, state: ServerState, deps: HandlerDeps, verification: Verification): Identity {
  const { faults } = deps;
  if (verification.kind === 'valid') {
    if (faults.has('connection-remembers') && req.connection) req.connection.user = verification.user;
    if (faults.has('session-cookie')) return { kind: 'user', user: verification.user, setCookie: `sid=${state.sessions.open(verification.user)}; Path=/` };
    return { kind: 'user', user: verification.user };
  }
  if (verification.kind === 'invalid') {
    const { reason, status, challenge } = verification;
    return { kind: 'anonymous', reason, ...(status === undefined ? {} : { status }), ...(challenge === undefined ? {} : { challenge }) };
  }
  const remembered = faults.has('connection-remembers') ? req.connection?.user : undefined;
  if (remembered !== undefined) return { kind: 'user', user: remembered };
  const sid = faults.has('session-cookie') ? sessionCookie(req) : undefined;
  const session = sid === undefined ? undefined : state.sessions.user(sid);
  if (session !== undefined) return { kind: 'user', user: session };
  return { kind: 'anonymous' };
}

function nowMs(deps: HandlerDeps): number {
  return deps.now().getTime();
}

function keep(deps: HandlerDeps): number {
  return deps.faults.has('nonce-store-small') ? SMALL_STORE : Infinity;
}
