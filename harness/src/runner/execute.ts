/** Executes a scenario's steps once, for one set of generated values: the unit a property run repeats. */
import type { AuthOptions, AuthScheme, Authenticator } from '../auth/authenticator.js';
import { applyMutation, type Mutation } from '../auth/mutations.js';
import type { HttpClient, HttpRequest, HttpResponse, SendResult } from '../http/client.js';
import { formEncode, formField } from '../http/form.js';
import type { ArticleValue } from '../generators/article.js';
import type { ResolvedProfile, Scheme } from '../profile/schema.js';
import type { CheckName, StepData } from '../spec/schema.js';
import { compileTemplate, renderTemplate, stringify, type CompiledTemplate, type Scope } from '../spec/template.js';
import type { Scenario } from '../spec/types.js';
import { serializeArticle } from '../xml/article-xml.js';
import { checkResponseByCheck, headerValue, locationPath, parseAllow, statusMatches, statusSet, type LocationOrigins } from './expect.js';
import type { Redactor } from './redact.js';
import { createTokenSource, type TokenExchange, type TokenSource } from './tokens.js';
import type { Exchange } from './types.js';
import { OobListener } from './oob.js';

/** Base URLs of the target: the primary one (--target, else plain, else TLS) and each transport when known. */
export interface Bases {
  primary: string;
  plain?: string;
  tls?: string;
}

