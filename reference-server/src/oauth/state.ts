import { randomBytes } from 'node:crypto';
import { DEFAULT_OAUTH1_CONSUMERS, DEFAULT_OAUTH2_CLIENTS, clientTable, consumerTable } from './accounts.js';
import type { OAuth1Consumer, OAuth2Client } from './accounts.js';
import { ExpiringStore } from './expiring-store.js';
import type { CredentialStore } from '../store/interfaces.js';

/** An issued OAuth 2 access token: its client, the user it acts for, and when it expires (ms). */
export interface AccessToken {
  client: string;
  user: string;
  expiresAt: number;
}

/** An OAuth 2 authorization code (RFC 6749 §4.1.2): its client, owner, the request's redirect URI and PKCE challenge. */
export interface AuthorizationCode {
  client: string;
  user: string;
  /** The `redirect_uri` of the authorization request, when it had one (§4.1.3: then the token request repeats it). */
  redirectUri?: string;
  /** The S256 `code_challenge` (RFC 7636 §4.3), when one was sent. */
  challenge?: string;
  /** Exchanged once already: a second exchange is refused, and what the first issued is revoked (§4.1.2). */
  used: boolean;
  /** The access and refresh tokens issued from it. */
  issued: string[];
}

/** An OAuth 2 refresh token (RFC 6749 §1.5, §6): bound to its client and user. */
export interface RefreshToken {
  client: string;
  user: string;
}

/** OAuth 1 temporary credentials (RFC 5849 §2.1), approved once the resource owner authorized them (§2.2). */
export interface TemporaryCredentials {
  consumer: string;
  secret: string;
  /** `oauth_callback` as sent (`oob` or an absolute URI). */
  callback: string;
  /** Set at authorization, with the user who approved. */
  verifier?: string;
  user?: string;
}

/** OAuth 1 token credentials (RFC 5849 §2.3): bound to their consumer and the approving user. */
export interface TokenCredentials {
  consumer: string;
  secret: string;
  user: string;
}

/** OAuth 2 settings and issued tokens. */
export interface OAuth2State {
  clients: ReadonlyMap<string, OAuth2Client>;
  /** Access token lifetime, seconds. */
  ttl: number;
  tokens: CredentialStore<AccessToken>;
  /** Authorization codes (the `oauth2-code-pkce-only` variant), for {@link CODE_TTL} seconds. */
  codes: CredentialStore<AuthorizationCode>;
  /** Refresh tokens (issued with the password and authorization code grants), for {@link REFRESH_TTL} seconds. */
  refresh: CredentialStore<RefreshToken>;
}

/** OAuth 1 settings and issued credentials. */
export interface OAuth1State {
  consumers: ReadonlyMap<string, OAuth1Consumer>;
  temporary: CredentialStore<TemporaryCredentials>;
  tokens: CredentialStore<TokenCredentials>;
}

/** {@link OAuth2State} with its tokens in memory. */
export interface LocalOAuth2State extends OAuth2State {
  tokens: ExpiringStore<AccessToken>;
  codes: ExpiringStore<AuthorizationCode>;
  refresh: ExpiringStore<RefreshToken>;
}

/** {@link OAuth1State} with its credentials in memory. */
export interface LocalOAuth1State extends OAuth1State {
  temporary: ExpiringStore<TemporaryCredentials>;
  tokens: ExpiringStore<TokenCredentials>;
}

/** OAuth settings of {@link createOAuthState}; every field is optional. */
export interface OAuthOptions {
  /** Default: {@link DEFAULT_OAUTH2_CLIENTS} (`reporting` / `rep-secret` for alice). */
  oauth2Clients?: readonly OAuth2Client[];
  /** OAuth 2 access token lifetime, whole seconds. Default: 5. */
  tokenTtl?: number;
  /** Most live entries of each credential store (access tokens, temporary and token credentials). Default: 100,000. */
  tokenCapacity?: number;
  /** Default: {@link DEFAULT_OAUTH1_CONSUMERS} (`conform-consumer` / `consumer-secret-1` for alice, `conform-consumer-2` for bob). */
  oauth1Consumers?: readonly OAuth1Consumer[];
}

/** Default OAuth 2 access token lifetime, seconds: short, so expiry can be tested without long waits. */
export const DEFAULT_TOKEN_TTL = 5;
/** Default capacity of each credential store. */
export const DEFAULT_TOKEN_CAPACITY = 100_000;
/** Lifetime of an OAuth 2 authorization code, seconds (RFC 6749 §4.1.2: "A maximum authorization code lifetime of 10 minutes is RECOMMENDED"). */
export const CODE_TTL = 60;
/** Lifetime of an OAuth 2 refresh token, seconds. */
export const REFRESH_TTL = 86_400;
/** Lifetime of OAuth 1 temporary credentials (and so of an unused verifier), seconds. */
export const TEMPORARY_TTL = 600;
/** Lifetime of OAuth 1 token credentials, seconds. */
export const TOKEN_CREDENTIALS_TTL = 86_400;

/**
 * Checks `tokenTtl` and `tokenCapacity`.
 * @throws {RangeError} when either is not a positive integer.
 */
export function checkOAuthLimits(tokenTtl: number, tokenCapacity: number): void {
  if (!Number.isInteger(tokenTtl) || tokenTtl < 1)
    throw new RangeError(`tokenTtl must be a positive whole number of seconds, not ${tokenTtl}`);
  if (!Number.isInteger(tokenCapacity) || tokenCapacity < 1)
    throw new RangeError(`tokenCapacity must be a positive integer, not ${tokenCapacity}`);
}

/**
 * Empty OAuth state: client tables, lifetimes and empty credential stores.
 * @throws {InvalidOAuthClientError} for an empty or repeated client id or consumer key.
 * @throws {RangeError} for a `tokenTtl` or `tokenCapacity` that is not a positive integer.
 */
export function createOAuthState(options: OAuthOptions = {}): { oauth2: LocalOAuth2State; oauth1: LocalOAuth1State } {
  const ttl = options.tokenTtl ?? DEFAULT_TOKEN_TTL;
  const capacity = options.tokenCapacity ?? DEFAULT_TOKEN_CAPACITY;
  checkOAuthLimits(ttl, capacity);
  return {
    oauth2: {
      clients: clientTable(options.oauth2Clients ?? DEFAULT_OAUTH2_CLIENTS),
      ttl,
      tokens: new ExpiringStore(capacity),
      codes: new ExpiringStore(capacity),
      refresh: new ExpiringStore(capacity),
    },
    oauth1: {
      consumers: consumerTable(options.oauth1Consumers ?? DEFAULT_OAUTH1_CONSUMERS),
      temporary: new ExpiringStore(capacity),
      tokens: new ExpiringStore(capacity),
    },
  };
}

/** A fresh opaque credential: 32 random bytes (from `random`, default `node:crypto`), base64url without padding (43 characters). */
export function randomToken(random: (size: number) => Buffer = randomBytes): string {
  return random(32).toString('base64url');
}

/** A random (version 4) UUID from 16 random bytes of `random` (default `node:crypto`). */
export function randomUuid(random: (size: number) => Buffer = randomBytes): string {
  const b = Buffer.from(random(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
