import type { RequestRecord } from '../records.js';
import { rulesOf } from '../rules.js';
import type { HandlerDeps, ServerState } from '../types.js';
import type { NonceOutcome } from './nonces.js';
import { verifyCredentials } from './verify.js';
import type { Identity, Verification } from './verification.js';

export type { Identity } from './verification.js';

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
export function authenticateWith(
  req: RequestRecord,
  state: ServerState,
  deps: HandlerDeps,
  verification: Verification,
): Identity {
  if (verification.kind !== 'valid' || verification.nonce === undefined) return identityOf(req, deps, verification);
  const { scope, key, expiresAt } = verification.nonce;
  const outcome = state.nonces.checkAndStore(scope, key, expiresAt, deps.now().getTime(), rulesOf(deps).auth.nonceKeep);
  return afterNonce(req, deps, verification, outcome);
}

function afterNonce(
  req: RequestRecord,
  deps: HandlerDeps,
  verification: Verification,
  outcome: NonceOutcome,
): Identity {
  if (outcome.kind === 'full') return { kind: 'unavailable', retryAfterSeconds: outcome.retryAfterSeconds };
  if (outcome.kind === 'replayed') {
    const replay = verification.kind === 'valid' ? verification.nonce?.replay : undefined;
    return identityOf(req, deps, {
      kind: 'invalid',
      reason: replay?.reason ?? 'this nonce was already used by this user',
      ...(replay ? { challenge: replay.challenge } : {}),
    });
  }
  return identityOf(req, deps, verification);
}

/** Turns a verification into an identity: the user, or anonymous (with why presented credentials were refused). */
function identityOf(req: RequestRecord, deps: HandlerDeps, verification: Verification): Identity {
  let identity: Identity = { kind: 'anonymous' };
  if (verification.kind === 'valid') identity = { kind: 'user', user: verification.user };
  if (verification.kind === 'invalid') {
    const { reason, status, challenge } = verification;
    identity = {
      kind: 'anonymous',
      reason,
      ...(status === undefined ? {} : { status }),
      ...(challenge === undefined ? {} : { challenge }),
    };
  }
  return deps.hooks?.identified?.(req, verification, identity) ?? identity;
}
