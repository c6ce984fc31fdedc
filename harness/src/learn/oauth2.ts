/**
 * Learning what the profile leaves unsaid of its OAuth 2 clients (learn.ts), from the token endpoint's answers:
 *
 * - the grants each client takes, where it lists none: client credentials, then the resource owner password grant
 *   with the first user that has a password (RFC 6749 §4.4, §4.3) — a grant answered with a token is taken, any other
 *   answer (`unsupported_grant_type`, `unauthorized_client`, …) means not offered to this client;
 * - whom a client-credentials token acts for, where the profile does not say: the first user whose records it
 *   opens, else nobody — and then which protected paths without a user it opens (`/`);
 * - each client's token lifetime, from `expires_in`.
 *
 * A grant is never sent over plain HTTP: without a TLS base URL nothing is learned and the profile's word stands.
 */
import type { Authenticator } from '../auth/authenticator.js';
import type { HttpClient, HttpRequest, HttpResponse } from '../http/client.js';
import type { TokenExchange } from '../oauth/exchange.js';
import { requestToken } from '../oauth/grants.js';
import { finishOAuth2 } from '../profile/oauth2-actors.js';
import { recordsPathOf, type Grant, type ResolvedOAuth2Client, type ResolvedProfile } from '../profile/schema.js';
import { join, ok } from './common.js';

/** The grants tried, in order, for a client that lists none (the code grant only with an authorization endpoint). */
const TRIED: ReadonlyArray<Exclude<Grant, 'refresh_token'>> = ['client_credentials', 'password', 'authorization_code'];

export interface OAuth2LearnContext {
  p: ResolvedProfile;
  client: HttpClient;
  /** Records the exchanges of an authorization request (the token requests go through `send`). */
  record: (exchanges: TokenExchange[]) => void;
  /** The TLS base URL (every grant goes there), when there is one. */
  tls: string | undefined;
  authenticator: Authenticator;
  learn: (key: string, value: unknown, how: string) => void;
  send: (r: HttpRequest) => Promise<HttpResponse | undefined>;
  line: (r: HttpRequest, res: HttpResponse | undefined) => string;
  secret: (value: string) => void;
}

/** True when some OAuth 2 client of the profile lacks its grants, or a client-credentials user, to learn. */
export function oauth2Open(p: ResolvedProfile): boolean {
  return (p.auth.oauth2?.clients ?? []).some(
    (c) => c.grants === undefined || (c.grants.includes('client_credentials') && userOpen(c)),
  );
}

/** A client-credentials client whose user, or (acting for nobody) whose readable paths, are not known. */
function userOpen(c: ResolvedOAuth2Client): boolean {
  return c.user === undefined || (c.user === null && c.reads === undefined);
}

/** The profile key under which a client's learned value is reported. */
function keyOf(p: ResolvedProfile, c: ResolvedOAuth2Client, leaf: string): string {
  const o = p.auth.oauth2!;
  if (c === o.clients[0] && !p.declared.has('auth.oauth2.clients')) return `auth.oauth2.${leaf}`;
  if (c.clientId === o.otherClient?.clientId) return `auth.oauth2.otherClient.${leaf}`;
  return `auth.oauth2.clients[${c.clientId}].${leaf}`;
}

