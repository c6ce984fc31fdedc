/**
 * Learning the OAuth 1 signature methods a target takes beyond HMAC-SHA1 (learn.ts; RFC 5849 §3.4 leaves them to the
 * server): a GET of the owner's records signed with PLAINTEXT, then with HMAC-SHA256; each taken (2xx) is kept.
 */
import type { AuthOptions } from '../auth/authenticator.js';
import type { HttpRequest, HttpResponse } from '../http/client.js';
import type { ResolvedProfile, Scheme } from '../profile/schema.js';
import { ok, schemeUser } from './common.js';

export interface OAuth1MethodsContext {
  p: ResolvedProfile;
  learn: (key: string, value: unknown, how: string) => void;
  send: (r: HttpRequest) => Promise<HttpResponse | undefined>;
  line: (r: HttpRequest, res: HttpResponse | undefined) => string;
  withCredentials: (
    request: HttpRequest,
    scheme: Scheme,
    user: string,
    options?: AuthOptions,
  ) => Promise<HttpRequest | string>;
  /** The absolute URL of a path, on the base OAuth 1 requests go to. */
  url: (path: string) => string;
  resourceFor: (user: string) => string | undefined;
}

/** Learns `auth.oauth1.signatureMethods` into `c.p`, reporting how; nothing when OAuth 1 is not in use. */
export async function learnOAuth1Methods(c: OAuth1MethodsContext): Promise<void> {
  const { p } = c;
  if (!p.auth.oauth1 || !p.auth.schemes.includes('oauth1')) return;
  const user = schemeUser(p, 'oauth1');
  const path = user === undefined ? undefined : c.resourceFor(user);
  if (user === undefined || path === undefined) return;
  const taken: Array<'HMAC-SHA1' | 'HMAC-SHA256' | 'PLAINTEXT'> = ['HMAC-SHA1'];
  const notes: string[] = [];
  for (const method of ['PLAINTEXT', 'HMAC-SHA256'] as const) {
    const made = await c.withCredentials({ method: 'GET', url: c.url(path), headers: {} }, 'oauth1', user, {
      signatureMethod: method,
    });
    if (typeof made === 'string') {
      notes.push(`${method}: ${made}`);
      continue;
    }
    const res = await c.send(made);
    if (ok(res)) taken.push(method);
    notes.push(`${method}: ${c.line(made, res)}`);
  }
  p.auth.oauth1.signatureMethods = taken;
  c.learn('auth.oauth1.signatureMethods', taken, notes.join('; '));
}
