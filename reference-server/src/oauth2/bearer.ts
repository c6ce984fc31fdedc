import { bearerChallenge } from '../auth/challenge.js';
import type { Verification } from '../auth/verification.js';
import { rulesOf } from '../rules.js';
import type { RequestRecord } from '../records.js';
import type { HandlerDeps, ServerState } from '../types.js';

/** `Bearer <b64token>` (RFC 6750 §2.1), the scheme word in any case. */
const BEARER = /^bearer +([A-Za-z0-9\-._~+/]+=*)$/i;

/**
 * An `Authorization: Bearer` request (RFC 6750): over TLS only (over plain HTTP it is refused without being looked
 * at), the token issued and not expired or revoked; it stands for its client's user. A refusal carries the RFC 6750
 * §3.1 `invalid_token` challenge.
 */
export function verifyBearer(value: string, req: RequestRecord, state: ServerState, deps: HandlerDeps): Verification {
  const rules = rulesOf(deps);
  if (!req.secure && rules.tlsOnly.bearer)
    return { kind: 'invalid', reason: 'Bearer tokens are refused over plain HTTP; use TLS' };
  const token = BEARER.exec(value.trim())?.[1];
  if (token === undefined) return refused('the Authorization header must be "Bearer <token>"');
  const now = deps.now().getTime();
  const found = rules.oauth2.findToken(state.oauth2.tokens, token, now);
  if (found === undefined) return refused('the access token is unknown, expired or revoked');
  if (rules.oauth2.tokenLifetime(found.expiresAt) <= now) return refused('the access token expired');
  return { kind: 'valid', user: found.user };
}

function refused(description: string): Verification {
  return { kind: 'invalid', reason: description, challenge: bearerChallenge(description) };
}
