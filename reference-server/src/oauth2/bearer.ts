import { bearerChallenge } from '../auth/challenge.js';
import type { Verification } from '../auth/verification.js';
import type { AccessToken } from '../oauth/state.js';
import type { RequestRecord } from '../records.js';
import type { HandlerDeps, ServerState } from '../types.js';

/** `Bearer <b64token>` (RFC 6750 §2.1), the scheme word in any case. */
const BEARER = /^bearer +([A-Za-z0-9\-._~+/]+=*)$/i;
/** Shortest token prefix the `oauth2-token-prefix` fault accepts. */
const MIN_PREFIX = 16;

/**
 * An `Authorization: Bearer` request (RFC 6750): over TLS only (over plain HTTP it is refused without being looked
 * at), the token issued and not expired or revoked; it stands for its client's user. A refusal carries the RFC 6750
 * §3.1 `invalid_token` challenge. Faults: `oauth2-token-over-http`, `oauth2-expired-accepted` (tokens are then
 * stored without an expiry), `oauth2-token-prefix`.
 */
export function verifyBearer(value: string, req: RequestRecord, state: ServerState, deps: HandlerDeps): Verification {
  const { faults } = deps;
  if (!req.secure && !faults.has('oauth2-token-over-http')) return { kind: 'invalid', reason: 'Bearer tokens are refused over plain HTTP; use TLS' };
  const token = BEARER.exec(value.trim())?.[1];
  if (token === undefined) return refused('the Authorization header must be "Bearer <token>"');
  const now = deps.now().getTime();
  const found = lookUp(token, state, now, faults.has('oauth2-token-prefix'));
  if (found === undefined) return refused('the access token is unknown, expired or revoked');
  if (found.expiresAt <= now && !faults.has('oauth2-expired-accepted')) return refused('the access token expired');
  return { kind: 'valid', user: found.user };
}

function lookUp(token: string, state: ServerState, now: number, prefixes: boolean): AccessToken | undefined {
  const exact = state.oauth2.tokens.get(token, now);
  if (exact !== undefined || !prefixes || token.length < MIN_PREFIX) return exact;
  return state.oauth2.tokens.live(now).find(([key]) => key.startsWith(token))?.[1];
}

function refused(description: string): Verification {
  return { kind: 'invalid', reason: description, challenge: bearerChallenge(description) };
}
