/**
 * `conform init`: probes a target and drafts its profile. The target's bases are tried once each; the header signed
 * requests travel in, and whether they work over plain HTTP, are found by trials; then the run's own learning
 * (harness/src/learn/, with the draft's extras) settles the rest; last, whether a user's records are the owner's
 * only. Nothing is invented: the credentials are the caller's, and a key the trials cannot settle is left out with
 * why (render.ts writes them as comments).
 */
import { createAuthenticator, type Authenticator } from '../auth/authenticator.js';
import type { HttpRequest, HttpResponse } from '../http/client.js';
import { learnOpenPoints, type LearnedPoint } from '../learn/learn.js';
import { join, ok } from '../learn/common.js';
import {
  recordsPathOf,
  resolveProfile,
  type ProfileData,
  type ResolvedProfile,
  type Scheme,
} from '../profile/schema.js';
import type { Bases, RawExchange } from '../runner/exec-types.js';
import { createRedactor } from '../runner/redact.js';

import { oauth2Metadata } from './metadata.js';
import { baseFor, collectSecrets, findHmacHeader, schemeFits } from './probes.js';
import type { Draft, DraftInput, DraftKey } from './types.js';

export type { Draft, DraftInput, DraftKey, InitSecret, InitUser } from './types.js';

/** Probes the target and drafts its profile. Undefined `bases` answered: the caller reports the target unreachable. */
export async function draftProfile(input: DraftInput): Promise<Draft> {
  const exchanges: RawExchange[] = [];
  const send = async (request: HttpRequest): Promise<HttpResponse | undefined> => {
    const sent = await input.client.send(request);
    exchanges.push({
      step: 0,
      stepName: 'init',
      request,
      ...(sent.ok ? { response: sent.response } : { error: sent.error }),
    });
    return sent.ok ? sent.response : undefined;
  };
  const line = (r: HttpRequest, res: HttpResponse | undefined) =>
    `${r.method} ${new URL(r.url).pathname} → ${res === undefined ? 'no answer' : res.status}`;
  const keys: DraftKey[] = [];
  const put = (key: string, value: unknown, how: string, off = false) =>
    keys.push({ key, value, how, ...(off ? { off: true } : {}) });

  // --- the bases
  const bases: Draft['bases'] = [];
  for (const url of [input.targets.http, input.targets.https]) {
    if (url === undefined) continue;
    const r: HttpRequest = { method: 'GET', url: join(url, '/'), headers: {} };
    const sent = await input.client.send(r);
    exchanges.push({
      step: 0,
      stepName: 'init',
      request: r,
      ...(sent.ok ? { response: sent.response } : { error: sent.error }),
    });
    bases.push({
      url,
      answered: sent.ok,
      how: sent.ok ? `GET / → ${sent.response.status}` : `no answer: ${sent.error.message}`,
      ...(!sent.ok && sent.error.code === 'TLS' ? { untrusted: true } : {}),
    });
  }
  const http = bases.find((b) => b.answered && b.url.startsWith('http:'))?.url;
  const https = bases.find((b) => b.answered && b.url.startsWith('https:'))?.url;
  const secrets = collectSecrets(input);
  const empty = { bases, keys, users: [], exchanges, leftovers: [], secrets };
  if (http === undefined && https === undefined) return empty;
  if (input.insecure && https) put('target.insecure', true, 'given --insecure: the certificate is not verified');

  // --- the probing profile: the caller's credentials; Basic and OAuth only where TLS carries them (§5)
  const data: ProfileData = {
    target: { ...(http ? { http } : {}), ...(https ? { https } : {}), ...(input.insecure ? { insecure: true } : {}) },
    users: input.users.map((u) => ({
      name: u.name,
      ...(u.password && https ? { password: u.password.value } : {}),
      ...(u.secret ? { secret: u.secret.value } : {}),
    })),
    auth: {
      ...(input.oauth2 && https
        ? {
            oauth2: {
              tokenEndpoint: input.oauth2.tokenEndpoint,
              clientId: input.oauth2.clientId.value,
              clientSecret: input.oauth2.clientSecret.value,
              clientAuth: ['basic', 'form'],
            },
          }
        : {}),
      ...(input.oauth1 && https
        ? {
            oauth1: {
              temporaryEndpoint: input.oauth1.temporaryEndpoint,
              authorizeEndpoint: input.oauth1.authorizeEndpoint,
              tokenEndpoint: input.oauth1.tokenEndpoint,
              consumerKey: input.oauth1.consumerKey.value,
              consumerSecret: input.oauth1.consumerSecret.value,
            },
          }
        : {}),
    },
  };
  // RFC 8414: the authorization server's metadata, where it is served, names the endpoints the grants need.
  if (data.auth?.oauth2 && https) {
    const found = await oauth2Metadata(https, send, line);
    if (found.authorizeEndpoint) {
      data.auth.oauth2.authorizeEndpoint = found.authorizeEndpoint;
      put('auth.oauth2.authorizeEndpoint', found.authorizeEndpoint, found.how);
    }
    if (found.revokeEndpoint) put('auth.oauth2.revokeEndpoint', found.revokeEndpoint, found.how);
    if (found.pkce) put('auth.oauth2.pkce', true, `${found.how}: code_challenge_methods_supported lists S256`);
    if (input.oauth2?.redirectUri) {
      data.auth.oauth2.redirectUri = input.oauth2.redirectUri;
      put('auth.oauth2.redirectUri', input.oauth2.redirectUri, 'given in CONFORM_OAUTH2_REDIRECT_URI');
    }
  }
  const seed = resolveProfile(data, 'conform init');
  seed.declared = new Set(['target', 'users', 'auth.oauth2', 'auth.oauth1']);
  const authenticator = createAuthenticator({ profile: seed, ...(input.now ? { now: input.now } : {}) });
  const bases2: Bases = { primary: http ?? https!, ...(http ? { plain: http } : {}), ...(https ? { tls: https } : {}) };

  if (!https && input.users.some((u) => u.password))
    put(
      'users[].password',
      undefined,
      'not tried: Basic must not be used over plain HTTP (§5) and no https target answered',
      true,
    );

  // --- where signed requests go, and over which transport
  const signer = input.users.find((u) => u.secret);
  const records = recordsPathOf(seed);
  if (signer && records) {
    const found = await findHmacHeader(seed, authenticator, send, line, signer.name, records, bases2);
    if (found.header) {
      seed.auth.hmacHeader = found.header;
      put('auth.hmacHeader', found.header, found.how);
      const tlsOnly: Scheme[] = seed.auth.tlsOnly.filter((s) => s !== 'hmac' && s !== 'hmac-nonce');
      if (!found.plain) tlsOnly.push('hmac', 'hmac-nonce');
      seed.auth.tlsOnly = tlsOnly;
    } else put('auth.hmacHeader', 'Authentication', found.how, true);
  }

  // --- the run's own learning, with the draft's extras
  const redactor = createRedactor(secrets);
  const outcome = await learnOpenPoints({
    client: input.client,
    bases: bases2,
    profile: seed,
    authenticator,
    redactor,
    uniq: input.uniq,
    draft: true,
  });
  exchanges.push(...outcome.exchanges);
  const p = outcome.profile;
  // Without a write taken, what the article trials concluded rests on refusals: left out, with the answers.
  const wrote = outcome.learned.some((l) => l.key === 'articles.mediaType');
  for (const l of outcome.learned)
    if (!wrote && l.key === 'articles.clientChosenPut') put(l.key, l.value, `no write was taken: ${l.how}`, true);
    else placeLearned(l, p, put);
  put(
    'auth.tlsOnly',
    // As the comment says: all of Basic and the OAuth family (listed or not), and the signed forms where refused.
    (['basic', 'oauth2', 'oauth1', 'hmac', 'hmac-nonce'] as const).filter(
      (s) => p.auth.tlsOnly.includes(s) || s === 'basic' || s === 'oauth2' || s === 'oauth1',
    ),
    signer && !p.auth.tlsOnly.includes('hmac-nonce')
      ? 'Basic and the OAuth family are TLS-only by §5; signed requests were taken over plain HTTP'
      : 'Basic and the OAuth family are TLS-only by §5; signed requests were refused over plain HTTP',
  );

  // --- whose records are whose
  const owner = p.users[0];
  const other = p.users[1];
  const scheme = p.auth.schemes.find((s) => s === 'hmac-nonce' || s === 'hmac' || s === 'basic');
  if (records && owner && scheme) {
    const path = (user: string) => records.replace('{user}', encodeURIComponent(user));
    const anonymous: HttpRequest = {
      method: 'GET',
      url: join(baseFor(p, scheme, bases2), path(owner.name)),
      headers: {},
    };
    // §5.4 leaves the refusal open: a suggestion that fails the target it was drawn from would be worse than none
    // (issue 33), so every kind of missing or wrong credentials the suite sends is tried, and the suggestion is all
    // the statuses seen — for the user to check against the service's documentation before declaring it.
    const refusals: string[] = [];
    const statuses = new Set<number>();
    const tryRefusal = async (what: string, request: HttpRequest | undefined) => {
      if (request === undefined) return;
      const res = await send(request);
      const challenge = res === undefined ? undefined : [res.headers['www-authenticate'] ?? []].flat().join(', ');
      refusals.push(`${what}: ${line(request, res)}${challenge ? ` (WWW-Authenticate: ${challenge})` : ''}`);
      if (res !== undefined && res.status >= 400 && res.status < 500) statuses.add(res.status);
    };
    const wrong = (applied: ReturnType<Authenticator['apply']>) => (applied.ok ? applied.request : undefined);
    const signed = p.auth.schemes.find((s) => s === 'hmac-nonce' || s === 'hmac');
    const basicBase = bases2.tls;
    await tryRefusal('no credentials', anonymous);
    if (signed !== undefined)
      await tryRefusal(
        'a wrong digest',
        wrong(
          authenticator
            .withProfile(p)
            .apply({ ...anonymous, url: join(baseFor(p, signed, bases2), path(owner.name)) }, signed, owner.name, {
              digestMutation: { kind: 'replace', index: 0, char: 'x' },
            }),
        ),
      );
    if (p.auth.schemes.includes('basic') && basicBase !== undefined && owner.password !== undefined)
      await tryRefusal(
        'a wrong password',
        wrong(
          authenticator
            .withProfile(p)
            .apply({ ...anonymous, url: join(basicBase, path(owner.name)) }, 'basic', owner.name, {
              passwordMutation: { kind: 'extend', suffix: 'x' },
            }),
        ),
      );
    put(
      'auth.refusalStatus',
      statuses.size === 0 ? [401] : [...statuses].sort(),
      `seen: ${refusals.join('; ')} — every status seen is suggested; left unset, any refusing 4xx is accepted. Declare it only as your documentation states it for missing or wrong credentials (someone else's records may still be 403 or 404, a malformed credential 400)`,
      true,
    );
    if (other && schemeFits(other, scheme)) {
      const r = { method: 'GET', url: join(baseFor(p, scheme, bases2), path(other.name)), headers: {} };
      const applied = authenticator.withProfile(p).apply(r, scheme, owner.name);
      const res = applied.ok ? await send(applied.request) : undefined;
      if (res !== undefined && res.status < 500) {
        const ownerOnly = !ok(res);
        put(
          'protected',
          [{ path: '/' }, { path: records, ownerOnly }],
          `${owner.name} reading ${other.name}'s records: ${line(r, res)}`,
        );
      }
    }
  }

  return {
    bases,
    keys,
    users: input.users.map((u) => ({
      name: u.name,
      ...(u.password ? { password: u.password.ref } : {}),
      ...(u.secret ? { secret: u.secret.ref } : {}),
    })),
    ...(input.oauth2 && p.auth.oauth2
      ? {
          oauth2: {
            tokenEndpoint: input.oauth2.tokenEndpoint,
            clientId: input.oauth2.clientId.ref,
            clientSecret: input.oauth2.clientSecret.ref,
          },
        }
      : {}),
    ...(input.oauth1 && p.auth.oauth1
      ? {
          oauth1: {
            temporaryEndpoint: input.oauth1.temporaryEndpoint,
            authorizeEndpoint: input.oauth1.authorizeEndpoint,
            tokenEndpoint: input.oauth1.tokenEndpoint,
            consumerKey: input.oauth1.consumerKey.ref,
            consumerSecret: input.oauth1.consumerSecret.ref,
          },
        }
      : {}),
    exchanges,
    leftovers: outcome.leftovers,
    secrets,
  };
}

/** A learned point as the draft writes it: OAuth 1's approval way is learned anew at each run (the profile cannot pin a page's form). */
function placeLearned(
  l: LearnedPoint,
  p: ResolvedProfile,
  put: (k: string, v: unknown, how: string, off?: boolean) => void,
) {
  if (l.key === 'auth.oauth1.approval') {
    put(l.key, undefined, `learned at each run (this time: ${l.how})`, true);
    return;
  }
  if (l.key === 'auth.oauth2.ttl' && !p.auth.oauth2) return;
  // What a user-less token opens is learned at each run: no profile key holds it.
  if (l.key.startsWith('auth.oauth2') && l.key.endsWith('.reads')) return;
  put(l.key, l.value, l.how);
}
