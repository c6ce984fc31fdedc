import { decodeBasic } from '../auth/basic.js';
import type { OAuth2Client } from '../oauth/accounts.js';
import { rulesOf } from '../rules.js';
import type { RequestRecord, ResponseRecord } from '../records.js';
import type { HandlerDeps, ServerState } from '../types.js';
import { oauth2Error } from './responses.js';

/** Outcome of {@link authenticateClient}: the client, or the error answer. */
export type ClientAuthentication = { ok: true; client: OAuth2Client } | { ok: false; response: ResponseRecord };

const DUMMY = '\u0000 no such client';

/**
 * Client authentication at the token and revocation endpoints (RFC 6749 §2.3.1): HTTP Basic whose user id and
 * password are the form-urlencoded `client_id` and `client_secret`, or both as body parameters — not both ways
 * (`invalid_request`; a body `client_id` equal to the Basic one is tolerated). The secret is compared in constant
 * time, against a dummy for an unknown id. Failures are `invalid_client` (401 with a Basic challenge).
 * Under the `oauth2-client-basic-only` variant body credentials are refused (`invalid_client`, 401 with the Basic
 * challenge that says which method works, RFC 6749 §5.2). Under the `oauth2-basic-undecoded` variant the Basic id
 * and secret are compared as sent (Authlib's default); the variant's profile declares no client whose credentials
 * need the encoding.
 */
export function authenticateClient(
  req: RequestRecord,
  params: ReadonlyMap<string, string>,
  state: ServerState,
  deps: HandlerDeps,
): ClientAuthentication {
  const rules = rulesOf(deps).oauth2;
  const fail = (status: 400 | 401, description: string): ClientAuthentication => ({
    ok: false,
    response: oauth2Error(status, status === 401 ? 'invalid_client' : 'invalid_request', description),
  });
  const header = req.headers.authorization;
  if (Array.isArray(header)) return fail(400, 'send one Authorization header');
  let id: string | undefined;
  let secret: string | undefined;
  if (header !== undefined) {
    const basic = /^basic(?: |$)/i.test(header.trim()) ? decodeBasic(header) : undefined;
    if (basic === undefined)
      return fail(401, 'client authentication must use HTTP Basic (or client_id and client_secret in the body)');
    const decode = deps.variants.has('oauth2-basic-undecoded') ? (part: string) => part : rules.clientBasic;
    id = decode(basic.user);
    secret = decode(basic.password);
    if (id === undefined || secret === undefined)
      return fail(401, 'the Basic client credentials are not form-urlencoded UTF-8');
    if (params.has('client_secret') || (params.has('client_id') && params.get('client_id') !== id)) {
      return fail(
        400,
        'use one client authentication method: HTTP Basic or client_id and client_secret in the body, not both',
      );
    }
  } else if (
    deps.variants.has('oauth2-client-basic-only') &&
    (params.has('client_id') || params.has('client_secret'))
  ) {
    return fail(
      401,
      'client authentication must use HTTP Basic; client_id and client_secret in the body are not supported',
    );
  } else {
    id = params.get('client_id');
    secret = params.get('client_secret');
    if (id === undefined)
      return fail(401, 'client authentication is missing: use HTTP Basic or client_id and client_secret');
    if (secret === undefined && !rules.secretless)
      return fail(401, 'client_secret is missing; public clients are not supported');
  }
  const client = state.oauth2.clients.get(id);
  const match =
    rules.secretMatches(secret ?? '', client?.secret ?? DUMMY) || (rules.secretless && (secret ?? '') === '');
  if (client === undefined || !match) return fail(401, 'unknown client or wrong client secret');
  return { ok: true, client };
}