export interface ExecDeps {
  client: HttpClient;
  bases: Bases;
  profile: ResolvedProfile;
  redactor: Redactor;
  authenticator: Authenticator;
  /** A fresh value per execution, so repeated runs never collide on the target. */
  uniq: () => string;
  seed: number;
  /** The harness clock. */
  now?: () => Date;
  /** Most exchanges kept per run for the report. */
  maxTranscript?: number;
  /** Where OAuth tokens come from when a request needs one it was not given (default: obtained from the target, kept per authenticator). */
  tokens?: TokenSource;
  /** The out-of-band listener of this iteration (scenarios that require `oob`). */
  oob?: OobListener;
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
  | { kind: 'pass'; transcript: RawExchange[]; requests: number; emptyEach?: string }
  | { kind: 'fail'; step: number; stepName?: string; messages: string[]; transcript: RawExchange[]; requests: number; rules?: string[] }
  | { kind: 'error'; step: number; stepName?: string; message: string; transcript: RawExchange[]; requests: number; precondition?: Precondition };

/** A setup step that failed: the scenario could not check its own rules; `checkedBy` names who checks that step. */
export interface Precondition {
  step: number;
  stepName?: string;
  checkedBy: string[];
}

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
const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Does the profile say this request needs credentials? Writes to articles when `writeAuth`, and anything but
 * OPTIONS on a protected resource. OPTIONS on articles is authenticated too when writes need credentials, so that
 * `Allow` shows everything an authenticated client may do.
 */
export function needsCredentials(method: string, path: string, profile: ResolvedProfile): boolean {
  const p = path.split('?')[0] ?? path;
  const m = method.toUpperCase();
  const articlePath = p === profile.articles.collection || p.startsWith(profile.articles.collection + '/') ||
    [profile.articles.item, ...profile.articles.aliases].some((t) => p.startsWith(t.split('{')[0] ?? t));
  if (articlePath && profile.articles.writeAuth && (UNSAFE.has(m) || m === 'OPTIONS')) return true;
  return m !== 'OPTIONS' && protectedPatterns(profile).some((re) => re.test(p));
}

/** The profile's protected path templates as regular expressions, compiled once per profile (not per request). */
const protectedCache = new WeakMap<ResolvedProfile, RegExp[]>();
function protectedPatterns(profile: ResolvedProfile): RegExp[] {
  let patterns = protectedCache.get(profile);
  if (!patterns) {
    patterns = profile.protected.map((r) => new RegExp(`^${r.path.split(/\{[^}]*\}/).map(escapeRe).join('[^/]+')}$`));
    protectedCache.set(profile, patterns);
  }
  return patterns;
}

const PREFERENCE: Scheme[] = ['hmac-nonce', 'hmac', 'basic', 'oauth2', 'oauth1'];

/** Can the harness authenticate with this scheme without being given a token? The OAuth family needs its settings. */
function usable(profile: ResolvedProfile, s: Scheme): boolean {
  if (!profile.auth.schemes.includes(s)) return false;
  if (s === 'oauth2') return profile.auth.oauth2 !== undefined;
  if (s === 'oauth1') return profile.auth.oauth1 !== undefined;
  return true;
}

/**
 * The scheme `auto` uses: the strongest the profile lists that works on this transport. The per-user schemes come
 * first; the OAuth family (a token obtained from the target first) only when the profile offers nothing else.
 */
export function chooseScheme(profile: ResolvedProfile, secure: boolean): Scheme | undefined {
  return PREFERENCE.find((s) => usable(profile, s) && (secure || !profile.auth.tlsOnly.includes(s)));
}

/** Token sources by authenticator: one per run, so tokens are obtained once and reused until they expire. */
const tokenSources = new WeakMap<Authenticator, TokenSource>();
function tokensOf(deps: ExecDeps): TokenSource {
  if (deps.tokens) return deps.tokens;
  let t = tokenSources.get(deps.authenticator);
  if (!t) {
    t = createTokenSource({ client: deps.client, profile: deps.profile, authenticator: deps.authenticator, secret: (v) => deps.redactor.add(v) });
    tokenSources.set(deps.authenticator, t);
  }
  return t;
}

function joinUrl(base: string, path: string): string {
  return base.replace(/\/$/, '') + (path.startsWith('/') ? path : `/${path}`);
}

function bodyText(body: Uint8Array, max = 4096): string {
  const s = Buffer.from(body.subarray(0, max * 4)).toString('utf8');
  return s.length > max ? `${s.slice(0, max)}… (${body.length} bytes)` : s;
}

/** Waits for the target's clock (a token's lifetime): bounded to 300 s, and 0 for anything not a number. */
function waitSeconds(seconds: number): Promise<void> {
  const ms = Number.isFinite(seconds) ? Math.min(300, Math.max(0, seconds)) * 1000 : 0;
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A value at a dotted path of a JSON text; undefined when the text is not JSON or the path is absent. */
export function jsonPath(text: string, dotted: string): unknown {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return undefined;
  }
  for (const seg of dotted.split('.')) {
    if (v === null || typeof v !== 'object' || !Object.hasOwn(v, seg)) return undefined;
    v = (v as Record<string, unknown>)[seg];
  }
  return v;
}

function clientAuthOf(v: string | undefined): 'basic' | 'basic-encoded' | 'form' {
  return v === 'form' || v === 'basic-encoded' ? v : 'basic';
}

function placementOf(v: string | undefined): 'header' | 'query' | 'form' {
  return v === 'query' || v === 'form' ? v : 'header';
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

interface StepContext {
  index: number;
  name?: string;
}

/**
 * Runs every step for one set of values. Never throws for target behaviour. A scenario that requires `oob` gets its
 * own out-of-band listener for the iteration (`{{ oob.url }}`, `{{ oob.file }}`, `{{ oob.marker }}`), closed after.
 */
export async function executeOnce(scenario: Scenario, values: Record<string, unknown>, deps: ExecDeps): Promise<IterationOutcome> {
  if (!scenario.requires.includes('oob')) return executeSteps(scenario, values, deps);
  let oob: OobListener;
  try {
    oob = await OobListener.start({ ...deps.profile.oob, token: deps.uniq() });
  } catch (err) {
    return { kind: 'error', step: 0, message: `the out-of-band listener could not start on ${deps.profile.oob.host}:${deps.profile.oob.port} (profile oob.listen): ${(err as Error).message}`, transcript: [], requests: 0 };
  }
  try {
    return await executeSteps(scenario, { ...values, oob: oob.scope }, { ...deps, oob });
  } finally {
    await oob.close();
  }
}

async function executeSteps(scenario: Scenario, values: Record<string, unknown>, deps: ExecDeps): Promise<IterationOutcome> {
  const { profile, redactor } = deps;
  const now = deps.now ?? (() => new Date());
  const scope: Record<string, unknown> = {
    profile,
    target: deps.bases.primary,
    uniq: deps.uniq(),
    methods: STANDARD_METHODS,
    seed: deps.seed,
    users: profile.users.map((u) => u.name),
    now: Math.floor(now().getTime() / 1000),
    recordsPath: profile.protected.find((r) => r.ownerOnly)?.path,
    protectedPaths: profile.protected.map((r) => r.path),
    // A scheme the plain listener cannot carry (TLS-only) is still the best one when a TLS base URL is known.
    bestScheme: chooseScheme(profile, deps.bases.primary.startsWith('https:')) ?? (deps.bases.tls ? chooseScheme(profile, true) : undefined),
    '@freshNonce': deps.authenticator.freshNonce,
    ...values,
  };
  const transcript: RawExchange[] = [];
  const maxTranscript = deps.maxTranscript ?? 40;
  const sentByStep = new Map<string, { request: HttpRequest; base: string }>();
  let requests = 0;
  // The first step whose `each` list was empty: when nothing at all was sent, it says why (a vacuous run).
  let emptyEach: string | undefined;
  const at: StepContext = { index: 0 };
  const named = () => (at.name ? { stepName: at.name } : {});
  const error = (message: string): IterationOutcome => ({ kind: 'error', step: at.index, ...named(), message: redactor.text(message), transcript, requests });

  const checkContext = (built: { request: HttpRequest; base: string }, local: Scope) => ({
    requestUrl: built.request.url,
    baseUrl: built.base,
    origins: originsOf(deps),
    optionalFields: profile.articles.optionalFields,
    ...(profile.auth.refusalStatus ? { refusalStatus: profile.auth.refusalStatus } : {}),
    render: (t: string) => render(t, local),
  });

  try {
    for (const l of scenario.let) scope[l.name] = render(l.template, scope);
    let created = 0;
    for (const [i, written] of scenario.steps.entries()) {
      at.index = i + 1;
      at.name = written.name;
      if (written.when !== undefined && !truthy(render(written.when, scope))) continue;
      if (written.wait !== undefined) await waitSeconds(Number(render(written.wait, scope)));
      const items = written.each !== undefined ? toList(render(written.each, scope)) : [undefined];
      if (items.length === 0) emptyEach ??= written.name !== undefined ? `'${written.name}'` : String(at.index);
      for (const item of items) {
        const local = written.each !== undefined ? { ...scope, item } : scope;
        const made = written.createArticle ? articleSetup(written, profile, `c${String(scope['uniq'])}${created++}`) : undefined;
        const step = made?.step ?? written;
        const setup = setupOf(step, scenario.id);
        if (step.concurrent !== undefined) {
          // Different requests at once: built in order (fresh nonces, tokens), then sent together, each checked alone.
          const group: { request: HttpRequest; base: string }[] = [];
          for (const sub of step.concurrent) {
            const b = await buildRequest({ request: sub.request }, local, deps);
            for (const x of b.obtained ?? []) {
              requests++;
              if (transcript.length < maxTranscript) transcript.push({ step: at.index, ...named(), ...x });
            }
            if ('error' in b) return error(b.error);
            group.push(b);
          }
          requests += group.length;
          const answers = await Promise.all(group.map((b) => deps.client.send(b.request, { concurrent: true })));
          const messages: string[] = [];
          const failedChecks = new Set<CheckName>();
          for (const [k, sent] of answers.entries()) {
            const b = group[k]!;
            const sub = step.concurrent[k]!;
            const where = `${b.request.method} ${pathOf(b.request.url)} (${sub.name ?? `request ${k + 1} of ${group.length}`})`;
            const exchange: RawExchange = { step: at.index, ...named(), request: b.request };
            if (transcript.length < maxTranscript) transcript.push(exchange);
            if (!sent.ok) {
              exchange.error = sent.error;
              return error(`${where}: ${sent.error.message}`);
            }
            exchange.response = sent.response;
            const found = checkResponseByCheck(sent.response, sub.expect, checkContext(b, local));
            for (const f of found) failedChecks.add(f.check);
            messages.push(...found.map(({ message: m }) => redactor.text(`${where}: ${m}`)));
          }
          if (messages.length > 0 && setup) {
            const message = `precondition failed: ${setup.what ?? `step ${at.index}`}: ${messages.join('; ')}; that behaviour is checked by ${setup.checkedBy.length > 0 ? setup.checkedBy.join(' and ') : 'the scenarios of its own rules'}`;
            return { kind: 'error', step: at.index, ...named(), message, transcript, requests, precondition: { step: at.index, ...named(), checkedBy: setup.checkedBy } };
          }
          const charged = chargedRules(step, failedChecks);
          if (messages.length > 0) return { kind: 'fail', step: at.index, ...named(), messages, transcript, requests, ...(charged ? { rules: charged } : {}) };
          continue;
        }
        let built: { request: HttpRequest; base: string };
        if (step.replayOf !== undefined) {
          const earlier = sentByStep.get(step.replayOf);
          if (!earlier) return error(`replayOf "${step.replayOf}": that step sent nothing`);
          built = earlier;
        } else {
          const b = await buildRequest(step, local, deps);
          for (const x of b.obtained ?? []) {
            requests++;
            if (transcript.length < maxTranscript) transcript.push({ step: at.index, ...named(), ...x });
          }
          if ('error' in b) return error(b.error);
          built = b;
        }
        if (step.name) sentByStep.set(step.name, built);
        const times = step.repeat?.times ?? 1;
        requests += times;
        const results: SendResult[] = step.repeat?.concurrent
          ? await Promise.all(Array.from({ length: times }, () => deps.client.send(built.request, { concurrent: true })))
          : await sequential(times, () => deps.client.send(built.request));
        const messages: string[] = [];
        const failedChecks = new Set<CheckName>();
        // Only messages use it: parsing the URL for every passing exchange would cost a URL parse per request.
        const where = () => `${built.request.method} ${pathOf(built.request.url)}`;
        for (const sent of results) {
          const exchange: RawExchange = { step: at.index, ...named(), request: built.request };
          if (transcript.length < maxTranscript) transcript.push(exchange);
          if (!sent.ok) {
            exchange.error = sent.error;
            return error(`${where()}: ${sent.error.message}`);
          }
          exchange.response = sent.response;
          const found = checkResponseByCheck(sent.response, step.expect, checkContext(built, local));
          for (const f of found) failedChecks.add(f.check);
          messages.push(...found.map(({ message: m }) => (times > 1 ? `answer ${results.indexOf(sent) + 1} of ${times}: ${m}` : m)));
        }
        const counts = checkCounts(step, results, (t) => render(t, local));
        if (counts.length > 0) failedChecks.add('expectCount');
        messages.push(...counts);
        if (step.expect?.oob && deps.oob) {
          const contacted = await deps.oob.contactedWithin(step.expect.oob.within ?? 1);
          if (contacted.length > 0) failedChecks.add('oob');
          messages.push(...contacted);
        }
        if (messages.length > 0 && setup) {
          const what = setup.what ?? `step ${at.index}${at.name ? ` (${at.name})` : ''}`;
          const message = `precondition failed: ${what} (${where()}): ${messages.join('; ')}; that behaviour is checked by ${setup.checkedBy.length > 0 ? setup.checkedBy.join(' and ') : 'the scenarios of its own rules'}`;
          return { kind: 'error', step: at.index, ...named(), message: redactor.text(message), transcript, requests, precondition: { step: at.index, ...named(), checkedBy: setup.checkedBy } };
        }
        if (messages.length > 0) {
          const charged = chargedRules(step, failedChecks);
          return { kind: 'fail', step: at.index, ...named(), messages: messages.map((m) => redactor.text(`${where()}: ${m}`)), transcript, requests, ...(charged ? { rules: charged } : {}) };
        }
        const last = results[results.length - 1];
        if (last?.ok) capture(step, last.response, built.request.url, built.base, scope, redactor);
        if (made?.path !== undefined) scope[made.as] = made.path;
      }
    }
    return { kind: 'pass', transcript, requests, ...(emptyEach !== undefined ? { emptyEach } : {}) };
  } catch (err) {
    // A template that cannot be evaluated for these values is a fault of the scenario, not of the target.
    return error(`scenario error: ${(err as Error).message}`);
  }
}

/** The target's own origins: both listeners and the profile's `target.origins` (strict only when that key is set). */
function originsOf(deps: ExecDeps): LocationOrigins {
  const listed = deps.profile.target.origins;
  const own = [deps.bases.plain, deps.bases.tls, deps.bases.primary, ...(listed ?? [])].filter((u): u is string => u !== undefined);
  return { own, strict: listed !== undefined };
}

/** A step's setup marking, normalized; undefined for a check (or a setup step that names its own scenario). */
function setupOf(step: StepData, scenarioId: string): { checkedBy: string[]; what?: string } | undefined {
  if (step.setup === undefined) return undefined;
  if (step.setup === true) return { checkedBy: [] };
  const checkedBy = step.setup.checkedBy === undefined ? [] : [step.setup.checkedBy].flat();
  if (checkedBy.includes(scenarioId)) return undefined;
  return { checkedBy, ...(step.setup.what !== undefined ? { what: step.setup.what } : {}) };
}

/**
 * The step a `createArticle` setup stands for: PUT at a client-chosen URL when the profile offers it (so the
 * scenario does not depend on POST at all), else POST to the collection, whose Location is captured.
 */
function articleSetup(step: StepData, profile: ResolvedProfile, id: string): { step: StepData; as: string; path?: string } {
  const c = step.createArticle!;
  const base = { ...(step.name !== undefined ? { name: step.name } : {}) };
  if (profile.articles.clientChosenPut) {
    const path = profile.articles.item.replace(/\{[^}]*\}/, id);
    return {
      as: c.as,
      path,
      step: {
        ...base,
        request: { method: 'PUT', path, body: { article: c.article } },
        expect: { status: '2xx' },
        setup: { checkedBy: 'articles/put-create', what: 'creating the article with PUT' },
      },
    };
  }
  return {
    as: c.as,
    step: {
      ...base,
      request: { method: 'POST', path: profile.articles.collection, body: { article: c.article } },
      expect: { status: 201, location: {} },
      capture: { [c.as]: { location: 'path' } },
      setup: { checkedBy: 'articles/post-create', what: 'creating the article with POST' },
    },
  };
}

async function sequential(times: number, send: () => Promise<SendResult>): Promise<SendResult[]> {
  const out: SendResult[] = [];
  for (let k = 0; k < times; k++) {
    const r = await send();
    out.push(r);
    if (!r.ok) break;
  }
  return out;
}

/**
 * The rules a failed step is charged with: those its `rules` names for the checks that failed (a list: all of them for
 * any check; a map: the union over the failed checks, and every rule of the map for a check it does not name).
 * Undefined when the step names none: the scenario's rules are charged.
 */
export function chargedRules(step: Pick<StepData, 'rules'>, failed: ReadonlySet<CheckName>): string[] | undefined {
  const r = step.rules;
  if (r === undefined) return undefined;
  if (Array.isArray(r)) return [...r];
  const all = Object.values(r).flat();
  const out = [...failed].flatMap((c) => r[c] ?? all);
  return [...new Set(out)];
}

function checkCounts(step: StepData, results: SendResult[], render: (t: string) => unknown): string[] {
  const out: string[] = [];
  for (const c of step.expectCount ?? []) {
    const set = statusSet(c.status, render);
    const got = results.filter((r) => r.ok && statusMatches(r.response.status, set)).length;
    if (got !== c.count) {
      const statuses = results.map((r) => (r.ok ? r.response.status : 'error')).join(', ');
      out.push(`expected ${c.count} of ${results.length} answers with status ${set.join(' or ')}, got ${got} (statuses: ${statuses})`);
    }
  }
  return out;
}

type BodyData = NonNullable<NonNullable<StepData['request']>['body']>;

function bodyOf(b: BodyData | undefined, scope: Scope): string | undefined {
  if (!b) return undefined;
  if ('article' in b) return serializeArticle(render(b.article, scope) as ArticleValue);
  if ('form' in b) return Object.entries(b.form).map(([k, v]) => `${formEncode(k)}=${formEncode(stringify(render(v, scope)))}`).join('&');
  return stringify(render(b.raw, scope));
}

const MEDIA_TYPES = { form: 'application/x-www-form-urlencoded' } as const;

/** The base URL credentials go to: the primary one, or the TLS one when no usable scheme works on the primary. */
function credentialsBase(deps: ExecDeps): string {
  const primarySecure = deps.bases.primary.startsWith('https:');
  if (!chooseScheme(deps.profile, primarySecure) && deps.bases.tls && chooseScheme(deps.profile, true)) return deps.bases.tls;
  return deps.bases.primary;
}

function pickBase(deps: ExecDeps, via: 'plain' | 'tls' | 'credentials' | undefined, scheme: AuthScheme | undefined): { base: string } | { error: string } {
  if (via === 'credentials') return { base: credentialsBase(deps) };
  if (via === 'plain') return deps.bases.plain ? { base: deps.bases.plain } : { error: 'the step needs a plain-HTTP target (profile target.http or an http:// --target)' };
  if (via === 'tls') return deps.bases.tls ? { base: deps.bases.tls } : { error: 'the step needs a TLS target (profile target.https or an https:// --target)' };
  const family = scheme === 'oauth2-client' ? 'oauth2' : scheme;
  if (family && deps.profile.auth.tlsOnly.includes(family) && deps.bases.tls) return { base: deps.bases.tls };
  return { base: deps.bases.primary };
}

function num(v: unknown): number | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  const n = Number(v);
  return Number.isFinite(n) ? n : undefined;
}

