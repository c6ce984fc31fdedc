/**
 * Temporary credentials for requests that need credentials when the only schemes the profile offers are the OAuth
 * family: an OAuth 2 access token (a grant of the profile's clients: grants.ts) or OAuth 1 token credentials (the
 * three legs), obtained from the target on first use and kept for the run, until they are about to expire.
 */
import type { Authenticator } from '../auth/authenticator.js';
import type { HttpClient, HttpRequest } from '../http/client.js';
import { formField } from '../http/form.js';
import { actorFor } from '../profile/oauth2-actors.js';
import type { OAuth2Actor, ResolvedProfile } from '../profile/schema.js';
import { requestToken } from './grants.js';
import { createApprover, type Approver } from './approval.js';

import type { TokenExchange } from './exchange.js';

export type { TokenExchange } from './exchange.js';

export type TokenResult =
  | {
      ok: true;
      token: string;
      tokenSecret?: string;
      /** OAuth 2: the lifetime the token endpoint gave (`expires_in`, seconds), when it gave one. */
      expiresIn?: number;
      /** OAuth 2: the refresh token the token endpoint gave (RFC 6749 §5.1), when it gave one. */
      refreshToken?: string;
      exchanges: TokenExchange[];
    }
  | { ok: false; reason: string; exchanges: TokenExchange[] };

export interface TokenSource {
  /** An OAuth 2 access token acting for `user`: its client's client credentials, or a grant `user` completes. */
  oauth2(user: string, base: string): Promise<TokenResult>;
  /** An OAuth 2 access token of this actor (a client, a grant, the user it acts for, or none). */
  oauth2As(actor: OAuth2Actor, base: string): Promise<TokenResult>;
  /** A new OAuth 2 access token of this actor, never kept nor shared (a scenario's own, to revoke or let expire). */
  oauth2Fresh(actor: OAuth2Actor, base: string): Promise<TokenResult>;
  /** OAuth 1 token credentials approved by `user` (the way the target takes approvals: oauth/approval.ts). */
  oauth1(user: string, base: string): Promise<TokenResult>;
  /** The run's way of approving OAuth 1 temporary credentials (shared with the scenarios' `approve` steps). */
  approver: Approver;
}

interface Deps {
  client: HttpClient;
  profile: ResolvedProfile;
  authenticator: Authenticator;
  /** Called for every secret obtained, so reports never show it. */
  secret: (value: string) => void;
  now?: () => number;
  /** The way OAuth 1 approvals are made (default: a new one, which finds the target's way on first use). */
  approver?: Approver;
}

/**
 * Seconds before its expiry that a cached token is no longer handed out: half its lifetime, and at least 2 s — the
 * time a request carrying it may take to be built, queued behind other scenarios and sent on a loaded machine.
 */
const EXPIRY_MARGIN_S = 2;
const marginOf = (ttl: number) => Math.max(EXPIRY_MARGIN_S, ttl / 2);

const join = (base: string, path: string) => base.replace(/\/$/, '') + path;
const text = (b: Uint8Array) => Buffer.from(b).toString('utf8');

