/** The `refused` check: a refusal of the kind a step names (VERDICTS.md §1: what `auth.refusalStatus` reaches). */
import type { HttpResponse } from '../http/client.js';
import { isRefusalStatus } from '../profile/refusals.js';
import { headerValue } from './response-parts.js';

/** What a `refused` check refuses (VERDICTS.md §1: `auth.refusalStatus` reaches only missing or wrong credentials). */
export type RefusalKind = 'credentials' | 'authorization' | 'malformed' | 'endpoint';

/** Statuses a refusal of each kind may take whatever `auth.refusalStatus` says, with the words that allow them. */
const ALWAYS_REFUSALS: Record<RefusalKind, readonly number[]> = {
  credentials: [],
  // RFC 9110 §15.5.4 (403: understood, refuses to authorize) and §15.5.5 (404: may hide the resource).
  authorization: [403, 404],
  // RFC 9110 §15.5.1 (400: cannot process a malformed request), RFC 6750 §3.1 (invalid_request → 400).
  malformed: [400],
  endpoint: [],
};

/**
 * `refused`: the status is a refusal of the kind the step names, and a 401 carries a challenge (RFC 9110 §15.5.2).
 * Missing or wrong credentials: the profile's `auth.refusalStatus`, or any refusing 4xx. Someone else's resource:
 * also 403 and 404. A malformed credential: also 400. An OAuth endpoint's refusal: any refusing 4xx (the key is about
 * resources; the status the RFC names is a check of its own). §5.4 and §7.2 leave the rest open.
 */
export function checkRefused(
  res: HttpResponse,
  refused: { hidden?: boolean | undefined; kind?: RefusalKind | undefined },
  refusalStatus: readonly number[] | undefined,
): string[] {
  const kind: RefusalKind = refused.kind ?? (refused.hidden === true ? 'authorization' : 'credentials');
  const always = ALWAYS_REFUSALS[kind];
  const statuses = kind === 'endpoint' ? undefined : refusalStatus;
  if (!always.includes(res.status) && !isRefusalStatus(res.status, statuses)) {
    const listed =
      statuses === undefined ? 'a 4xx refusal' : `a refusal (${statuses.join(' or ')}, auth.refusalStatus)`;
    const extra = always.filter((s) => statuses === undefined || !statuses.includes(s));
    return [`expected ${listed}${extra.length > 0 ? ` or ${extra.join(' or ')}` : ''}, got ${res.status}`];
  }
  if (res.status === 401 && headerValue(res, 'www-authenticate') === undefined)
    return ['a 401 must carry a WWW-Authenticate challenge (RFC 9110 §15.5.2); header WWW-Authenticate is missing'];
  return [];
}