type Built = ({ request: HttpRequest; base: string } | { error: string }) & { obtained?: TokenExchange[] };

async function buildRequest(step: StepData, scope: Scope, deps: ExecDeps): Promise<Built> {
  const r = step.request;
  if (!r) return { error: 'the step has neither request nor replayOf' };
  const method = stringify(render(r.method, scope)).toUpperCase();
  const path = stringify(render(r.path, scope));
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(r.headers ?? {})) headers[stringify(render(k, scope)).toLowerCase()] = stringify(render(v, scope));
  const body = bodyOf(r.body, scope);
  if (body !== undefined) headers['content-type'] ??= r.body && 'form' in r.body ? MEDIA_TYPES.form : deps.profile.articles.mediaType;
  const auth = r.auth ?? 'auto';
  const explicit = typeof auth === 'object' ? (stringify(render(auth.scheme, scope)) as AuthScheme) : undefined;
  let picked = pickBase(deps, r.via, explicit);
  if ('error' in picked) return picked;
  let autoScheme: Scheme | undefined;
  if (auth === 'auto' && needsCredentials(method, path, deps.profile)) {
    autoScheme = chooseScheme(deps.profile, picked.base.startsWith('https:'));
    // The only usable schemes are TLS-only: a request that needs credentials goes over TLS; the plain listener
    // stays for the scenarios about plain HTTP.
    if (!autoScheme && r.via === undefined && deps.bases.tls) {
      autoScheme = chooseScheme(deps.profile, true);
      if (autoScheme) picked = { base: deps.bases.tls };
    }
  }
  let request: HttpRequest = { method, url: joinUrl(picked.base, path), headers, ...(body !== undefined ? { body } : {}) };
  const after = (req: HttpRequest): HttpRequest => {
    const t = r.bodyAfterSigning;
    if (t === undefined) return req;
    const tampered = 'mutate' in t ? applyMutation(stringify(req.body ?? ''), render(t.mutate, scope) as Mutation) : bodyOf(t, scope);
    return { ...req, body: tampered ?? '' };
  };
  if (auth === 'none') return { request: after(request), base: picked.base };
  const secure = request.url.startsWith('https:');
  let scheme: AuthScheme | undefined = explicit;
  let user = deps.profile.users[0]?.name;
  let options: AuthOptions = {};
  if (auth === 'auto') {
    if (!needsCredentials(method, path, deps.profile)) return { request: after(request), base: picked.base };
    scheme = autoScheme;
    if (scheme === 'oauth2' && deps.profile.auth.oauth2?.user) user = deps.profile.auth.oauth2.user;
    if (scheme === 'oauth1' && deps.profile.auth.oauth1?.user) user = deps.profile.auth.oauth1.user;
    if (!scheme) return { error: `the profile says ${method} ${path} needs credentials but lists no scheme the harness can use over ${secure ? 'TLS' : 'plain HTTP'}` };
  } else {
    if (auth.user !== undefined) user = stringify(render(auth.user, scope));
    // An OAuth scheme named without a user acts for the user its client or consumer acts for.
    else if (explicit === 'oauth2' && deps.profile.auth.oauth2?.user) user = deps.profile.auth.oauth2.user;
    else if (explicit === 'oauth1' && deps.profile.auth.oauth1?.user) user = deps.profile.auth.oauth1.user;
    const signAs = auth.signAs;
    const text = (t: string | undefined) => (t === undefined ? undefined : stringify(render(t, scope)));
    options = {
      ...(auth.secretOf !== undefined ? { secretOf: text(auth.secretOf)! } : {}),
      ...(auth.passwordMutation !== undefined ? { passwordMutation: render(auth.passwordMutation, scope) as Mutation } : {}),
      ...(auth.nonce !== undefined ? { nonce: text(auth.nonce)! } : {}),
      ...(auth.date !== undefined ? { date: text(auth.date)! } : {}),
      ...(num(auth.skew === undefined ? undefined : render(auth.skew, scope)) !== undefined ? { skew: num(render(auth.skew!, scope))! } : {}),
      ...(auth.omitDate ? { omitDate: true } : {}),
      ...(signAs ? { signAs: Object.fromEntries(Object.entries({ method: text(signAs.method)?.toUpperCase(), path: text(signAs.path), date: text(signAs.date), nonce: text(signAs.nonce), body: text(signAs.body), simple: signAs.simple }).filter(([, v]) => v !== undefined)) } : {}),
      ...(auth.digestMutation !== undefined ? { digestMutation: render(auth.digestMutation, scope) as Mutation } : {}),
      ...(auth.bodyHash === false ? { bodyHash: false } : {}),
      ...(auth.token !== undefined ? { token: text(auth.token)! } : {}),
      ...(auth.tokenSecret !== undefined ? { tokenSecret: text(auth.tokenSecret)! } : {}),
      ...(auth.verifier !== undefined ? { verifier: text(auth.verifier)! } : {}),
      ...(auth.callback !== undefined ? { callback: text(auth.callback)! } : {}),
      ...(auth.placement !== undefined ? { placement: placementOf(text(auth.placement)) } : {}),
      ...(auth.tokenMutation !== undefined ? { tokenMutation: render(auth.tokenMutation, scope) as Mutation } : {}),
      ...(auth.secretMutation !== undefined ? { secretMutation: render(auth.secretMutation, scope) as Mutation } : {}),
      ...(auth.clientAuth !== undefined ? { clientAuth: clientAuthOf(text(auth.clientAuth)) } : {}),
      ...(auth.otherClient ? { otherClient: true } : {}),
      ...(signAs?.url !== undefined ? { signUrl: text(signAs.url)! } : {}),
    };
  }
  if (!user) return { error: 'the profile lists no users to authenticate as' };
  let obtained: TokenExchange[] | undefined;
  // No token given: obtain one from the target (kept for the run), as a client of that scheme would. An OAuth 1
  // request with a callback and no token asks for temporary credentials (RFC 5849 §2.1) and is signed as it is.
  if ((scheme === 'oauth2' || (scheme === 'oauth1' && options.callback === undefined)) && options.token === undefined) {
    const got = await (scheme === 'oauth2' ? tokensOf(deps).oauth2(user, picked.base) : tokensOf(deps).oauth1(user, picked.base));
    obtained = got.exchanges;
    if (!got.ok) return { error: got.reason, obtained };
    options = { ...options, token: got.token, ...(got.tokenSecret !== undefined ? { tokenSecret: got.tokenSecret } : {}) };
  }
  const applied = deps.authenticator.apply(request, scheme!, user, options);
  if (!applied.ok) return { error: applied.reason, ...(obtained ? { obtained } : {}) };
  request = applied.request;
  return { request: after(request), base: picked.base, ...(obtained ? { obtained } : {}) };
}

function capture(step: StepData, res: HttpResponse, requestUrl: string, baseUrl: string, scope: Record<string, unknown>, redactor: Redactor): void {
  for (const [name, c] of Object.entries(step.capture ?? {})) {
    if ('header' in c) scope[name] = headerValue(res, c.header);
    else if ('json' in c || 'form' in c) {
      const value = 'json' in c ? jsonPath(Buffer.from(res.body).toString('utf8'), c.json) : formField(Buffer.from(res.body).toString('utf8'), c.form);
      scope[name] = value;
      if (c.secret && typeof value === 'string') redactor.add(value);
    }
    else if ('location' in c) {
      const loc = headerValue(res, 'location');
      const r = loc === undefined ? undefined : locationPath(loc, requestUrl, baseUrl);
      scope[name] = r && 'path' in r ? r.path : undefined;
    } else if ('allow' in c) scope[name] = parseAllow(headerValue(res, 'allow') ?? '').methods;
    else if ('status' in c) scope[name] = res.status;
  }
}
