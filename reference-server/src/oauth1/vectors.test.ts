/**
 * Every known answer of specs/vectors/oauth.yaml (computed with Python, not by this project), reproduced by the
 * server's own parameter collection, base string and signature code, and verified end to end by verifyOAuth1.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createState } from '../handle.js';
import { formBody, percentEncode } from '../oauth/encoding.js';
import type { HeaderMap, RequestRecord } from '../records.js';
import type { HandlerDeps } from '../types.js';
import { baseStringUri, hmacSha1Signature, signatureBaseString, signatureFor } from './base-string.js';
import { readOAuth1Params } from './params.js';
import { signOAuth1 } from './sign.js';
import { verifyOAuth1 } from './verify.js';

interface Vector {
  name: string;
  method: string;
  url: string;
  body: string;
  oauth: Array<[string, string]>;
  consumerSecret: string;
  tokenSecret: string;
  baseString: string;
  signature: string;
}

const FILE = fileURLToPath(new URL('../../../specs/vectors/oauth.yaml', import.meta.url));
const V = parse(readFileSync(FILE, 'utf8')) as { version: number; oauth1: Vector[] };
const URL_PARTS = /^(https?):\/\/([^/?]+)([^?]*)(?:\?(.*))?$/;

function parts(v: Vector): { scheme: 'http' | 'https'; host: string; path: string; query: string } {
  const m = URL_PARTS.exec(v.url);
  if (!m) throw new Error(`bad vector URL ${v.url}`);
  return { scheme: m[1] === 'https' ? 'https' : 'http', host: m[2] ?? '', path: m[3] ?? '', query: m[4] ?? '' };
}

function get(v: Vector, name: string): string {
  return v.oauth.find(([n]) => n === name)?.[1] ?? '';
}

/** The vector's request as received, with its protocol parameters (and signature) in `place`. */
function received(v: Vector, place: 'header' | 'body' | 'query', signature = v.signature): RequestRecord {
  const { scheme, host, path, query } = parts(v);
  const protocol: Array<[string, string]> = [...v.oauth, ['oauth_signature', signature]];
  const headers: HeaderMap = { host };
  let body = v.body;
  let q = query;
  if (place === 'header')
    headers.authorization = `OAuth realm="Photos", ${protocol.map(([n, x]) => `${percentEncode(n)}="${percentEncode(x)}"`).join(', ')}`;
  if (place === 'body') body = [body, formBody(protocol)].filter((x) => x !== '').join('&');
  if (place === 'query') q = [q, formBody(protocol)].filter((x) => x !== '').join('&');
  if (body !== '') headers['content-type'] = 'application/x-www-form-urlencoded';
  return { method: v.method, path, query: q, headers, body: Buffer.from(body, 'utf8'), secure: scheme === 'https' };
}

function verdict(v: Vector, req: RequestRecord, nowSeconds = Number(get(v, 'oauth_timestamp'))) {
  const state = createState(
    { maxArticles: 10, maxBodyBytes: 65536 },
    { oauth1Consumers: [{ key: get(v, 'oauth_consumer_key'), secret: v.consumerSecret, user: 'alice' }] },
  );
  state.oauth1.tokens.add(
    get(v, 'oauth_token'),
    { consumer: get(v, 'oauth_consumer_key'), secret: v.tokenSecret, user: 'alice' },
    Infinity,
    0,
  );
  const deps: HandlerDeps = {
    now: () => new Date(nowSeconds * 1000),
    newId: () => 'x',
    faults: new Set(),
    // The vectors of HMAC-SHA256 and PLAINTEXT verify where those methods are offered.
    variants: new Set(['oauth1-methods-extra']),
  };
  return verifyOAuth1(req, state, deps, { tokens: state.oauth1.tokens });
}

describe('OAuth 1 vectors', () => {
  it('has vectors', () => {
    expect(V.version).toBe(1);
    expect(V.oauth1.length).toBeGreaterThanOrEqual(4);
  });

  it.each(V.oauth1)('base string and signature: $name', (v) => {
    const { scheme, host, path } = parts(v);
    const read = readOAuth1Params(received(v, 'header'));
    if (!read.ok) throw new Error(read.reason);
    const uri = baseStringUri(scheme, host, path) ?? '';
    expect(signatureBaseString(v.method, uri, read.params.signed)).toBe(v.baseString);
    expect(signatureFor(get(v, 'oauth_signature_method'), v.baseString, v.consumerSecret, v.tokenSecret)).toBe(
      v.signature,
    );
    expect(read.params.protocol.get('oauth_signature')).toBe(v.signature);
  });

  it.each(V.oauth1.filter((v) => get(v, 'oauth_signature_method') === 'HMAC-SHA1'))(
    'the test signer (HMAC-SHA1) agrees: $name',
    (v) => {
      const extra = v.oauth.filter(
        ([n]) =>
          ![
            'oauth_consumer_key',
            'oauth_token',
            'oauth_signature_method',
            'oauth_timestamp',
            'oauth_nonce',
            'oauth_version',
          ].includes(n),
      );
      const signed = signOAuth1({
        method: v.method,
        url: v.url,
        consumerKey: get(v, 'oauth_consumer_key'),
        consumerSecret: v.consumerSecret,
        token: get(v, 'oauth_token'),
        tokenSecret: v.tokenSecret,
        nonce: get(v, 'oauth_nonce'),
        timestamp: get(v, 'oauth_timestamp'),
        version: v.oauth.some(([n]) => n === 'oauth_version'),
        extra,
        formBody: v.body,
      });
      expect([signed.baseString, signed.signature]).toEqual([v.baseString, v.signature]);
    },
  );

  it.each(V.oauth1)('verifies with the parameters in the header, the body or the query: $name', (v) => {
    for (const place of ['header', 'body', 'query'] as const) {
      expect([place, verdict(v, received(v, place)).kind]).toEqual([place, 'valid']);
    }
  });

  it.each(V.oauth1)('refuses a wrong signature, a wrong secret and a stale timestamp: $name', (v) => {
    const wrong = `${v.signature.slice(0, -2)}A=`;
    expect(verdict(v, received(v, 'header', wrong === v.signature ? 'AAAA' : wrong))).toMatchObject({
      kind: 'invalid',
      status: 401,
    });
    expect(verdict({ ...v, consumerSecret: `${v.consumerSecret}x` }, received(v, 'header'))).toMatchObject({
      kind: 'invalid',
      status: 401,
    });
    expect(verdict({ ...v, tokenSecret: `${v.tokenSecret}x` }, received(v, 'header'))).toMatchObject({
      kind: 'invalid',
      status: 401,
    });
    expect(verdict(v, received(v, 'header'), Number(get(v, 'oauth_timestamp')) + 601)).toMatchObject({
      kind: 'invalid',
      status: 401,
    });
  });

  it('the nonce printed in RFC 5849 §1.2 (chapoh) does not give its published signature', () => {
    const v = V.oauth1[0] as Vector;
    const lower = v.baseString.replace('chapoH', 'chapoh');
    expect(hmacSha1Signature(lower, v.consumerSecret, v.tokenSecret)).not.toBe(v.signature);
  });
});
