/** Expectations: each check returns the sentences that describe a violation (empty when the response complies). */
import type { HttpResponse } from '../http/client.js';
import type { ArticleValue } from '../generators/article.js';
import type { CheckName, ExpectData, HeaderExpectationData } from '../suite/schema.js';
import { stringify } from '../suite/template.js';
import { compareArticle, validateArticle } from '../xml/article-xml.js';
import type { TextNormalization } from '../xml/normalize.js';
import { readXml, type XmlElement } from '../xml/reader.js';
import { checkJson } from './json-check.js';
import { locationPath, samePath, shapeRegex, type LocationOrigins } from './location.js';
import { checkRefused } from './refused.js';
import { headerValue, parseAllow, said, statusMatches, statusSet } from './response-parts.js';

export { checkRefused, type RefusalKind } from './refused.js';

const ORDINALS = ['first', 'second', 'third', 'fourth'];

export type Render = (template: string) => unknown;

/** The body as UTF-8 text, decoded in place (`Buffer.from(u8)` would copy it first). */
const bodyText = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('utf8');

const describeSet = (set: ReadonlyArray<number | string>) => set.join(' or ');

function checkHeader(res: HttpResponse, name: string, exp: HeaderExpectationData, render: Render): string[] {
  const e = typeof exp === 'string' ? { present: exp === 'present' } : exp;
  if ('ifStatus' in e && e.ifStatus && !e.ifStatus.includes(res.status)) return [];
  const value = headerValue(res, name);
  const out: string[] = [];
  const wantsValue = 'equals' in e || 'matches' in e || 'contains' in e;
  if (e.present === false) {
    if (value !== undefined) out.push(`header ${name} must be absent, got ${JSON.stringify(value)}`);
    return out;
  }
  if ((e.present === true || wantsValue) && value === undefined) return [`header ${name} is missing`];
  if (value === undefined) return out;
  if ('equals' in e && e.equals !== undefined) {
    const want = String(render(e.equals));
    if (value.trim() !== want) out.push(`header ${name} is ${JSON.stringify(value)}, expected ${JSON.stringify(want)}`);
  }
  if ('matches' in e && e.matches !== undefined && !new RegExp(e.matches).test(value))
    out.push(`header ${name} ${JSON.stringify(value)} does not match /${e.matches}/`);
  if ('contains' in e && e.contains !== undefined) {
    const want = String(render(e.contains));
    if (!value.includes(want))
      out.push(`header ${name} ${JSON.stringify(value)} does not contain ${JSON.stringify(want)}`);
  }
  return out;
}

const asList = (v: unknown): string[] =>
  Array.isArray(v)
    ? v.map(String)
    : v === undefined || v === null || v === ''
      ? []
      : String(v)
          .split(',')
          .map((s) => s.trim());

export interface CheckContext {
  requestUrl: string;
  baseUrl: string;
  /** The origins a Location may name besides the base URL's. Default: any, read by its path. */
  origins?: LocationOrigins;
  optionalFields: readonly string[];
  /** The normalizations the target's text storage applies (`articles.textNormalization`); absent: exact storage. */
  textNormalization?: readonly TextNormalization[];
  render: Render;
  /** The profile's `auth.refusalStatus`; absent: any 4xx that means a refusal. */
  refusalStatus?: readonly number[];
}

type Checks = {
  [K in Exclude<keyof ExpectData, 'oob'>]-?: (
    res: HttpResponse,
    exp: NonNullable<ExpectData[K]>,
    ctx: CheckContext,
  ) => string[];
};

