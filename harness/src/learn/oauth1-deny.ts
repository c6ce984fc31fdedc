/**
 * Learning how the resource owner denies OAuth 1 temporary credentials (learn.ts; RFC 5849 §2.2 leaves the authorization
 * step to the server): the refusing submit button of the authorize page's form (named or valued deny, cancel, reject,
 * decline, refuse or no), seen while the owner approves the learning's own grant. An approval that took no page, or a
 * page with no such button, teaches nothing: `auth/oauth1-approval-denied` is then skipped.
 */
import type { ResolvedProfile } from '../profile/schema.js';
import type { TokenExchange, TokenSource } from '../oauth/index.js';

export interface OAuth1DenyContext {
  p: ResolvedProfile;
  learn: (key: string, value: unknown, how: string) => void;
  /** The learning's token source: its approver has seen every approval the learning made. */
  tokens: TokenSource;
  /** The base URL OAuth 1 requests go to. */
  base: string;
  /** Keeps the exchanges of a grant made here (an exchange already kept is passed again when the grant was cached). */
  record: (exchanges: readonly TokenExchange[]) => void;
}

/** Learns `auth.oauth1.deny` into `c.p`, reporting how; nothing when OAuth 1 is not in use or no refusal is offered. */
export async function learnOAuth1Deny(c: OAuth1DenyContext): Promise<void> {
  const settings = c.p.auth.oauth1;
  const user = settings?.user;
  if (!settings || user === undefined || !c.p.auth.schemes.includes('oauth1')) return;
  if (c.p.auth.tlsOnly.includes('oauth1') && !c.base.startsWith('https:')) return;
  if (c.tokens.approver.denial() === undefined) c.record((await c.tokens.oauth1(user, c.base)).exchanges);
  const denial = c.tokens.approver.denial();
  if (denial === undefined) return;
  settings.deny = denial;
  const fields = Object.entries(denial.fields)
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  c.learn('auth.oauth1.deny', denial, `the authorize page's form offers a refusing button (${fields})`);
}
