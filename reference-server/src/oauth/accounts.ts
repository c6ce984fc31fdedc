import { ReferenceServerError } from '../errors.js';
/** An OAuth 2.0 confidential client (RFC 6749 §2.1) of the client credentials grant, acting for one user. */
export interface OAuth2Client {
  /** `client_id`: any non-empty text (it is form-urlencoded inside HTTP Basic, RFC 6749 §2.3.1). */
  id: string;
  /** `client_secret`; compared in constant time. */
  secret: string;
  /** The user whose protected resources its access tokens open. */
  user: string;
  /** Its registered redirect URI (the authorization code grant). Default: `https://client.example/oauth2/callback`. */
  redirectUri?: string;
}

/** An OAuth 1.0a client (RFC 5849 "client credentials": key and secret), registered for one resource owner. */
export interface OAuth1Consumer {
  /** `oauth_consumer_key`: any non-empty text. */
  key: string;
  /** Client shared secret: the first half of the HMAC-SHA1 key. */
  secret: string;
  /** The only resource owner who may authorize it; its token credentials open that user's resources. */
  user: string;
  /**
   * Where the resource owner is sent back when the client's callback was `oob` (only under the `oauth1-approve-post`
   * variant, whose approval always redirects): an absolute http(s) URI. Default {@link DEFAULT_OAUTH1_REDIRECT_URI}.
   */
  redirectUri?: string;
}

/** The registered redirect URI of an OAuth 1 consumer that names none (see {@link OAuth1Consumer.redirectUri}). */
export const DEFAULT_OAUTH1_REDIRECT_URI = 'https://client.example/oauth1/callback';

/** The default OAuth 2 client, as `reference-server/profile.yaml` lists it. */
export const DEFAULT_OAUTH2_CLIENTS: readonly OAuth2Client[] = Object.freeze([
  { id: 'reporting', secret: 'rep-secret', user: 'alice' },
  // A second client, for bob, whose secret needs RFC 6749 §2.3.1 form-urlencoding inside Basic.
  { id: 'auditing', secret: 'aud secret+/:2', user: 'bob' },
]);

/** The default OAuth 1 consumers, as `reference-server/profile.yaml` lists them (`auth.oauth1`, `auth.oauth1.otherConsumer`). */
export const DEFAULT_OAUTH1_CONSUMERS: readonly OAuth1Consumer[] = Object.freeze([
  { key: 'conform-consumer', secret: 'consumer-secret-1', user: 'alice', redirectUri: DEFAULT_OAUTH1_REDIRECT_URI },
  // A second consumer, for bob: its secret must never verify a request naming the first (identity binding).
  { key: 'conform-consumer-2', secret: 'consumer secret+/:2', user: 'bob', redirectUri: DEFAULT_OAUTH1_REDIRECT_URI },
]);

/** Thrown by {@link clientTable} and {@link consumerTable} for an unusable OAuth client. */
export class InvalidOAuthClientError extends ReferenceServerError {
  constructor(message: string) {
    super('REF_INVALID_OAUTH_CLIENT', message);
    this.name = 'InvalidOAuthClientError';
  }
}

/**
 * Indexes OAuth 2 clients by id.
 * @throws {InvalidOAuthClientError} for an empty or repeated id.
 */
export function clientTable(clients: readonly OAuth2Client[]): ReadonlyMap<string, OAuth2Client> {
  return table(clients, (c) => c.id, 'OAuth 2 client id');
}

/**
 * Indexes OAuth 1 consumers by key.
 * @throws {InvalidOAuthClientError} for an empty or repeated key, or a `redirectUri` that is not an absolute http(s) URI.
 */
export function consumerTable(consumers: readonly OAuth1Consumer[]): ReadonlyMap<string, OAuth1Consumer> {
  for (const c of consumers) {
    if (c.redirectUri !== undefined && !isHttpUri(c.redirectUri)) {
      throw new InvalidOAuthClientError(
        `the redirect URI of OAuth 1 consumer ${JSON.stringify(c.key)} must be an absolute http(s) URI, not ${JSON.stringify(c.redirectUri)}`,
      );
    }
  }
  return table(consumers, (c) => c.key, 'OAuth 1 consumer key');
}

/** True when `text` is an absolute `http:` or `https:` URI. */
export function isHttpUri(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

function table<T extends object>(
  items: readonly T[],
  keyOf: (item: T) => string,
  what: string,
): ReadonlyMap<string, T> {
  const out = new Map<string, T>();
  for (const item of items) {
    const key = keyOf(item);
    if (key === '') throw new InvalidOAuthClientError(`an ${what} must not be empty`);
    if (out.has(key)) throw new InvalidOAuthClientError(`${what} ${JSON.stringify(key)} is listed twice`);
    out.set(key, { ...item });
  }
  return out;
}
