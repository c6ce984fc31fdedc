/**
 * The resource owner's approval of OAuth 1 temporary credentials (RFC 5849 §2.2). The RFC leaves its form to the
 * server — "the way the server handles the authorization request … is beyond the scope of this specification" — so
 * the harness finds the target's way, as a person with a browser would, and keeps it for the run:
 *
 * 1. `GET <authorize>?oauth_token=…` with the owner's credentials. A verifier in the answer (a redirect's Location,
 *    or the body) ends it. An answer that is a page with a form (the GET only describes the pending request) has
 *    its form submitted as a browser would — its method and action, its hidden and filled fields, the first submit
 *    button that is not a refusal ("deny", "cancel", "no").
 * 2. `POST <authorize>` with `oauth_token` (and `confirm=yes`) in a form body.
 *
 * Each is tried with every scheme the owner can authenticate with (Basic, then the signed forms), until one yields a
 * verifier. The profile may pin the way (`auth.oauth1.approval`). A verifier is read from a redirect's `Location`
 * (query or fragment), or from the body: form-encoded, JSON, or HTML/text holding `oauth_verifier`.
 *
 * The owner may also deny, the same way with the refusal's fields (`auth.oauth1.deny`, or the refusing button a page's
 * form was seen to offer): what the target answers is kept, a verifier in it included.
 */
import type { AuthScheme, Authenticator } from '../auth/authenticator.js';
import type { HttpClient, HttpRequest, HttpResponse } from '../http/client.js';
import { formEncode } from '../http/percent.js';
import type { OAuth1Denial, ResolvedProfile } from '../profile/schema.js';
import { denyingFields, formOf, verifierIn } from './approval-page.js';
import type { TokenExchange } from './exchange.js';

/** How the owner approves: which request, and which scheme authenticates the owner. */
export interface ApprovalWay {
  /** `get`: GET with the token in the query; `form`: the page's form, submitted; `post`: POST with the token in a form body. */
  kind: 'get' | 'form' | 'post';
  scheme: 'basic' | 'hmac' | 'hmac-nonce';
}

export type ApprovalResult =
  | { ok: true; verifier: string; way: ApprovalWay; exchanges: TokenExchange[] }
  | {
      ok: false;
      reason: string;
      exchanges: TokenExchange[];
      /** Every answer was a refusal of the owner's credentials (4xx): the owner was not let in at all. */
      refused: boolean;
    };

/**
 * What a denial gave: the target's answer in words, and the verifier it carried if any; or why the owner could not
 * deny (no way to deny known, no credentials, no answer).
 */
export type DenialResult =
  | { ok: true; answer: string; verifier?: string; exchanges: TokenExchange[] }
  | { ok: false; reason: string; exchanges: TokenExchange[] };

export interface Approver {
  /** The owner `user` approves temporary credentials `token` at `base` (the TLS base URL, as a rule). */
  approve(token: string, user: string, base: string): Promise<ApprovalResult>;
  /** The owner `user` denies temporary credentials `token` at `base`, the way {@link denial} says. */
  deny(token: string, user: string, base: string): Promise<DenialResult>;
  /** The way found so far in this run (or pinned), for reports. */
  way(): ApprovalWay | undefined;
  /** How the owner denies: declared (`auth.oauth1.deny`), or the refusing button of a page's form seen so far. */
  denial(): OAuth1Denial | undefined;
}

interface Deps {
  client: HttpClient;
  profile: ResolvedProfile;
  authenticator: Authenticator;
  /** Called for every secret obtained (a verifier), so reports never show it. */
  secret: (value: string) => void;
  /** A way found earlier (while learning the target's open points): tried first. */
  known?: ApprovalWay;
}

/** One way tried once: the verifier the answer carried, the way, the answer in words. */
interface Attempt {
  verifier?: string;
  way: ApprovalWay;
  note: string;
  /** The answer refused the owner (4xx). */
  refused: boolean;
  /** No answer (or no request could be made): `note` says why. */
  broken?: true;
}

