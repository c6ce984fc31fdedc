/** Executes a scenario's steps once, for one set of generated values: the unit a property run repeats. */
import type { Authenticator } from '../auth/types.js';
import type { HttpClient, HttpRequest, HttpResponse } from '../http/client.js';
import type { ArticleValue } from '../generators/article.js';
import type { ResolvedProfile, Scheme } from '../profile/schema.js';
import type { StepData } from '../spec/schema.js';
import { compileTemplate, renderTemplate, stringify, type CompiledTemplate, type Scope } from '../spec/template.js';
import type { Scenario } from '../spec/types.js';
import { serializeArticle } from '../xml/article-xml.js';
import { checkResponse, headerValue, locationPath, parseAllow } from './expect.js';
import type { Redactor } from './redact.js';
import type { Exchange } from './types.js';

export interface ExecDeps {
  client: HttpClient;
  baseUrl: string;
  profile: ResolvedProfile;
  redactor: Redactor;
  authenticator: Authenticator;
  /** A fresh value per execution, so repeated runs never collide on the target. */
  uniq: () => string;
  seed: number;
  /** Most exchanges kept per run for the report. */
  maxTranscript?: number;
}

/** An exchange as sent and received; redacted only when it is kept for a report (see `redactExchange`). */
export interface RawExchange {
  step: number;
  stepName?: string;
  request: HttpRequest;
  response?: HttpResponse;
  error?: { code: string; message: string };
}

export type IterationOutcome =
  | { kind: 'pass'; transcript: RawExchange[]; requests: number }
  | { kind: 'fail'; step: number; stepName?: string; messages: string[]; transcript: RawExchange[]; requests: number }
  | { kind: 'error'; step: number; stepName?: string; message: string; transcript: RawExchange[]; requests: number };

/** The report form of an exchange: credentials masked, secrets removed in every encoding, bodies bounded. */
export function redactExchange(x: RawExchange, redactor: Redactor): Exchange {
  return {
    step: x.step,
    ...(x.stepName ? { stepName: x.stepName } : {}),
    request: {
      method: x.request.method,
      url: redactor.text(x.request.url),
      headers: redactor.headers(x.request.headers) as Record<string, string>,
      ...(x.request.body !== undefined ? { body: redactor.text(bodyText(Buffer.from(x.request.body))) } : {}),
    },
    ...(x.response
      ? { response: { status: x.response.status, headers: redactor.headers(x.response.headers), body: redactor.text(bodyText(x.response.body)), durationMs: Math.round(x.response.durationMs) } }
      : {}),
    ...(x.error ? { error: { code: x.error.code, message: redactor.text(x.error.message) } } : {}),
  };
}

const cache = new Map<string, CompiledTemplate>();
function render(source: string, scope: Scope): unknown {
  if (!source.includes('{{')) return source;
  let t = cache.get(source);
  if (!t) {
    t = compileTemplate(source);
    cache.set(source, t);
  }
  return renderTemplate(t, scope);
}

export const STANDARD_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'];
const UNSAFE = new Set(['POST', 'PUT', 'DELETE', 'PATCH']);

/** Does the profile say this request needs credentials? */
export function needsCredentials(method: string, path: string, profile: ResolvedProfile): boolean {
  const p = path.split('?')[0] ?? path;
  const articlePath = p === profile.articles.collection || p.startsWith(profile.articles.collection + '/') ||
    [profile.articles.item, ...profile.articles.aliases].some((t) => p.startsWith(t.split('{')[0] ?? t));
  if (UNSAFE.has(method.toUpperCase()) && profile.articles.writeAuth && articlePath) return true;
  return profile.protected.some((r) => new RegExp(`^${r.path.split(/\{[^}]*\}/).map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[^/]+')}$`).test(p)) && method.toUpperCase() !== 'OPTIONS';
}

const PREFERENCE: Scheme[] = ['hmac-nonce', 'hmac', 'basic', 'oauth2', 'oauth1'];

function chooseScheme(profile: ResolvedProfile, secure: boolean): Scheme | undefined {
  return PREFERENCE.find((s) => profile.auth.schemes.includes(s) && (secure || !profile.auth.tlsOnly.includes(s)));
}

function joinUrl(base: string, path: string): string {
  return base.replace(/\/$/, '') + (path.startsWith('/') ? path : `/${path}`);
}

function bodyText(body: Uint8Array, max = 4096): string {
  const s = Buffer.from(body.subarray(0, max * 4)).toString('utf8');
  return s.length > max ? `${s.slice(0, max)}… (${body.length} bytes)` : s;
}

