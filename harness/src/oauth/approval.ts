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
 */
import type { AuthScheme, Authenticator } from '../auth/authenticator.js';
import type { HttpClient, HttpRequest, HttpResponse } from '../http/client.js';
import { formField } from '../http/form.js';
import { formEncode } from '../http/percent.js';
import type { ResolvedProfile } from '../profile/schema.js';
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

export interface Approver {
  /** The owner `user` approves temporary credentials `token` at `base` (the TLS base URL, as a rule). */
  approve(token: string, user: string, base: string): Promise<ApprovalResult>;
  /** The way found so far in this run (or pinned), for reports. */
  way(): ApprovalWay | undefined;
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

const join = (base: string, path: string) => base.replace(/\/$/, '') + path;
const text = (b: Uint8Array) => Buffer.from(b).toString('utf8');
const header = (r: HttpResponse, name: string) => [r.headers[name] ?? []].flat()[0];

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

  /** One way, tried once: the verifier and the way that gave it, or what the target answered instead. */
  const attempt = async (
    way: ApprovalWay,
    token: string,
    user: string,
    base: string,
    exchanges: TokenExchange[],
  ): Promise<{ verifier?: string; way: ApprovalWay; note: string; refused: boolean }> => {
    const endpoint = join(base, deps.profile.auth.oauth1!.authorizeEndpoint);
    const fields = pinned?.fields ?? { confirm: 'yes' };
    const form = (pairs: Array<[string, string]>) =>
      pairs.map(([k, v]) => `${formEncode(k)}=${formEncode(v)}`).join('&');
    const post = (url: string, pairs: Array<[string, string]>): HttpRequest => ({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form(pairs),
    });
    const get: HttpRequest = {
      method: 'GET',
      url: `${endpoint}?oauth_token=${encodeURIComponent(token)}`,
      headers: {},
    };
    const first = await send(
      exchanges,
      way.kind === 'post' ? post(endpoint, [['oauth_token', token], ...Object.entries(fields)]) : get,
      way.scheme,
      user,
    );
    if (typeof first === 'string') return { way, note: first, refused: false };
    const direct = verifierIn(first);
    if (direct !== undefined) return { verifier: direct, way, note: '', refused: false };
    // A GET that only describes the pending request: its page's form is what a person would submit.
    const page =
      way.kind === 'post' || first.status < 200 || first.status >= 300 ? undefined : formOf(text(first.body), endpoint);
    if (!page)
      return { way, note: describe(way.kind === 'post' ? 'POST' : 'GET', way, first), refused: isRefusal(first) };
    const submit: HttpRequest =
      page.method === 'GET'
        ? {
            method: 'GET',
            url: `${page.action}${page.action.includes('?') ? '&' : '?'}${form(page.fields)}`,
            headers: {},
          }
        : post(page.action, page.fields);
    const second = await send(exchanges, submit, way.scheme, user);
    const submitted: ApprovalWay = { kind: 'form', scheme: way.scheme };
    if (typeof second === 'string') return { way: submitted, note: second, refused: false };
    const verifier = verifierIn(second);
    return {
      ...(verifier !== undefined ? { verifier } : {}),
      way: submitted,
      note: describe("GET, then the page's form", way, second),
      refused: isRefusal(second),
    };
  };