/** Each check of `expect`, on its own (`oob` is the runner's: it asks the listener, not the response). */
const CHECKS: Checks = {
  status: (res, exp, { render }) => {
    const set = statusSet(exp, render);
    if (statusMatches(res.status, set)) return [];
    // What the target said of it, so a 401 tells a missing credential from a bad signature (issue 35).
    const what = res.status >= 400 ? said(res) : undefined;
    return [`expected status ${describeSet(set)}, got ${res.status}${what ? ` (${JSON.stringify(what)})` : ''}`];
  },
  refused: (res, exp, ctx) => checkRefused(res, exp, ctx.refusalStatus),
  statusNot: (res, exp, { render }) => {
    const set = statusSet(exp, render);
    return statusMatches(res.status, set) ? [`status must not be ${describeSet(set)}, got ${res.status}`] : [];
  },
  notRefused: (res) =>
    [401, 403, 404].includes(res.status)
      ? [`the valid credentials sent were refused (${res.status}): a listed method the resource does not serve them`]
      : [],
  headers: (res, exp, { render }) => Object.entries(exp).flatMap(([name, h]) => checkHeader(res, name, h, render)),
  location: checkLocation,
  allow: checkAllow,
  article: (res, exp, ctx) => {
    const wanted = Array.isArray(exp)
      ? exp.map((t) => ctx.render(t) as ArticleValue)
      : (ctx.render(exp) as ArticleValue);
    const text = bodyText(res.body);
    if (text.trim() === '') return ['the body is empty, expected the article'];
    const compare = (a: ArticleValue) => compareArticle(a, text, ctx.optionalFields, ctx.textNormalization);
    // One article (most steps): no list of articles is built for it (this runs for every answer that returns one).
    const diffs = Array.isArray(wanted) ? wanted.map(compare) : [compare(wanted)];
    if (diffs.length === 1) return (diffs[0] ?? []).map((d) => `article: ${d}`);
    if (diffs.some((d) => d.length === 0)) return [];
    return [
      `article: equal to none of the ${diffs.length} expected, ${diffs.map((d, i) => `not the ${ORDINALS[i] ?? `#${i + 1}`}: ${d.join(', ')}`).join('; ')}`,
    ];
  },
  sameDocument: (res, exp, { render }) => sameDocument(bodyText(res.body), stringify(render(exp))),
  validArticle: (res, exp) => {
    if (!exp) return [];
    const text = bodyText(res.body);
    return text.trim() === ''
      ? ['the body is empty, expected an article']
      : validateArticle(text).map((d) => `article: ${d}`);
  },
  json: (res, exp, { render }) => checkJson(bodyText(res.body), exp, render),
  body: (res, exp, { render }) => {
    const out: string[] = [];
    const text = bodyText(res.body);
    if (exp.empty === true && res.body.length > 0) out.push(`the body must be empty, got ${res.body.length} bytes`);
    if (exp.empty === false && res.body.length === 0) out.push('the body is empty');
    if (exp.contains !== undefined) {
      const want = String(render(exp.contains));
      if (!text.includes(want)) out.push(`the body does not contain ${JSON.stringify(want)}`);
    }
    if (exp.notContains !== undefined) {
      const unwanted = String(render(exp.notContains));
      if (text.includes(unwanted)) out.push(`the body contains ${JSON.stringify(unwanted)}`);
    }
    return out;
  },
};

/** The order checks report in when a step's are run together. */
const CHECK_ORDER = Object.keys(CHECKS) as (keyof Checks)[];

function runCheck<K extends keyof Checks>(check: K, res: HttpResponse, exp: ExpectData, ctx: CheckContext): string[] {
  const value = exp[check];
  // Each entry takes its own key's value; TypeScript cannot correlate the two through the generic index.
  return value === undefined
    ? []
    : (CHECKS[check] as (r: HttpResponse, v: unknown, c: CheckContext) => string[])(res, value, ctx);
}

/**
 * Checks that mean something only after the success the status check asked for (VERDICTS.md §2): a `Location`'s
 * shape, the article in the body, `Allow`'s members, a JSON body. When the status check failed on an answer that is
 * not a success, they are not judged: the status failure is the finding, and "Location missing" on a 301 is not a
 * second one.
 */
const AFTER_SUCCESS: ReadonlySet<CheckName> = new Set([
  'location',
  'article',
  'sameDocument',
  'validArticle',
  'allow',
  'json',
]);

/** Runs every expectation of a step against the response, each failure with the check it came from. */
export function checkResponseByCheck(
  res: HttpResponse,
  exp: ExpectData | undefined,
  ctx: CheckContext,
): { check: CheckName; message: string }[] {
  return exp ? judged(Object.keys(exp) as (keyof Checks | 'oob')[], res, exp, ctx) : [];
}

/** Runs every expectation of a step against the response. */
export function checkResponse(res: HttpResponse, exp: ExpectData | undefined, ctx: CheckContext): string[] {
  return exp ? judged(CHECK_ORDER, res, exp, ctx).map((f) => f.message) : [];
}

function judged(
  order: readonly (keyof Checks | 'oob')[],
  res: HttpResponse,
  exp: ExpectData,
  ctx: CheckContext,
): { check: CheckName; message: string }[] {
  const out: { check: CheckName; message: string }[] = [];
  for (const check of order) {
    if (check === 'oob') continue;
    for (const message of runCheck(check, res, exp, ctx)) out.push({ check, message });
  }
  const statusFailed = out.some((f) => f.check === 'status');
  return statusFailed && (res.status < 200 || res.status >= 300) ? out.filter((f) => !AFTER_SUCCESS.has(f.check)) : out;
}

