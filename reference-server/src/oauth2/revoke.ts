import { rulesOf } from '../rules.js';
import type { RequestRecord, ResponseRecord } from '../records.js';
import type { HandlerDeps, ServerState } from '../types.js';
import { authenticateClient } from './client-auth.js';
import { readForm } from './form.js';
import { NO_STORE, oauth2Error } from './responses.js';

/**
 * `POST <revokeEndpoint>` (RFC 7009): TLS only, the client authenticated as at the token endpoint, a form body
 * with `token` (`token_type_hint` is ignored). `200` with an empty body when the token is revoked or unknown
 * (RFC 7009 §2.2); a token issued to another client is refused (`400 unauthorized_client`) and kept.
 */
export function revokeEndpoint(req: RequestRecord, state: ServerState, deps: HandlerDeps): ResponseRecord {
  if (!req.secure)
    return oauth2Error(400, 'invalid_request', 'TLS required: the revocation endpoint refuses plain HTTP');
  const form = readForm(req);
  if (!form.ok) return form.response;
  const auth = authenticateClient(req, form.params, state, deps);
  if (!auth.ok) return auth.response;
  const token = form.params.get('token');
  if (token === undefined) return oauth2Error(400, 'invalid_request', 'token is missing');
  const { tokens, refresh } = state.oauth2;
  const now = deps.now().getTime();
  const found = tokens.get(token, now);
  const refreshing = found === undefined ? refresh.get(token, now) : undefined;
  if ((found ?? refreshing) !== undefined && (found ?? refreshing)!.client !== auth.client.id) {
    return oauth2Error(400, 'unauthorized_client', 'the token was issued to another client');
  }
  if (found !== undefined) rulesOf(deps).oauth2.revoke(tokens, token);
  // RFC 7009 §2: "Implementations MUST support the revocation of refresh tokens".
  if (refreshing !== undefined) rulesOf(deps).oauth2.revokeRefresh(refresh, token);
  return { status: 200, headers: { ...NO_STORE } };
}
