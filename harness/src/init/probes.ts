/** The trials of `conform init` beyond the run's learning: where signed requests go, and the secrets given. */
import type { Authenticator } from '../auth/authenticator.js';
import type { HttpRequest, HttpResponse } from '../http/client.js';
import { join, ok } from '../learn/common.js';
import type { ResolvedProfile, Scheme } from '../profile/schema.js';
import type { Bases } from '../runner/exec-types.js';
import type { DraftInput } from './types.js';

const HMAC_HEADERS = ['Authentication', 'Authorization', 'X-Authentication'];

export function baseFor(p: ResolvedProfile, scheme: Scheme, bases: Bases): string {
  return p.auth.tlsOnly.includes(scheme) && bases.tls ? bases.tls : bases.primary;
}

export function schemeFits(user: { password?: string; secret?: string }, scheme: Scheme): boolean {
  return scheme === 'basic' ? user.password !== undefined : user.secret !== undefined;
}

/** Tries a signed GET of the user's records with each header name, over plain HTTP first. */
export async function findHmacHeader(
  seed: ResolvedProfile,
  authenticator: Authenticator,
  send: (r: HttpRequest) => Promise<HttpResponse | undefined>,
  line: (r: HttpRequest, res: HttpResponse | undefined) => string,
  user: string,
  records: string,
  bases: Bases,
): Promise<{ header?: string; plain: boolean; how: string }> {
  const tried: string[] = [];
  const url = (base: string) => join(base, records.replace('{user}', encodeURIComponent(user)));
  for (const base of [bases.plain, bases.tls]) {
    if (base === undefined) continue;
    for (const header of HMAC_HEADERS) {
      const auth = authenticator.withProfile({ ...seed, auth: { ...seed.auth, hmacHeader: header, bodyHash: false } });
      for (const scheme of ['hmac-nonce', 'hmac'] as const) {
        const applied = auth.apply({ method: 'GET', url: url(base), headers: {} }, scheme, user);
        if (!applied.ok) continue;
        const res = await send(applied.request);
        tried.push(`${header} (${scheme}, ${new URL(base).protocol.replace(':', '')}): ${line(applied.request, res)}`);
        if (ok(res))
          return { header, plain: base === bases.plain, how: `a signed GET of ${user}'s records in ${tried.at(-1)}` };
      }
    }
  }
  return { plain: false, how: `no signed request was taken: ${tried.join('; ') || 'none could be made'}` };
}

export function collectSecrets(input: DraftInput): string[] {
  const out: string[] = [];
  for (const u of input.users) for (const c of [u.password, u.secret]) if (c) out.push(c.value);
  if (input.oauth2) out.push(input.oauth2.clientSecret.value);
  if (input.oauth1) out.push(input.oauth1.consumerSecret.value);
  return out;
}
