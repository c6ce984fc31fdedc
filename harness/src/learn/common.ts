/** Small pieces the learning steps share. */
import type { HttpResponse } from '../http/client.js';
import type { ResolvedProfile, Scheme } from '../profile/schema.js';

export const join = (base: string, path: string) =>
  base.replace(/\/$/, '') + (path.startsWith('/') ? path : `/${path}`);
export const ok = (r: HttpResponse | undefined): boolean => r !== undefined && r.status >= 200 && r.status < 300;
export const header = (r: HttpResponse, name: string) => [r.headers[name] ?? []].flat()[0];

/** The user a trial of `scheme` authenticates as: the OAuth client's or consumer's, else the first with the credential. */
export function schemeUser(p: ResolvedProfile, scheme: Scheme): string | undefined {
  if (scheme === 'oauth2') return p.auth.oauth2?.user;
  if (scheme === 'oauth1') return p.auth.oauth1?.user;
  return p.users.find((u) => (scheme === 'basic' ? u.password : u.secret) !== undefined)?.name;
}
