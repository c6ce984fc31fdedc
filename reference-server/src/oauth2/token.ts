import { randomToken } from '../oauth/state.js';
import type { HeaderMap, RequestRecord, ResponseRecord } from '../records.js';
import type { HandlerDeps, ServerState } from '../types.js';
import { authenticateClient } from './client-auth.js';
import { readForm } from './form.js';
import { JSON_TYPE, oauth2Error } from './responses.js';
import { ERROR_VARIANTS, problem } from '../responses.js';

/** The one grant this server issues tokens for (RFC 6749 §4.4). */
export const CLIENT_CREDENTIALS = 'client_credentials';

/**
 * `POST <tokenEndpoint>`, the client credentials grant (RFC 6749 §4.4): TLS only (plain HTTP gets
 * `invalid_request` and no token; under an error-format variant an error in that format), a form body with `grant_type`, the client authenticated (see
 * {@link authenticateClient}), then `{access_token, token_type: "Bearer", expires_in}` with `Cache-Control:
 * no-store` and `Pragma: no-cache`. A full token store answers 503 with `Retry-After`. Faults:
 * `oauth2-token-cacheable` (the success lacks the two cache headers), `oauth2-any-grant`.
 */
export function tokenEndpoint(req: RequestRecord, state: ServerState, deps: HandlerDeps): ResponseRecord {
  const { faults } = deps;
  if (!req.secure) {
    // No OAuth exchange happens over plain HTTP, so an error-format variant answers in its own format here.
    const own = ERROR_VARIANTS.some((v) => deps.variants.has(v));
    return own ? problem(400, 'TLS required: the token endpoint refuses plain HTTP') : oauth2Error(400, 'invalid_request', 'TLS required: the token endpoint refuses plain HTTP', faults);
  }
  const form = readForm(req, faults);
  if (!form.ok) return form.response;
  const grant = form.params.get('grant_type');
  if (grant === undefined) return oauth2Error(400, 'invalid_request', 'grant_type is missing', faults);
  const auth = authenticateClient(req, form.params, state, faults, deps.variants);
  if (!auth.ok) return auth.response;
  if (grant !== CLIENT_CREDENTIALS && !faults.has('oauth2-any-grant')) return oauth2Error(400, 'unsupported_grant_type', `only ${CLIENT_CREDENTIALS} is supported`, faults);
  const now = deps.now().getTime();
  const { ttl, tokens } = state.oauth2;
  const expiresAt = now + ttl * 1000;
  const token = randomToken(deps.random);
  const stored = tokens.add(token, { client: auth.client.id, user: auth.client.user, expiresAt }, faults.has('oauth2-expired-accepted') ? Infinity : expiresAt, now);
  if (stored.kind === 'full') {
    const retry = String(stored.retryAfterSeconds);
    return oauth2Error(503, 'temporarily_unavailable', `the token store is full; retry in ${retry} s`, faults, { 'retry-after': retry });
  }
  const headers: HeaderMap = faults.has('oauth2-token-cacheable') ? { 'content-type': JSON_TYPE } : { 'content-type': JSON_TYPE, 'cache-control': 'no-store', pragma: 'no-cache' };
  return { status: 200, headers, body: JSON.stringify({ access_token: token, token_type: 'Bearer', expires_in: ttl }) };
}
