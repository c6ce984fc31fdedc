import { OAUTH1_CHALLENGE } from '../auth/challenge.js';
import type { Verification } from '../auth/verification.js';
import type { TokenCredentials } from '../oauth/state.js';
import type { RequestRecord } from '../records.js';
import type { CredentialStore } from '../store/interfaces.js';
import type { HandlerDeps, ServerState } from '../types.js';
import { verifyOAuth1 } from './verify.js';

/**
 * An OAuth 1 authenticated request (RFC 5849 §3) for a resource: signed with the consumer's and the token
 * credentials' secrets, TLS only (over plain HTTP it is refused without being looked at; not under the
 * `oauth1-over-http` fault). Valid credentials stand
 * for the user who approved them; the nonce is consumed by the caller as for the §5.2 date-and-nonce form. Faults:
 * `oauth1-temporary-as-token`, `oauth1-token-any-consumer` (the token is not bound to its consumer).
 */
export function verifyOAuth1Resource(req: RequestRecord, state: ServerState, deps: HandlerDeps): Verification {
  if (!req.secure && !deps.faults.has('oauth1-over-http')) return { kind: 'invalid', reason: 'OAuth 1 credentials are refused over plain HTTP; use TLS' };
  const v = verifyOAuth1(req, state, deps, { tokens: tokenLookup(state, deps), unbound: deps.faults.has('oauth1-token-any-consumer') });
  if (v.kind === 'invalid') {
    return v.status === 400 ? { kind: 'invalid', reason: v.reason, status: 400 } : { kind: 'invalid', reason: v.reason, challenge: OAUTH1_CHALLENGE };
  }
  const user = v.token?.credentials.user ?? '';
  return v.nonce === undefined ? { kind: 'valid', user } : { kind: 'valid', user, nonce: v.nonce };
}

/**
 * Where a resource request's `oauth_token` is looked up: the token credentials — and under the
 * `oauth1-temporary-as-token` fault, failing those, the temporary credentials, as if they were token credentials
 * acting for their consumer's user.
 */
function tokenLookup(state: ServerState, deps: HandlerDeps): Pick<CredentialStore<TokenCredentials>, 'get'> {
  const { tokens, temporary, consumers } = state.oauth1;
  if (!deps.faults.has('oauth1-temporary-as-token')) return tokens;
  return {
    get: (key, nowMs) => {
      const found = tokens.get(key, nowMs);
      if (found !== undefined) return found;
      const t = temporary.get(key, nowMs);
      return t === undefined ? undefined : { consumer: t.consumer, secret: t.secret, user: consumers.get(t.consumer)?.user ?? '' };
    },
  };
}
