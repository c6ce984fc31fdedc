/**
 * How the OAuth 2 endpoints and bearer verification decide, as settings and strategies: {@link OAUTH2_RULES} are
 * those of docs/oauth.md (RFC 6749, 6750, 7009); the faults (faults/oauth.ts) patch copies of them once.
 */
import { passwordMatches } from '../auth/basic.js';
import { textEqual } from '../auth/compare.js';
import type { UserAccount } from '../auth/users.js';
import type { OAuth2Client } from '../oauth/accounts.js';
import { formDecode } from '../oauth/encoding.js';
import type { AccessToken } from '../oauth/state.js';
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
  tokenLifetime: (expiresAt) => expiresAt,
  findToken: (tokens, token, nowMs) => tokens.get(token, nowMs),
  revoke: (tokens, token) => void tokens.delete(token),
};