/** Runs every step for one set of values. Never throws for target behaviour. */
export async function executeOnce(scenario: Scenario, values: Record<string, unknown>, deps: ExecDeps): Promise<IterationOutcome> {
  const { profile, redactor } = deps;
  const scope: Record<string, unknown> = {
    profile,
    target: deps.baseUrl,
    uniq: deps.uniq(),
    methods: STANDARD_METHODS,
    seed: deps.seed,
    users: profile.users.map((u) => u.name),
    ...values,
  };
  const transcript: RawExchange[] = [];
  const maxTranscript = deps.maxTranscript ?? 40;
  let requests = 0;
  let stepIndex = 0;
  let stepName: string | undefined;
  try {
    for (const l of scenario.let) scope[l.name] = render(l.template, scope);
    for (const [i, step] of scenario.steps.entries()) {
      stepIndex = i + 1;
      stepName = step.name;
      if (step.when !== undefined && !truthy(render(step.when, scope))) continue;
      const items = step.each !== undefined ? toList(render(step.each, scope)) : [undefined];
      for (const item of items) {
        const local = step.each !== undefined ? { ...scope, item } : scope;
        const built = buildRequest(step, local, deps);
        if ('error' in built) return { kind: 'error', step: stepIndex, ...(stepName ? { stepName } : {}), message: built.error, transcript, requests };
        requests++;
        const sent = await deps.client.send(built.request);
        const exchange: RawExchange = { step: stepIndex, ...(stepName ? { stepName } : {}), request: built.request };
        if (transcript.length < maxTranscript) transcript.push(exchange);
        if (!sent.ok) {
          exchange.error = sent.error;
          return { kind: 'error', step: stepIndex, ...(stepName ? { stepName } : {}), message: redactor.text(`${built.request.method} ${pathOf(built.request.url)}: ${sent.error.message}`), transcript, requests };
        }
        const res = sent.response;
        exchange.response = res;
        const messages = checkResponse(res, step.expect, {
          requestUrl: built.request.url,
          baseUrl: deps.baseUrl,
          optionalFields: profile.articles.optionalFields,
          render: (t) => render(t, local),
        });
        if (messages.length > 0) {
          const where = `${built.request.method} ${pathOf(built.request.url)}`;
          return { kind: 'fail', step: stepIndex, ...(stepName ? { stepName } : {}), messages: messages.map((m) => redactor.text(`${where}: ${m}`)), transcript, requests };
        }
        capture(step, res, built.request.url, deps.baseUrl, scope);
      }
    }
    return { kind: 'pass', transcript, requests };
  } catch (err) {
    // A template that cannot be evaluated for these values is a fault of the scenario, not of the target.
    return { kind: 'error', step: stepIndex, ...(stepName ? { stepName } : {}), message: redactor.text(`scenario error: ${(err as Error).message}`), transcript, requests };
  }
}

function truthy(v: unknown): boolean {
  return Array.isArray(v) ? v.length > 0 : Boolean(v) && v !== 'false';
}

function pathOf(url: string): string {
  const u = new URL(url);
  return u.pathname + u.search;
}

function toList(v: unknown): unknown[] {
  return Array.isArray(v) ? v : v === undefined || v === null ? [] : [v];
}

function buildRequest(step: StepData, scope: Scope, deps: ExecDeps): { request: HttpRequest } | { error: string } {
  const r = step.request;
  const method = stringify(render(r.method, scope)).toUpperCase();
  const path = stringify(render(r.path, scope));
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(r.headers ?? {})) headers[k.toLowerCase()] = stringify(render(v, scope));
  let body: string | undefined;
  if (r.body && 'article' in r.body) {
    body = serializeArticle(render(r.body.article, scope) as ArticleValue);
    headers['content-type'] ??= deps.profile.articles.mediaType;
  } else if (r.body && 'raw' in r.body) {
    body = stringify(render(r.body.raw, scope));
    headers['content-type'] ??= deps.profile.articles.mediaType;
  }
  let request: HttpRequest = { method, url: joinUrl(deps.baseUrl, path), headers, ...(body !== undefined ? { body } : {}) };
  const auth = r.auth ?? 'auto';
  if (auth === 'none') return { request };
  const secure = request.url.startsWith('https:');
  let scheme: Scheme | undefined;
  let user = deps.profile.users[0]?.name;
  if (auth === 'auto') {
    if (!needsCredentials(method, path, deps.profile)) return { request };
    scheme = chooseScheme(deps.profile, secure);
    if (!scheme) return { error: `the profile says ${method} ${path} needs credentials but lists no scheme usable over ${secure ? 'TLS' : 'plain HTTP'}` };
  } else {
    scheme = auth.scheme;
    if (auth.user !== undefined) user = stringify(render(auth.user, scope));
  }
  if (!user) return { error: 'the profile lists no users to authenticate as' };
  const applied = deps.authenticator.apply(request, scheme, user);
  if (!applied.ok) return { error: applied.reason };
  request = applied.request;
  return { request };
}

function capture(step: StepData, res: HttpResponse, requestUrl: string, baseUrl: string, scope: Record<string, unknown>): void {
  for (const [name, c] of Object.entries(step.capture ?? {})) {
    if ('header' in c) scope[name] = headerValue(res, c.header);
    else if ('location' in c) {
      const loc = headerValue(res, 'location');
      const r = loc === undefined ? undefined : locationPath(loc, requestUrl, baseUrl, false);
      scope[name] = r && 'path' in r ? r.path : undefined;
    } else if ('allow' in c) scope[name] = parseAllow(headerValue(res, 'allow') ?? '').methods;
    else if ('status' in c) scope[name] = res.status;
  }
}