/** Learns the grants, users and lifetimes of the profile's OAuth 2 clients into `x.p`, reporting how. */
export async function learnOAuth2Clients(x: OAuth2LearnContext): Promise<void> {
  const o = x.p.auth.oauth2;
  if (!o || x.tls === undefined) return;
  const tls = x.tls;
  const owner = x.p.users.find((u) => u.password !== undefined)?.name;
  const approver = x.p.users.find((u) => u.password !== undefined || u.secret !== undefined)?.name;
  const auth = x.authenticator.withProfile(x.p);
  const ask = async (c: ResolvedOAuth2Client, grant: Exclude<Grant, 'refresh_token'>, user: string | undefined) => {
    let last: { request: HttpRequest; response: HttpResponse | undefined } | undefined;
    const exchanges: TokenExchange[] = [];
    const got = await requestToken(
      { client: x.client, profile: x.p, authenticator: auth, secret: x.secret, exchanges },
      { clientId: c.clientId, grant, ...(user !== undefined ? { user } : {}) },
      tls,
      async (request) => {
        const response = await x.send(request);
        last = { request, response };
        return response ? { ok: true, response } : { ok: false, error: { message: 'no answer' } };
      },
    );
    x.record(exchanges);
    if (got.ok) {
      x.secret(got.token);
      if (got.refreshToken !== undefined) x.secret(got.refreshToken);
    }
    const seen = last ? `${x.line(last.request, last.response)}${errorOf(last.response)}` : got.ok ? '' : got.reason;
    return { got, note: `${grant}: ${seen}` };
  };

  for (const c of o.clients) {
    let ccToken: string | undefined;
    if (c.grants === undefined) {
      const taken: Grant[] = [];
      const notes: string[] = [];
      for (const grant of TRIED) {
        if (grant === 'password' && owner === undefined) continue;
        if (grant === 'authorization_code' && (o.authorizeEndpoint === undefined || approver === undefined)) continue;
        const r = await ask(
          c,
          grant,
          grant === 'password' ? owner : grant === 'authorization_code' ? approver : undefined,
        );
        notes.push(r.note);
        if (r.got?.ok) {
          taken.push(grant);
          // RFC 6749 §5.1: a refresh token in the answer is the refresh grant offered to this client.
          if (r.got.refreshToken !== undefined && !taken.includes('refresh_token')) taken.push('refresh_token');
          if (grant === 'client_credentials') ccToken = r.got.token;
          if (c.ttl === undefined && r.got.expiresIn !== undefined) {
            c.ttl = r.got.expiresIn;
            x.learn(keyOf(x.p, c, 'ttl'), c.ttl, `the token endpoint gave expires_in ${c.ttl} (${grant})`);
          }
        }
      }
      // No positive evidence, no conclusion (VERDICTS §3): a client no grant served is judged as taking client
      // credentials, so the scenarios show what the target answers to its credentials.
      c.grants = taken.length > 0 ? taken : ['client_credentials'];
      x.learn(
        keyOf(x.p, c, 'grants'),
        c.grants,
        taken.length > 0
          ? notes.join('; ')
          : `no grant was answered with a token (${notes.join('; ')}): judged as client credentials`,
      );
    }
    if (c.grants.includes('client_credentials') && userOpen(c)) {
      if (ccToken === undefined) {
        const r = await ask(c, 'client_credentials', undefined);
        if (r.got?.ok) ccToken = r.got.token;
      }
      if (ccToken !== undefined) await learnTokenUser(x, c, ccToken);
    }
  }
  finishOAuth2(x.p);
}

/** Whom a client-credentials token acts for: the first user whose records it opens, else nobody (and what it opens). */
async function learnTokenUser(x: OAuth2LearnContext, c: ResolvedOAuth2Client, token: string): Promise<void> {
  const records = recordsPathOf(x.p);
  const get = async (path: string) => {
    const r: HttpRequest = { method: 'GET', url: join(x.tls!, path), headers: { authorization: `Bearer ${token}` } };
    const res = await x.send(r);
    return { ok: ok(res), line: x.line(r, res) };
  };
  const notes: string[] = [];
  const declaredNone = c.user === null;
  if (records !== undefined && !declaredNone) {
    for (const u of x.p.users) {
      const seen = await get(records.replace('{user}', encodeURIComponent(u.name)));
      notes.push(seen.line);
      if (seen.ok) {
        c.user = u.name;
        x.learn(
          keyOf(x.p, c, 'user'),
          u.name,
          `a client-credentials token opens ${u.name}'s records: ${notes.join('; ')}`,
        );
        return;
      }
    }
  }
  c.user = null;
  const reads: string[] = [];
  for (const r of x.p.protected.filter((q) => !q.path.includes('{'))) {
    const seen = await get(r.path);
    notes.push(seen.line);
    if (seen.ok) reads.push(r.path);
  }
  c.reads = reads;
  x.learn(
    keyOf(x.p, c, declaredNone ? 'reads' : 'user'),
    declaredNone ? reads : null,
    `a client-credentials token acts for no user (it opens no user's records${reads.length > 0 ? `; it opens ${reads.join(', ')}` : ''}): ${notes.join('; ')}`,
  );
}

function errorOf(res: HttpResponse | undefined): string {
  if (res === undefined || res.status < 400) return '';
  try {
    const e = (JSON.parse(Buffer.from(res.body).toString('utf8')) as { error?: unknown }).error;
    return typeof e === 'string' ? ` ${e}` : '';
  } catch {
    return '';
  }
}