const join = (base: string, path: string) => base.replace(/\/$/, '') + path;
const text = (b: Uint8Array) => Buffer.from(b).toString('utf8');
const header = (r: HttpResponse, name: string) => [r.headers[name] ?? []].flat()[0];
const form = (pairs: ReadonlyArray<readonly [string, string]>) =>
  pairs.map(([k, v]) => `${formEncode(k)}=${formEncode(v)}`).join('&');

/** The owner's schemes, in the order they are tried: Basic (what a login form is), then the signed forms. */
export function ownerSchemes(profile: ResolvedProfile, user: string): ApprovalWay['scheme'][] {
  const u = profile.users.find((x) => x.name === user);
  if (!u) return [];
  const out: ApprovalWay['scheme'][] = [];
  if (u.password !== undefined) out.push('basic');
  if (u.secret !== undefined) out.push('hmac-nonce', 'hmac');
  return out;
}

export function createApprover(deps: Deps): Approver {
  const pinned = deps.profile.auth.oauth1?.approval;
  let found: ApprovalWay | undefined = deps.known;
  let seenDenial: OAuth1Denial | undefined;
  const denial = () => deps.profile.auth.oauth1?.deny ?? seenDenial;

  const send = async (
    exchanges: TokenExchange[],
    request: HttpRequest,
    scheme: AuthScheme,
    user: string,
  ): Promise<HttpResponse | string> => {
    const applied = deps.authenticator.apply(request, scheme, user, {});
    if (!applied.ok) return applied.reason;
    const sent = await deps.client.send(applied.request);
    exchanges.push(
      sent.ok
        ? { purpose: 'credentials', request: applied.request, response: sent.response }
        : { purpose: 'credentials', request: applied.request, error: sent.error },
    );
    return sent.ok ? sent.response : `${request.method} ${new URL(request.url).pathname}: ${sent.error.message}`;
  };

  /** One way, tried once, approving — or denying with `deny`'s fields. */
  const attempt = async (
    way: ApprovalWay,
    r: { token: string; user: string; base: string; exchanges: TokenExchange[]; deny?: Record<string, string> },
  ): Promise<Attempt> => {
    const endpoint = join(r.base, deps.profile.auth.oauth1!.authorizeEndpoint);
    const fields = r.deny ?? pinned?.fields ?? { confirm: 'yes' };
    const post = (url: string, pairs: Array<[string, string]>): HttpRequest => ({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form(pairs),
    });
    // A GET that approves by itself is denied with the refusal's fields in its query.
    const refusal = r.deny !== undefined && way.kind === 'get' ? `&${form(Object.entries(r.deny))}` : '';
    const get: HttpRequest = {
      method: 'GET',
      url: `${endpoint}?oauth_token=${encodeURIComponent(r.token)}${refusal}`,
      headers: {},
    };
    const first = await send(
      r.exchanges,
      way.kind === 'post' ? post(endpoint, [['oauth_token', r.token], ...Object.entries(fields)]) : get,
      way.scheme,
      r.user,
    );
    if (typeof first === 'string') return { way, note: first, refused: false, broken: true };
    const what = way.kind === 'post' ? 'POST' : 'GET';
    const direct = verifierIn(first);
    if (direct !== undefined) return { verifier: direct, way, note: describe(what, way, first), refused: false };
    // A GET that only describes the pending request: its page's form is what a person would submit.
    const page =
      way.kind === 'post' || first.status < 200 || first.status >= 300 ? undefined : formOf(text(first.body), endpoint);
    if (!page) return { way, note: describe(what, way, first), refused: isRefusal(first) };
    if (page.refusal) seenDenial ??= { fields: { [page.refusal[0]]: page.refusal[1] } };
    const pairs = r.deny !== undefined ? denyingFields(page, r.deny) : page.fields;
    const submit: HttpRequest =
      page.method === 'GET'
        ? { method: 'GET', url: `${page.action}${page.action.includes('?') ? '&' : '?'}${form(pairs)}`, headers: {} }
        : post(page.action, pairs);
    const second = await send(r.exchanges, submit, way.scheme, r.user);
    const submitted: ApprovalWay = { kind: 'form', scheme: way.scheme };
    if (typeof second === 'string') return { way: submitted, note: second, refused: false, broken: true };
    const verifier = verifierIn(second);
    return {
      ...(verifier !== undefined ? { verifier } : {}),
      way: submitted,
      note: describe("GET, then the page's form", way, second),
      refused: isRefusal(second),
    };
  };

  /** The ways to try for `user`: the pinned one, else the one found, else every kind with every owner scheme. */
  const waysFor = (user: string): ApprovalWay[] =>
    pinned
      ? [
          {
            kind: pinned.method === 'GET' ? 'get' : 'post',
            scheme: pinned.ownerScheme ?? ownerSchemes(deps.profile, user)[0] ?? 'basic',
          },
        ]
      : found
        ? [found]
        : ownerSchemes(deps.profile, user).flatMap((scheme) =>
            (['get', 'post'] as const).map((kind) => ({ kind, scheme })),
          );
  const noCredentials = (user: string) => `the profile gives ${user} neither a password nor a secret to approve with`;

  const approve: Approver['approve'] = async (token, user, base) => {
    const exchanges: TokenExchange[] = [];
    const ways = waysFor(user);
    if (ways.length === 0) return { ok: false, reason: noCredentials(user), exchanges, refused: false };
    const notes: string[] = [];
    let refused = true;
    for (const way of ways) {
      const result = await attempt(way, { token, user, base, exchanges });
      if (result.verifier !== undefined) {
        deps.secret(result.verifier);
        found ??= result.way;
        return { ok: true, verifier: result.verifier, way: result.way, exchanges };
      }
      refused &&= result.refused;
      notes.push(result.note);
    }
    return {
      ok: false,
      reason: `the authorization step gave no oauth_verifier: ${notes.join('; ')}`,
      exchanges,
      refused,
    };
  };

  // With the way known, its one answer is the denial's. Without it, each way is tried until one is not a refusal (a
  // 4xx may be a scheme the owner cannot use there): that answer is the denial's, or the last refusal.
  const deny: Approver['deny'] = async (token, user, base) => {
    const exchanges: TokenExchange[] = [];
    const how = denial();
    if (how === undefined)
      return { ok: false, reason: 'no way for the owner to deny is known (auth.oauth1.deny)', exchanges };
    const ways = waysFor(user);
    if (ways.length === 0) return { ok: false, reason: noCredentials(user), exchanges };
    let answer: Attempt | undefined;
    const notes: string[] = [];
    for (const way of ways) {
      const a = await attempt(way, { token, user, base, exchanges, deny: how.fields });
      notes.push(a.note);
      if (a.broken) continue;
      answer = a;
      if (a.verifier !== undefined) deps.secret(a.verifier);
      if (a.verifier !== undefined || !a.refused) break;
    }
    if (answer === undefined)
      return { ok: false, reason: `the denial could not be made: ${notes.join('; ')}`, exchanges };
    return {
      ok: true,
      answer: answer.note,
      ...(answer.verifier !== undefined ? { verifier: answer.verifier } : {}),
      exchanges,
    };
  };

  return {
    approve,
    deny,
    denial,
    way: () =>
      found ??
      (pinned ? { kind: pinned.method === 'GET' ? 'get' : 'post', scheme: pinned.ownerScheme ?? 'basic' } : undefined),
  };
}

function isRefusal(r: HttpResponse): boolean {
  return r.status >= 400 && r.status < 500;
}

function describe(what: string, way: ApprovalWay, r: HttpResponse): string {
  const where = header(r, 'location');
  return `${what} with ${way.scheme} → ${r.status}${where !== undefined ? ` to ${where.replace(/(oauth_[a-z_]+)=[^&#]*/g, '$1=…')}` : ''}`;
}
