import type { VariantName } from '../variants.js';
import { problem } from '../responses.js';
import type { RequestRecord, ResponseRecord } from '../records.js';

/** Realm of every challenge. */
export const REALM = 'conform';

/** The challenge of OAuth 1 refusals (RFC 5849 §3.5.1 scheme). */
export const OAUTH1_CHALLENGE = `OAuth realm="${REALM}"`;

/**
 * The `WWW-Authenticate` value of a 401 (RFC 9110 §11.6.1), one field: `hmac realm="conform"`, followed over TLS
 * by `Basic realm="conform", charset="UTF-8"` (RFC 7617 §2.1), `Bearer realm="conform"` (RFC 6750 §3) and
 * `OAuth realm="conform"` (RFC 5849). Basic and the OAuth schemes are never challenged over plain HTTP.
 */
export function challenges(secure: boolean, variants: ReadonlySet<VariantName> = new Set()): string {
  // A server offering only TLS-only schemes challenges with them on both listeners (a 401 needs a challenge).
  if (variants.has('basic-only')) return `Basic realm="${REALM}", charset="UTF-8"`;
  if (variants.has('oauth-only')) return `Bearer realm="${REALM}", ${OAUTH1_CHALLENGE}`;
  const hmac = `hmac realm="${REALM}"`;
  return secure
    ? `${hmac}, Basic realm="${REALM}", charset="UTF-8", Bearer realm="${REALM}", ${OAUTH1_CHALLENGE}`
    : hmac;
}

/**
 * The RFC 6750 §3 challenge for a refused bearer token: `Bearer realm="conform", error="invalid_token",
 * error_description="…"` (characters the quoted string may not hold are replaced by `?`).
 */
export function bearerChallenge(description: string): string {
  const safe = description.replace(/[^\x20\x21\x23-\x5b\x5d-\x7e]/g, '?');
  return `Bearer realm="${REALM}", error="invalid_token", error_description="${safe}"`;
}

/** Why presented credentials were refused, and how: 401 (the default) or 400, with its own challenge. */
export interface Refusal {
  reason?: string;
  /** 400 for a malformed OAuth 1 request (missing or repeated protocol parameter, unsupported method). */
  status?: 400;
  /** The whole `WWW-Authenticate` value of the 401; default {@link challenges}. */
  challenge?: string;
}

/**
 * 401 with the challenges and a problem body saying what is missing, or 400
 * without a challenge for a malformed OAuth 1 request. Under the variants `refuse-403` and `refuse-400` a refusal
 * of missing, Basic or hmac credentials is a 403 or 400 with no challenge (§5.4 leaves the status open); the OAuth
 * refusals, which carry their own challenge, keep the 401 their RFCs ask for (RFC 6750 §3.1, RFC 5849 §3.2).
 */
export function unauthorized(
  req: RequestRecord,
  refusal: Refusal | undefined,
  variants: ReadonlySet<VariantName> = new Set(),
): ResponseRecord {
  if (refusal?.status === 400)
    return problem(400, `${req.method} ${req.path}: ${refusal.reason ?? 'malformed credentials'}`);
  const detail = `${req.method} ${req.path} needs credentials: ${refusal?.reason ?? 'none were sent'}`;
  if (refusal?.challenge === undefined) {
    if (variants.has('refuse-403')) return problem(403, detail);
    if (variants.has('refuse-400')) return problem(400, detail);
  }
  const challenge = refusal?.challenge ?? challenges(req.secure, variants);
  return problem(401, detail, { headers: { 'www-authenticate': challenge } });
}

/** 403 for an authenticated user reading what is not theirs. */
export function forbidden(req: RequestRecord, user: string): ResponseRecord {
  return problem(403, `${user} may not ${req.method} ${req.path}; only its owner may`);
}

/** 503 with `Retry-After` when the nonce store is full. */
export function nonceStoreFull(retryAfterSeconds: number): ResponseRecord {
  const detail = `the nonce store is full; retry in ${retryAfterSeconds} s, when its oldest nonce expires`;
  return problem(503, detail, { headers: { 'retry-after': String(retryAfterSeconds) } });
}
