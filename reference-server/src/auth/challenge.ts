import type { FaultName } from '../faults.js';
import { problem } from '../responses.js';
import type { HeaderMap, RequestRecord, ResponseRecord } from '../types.js';

/** Realm of every challenge. */
export const REALM = 'conform';

/**
 * The `WWW-Authenticate` value of a 401 (RFC 9110 §11.6.1), one field: `hmac realm="conform"`, followed over TLS
 * by `Basic realm="conform", charset="UTF-8"` (RFC 7617 §2.1). Basic is never challenged over plain HTTP.
 */
export function challenges(secure: boolean): string {
  const hmac = `hmac realm="${REALM}"`;
  return secure ? `${hmac}, Basic realm="${REALM}", charset="UTF-8"` : hmac;
}

/** 401 with the challenges (left out under `no-www-authenticate`) and a problem body saying what is missing. */
export function unauthorized(req: RequestRecord, reason: string | undefined, faults: ReadonlySet<FaultName>): ResponseRecord {
  const headers: HeaderMap = faults.has('no-www-authenticate') ? {} : { 'www-authenticate': challenges(req.secure) };
  const detail = `${req.method} ${req.path} needs credentials: ${reason ?? 'none were sent'}`;
  return problem(401, detail, { headers });
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
