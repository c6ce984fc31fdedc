/**
 * Where the profile is silent on an open point, the target's choice is learned from its answers before anything is
 * judged (VERDICTS.md §1: "with the profile silent, the harness accepts every choice the words allow — where a check
 * depends on the choice, it first learns the target's choice"). A declared key is never second-guessed: it is
 * checked strictly. What is learned, and from which answers, is reported.
 *
 * What is learned (each only when its key is absent from the profile):
 * - `auth.schemes`: every scheme the profile has credentials for (Basic: a password; the signed forms: a secret;
 *   OAuth 2 and OAuth 1: their settings) is tried once on a protected resource — the user's records, else the
 *   first protected path; the schemes the target accepts are used, the others are left out with the answer.
 * - `auth.signedPathIncludesQuery`: a signed GET with a query, signed over path and query, then over the path alone.
 * - `articles.mediaType`, `auth.bodyHash`, `articles.writeAuth`, `articles.clientChosenPut`, `articles.readable`,
 *   `options.implemented`, `articles.deletable`: one article is created (POST, else PUT), with each media type and
 *   with and without the body hash until one is taken; then without credentials; then PUT at a fresh URL; read
 *   back; OPTIONS on the collection, the item, `/` and the records; and the articles made are deleted.
 * - `auth.oauth2.ttl`: the `expires_in` of the token the OAuth 2 trial obtained.
 * - how the resource owner approves OAuth 1 temporary credentials (oauth/approval.ts), and `auth.oauth1.deny`: how
 *   they deny, from the refusing button of the authorize page's form (oauth1-deny.ts).
 */
import type { AuthOptions, AuthScheme } from '../auth/authenticator.js';
import type { HttpRequest, HttpResponse } from '../http/client.js';
import { finishOAuth2 } from '../profile/oauth2-actors.js';
import { recordsPathOf, type ResolvedProfile, type Scheme } from '../profile/schema.js';
import type { RawExchange } from '../runner/exec-types.js';
import { createTokenSource } from '../oauth/index.js';
import { learnArticles } from './articles.js';
import { notOfferedEvidence } from './credentials.js';
import { learnOAuth1Deny } from './oauth1-deny.js';
import { learnOAuth1Methods } from './oauth1-methods.js';
import { learnOAuth2Clients, oauth2Open } from './oauth2.js';
import { join, ok, schemeUser } from './common.js';
import { orderedExchanges } from './together.js';
import type { LearnDeps, LearnOutcome, LearnedPoint } from './types.js';

export type { LearnDeps, LearnOutcome, LearnedPoint } from './types.js';
export { LEARNABLE_KEYS } from './types.js';

