import { isFormContentType, parseFormBytes, percentDecode, utf8Text, wireBytes } from '../oauth/encoding.js';
import type { BytePair } from '../oauth/encoding.js';
import { headerValue } from '../request.js';
import type { RequestRecord } from '../records.js';
import { encodeParam } from './base-string.js';
import type { EncodedParam } from './base-string.js';

/** Where a request's protocol parameters travel (RFC 5849 §3.5). */
export type ProtocolSource = 'header' | 'body' | 'query';

/** The OAuth 1 parameters of a request. */
export interface OAuth1Params {
  /** The `oauth_*` protocol parameters, decoded as UTF-8 text, each present once. */
  protocol: ReadonlyMap<string, string>;
  source: ProtocolSource;
  /** The `realm` of the `Authorization: OAuth` header, decoded; absent when none was sent (RFC 5849 §3.5.1: OPTIONAL). */
  realm?: string;
  /**
   * Every parameter the signature base string covers (RFC 5849 §3.4.1.3.1), encoded: the query, a form body,
   * and the `Authorization: OAuth` parameters but its `realm`; `oauth_signature` left out.
   */
  signed: EncodedParam[];
}

/** Outcome of {@link readOAuth1Params}: the parameters, or why the request is malformed (a 400). */
export type OAuth1ParamsResult = { ok: true; params: OAuth1Params } | { ok: false; reason: string };

const PREFIX = Buffer.from('oauth_', 'latin1');
const SCHEME = /^oauth(?:[ \t]+([^]*))?$/i;
const HEADER_PARAM = /^[ \t]*([^\s=,"]+)[ \t]*=[ \t]*"([^"]*)"[ \t]*(?:,|$)/;

function isProtocolName(name: Buffer): boolean {
  return name.byteLength > PREFIX.byteLength && name.subarray(0, PREFIX.byteLength).equals(PREFIX);
}

/** True when an `Authorization` value uses the `OAuth` scheme (RFC 5849 §3.5.1). */
export function isOAuthAuthorization(value: string): boolean {
  return SCHEME.test(value.trim());
}

/**
 * Parses `OAuth name="value", …` (RFC 5849 §3.5.1): names and values percent-decoded (no `+` decoding), in
 * order. A string says why the value is malformed.
 */
export function parseOAuthHeader(value: string): BytePair[] | string {
  const m = SCHEME.exec(value.trim());
  if (!m) return 'the Authorization header does not use the OAuth scheme';
  const pairs: BytePair[] = [];
  let rest = m[1] ?? '';
  while (rest.trim() !== '') {
    const p = HEADER_PARAM.exec(rest);
    if (!p) return 'the OAuth Authorization header must be a comma-separated list of name="value"';
    pairs.push({
      name: percentDecode(wireBytes(p[1] ?? ''), false),
      value: percentDecode(wireBytes(p[2] ?? ''), false),
    });
    rest = rest.slice(p[0].length);
  }
  return pairs;
}

function queryPairs(req: RequestRecord): BytePair[] {
  return req.query === '' ? [] : parseFormBytes(wireBytes(req.query));
}

function bodyPairs(req: RequestRecord): BytePair[] {
  return req.body.byteLength > 0 && isFormContentType(headerValue(req, 'content-type')) ? parseFormBytes(req.body) : [];
}

/**
 * True when a request carries OAuth 1 protocol parameters in its query or form body (without an
 * `Authorization: OAuth` header, RFC 5849 §3.5.2–3.5.3). Never under `headerOnly` (the `oauth1-header-only`
 * variant), where `oauth_*` parameters there are ordinary ones.
 */
export function carriesOAuth1Params(req: RequestRecord, headerOnly = false): boolean {
  if (headerOnly) return false;
  return queryPairs(req).some((p) => isProtocolName(p.name)) || bodyPairs(req).some((p) => isProtocolName(p.name));
}

/**
 * Collects the OAuth 1 parameters of a request. Protocol parameters come from exactly one place: the
 * `Authorization: OAuth` header when there is one, else the form body, else the query; `oauth_*` names in two
 * places, a repeated protocol parameter (or `realm`), a malformed header or a protocol value that is not UTF-8
 * make the request malformed. Under `headerOnly` (the `oauth1-header-only` variant) only the header holds protocol
 * parameters: `oauth_*` names in the query or the body are ordinary parameters (signed like any other), and a
 * request without the header has none. Under `ignoreQuery` (the `oauth1-ignores-query` fault) the query's other
 * parameters are left out of the signed ones; under `queryProtocolOnly` (the `oauth1-query-placement-others-unsigned` fault) too,
 * when the protocol parameters travel in the query.
 */
export function readOAuth1Params(
  req: RequestRecord,
  options: { ignoreQuery?: boolean; headerOnly?: boolean; queryProtocolOnly?: boolean } = {},
): OAuth1ParamsResult {
  const raw = req.headers.authorization;
  if (Array.isArray(raw)) return fail('send one Authorization header');
  const header = raw !== undefined && isOAuthAuthorization(raw) ? parseOAuthHeader(raw) : undefined;
  if (typeof header === 'string') return fail(header);
  const query = queryPairs(req);
  const body = bodyPairs(req);
  const places: Array<[ProtocolSource, BytePair[]]> = [];
  if (header !== undefined) places.push(['header', header]);
  if (options.headerOnly !== true) {
    if (body.some((p) => isProtocolName(p.name))) places.push(['body', body]);
    if (query.some((p) => isProtocolName(p.name))) places.push(['query', query]);
  }
  const [place, ...others] = places;
  if (place === undefined) return fail('no OAuth protocol parameters were sent');
  if (others.length > 0)
    return fail(
      'protocol parameters must travel in one place only: the Authorization header, the form body or the query',
    );
  const [source, pairs] = place;
  const protocol = new Map<string, string>();
  let realms = 0;
  let realm: string | undefined;
  for (const pair of pairs) {
    const name = pair.name.toString('latin1');
    if (source === 'header' && name === 'realm') {
      if (++realms > 1) return fail('realm is repeated');
      realm = utf8Text(pair.value);
      if (realm === undefined) return fail('the realm is not UTF-8');
    }
    if (!isProtocolName(pair.name)) continue;
    if (protocol.has(name)) return fail(`the protocol parameter ${name} is repeated`);
    const value = utf8Text(pair.value);
    if (value === undefined) return fail(`the protocol parameter ${name} is not UTF-8`);
    protocol.set(name, value);
  }
  const signed: EncodedParam[] = [];
  const add = (list: BytePair[], skip: (name: string) => boolean) => {
    for (const p of list) if (!skip(p.name.toString('latin1'))) signed.push(encodeParam(p.name, p.value));
  };
  const othersLeftOut = options.ignoreQuery === true || (source === 'query' && options.queryProtocolOnly === true);
  add(query, (name) => name === 'oauth_signature' || (othersLeftOut && !name.startsWith('oauth_')));
  add(body, (name) => name === 'oauth_signature');
  if (header !== undefined) add(header, (name) => name === 'oauth_signature' || name === 'realm');
  return { ok: true, params: { protocol, source, signed, ...(realm === undefined ? {} : { realm }) } };
}

function fail(reason: string): OAuth1ParamsResult {
  return { ok: false, reason };
}
