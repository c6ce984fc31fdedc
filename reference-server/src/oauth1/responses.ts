import { OAUTH1_CHALLENGE, nonceStoreFull } from '../auth/challenge.js';
import type { PendingNonce } from '../auth/verification.js';
import { formBody } from '../oauth/encoding.js';
import { problem } from '../responses.js';
import type { RequestRecord, ResponseRecord } from '../records.js';
import type { HandlerDeps, ServerState } from '../types.js';

/** Media type of the credential answers (RFC 5849 §2.1, §2.3). */
export const FORM_TYPE = 'application/x-www-form-urlencoded';

/** `200` with a form body of credentials, kept out of caches. */
export function formResponse(pairs: ReadonlyArray<readonly [string, string]>): ResponseRecord {
  return {
    status: 200,
    headers: { 'content-type': FORM_TYPE, 'cache-control': 'no-store', pragma: 'no-cache' },
    body: formBody(pairs),
  };
}

/** `400` for an OAuth endpoint reached over plain HTTP. */
export function tlsRequired(req: RequestRecord): ResponseRecord {
  return problem(400, `TLS required: ${req.path} refuses plain HTTP`);
}

/** `400` (malformed) or `401` with `WWW-Authenticate: OAuth realm="conform"`. */
export function oauth1Refusal(req: RequestRecord, status: 400 | 401, reason: string): ResponseRecord {
  const detail = `${req.method} ${req.path}: ${reason}`;
  if (status === 400) return problem(400, detail);
  return problem(401, detail, { headers: { 'www-authenticate': OAUTH1_CHALLENGE } });
}

/**
 * Accepts an OAuth 1 nonce once, in the shared nonce store: undefined when it was fresh (or none is checked), else the
 * answer — 401 for a replay, 503 with `Retry-After` when the store is full.
 */
export function consumeNonce(
  req: RequestRecord,
  state: ServerState,
  deps: HandlerDeps,
  nonce: PendingNonce | undefined,
): ResponseRecord | undefined {
  if (nonce === undefined) return undefined;
  const outcome = state.nonces.checkAndStore(nonce.scope, nonce.key, nonce.expiresAt, deps.now().getTime());
  if (outcome.kind === 'full') return nonceStoreFull(outcome.retryAfterSeconds);
  if (outcome.kind === 'replayed')
    return oauth1Refusal(req, 401, nonce.replay?.reason ?? 'this nonce was already used');
  return undefined;
}

/** `503` with `Retry-After` when a credential store is full. */
export function credentialStoreFull(retryAfterSeconds: number): ResponseRecord {
  const detail = `the credential store is full; retry in ${retryAfterSeconds} s, when its oldest entry expires`;
  return problem(503, detail, { headers: { 'retry-after': String(retryAfterSeconds) } });
}