export async function learnOpenPoints(deps: LearnDeps): Promise<LearnOutcome> {
  const declared = deps.profile.declared;
  const silent = (key: string) => !declared.has(key);
  const p: ResolvedProfile = structuredClone(deps.profile);
  const learned: LearnedPoint[] = [];
  const exchanges: RawExchange[] = [];
  const learn = (key: string, value: unknown, how: string) => learned.push({ key, value, how });

  // Independent questions go out together, each on a connection of its own (`concurrent`), and are reported in the
  // order asked, as the sequential learning reported them (together.ts).
  const { record, together } = orderedExchanges(exchanges);
  const send = async (request: HttpRequest, concurrent = false): Promise<HttpResponse | undefined> => {
    const sent = await deps.client.send(request, concurrent ? { concurrent: true } : {});
    record({
      step: 0,
      stepName: 'learning',
      request,
      ...(sent.ok ? { response: sent.response } : { error: sent.error }),
    });
    return sent.ok ? sent.response : undefined;
  };
  const line = (r: HttpRequest, res: HttpResponse | undefined) =>
    `${r.method} ${new URL(r.url).pathname} → ${res === undefined ? 'no answer' : res.status}`;
  // The OAuth 2 clients first: who their tokens act for decides how the schemes below are tried.
  if (oauth2Open(p))
    await learnOAuth2Clients({
      p,
      client: deps.client,
      record: (xs) => {
        for (const x of xs) record({ step: 0, stepName: 'learning', ...x });
      },
      tls: deps.bases.tls ?? (deps.bases.primary.startsWith('https:') ? deps.bases.primary : undefined),
      authenticator: deps.authenticator,
      learn,
      send,
      line,
      secret: (v) => deps.redactor.add(v),
    });

  // While learning, the signers try what the target might want: every scheme, the query in the signed path, a body
  // hash when asked for. What was learned decides afterwards.
  const probe: ResolvedProfile = structuredClone(p);
  if (silent('auth.schemes')) probe.auth.schemes = candidateSchemes(p);
  if (silent('auth.bodyHash')) probe.auth.bodyHash = true;
  if (silent('auth.signedPathIncludesQuery')) probe.auth.signedPathIncludesQuery = true;
  const auth = deps.authenticator.withProfile(probe);
  const tokens = createTokenSource({
    client: deps.client,
    profile: probe,
    authenticator: auth,
    secret: (v) => deps.redactor.add(v),
  });

  const baseFor = (scheme: Scheme | undefined) =>
    scheme !== undefined && p.auth.tlsOnly.includes(scheme) && deps.bases.tls ? deps.bases.tls : deps.bases.primary;

  /** A request with `scheme`'s credentials (OAuth tokens obtained first); undefined with the reason when it cannot be made. */
  const withCredentials = async (
    request: HttpRequest,
    scheme: Scheme,
    user: string,
    options: AuthOptions = {},
  ): Promise<HttpRequest | string> => {
    let extra: AuthOptions = {};
    if (scheme === 'oauth2' || scheme === 'oauth1') {
      // A target whose OAuth 2 tokens act for nobody: the user-less token, for what it opens.
      const userless =
        scheme === 'oauth2' && probe.auth.oauth2?.actor?.user === undefined ? probe.auth.oauth2?.actor : undefined;
      const got = await (userless
        ? tokens.oauth2As(userless, baseFor(scheme))
        : scheme === 'oauth2'
          ? tokens.oauth2(user, baseFor(scheme))
          : tokens.oauth1(user, baseFor(scheme)));
      for (const x of got.exchanges) record({ step: 0, stepName: 'learning', ...x });
      if (!got.ok) return got.reason;
      if (
        scheme === 'oauth2' &&
        got.expiresIn !== undefined &&
        silent('auth.oauth2.ttl') &&
        p.auth.oauth2 &&
        p.auth.oauth2.ttl === undefined &&
        p.auth.oauth2.clients[0] !== undefined
      ) {
        p.auth.oauth2.clients[0].ttl = got.expiresIn;
        finishOAuth2(p);
        learn('auth.oauth2.ttl', got.expiresIn, `the token endpoint gave expires_in ${got.expiresIn}`);
      }
      extra = { token: got.token, ...(got.tokenSecret !== undefined ? { tokenSecret: got.tokenSecret } : {}) };
    }
    const applied = auth.apply(request, scheme as AuthScheme, user, { ...extra, ...options });
    return applied.ok ? applied.request : applied.reason;
  };

  // --- schemes
  const records = recordsPathOf(p);
  /** Schemes refused without evidence that they are not offered (kept for the credential check). */
  const doubtful: Scheme[] = [];
  const resourceFor = (user: string) => (records ?? p.protected[0]?.path)?.replace('{user}', encodeURIComponent(user));
  if (silent('auth.schemes')) {
    // Each scheme is tried on its own, all at once: one round trip (and a token's), not one per scheme; what each
    // found is taken in the profile's order, as if tried one after another.
    const tried = await together(
      probe.auth.schemes.map((scheme) => async (): Promise<{ note?: string; works?: boolean; doubtful?: boolean }> => {
        const userless = scheme === 'oauth2' && p.auth.oauth2?.actor !== undefined && p.auth.oauth2.user === undefined;
        const user = userless ? p.users[0]?.name : schemeUser(p, scheme);
        const path = userless ? p.auth.oauth2?.actor?.path : user === undefined ? undefined : resourceFor(user);
        if (user === undefined || path === undefined) return {};
        if (p.auth.tlsOnly.includes(scheme) && !baseFor(scheme).startsWith('https:'))
          return { note: `${scheme}: not tried — it is TLS-only (§5) and the profile gives no https base` };
        const made = await withCredentials(
          { method: 'GET', url: join(baseFor(scheme), path), headers: {} },
          scheme,
          user,
        );
        if (typeof made === 'string')
          return { doubtful: true, note: `${scheme}: ${made} (the credential check names it)` };
        const res = await send(made, true);
        // A refusal is "not offered" only on positive evidence (VERDICTS.md §3); without it, a wrong credential and a
        // scheme the target lacks look the same, and the credential check before the scenarios stops the run on it.
        const evidence = res === undefined || ok(res) ? undefined : notOfferedEvidence(scheme, res);
        return {
          works: ok(res),
          doubtful: !ok(res) && evidence === undefined,
          note: `${scheme}: ${line(made, res)}${evidence !== undefined ? ` — not offered here: ${evidence}; confirm it by declaring auth.schemes` : ok(res) ? '' : ' — refused with no sign that the scheme is not offered: the credential check names it'}`,
        };
      }),
    );
    const works = probe.auth.schemes.filter((_, k) => tried[k]!.works === true);
    doubtful.push(...probe.auth.schemes.filter((_, k) => tried[k]!.doubtful === true));
    const notes = tried.flatMap((t) => (t.note !== undefined ? [t.note] : []));
    p.auth.schemes = works;
    learn(
      'auth.schemes',
      probe.auth.schemes.filter((s) => works.includes(s) || doubtful.includes(s)),
      notes.join('; ') || 'no scheme could be tried: the profile gives no credentials or no protected resource',
    );
  }

  // --- the query in the signed path
  const signed = p.auth.schemes.find((s): s is 'hmac-nonce' | 'hmac' => s === 'hmac-nonce' || s === 'hmac');
  if (silent('auth.signedPathIncludesQuery') && signed !== undefined) {
    const user = schemeUser(p, signed)!;
    const path = resourceFor(user);
    if (path !== undefined) {
      const url = join(baseFor(signed), `${path}?conform=probe`);
      const withQuery = await withCredentials({ method: 'GET', url, headers: {} }, signed, user);
      const first = typeof withQuery === 'string' ? undefined : await send(withQuery);
      if (ok(first)) {
        p.auth.signedPathIncludesQuery = true;
        learn(
          'auth.signedPathIncludesQuery',
          true,
          `${line(withQuery as HttpRequest, first)}, signed over path and query`,
        );
      } else {
        const without = await withCredentials({ method: 'GET', url, headers: {} }, signed, user, { signAs: { path } });
        const second = typeof without === 'string' ? undefined : await send(without);
        p.auth.signedPathIncludesQuery = false;
        learn(
          'auth.signedPathIncludesQuery',
          false,
          ok(second)
            ? `signed over path and query: ${line(withQuery as HttpRequest, first)}; over the path alone: ${line(without as HttpRequest, second)}`
            : `refused either way (${line(withQuery as HttpRequest, first)}): queries are not signed, and no scenario sends a signed query`,
        );
      }
    }
  }

  // --- the OAuth 1 signature methods beyond HMAC-SHA1 (RFC 5849 §3.4 leaves them to the server)
  if (silent('auth.oauth1.signatureMethods'))
    await learnOAuth1Methods({
      p,
      learn,
      send,
      line,
      withCredentials,
      url: (path) => join(baseFor('oauth1'), path),
      resourceFor,
    });

  // --- articles
  const leftovers: string[] = [];
  const articleKeys = [
    'articles.mediaType',
    'auth.bodyHash',
    'articles.writeAuth',
    'articles.clientChosenPut',
    'articles.readable',
    'articles.deletable',
    'options.implemented',
  ];
  if (articleKeys.some(silent) || deps.draft) {
    await learnArticles({
      p,
      silent,
      learn,
      send,
      together,
      line,
      withCredentials,
      deps,
      resourceFor,
      leftovers,
      ...(deps.draft ? { draft: true } : {}),
    });
  }

  // Whatever the trials did not need to settle keeps its default (signed requests without a body hash when no write
  // could be tried with one).
  if (silent('auth.bodyHash') && !learned.some((l) => l.key === 'auth.bodyHash'))
    p.auth.bodyHash = deps.profile.auth.bodyHash;
  // --- how the owner denies OAuth 1 temporary credentials (the authorize page's refusing button)
  if (silent('auth.oauth1.deny') && !deps.skip?.includes('auth.oauth1.deny'))
    await learnOAuth1Deny({
      p,
      learn,
      tokens,
      base: baseFor('oauth1'),
      record: (xs) => {
        for (const x of xs)
          if (!exchanges.some((e) => e.request === x.request)) exchanges.push({ step: 0, stepName: 'learning', ...x });
      },
    });
  const approval = tokens.approver.way();
  if (approval && silent('auth.oauth1.approval'))
    learn(
      'auth.oauth1.approval',
      approval,
      `the owner approved with ${approval.scheme}, by ${approval.kind === 'get' ? 'GET with the token' : approval.kind === 'form' ? "submitting the authorize page's form" : 'POST with the token in a form body'}`,
    );
  // A scheme refused without evidence is the run's to check: kept, so the credential check names the refusal.
  if (doubtful.length > 0)
    p.auth.schemes = probe.auth.schemes.filter((s) => p.auth.schemes.includes(s) || doubtful.includes(s));
  return { profile: p, learned, ...(approval ? { approval } : {}), exchanges, leftovers };
}

/** The schemes the profile has credentials for, strongest first (as `auto` prefers them). */
export function candidateSchemes(p: ResolvedProfile): Scheme[] {
  const out: Scheme[] = [];
  if (p.users.some((u) => u.secret !== undefined)) out.push('hmac-nonce', 'hmac');
  if (p.users.some((u) => u.password !== undefined)) out.push('basic');
  if (p.auth.oauth2) out.push('oauth2');
  if (p.auth.oauth1) out.push('oauth1');
  return out;
}