export function createTokenSource(deps: Deps): TokenSource {
  const now = deps.now ?? (() => Date.now());
  const approver = deps.approver ?? createApprover(deps);
  const cache = new Map<string, { result: Promise<TokenResult>; until: number }>();

  const cached = (key: string, make: () => Promise<{ result: TokenResult; ttl?: number }>): Promise<TokenResult> => {
    const hit = cache.get(key);
    if (hit && hit.until > now()) return hit.result.then((r) => (r.ok ? { ...r, exchanges: [] } : r));
    const p = make().then(({ result, ttl }) => {
      const entry = cache.get(key);
      if (entry) entry.until = result.ok ? now() + Math.max(0, (ttl ?? 3600) - marginOf(ttl ?? 3600)) * 1000 : 0;
      return result;
    });
    cache.set(key, { result: p, until: Infinity });
    return p;
  };

  const send = async (exchanges: TokenExchange[], request: HttpRequest) => {
    const sent = await deps.client.send(request);
    exchanges.push(
      sent.ok
        ? { purpose: 'credentials', request, response: sent.response }
        : { purpose: 'credentials', request, error: sent.error },
    );
    return sent;
  };

  const oauth2Fresh: TokenSource['oauth2Fresh'] = async (actor, base) => (await fetchToken(actor, base)).result;
  const oauth2As: TokenSource['oauth2As'] = (actor, base) =>
    cached(`oauth2 ${base} ${actor.clientId} ${actor.grant} ${actor.user ?? ''}`, () => fetchToken(actor, base));
  const fetchToken = async (actor: OAuth2Actor, base: string): Promise<{ result: TokenResult; ttl?: number }> => {
    {
      const exchanges: TokenExchange[] = [];
      const got = await requestToken(
        {
          client: deps.client,
          profile: deps.profile,
          authenticator: deps.authenticator,
          secret: deps.secret,
          exchanges,
        },
        actor,
        base,
        (request) => send(exchanges, request),
      );
      if (!got.ok) return { result: { ok: false, reason: got.reason, exchanges } };
      deps.secret(got.token);
      if (got.refreshToken !== undefined) deps.secret(got.refreshToken);
      const ttl = got.expiresIn ?? actor.ttl;
      return {
        result: {
          ok: true,
          token: got.token,
          ...(got.expiresIn !== undefined ? { expiresIn: got.expiresIn } : {}),
          ...(got.refreshToken !== undefined ? { refreshToken: got.refreshToken } : {}),
          exchanges,
        },
        ...(ttl !== undefined ? { ttl } : {}),
      };
    }
  };

  const oauth2: TokenSource['oauth2'] = (user, base) => {
    if (!deps.profile.auth.oauth2)
      return Promise.resolve({ ok: false, reason: 'the profile has no auth.oauth2 settings', exchanges: [] });
    const actor = actorFor(deps.profile, user);
    if (!actor)
      return Promise.resolve({
        ok: false,
        reason: `the profile has no OAuth 2 client whose tokens act for ${user} (client credentials with auth.oauth2.user, or the password or authorization code grant with ${user}'s credentials)`,
        exchanges: [],
      });
    return oauth2As(actor, base);
  };

  const oauth1: TokenSource['oauth1'] = (user, base) => {
    const settings = deps.profile.auth.oauth1;
    if (!settings)
      return Promise.resolve({ ok: false, reason: 'the profile has no auth.oauth1 settings', exchanges: [] });
    return cached(`oauth1 ${base} ${user}`, async () => {
      const exchanges: TokenExchange[] = [];
      const fail = (reason: string) => ({
        result: { ok: false as const, reason: `obtaining OAuth 1 token credentials: ${reason}`, exchanges },
      });
      const step = async (
        request: HttpRequest,
        scheme: 'oauth1' | 'basic',
        options: Parameters<Authenticator['apply']>[3],
        fields: string[],
      ) => {
        const applied = deps.authenticator.apply(request, scheme, user, options);
        if (!applied.ok) return applied.reason;
        const what = `${request.method} ${new URL(request.url).pathname}`;
        const sent = await send(exchanges, applied.request);
        if (!sent.ok) return `${what}: ${sent.error.message}`;
        const body = text(sent.response.body);
        const values = fields.map((f) => formField(body, f));
        if (sent.response.status !== 200 || values.some((v) => v === undefined))
          return `${what} answered ${sent.response.status} without ${fields.join(' and ')}`;
        for (const v of values) deps.secret(v!);
        return values as string[];
      };
      const temporary = await step(
        { method: 'POST', url: join(base, settings.temporaryEndpoint), headers: {} },
        'oauth1',
        { callback: 'oob' },
        ['oauth_token', 'oauth_token_secret'],
      );
      if (typeof temporary === 'string') return fail(temporary);
      const [tmp, tmpSecret] = temporary as [string, string];
      const approved = await approver.approve(tmp, user, base);
      exchanges.push(...approved.exchanges);
      if (!approved.ok) return fail(approved.reason);
      const token = await step(
        { method: 'POST', url: join(base, settings.tokenEndpoint), headers: {} },
        'oauth1',
        { token: tmp, tokenSecret: tmpSecret, verifier: approved.verifier },
        ['oauth_token', 'oauth_token_secret'],
      );
      if (typeof token === 'string') return fail(token);
      return { result: { ok: true, token: token[0]!, tokenSecret: token[1]!, exchanges } };
    });
  };

  return { oauth2, oauth2As, oauth2Fresh, oauth1, approver };
}
