/**
 * The grants the token endpoint issues access tokens for, and who each token acts for: client credentials (RFC
 * 6749 §4.4, the client's user — or, under `oauth2-client-no-user`, nobody) and the resource owner's password
 * (§4.3, under `oauth2-password-only`: the owner whose username and password were sent).
 */
import type { OAuth2Client } from '../oauth/accounts.js';
import type { AuthorizationCode } from '../oauth/state.js';
import type { ResponseRecord } from '../records.js';
import { rulesOf } from '../rules.js';
import type { HandlerDeps, ServerState } from '../types.js';
import type { VariantName } from '../variants.js';
import { oauth2Error } from './responses.js';
import { CLIENT_CREDENTIALS } from './rules.js';

/** The grant types this server issues tokens for, with `variants` on. */
export function offeredGrants(variants: ReadonlySet<VariantName>): readonly string[] {
  if (variants.has('oauth2-password-only')) return ['password', 'refresh_token'];
  if (variants.has('oauth2-code-pkce-only')) return ['authorization_code', 'refresh_token'];
  return [CLIENT_CREDENTIALS];
}

/**
 * The user a token acts for — and, for a code or a refresh token, what it was exchanged — or the error answer.
 * `refreshable`: a refresh token is issued beside the access token (the password and code grants, and a refresh).
 */
export type GrantOutcome =
  | { ok: true; user: string; refreshable: boolean; code?: AuthorizationCode; refreshed?: string }
  | { ok: false; response: ResponseRecord };

/** The prefix of the identity of a token that acts for no user: no user name holds a colon. */
export const CLIENT_IDENTITY = 'client:';

/**
 * Who a token of `grant` (one the server offers, or any under the `oauth2-any-grant` fault) acts for. Client
 * credentials: the client's user, or the client itself under `oauth2-client-no-user` (an identity no records belong
 * to). Password: the resource owner named by `username` once `password` matches (400 `invalid_request` when either
 * is missing, 400 `invalid_grant` when they do not match, RFC 6749 §5.2).
 */
export function grantUser(
  grant: string,
  client: OAuth2Client,
  params: ReadonlyMap<string, string>,
  state: ServerState,
  deps: HandlerDeps,
): GrantOutcome {
  const rules = rulesOf(deps).oauth2;
  const offered = offeredGrants(deps.variants);
  if (grant === 'authorization_code' && offered.includes(grant)) return codeGrant(client, params, state, deps);
  if (grant === 'refresh_token' && offered.includes(grant)) return refreshGrant(client, params, state, deps);
  if (grant === 'password' && offered.includes('password')) {
    const username = params.get('username');
    const password = params.get('password');
    if (username === undefined || password === undefined)
      return { ok: false, response: oauth2Error(400, 'invalid_request', 'username and password are required') };
    const account = state.auth.users.get(username);
    if (!rules.ownerPasswordMatches(password, account))
      return { ok: false, response: oauth2Error(400, 'invalid_grant', 'wrong username or password') };
    return { ok: true, user: username, refreshable: true };
  }
  return {
    ok: true,
    user: rules.clientTokenUser(client, deps.variants.has('oauth2-client-no-user')),
    refreshable: false,
  };
}

const invalidGrant = (description: string): GrantOutcome => ({
  ok: false,
  response: oauth2Error(400, 'invalid_grant', description),
});

/**
 * The authorization code grant (RFC 6749 §4.1.3): the code issued to this client, not yet exchanged — a second
 * exchange is refused and what the first issued is revoked (§4.1.2) —, the `redirect_uri` of the authorization
 * request repeated, and the PKCE verifier whose S256 is the challenge (RFC 7636 §4.6). Each failure is
 * `invalid_grant`; a missing code `invalid_request`.
 */
function codeGrant(
  client: OAuth2Client,
  params: ReadonlyMap<string, string>,
  state: ServerState,
  deps: HandlerDeps,
): GrantOutcome {
  const rules = rulesOf(deps).oauth2;
  const key = params.get('code');
  if (key === undefined) return { ok: false, response: oauth2Error(400, 'invalid_request', 'code is missing') };
  const code = state.oauth2.codes.get(key, deps.now().getTime());
  if (code === undefined || code.client !== client.id)
    return invalidGrant("unknown or expired code, or another client's");
  if (code.used && !rules.codeReusable) {
    rules.codeReused(state.oauth2, code);
    return invalidGrant('this code was exchanged already: the tokens issued from it are revoked');
  }
  if (!rules.redirectMatches(code.redirectUri, params.get('redirect_uri')))
    return invalidGrant('redirect_uri is not the one of the authorization request');
  if (!rules.verifierMatches(code.challenge, params.get('code_verifier')))
    return invalidGrant('code_verifier does not match the code_challenge');
  code.used = true;
  return { ok: true, user: code.user, refreshable: true, code };
}

/** The refresh token grant (RFC 6749 §6): a refresh token issued to this client (§6: "bound to the client"). */
function refreshGrant(
  client: OAuth2Client,
  params: ReadonlyMap<string, string>,
  state: ServerState,
  deps: HandlerDeps,
): GrantOutcome {
  const key = params.get('refresh_token');
  if (key === undefined)
    return { ok: false, response: oauth2Error(400, 'invalid_request', 'refresh_token is missing') };
  const found = state.oauth2.refresh.get(key, deps.now().getTime());
  if (found === undefined || !rulesOf(deps).oauth2.refreshBound(found.client, client.id))
    return invalidGrant("unknown, expired or revoked refresh token, or another client's");
  return { ok: true, user: found.user, refreshable: true, refreshed: key };
}
