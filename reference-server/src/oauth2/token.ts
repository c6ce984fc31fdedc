import { REFRESH_TTL, randomToken } from '../oauth/state.js';
import { rulesOf } from '../rules.js';
import type { RequestRecord, ResponseRecord } from '../records.js';
import type { HandlerDeps, ServerState } from '../types.js';
import { authenticateClient } from './client-auth.js';
import { readForm } from './form.js';
import { JSON_TYPE, NO_STORE, oauth2Error } from './responses.js';
import { grantUser, offeredGrants } from './grants.js';
import { RFC6749_GRANTS } from './rules.js';
import { ERROR_VARIANTS, problem } from '../responses.js';

/**
 * `POST <tokenEndpoint>`, the grants of grants.ts (client credentials, RFC 6749 §4.4, by default): TLS only (plain HTTP gets
 * `invalid_request` and no token; under an error-format variant an error in that format), a form body with `grant_type`, the client authenticated (see
 * {@link authenticateClient}), then `{access_token, token_type: "Bearer", expires_in}` with `Cache-Control:
 * no-store` and `Pragma: no-cache`. A full token store answers 503 with `Retry-After`.
 */
export function tokenEndpoint(req: RequestRecord, state: ServerState, deps: HandlerDeps): ResponseRecord {
  if (!req.secure) {
    // No OAuth exchange happens over plain HTTP, so an error-format variant answers in its own format here.
    const own = ERROR_VARIANTS.some((v) => deps.variants.has(v));
    return own
      ? problem(400, 'TLS required: the token endpoint refuses plain HTTP')
      : oauth2Error(400, 'invalid_request', 'TLS required: the token endpoint refuses plain HTTP');
  }
  const form = readForm(req);
  if (!form.ok) return form.response;
  const grant = form.params.get('grant_type');
  if (grant === undefined) return oauth2Error(400, 'invalid_request', 'grant_type is missing');
  const auth = authenticateClient(req, form.params, state, deps);
  if (!auth.ok) return auth.response;
  const rules = rulesOf(deps).oauth2;
  const offered = offeredGrants(deps.variants);
  if (!rules.grantAccepted(grant, offered)) {
    // Under `oauth2-unauthorized-client` the server knows the RFC's grants but this client is registered for
    // client_credentials only (Spring Authorization Server's and node-oauth2-server's answer, RFC 6749 §5.2).
    if (deps.variants.has('oauth2-unauthorized-client') && RFC6749_GRANTS.includes(grant))
      return oauth2Error(400, 'unauthorized_client', `this client may use ${offered.join(', ')} only`);
    return oauth2Error(400, 'unsupported_grant_type', `only ${offered.join(', ')} is supported`);
  }
  const granted = grantUser(grant, auth.client, form.params, state, deps);
  if (!granted.ok) return granted.response;
  const now = deps.now().getTime();
  const { ttl, tokens } = state.oauth2;
  const expiresAt = now + ttl * 1000;
  const token = randomToken(deps.random);
  const stored = tokens.add(
    token,
    { client: auth.client.id, user: granted.user, expiresAt },
    rules.tokenLifetime(expiresAt),
    now,
  );
  if (stored.kind === 'full') {
    const retry = String(stored.retryAfterSeconds);
    return oauth2Error(503, 'temporarily_unavailable', `the token store is full; retry in ${retry} s`, {
      'retry-after': retry,
    });
  }
  const refresh = granted.refreshable && offered.includes('refresh_token') ? randomToken(deps.random) : undefined;
  if (refresh !== undefined) {
    state.oauth2.refresh.add(refresh, { client: auth.client.id, user: granted.user }, now + REFRESH_TTL * 1000, now);
    if (granted.refreshed !== undefined && deps.variants.has('oauth2-refresh-rotation'))
      rules.rotate(state.oauth2.refresh, granted.refreshed);
  }
  granted.code?.issued.push(token, ...(refresh !== undefined ? [refresh] : []));
  return {
    status: 200,
    headers: { 'content-type': JSON_TYPE, ...NO_STORE },
    body: JSON.stringify({
      access_token: token,
      token_type: 'Bearer',
      expires_in: ttl,
      ...(refresh !== undefined ? { refresh_token: refresh } : {}),
    }),
  };
}
