import { OAUTH1_CHALLENGE } from '../auth/challenge.js';
import type { Verification } from '../auth/verification.js';
import type { RequestRecord } from '../records.js';
import { rulesOf } from '../rules.js';
import type { HandlerDeps, ServerState } from '../types.js';
import { verifyOAuth1 } from './verify.js';

/**
 * An OAuth 1 authenticated request (RFC 5849 §3) for a resource: signed with the consumer's and the token
 * credentials' secrets, TLS only (over plain HTTP it is refused without being looked at). Valid credentials stand
 * for the user who approved them; the nonce is consumed by the caller as for the §5.2 date-and-nonce form.
 */
export function verifyOAuth1Resource(req: RequestRecord, state: ServerState, deps: HandlerDeps): Verification {
  const rules = rulesOf(deps);
  if (!req.secure && rules.tlsOnly.oauth1)
    return { kind: 'invalid', reason: 'OAuth 1 credentials are refused over plain HTTP; use TLS' };
  const v = verifyOAuth1(req, state, deps, {
    tokens: rules.oauth1.resourceTokens(state.oauth1),
    unbound: !rules.oauth1.tokensBound,
  });
  if (v.kind === 'invalid') {
    return v.status === 400
      ? { kind: 'invalid', reason: v.reason, status: 400 }
      : { kind: 'invalid', reason: v.reason, challenge: OAUTH1_CHALLENGE };
  }
  const user = v.token?.credentials.user ?? '';
  return v.nonce === undefined ? { kind: 'valid', user } : { kind: 'valid', user, nonce: v.nonce };
}
