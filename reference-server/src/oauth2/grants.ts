/**
 * The grants the token endpoint issues access tokens for, and who each token acts for: client credentials (RFC
 * 6749 §4.4, the client's user — or, under `oauth2-client-no-user`, nobody) and the resource owner's password
 * (§4.3, under `oauth2-password-only`: the owner whose username and password were sent).
 */
import type { OAuth2Client } from '../oauth/accounts.js';
import type { ResponseRecord } from '../records.js';
import { rulesOf } from '../rules.js';
import type { HandlerDeps, ServerState } from '../types.js';
import type { VariantName } from '../variants.js';
import { oauth2Error } from './responses.js';
import { CLIENT_CREDENTIALS } from './rules.js';

/** The grant types this server issues tokens for, with `variants` on. */
export function offeredGrants(variants: ReadonlySet<VariantName>): readonly string[] {
  if (variants.has('oauth2-password-only')) return ['password'];
  return [CLIENT_CREDENTIALS];
}

/** The user a token acts for, or the error answer. */
export type GrantOutcome = { ok: true; user: string } | { ok: false; response: ResponseRecord };

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
  if (grant === 'password' && offeredGrants(deps.variants).includes('password')) {
    const username = params.get('username');
    const password = params.get('password');
    if (username === undefined || password === undefined)
      return { ok: false, response: oauth2Error(400, 'invalid_request', 'username and password are required') };
    const account = state.auth.users.get(username);
    if (!rules.ownerPasswordMatches(password, account))
      return { ok: false, response: oauth2Error(400, 'invalid_grant', 'wrong username or password') };
    return { ok: true, user: username };
  }
  return { ok: true, user: rules.clientTokenUser(client, deps.variants.has('oauth2-client-no-user')) };
}