  const approve: Approver['approve'] = async (token, user, base) => {
    const exchanges: TokenExchange[] = [];
    const ways: ApprovalWay[] = pinned
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
    if (ways.length === 0)
      return {
        ok: false,
        reason: `the profile gives ${user} neither a password nor a secret to approve with`,
        exchanges,
        refused: false,
      };
    const notes: string[] = [];
    let refused = true;
    for (const way of ways) {
      const result = await attempt(way, token, user, base, exchanges);
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

  return {
    approve,
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

/**
 * The `oauth_verifier` an answer carries: in a redirect's Location (query or fragment), or in the body — form-encoded,
 * JSON, or HTML/text (`oauth_verifier=…`, `"oauth_verifier": "…"`, an input named oauth_verifier).
 */
export function verifierIn(r: HttpResponse): string | undefined {
  const location = header(r, 'location');
  if (location !== undefined && r.status >= 300 && r.status < 400) {
    const parts = location.split(/[?#]/).slice(1);
    for (const part of parts) {
      const v = formField(part, 'oauth_verifier');
      if (v) return v;
    }
  }
  if (r.status < 200 || r.status >= 300) return undefined;
  const body = text(r.body).trim();
  const form = formField(body, 'oauth_verifier');
  if (form && !/[\s<>"]/.test(form)) return form;
  try {
    const json = JSON.parse(body) as unknown;
    if (
      typeof json === 'object' &&
      json !== null &&
      typeof (json as Record<string, unknown>)['oauth_verifier'] === 'string'
    )
      return (json as Record<string, string>)['oauth_verifier'];
  } catch {
    /* not JSON */
  }
  const input = /<input\b[^>]*\bname\s*=\s*["']?oauth_verifier["']?[^>]*>/i.exec(body)?.[0];
  const value = input === undefined ? undefined : /\bvalue\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(input);
  if (value) return decodeEntities(value[1] ?? value[2] ?? value[3] ?? '');
  const labelled = /oauth_verifier["']?\s*[:=]\s*["']?([A-Za-z0-9._~%+/-]+)/.exec(body);
  return labelled?.[1] !== undefined ? decodeURIComponent(labelled[1]) : undefined;
}

const REFUSING_BUTTON = /^(deny|cancel|no|reject|decline|refuse)$/i;

/**
 * The first form of an HTML page as a browser submits it: method, absolute action, and the fields — hidden and text
 * inputs with their values, checked checkboxes and radios, the first submit button that does not refuse.
 */
export function formOf(
  html: string,
  pageUrl: string,
): { method: 'GET' | 'POST'; action: string; fields: Array<[string, string]> } | undefined {
  const open = /<form\b([^>]*)>/i.exec(html);
  if (!open) return undefined;
  const close = html.indexOf('</form', open.index);
  const inner = html.slice(open.index + open[0].length, close < 0 ? undefined : close);
  const attr = (tag: string, name: string) => {
    const m = new RegExp(`\\b${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(tag);
    return m === null ? undefined : decodeEntities(m[1] ?? m[2] ?? m[3] ?? '');
  };
  const method = (attr(open[1] ?? '', 'method') ?? 'GET').toUpperCase() === 'POST' ? 'POST' : 'GET';
  const action = new URL(attr(open[1] ?? '', 'action') ?? '', pageUrl).toString();
  const fields: Array<[string, string]> = [];
  let submitted = false;
  for (const m of inner.matchAll(/<(input|button)\b([^>]*)>/gi)) {
    const tag = m[2] ?? '';
    const name = attr(tag, 'name');
    const type = (attr(tag, 'type') ?? (m[1]!.toLowerCase() === 'button' ? 'submit' : 'text')).toLowerCase();
    if (name === undefined) continue;
    const value = attr(tag, 'value') ?? (type === 'checkbox' || type === 'radio' ? 'on' : '');
    if (type === 'submit' || type === 'image') {
      if (submitted || REFUSING_BUTTON.test(value) || REFUSING_BUTTON.test(name)) continue;
      submitted = true;
      fields.push([name, value]);
    } else if (type === 'checkbox' || type === 'radio') {
      if (/\bchecked\b/i.test(tag)) fields.push([name, value]);
    } else if (type !== 'reset' && type !== 'file') fields.push([name, value]);
  }
  return { method, action, fields };
}

function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#[0-9]+|amp|lt|gt|quot|apos);/gi, (_, e: string) => {
    const lower = e.toLowerCase();
    if (lower.startsWith('#x')) return String.fromCodePoint(Number.parseInt(lower.slice(2), 16));
    if (lower.startsWith('#')) return String.fromCodePoint(Number.parseInt(lower.slice(1), 10));
    return { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }[lower] ?? '';
  });
}