function checkLocation(res: HttpResponse, exp: NonNullable<ExpectData['location']>, ctx: CheckContext): string[] {
  const { render } = ctx;
  const loc = headerValue(res, 'location');
  if (loc === undefined) return ['Location header is missing'];
  const r = locationPath(loc, ctx.requestUrl, ctx.baseUrl, exp.sameOrigin === false ? {} : (ctx.origins ?? {}));
  if ('problem' in r) return [r.problem];
  const out: string[] = [];
  if (exp.path !== undefined) {
    const want = (Array.isArray(exp.path) ? exp.path : [exp.path]).flatMap((t) => asList(render(t)));
    if (!want.some((w) => samePath(r.path, w)))
      out.push(
        `Location path is ${JSON.stringify(r.path)}, expected ${want.map((w) => JSON.stringify(w)).join(' or ')}`,
      );
  }
  if (exp.differsFrom !== undefined) {
    const others = [exp.differsFrom].flat().flatMap((t) => asList(render(t)));
    if (others.some((o) => samePath(r.path, o)))
      out.push(`Location path ${JSON.stringify(r.path)} is the same as an earlier one; a new resource needs a new URL`);
  }
  if (exp.shape !== undefined) {
    const shape = String(render(exp.shape));
    if (!shapeRegex(shape).test(r.path.split('?')[0]!))
      out.push(`Location path ${JSON.stringify(r.path)} does not have the shape ${shape}`);
  }
  return out;
}

function checkAllow(res: HttpResponse, exp: NonNullable<ExpectData['allow']>, { render }: CheckContext): string[] {
  const allow = headerValue(res, 'allow');
  if (allow === undefined) return ['Allow header is missing'];
  const out: string[] = [];
  const { methods, bad } = parseAllow(allow);
  if (bad.length > 0)
    out.push(`Allow ${JSON.stringify(allow)} is not a comma-separated list of method names (bad: ${bad.join(', ')})`);
  const has = new Set(methods);
  for (const m of (exp.includes === undefined ? [] : [exp.includes].flat()).flatMap((t) => asList(render(t)))) {
    if (!has.has(m)) out.push(`Allow ${JSON.stringify(allow)} lacks ${m}`);
  }
  for (const m of (exp.excludes === undefined ? [] : [exp.excludes].flat()).flatMap((t) => asList(render(t)))) {
    if (has.has(m)) out.push(`Allow ${JSON.stringify(allow)} must not list ${m}`);
  }
  if (exp.subsetOf !== undefined) {
    const superset = new Set([exp.subsetOf].flat().flatMap((t) => asList(render(t))));
    const extra = methods.filter((m) => !superset.has(m));
    if (extra.length > 0)
      out.push(
        `Allow ${JSON.stringify(allow)} lists ${extra.join(', ')}, which the other answer (${[...superset].join(', ')}) does not`,
      );
  }
  return out;
}

/**
 * Where two XML documents differ, element for element (names, attributes, text of every element, known or not;
 * whitespace-only text between elements and attribute order aside), or nothing when they are the same document.
 */
export function sameDocument(actual: string, expected: string): string[] {
  const a = readXml(actual);
  const e = readXml(expected);
  if (!e.ok) return [`the earlier body to compare with is not XML: ${e.problem}`];
  if (!a.ok) return [`the body is not XML: ${a.problem}`];
  const diffs: string[] = [];
  const walk = (x: XmlElement, y: XmlElement, where: string) => {
    if (diffs.length >= 3) return;
    if (x.name !== y.name) return void diffs.push(`${where}: <${x.name}> where it was <${y.name}>`);
    const attrs = (el: XmlElement) =>
      JSON.stringify(Object.entries(el.attributes).sort(([p], [q]) => (p < q ? -1 : 1)));
    if (attrs(x) !== attrs(y)) diffs.push(`${where}/<${x.name}>: attributes ${attrs(x)} where they were ${attrs(y)}`);
    const text = (el: XmlElement) => (el.children.length > 0 && el.text.trim() === '' ? '' : el.text);
    if (text(x) !== text(y))
      diffs.push(`${where}/<${x.name}>: text ${JSON.stringify(text(x))} where it was ${JSON.stringify(text(y))}`);
    const names = (el: XmlElement) => el.children.map((c) => c.name).join(', ');
    if (x.children.length !== y.children.length)
      return void diffs.push(`${where}/<${x.name}>: children <${names(x)}> where they were <${names(y)}>`);
    x.children.forEach((c, k) => walk(c, y.children[k]!, `${where}/${x.name}`));
  };
  walk(a.root, e.root, '');
  return diffs.map((d) => `not the same document as before: ${d}`);
}
