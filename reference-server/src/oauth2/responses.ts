import { REALM } from '../auth/challenge.js';
import type { HeaderMap, ResponseRecord } from '../records.js';

/** Media type of every OAuth 2 endpoint answer (RFC 6749 §5.1). */
export const JSON_TYPE = 'application/json';

/** Headers that keep credentials out of caches (RFC 6749 §5.1). */
export const NO_STORE: Readonly<HeaderMap> = Object.freeze({ 'cache-control': 'no-store', pragma: 'no-cache' });

/** The `error` codes this server answers with (RFC 6749 §5.2, RFC 7009 §2.2.1). */
export type OAuth2ErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unsupported_grant_type'
  | 'unauthorized_client'
  | 'temporarily_unavailable';

/** The challenge of an `invalid_client` answer: the client authenticates with HTTP Basic (RFC 6749 §2.3.1). */
export const CLIENT_CHALLENGE = `Basic realm="${REALM}"`;

/** A JSON answer of an OAuth 2 endpoint, with {@link NO_STORE}. */
export function oauth2Json(status: number, body: object, headers: HeaderMap = {}): ResponseRecord {
  return { status, headers: { 'content-type': JSON_TYPE, ...NO_STORE, ...headers }, body: JSON.stringify(body) };
}

/**
 * An RFC 6749 §5.2 error: `{"error", "error_description"}` with {@link NO_STORE}; `invalid_client` also carries
 * `WWW-Authenticate: Basic realm="conform"`.
 */
export function oauth2Error(
  status: number,
  error: OAuth2ErrorCode,
  description: string,
  headers: HeaderMap = {},
): ResponseRecord {
  const challenge: HeaderMap = error === 'invalid_client' ? { 'www-authenticate': CLIENT_CHALLENGE } : {};
  return oauth2Json(status, { error, error_description: description }, { ...challenge, ...headers });
}
