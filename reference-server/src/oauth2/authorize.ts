/**
 * `GET <authorizeEndpoint>` (RFC 6749 §4.1.1), under the `oauth2-code-pkce-only` variant: the resource owner
 * authenticates with HTTP Basic over TLS and, being a user of this server, approves at once — `302` to the client's
 * redirect URI with `code` and `state` (§4.1.2). PKCE is required (RFC 7636 §4.4.1): `code_challenge` with
 * `code_challenge_method=S256`. Errors that cannot be trusted to a redirect (an unknown client, a redirect URI that is
 * not the registered one) answer 400 here (§4.1.2.1); the others redirect with `error`.
 */
import { decodeBasic, passwordMatches } from '../auth/basic.js';
import { REALM } from '../auth/challenge.js';
import { withQuery } from '../oauth1/endpoints.js';
import { parseFormText, wireBytes } from '../oauth/encoding.js';
import { CODE_TTL, randomToken } from '../oauth/state.js';
import type { RequestRecord, ResponseRecord } from '../records.js';
import { problem } from '../responses.js';
import type { HandlerDeps, ServerState } from '../types.js';

/** The redirect URI every OAuth 2 client registers unless it names its own. */
export const DEFAULT_OAUTH2_REDIRECT_URI = 'https://client.example/oauth2/callback';

/** True when the authorization code grant is offered (`oauth2-code-pkce-only`). */
export function offersCodes(deps: HandlerDeps): boolean {
  return deps.variants.has('oauth2-code-pkce-only');
}

export function oauth2AuthorizeEndpoint(req: RequestRecord, state: ServerState, deps: HandlerDeps): ResponseRecord {
  if (!offersCodes(deps)) return problem(404, `nothing at ${req.path}: the authorization code grant is not offered`);
  if (!req.secure) return problem(400, 'the authorization endpoint answers over TLS only');
  const pairs = parseFormText(wireBytes(req.query)) ?? [];
  const one = (name: string): string | undefined | null => {
    const all = pairs.filter(([n]) => n === name);
    return all.length > 1 ? null : all[0]?.[1];
  };
  const clientId = one('client_id');
  const client = typeof clientId === 'string' ? state.oauth2.clients.get(clientId) : undefined;
  if (client === undefined) return problem(400, 'client_id is missing, repeated or unknown');
  const registered = client.redirectUri ?? DEFAULT_OAUTH2_REDIRECT_URI;
  const redirectUri = one('redirect_uri');
  if (redirectUri === null || (redirectUri !== undefined && redirectUri !== registered))
    return problem(400, 'redirect_uri is repeated or not the registered one');
  const owner = resourceOwner(req, state);
  if (owner === undefined) {
    const headers = { 'www-authenticate': `Basic realm="${REALM}", charset="UTF-8"` };
    return problem(401, `${req.path} needs the resource owner's Basic credentials`, { headers });
  }
  const st = one('state');
  const back = (params: Array<[string, string]>) =>
    redirect(
      withQuery(registered, [
        ...params,
        ...(typeof st === 'string' ? ([['state', st]] as Array<[string, string]>) : []),
      ]),
    );
  if (one('response_type') !== 'code') return back([['error', 'unsupported_response_type']]);
  const challenge = one('code_challenge');
  const method = one('code_challenge_method');
  if (typeof challenge !== 'string' || method !== 'S256' || !/^[A-Za-z0-9_-]{43}$/.test(challenge))
    return back([
      ['error', 'invalid_request'],
      ['error_description', 'PKCE is required: code_challenge with code_challenge_method=S256'],
    ]);
  const now = deps.now().getTime();
  const code = randomToken(deps.random);
  const stored = state.oauth2.codes.add(
    code,
    {
      client: client.id,
      user: owner,
      ...(redirectUri !== undefined ? { redirectUri } : {}),
      challenge,
      used: false,
      issued: [],
    },
    now + CODE_TTL * 1000,
    now,
  );
  if (stored.kind === 'full')
    return problem(503, 'the code store is full', { headers: { 'retry-after': String(stored.retryAfterSeconds) } });
  return back([['code', code]]);
}

function resourceOwner(req: RequestRecord, state: ServerState): string | undefined {
  const value = req.headers.authorization;
  if (typeof value !== 'string') return undefined;
  const credentials = decodeBasic(value);
  if (credentials === undefined) return undefined;
  return passwordMatches(credentials.password, state.auth.users.get(credentials.user)) ? credentials.user : undefined;
}

function redirect(location: string): ResponseRecord {
  return { status: 302, headers: { location, 'cache-control': 'no-store', pragma: 'no-cache' } };
}
