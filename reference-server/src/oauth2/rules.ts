/**
 * How the OAuth 2 endpoints and bearer verification decide, as settings and strategies: {@link OAUTH2_RULES} are
 * those of docs/oauth.md (RFC 6749, 6750, 7009); the faults (faults/oauth.ts) patch copies of them once.
 */
import { passwordMatches } from '../auth/basic.js';
import { textEqual } from '../auth/compare.js';
import type { UserAccount } from '../auth/users.js';
import type { OAuth2Client } from '../oauth/accounts.js';
import { formDecode } from '../oauth/encoding.js';
import { createHash } from 'node:crypto';
import type { AccessToken, AuthorizationCode, OAuth2State, RefreshToken } from '../oauth/state.js';
import type { CredentialStore } from '../store/interfaces.js';

/** The settings and strategies of OAuth 2. */
export interface OAuth2Rules {
  /** One part (id or secret) of Basic client credentials as compared: form-urldecoded (RFC 6749 §2.3.1). */
  clientBasic(part: string): string | undefined;
  /** A known client may authenticate with no secret or an empty one: no (no public clients). */
  secretless: boolean;
  /** Whether a sent client secret is the client's: compared in constant time. */
  secretMatches(given: string, expected: string): boolean;
  /** Whether the token endpoint issues a token for this `grant_type`, among the grants it `offered`. */
  grantAccepted(grant: string, offered: readonly string[]): boolean;
  /** The password grant: whether `given` is the resource owner's password (constant time; false for no account). */
  ownerPasswordMatches(given: string, account: UserAccount | undefined): boolean;
  /** Who a client-credentials token acts for: the client's user, or (`userless`) the client itself, no user. */
  clientTokenUser(client: OAuth2Client, userless: boolean): string;
  /** An authorization code may be exchanged twice: no. */
  codeReusable: boolean;
  /** What a second exchange of a code does: the tokens issued from it are revoked (RFC 6749 §4.1.2, SHOULD). */
  codeReused(oauth2: OAuth2State, code: AuthorizationCode): void;
  /** The token request's `redirect_uri` against the authorization request's (§4.1.3): identical when that had one. */
  redirectMatches(authorized: string | undefined, given: string | undefined): boolean;
  /** The PKCE verifier against the S256 challenge (RFC 7636 §4.6); no challenge: no verifier needed. */
  verifierMatches(challenge: string | undefined, verifier: string | undefined): boolean;
  /** A refresh token works for the client it was issued to only (RFC 6749 §6). */
  refreshBound(issuedTo: string, client: string): boolean;
  /** A refresh replaces the refresh token (the `oauth2-refresh-rotation` variant): the old one is then forgotten. */
  rotate(refresh: CredentialStore<RefreshToken>, old: string): void;
  /** What revoking a refresh token does (RFC 7009 §2): it is forgotten. */
  revokeRefresh(refresh: CredentialStore<RefreshToken>, token: string): void;
  /** Until when an access token expiring at `expiresAt` is kept and honoured: that instant. */
  tokenLifetime(expiresAt: number): number;
  /** The live access token a bearer credential names: an exact lookup. */
  findToken(tokens: CredentialStore<AccessToken>, token: string, nowMs: number): AccessToken | undefined;
  /** What revoking a token does: it is forgotten. */
  revoke(tokens: CredentialStore<AccessToken>, token: string): void;
}

/** The one grant this server issues tokens for (RFC 6749 §4.4). */
export const CLIENT_CREDENTIALS = 'client_credentials';

/** The grant types RFC 6749 defines (§4.1.3, §4.3.2, §4.4.2, §6). */
export const RFC6749_GRANTS: readonly string[] = [
  'authorization_code',
  'password',
  CLIENT_CREDENTIALS,
  'refresh_token',
];

/** The rules of docs/oauth.md. */
export const OAUTH2_RULES: OAuth2Rules = {
  clientBasic: formDecode,
  secretless: false,
  secretMatches: textEqual,
  grantAccepted: (grant, offered) => offered.includes(grant),
  ownerPasswordMatches: passwordMatches,
  clientTokenUser: (client, userless) => (userless ? `client:${client.id}` : client.user),
  codeReusable: false,
  codeReused: (oauth2, code) => {
    for (const t of code.issued) {
      oauth2.tokens.delete(t);
      oauth2.refresh.delete(t);
    }
  },
  redirectMatches: (authorized, given) => authorized === undefined || authorized === given,
  verifierMatches: (challenge, verifier) =>
    challenge === undefined ||
    (verifier !== undefined &&
      /^[A-Za-z0-9._~-]{43,128}$/.test(verifier) &&
      textEqual(createHash('sha256').update(verifier, 'ascii').digest('base64url'), challenge)),
  refreshBound: (issuedTo, client) => issuedTo === client,
  rotate: (refresh, old) => void refresh.delete(old),
  revokeRefresh: (refresh, token) => void refresh.delete(token),
  tokenLifetime: (expiresAt) => expiresAt,
  findToken: (tokens, token, nowMs) => tokens.get(token, nowMs),
  revoke: (tokens, token) => void tokens.delete(token),
};
