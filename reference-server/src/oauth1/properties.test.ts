/**
 * Property tests of OAuth 1 verification: a correctly signed request verifies wherever its protocol parameters
 * travel, and changing any one byte of any parameter name or value (query, form body, protocol) makes it fail.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { verifyCredentials } from '../auth/verify.js';
import { createState } from '../handle.js';
import { percentEncode } from '../oauth/encoding.js';
import type { HeaderMap, RequestRecord } from '../records.js';
import type { HandlerDeps, ServerState } from '../types.js';
import { signOAuth1 } from './sign.js';

type Pair = [Buffer, Buffer];
type Place = 'header' | 'body' | 'query';

interface Case {
  method: string;
  path: string;
  query: Pair[];
  form: Pair[];
  place: Place;
  realm: boolean;
}

interface Mutation {
  where: 'query' | 'form' | 'protocol';
  index: number;
  part: 0 | 1;
  position: number;
  xor: number;
}

const HOST = '127.0.0.1:8443';
const NOW = Date.UTC(2026, 10, 22, 10, 0, 0);
const CONSUMER = { key: 'conform-consumer', secret: 'consumer-secret-1' };
const TOKEN = { key: 'tok-1', secret: 'token&secret é' };

/** Text with non-ASCII (astral too), reserved and printable ASCII characters. */
const textArb = fc.oneof(fc.string({ unit: 'binary', maxLength: 6 }), fc.stringMatching(/^[ -~]{0,10}$/));
const nameArb = textArb.filter((n) => n !== '' && !n.startsWith('oauth_'));
const pairArb: fc.Arbitrary<Pair> = fc
  .tuple(nameArb, textArb)
  .map(([n, v]) => [Buffer.from(n, 'utf8'), Buffer.from(v, 'utf8')]);

const caseArb: fc.Arbitrary<Case> = fc.record({
  method: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'HEAD'),
  path: fc.constantFrom('/users/alice/financialrecords', '/', '/articles/a-b.c~d'),
  query: fc.array(pairArb, { maxLength: 4 }),
  form: fc.array(pairArb, { maxLength: 4 }),
  place: fc.constantFrom<Place>('header', 'body', 'query'),
  realm: fc.boolean(),
});

const mutationArb: fc.Arbitrary<Mutation> = fc.record({
  where: fc.constantFrom('query', 'form', 'protocol'),
  index: fc.nat(),
  part: fc.constantFrom<0 | 1>(0, 1),
  position: fc.nat(),
  xor: fc.integer({ min: 1, max: 255 }),
});

const encode = (pairs: readonly Pair[]): string =>
  pairs.map(([n, v]) => `${percentEncode(n)}=${percentEncode(v)}`).join('&');
const join = (a: string, b: string): string => [a, b].filter((x) => x !== '').join('&');

/** The protocol parameters (signature included) a correct client computes for a case. */
function sign(c: Case): Pair[] {
  const query = encode(c.query);
  const signed = signOAuth1({
    method: c.method,
    url: `https://${HOST}${c.path}${query === '' ? '' : `?${query}`}`,
    consumerKey: CONSUMER.key,
    consumerSecret: CONSUMER.secret,
    token: TOKEN.key,
    tokenSecret: TOKEN.secret,
    nonce: 'n-1',
    timestamp: NOW / 1000,
    formBody: encode(c.form),
  });
  return signed.protocol.map(([n, v]) => [Buffer.from(n, 'utf8'), Buffer.from(v, 'utf8')]);
}

/** The request as sent, with the protocol parameters in the case's place. */
function request(c: Case, protocol: readonly Pair[]): RequestRecord {
  const headers: HeaderMap = { host: HOST };
  let query = encode(c.query);
  let body = encode(c.form);
  if (c.place === 'header') {
    const params = protocol.map(([n, v]) => `${percentEncode(n)}="${percentEncode(v)}"`);
    headers.authorization = `OAuth ${[...(c.realm ? ['realm="somewhere"'] : []), ...params].join(', ')}`;
  }
  if (c.place === 'query') query = join(query, encode(protocol));
  if (c.place === 'body') body = join(body, encode(protocol));
  if (body !== '') headers['content-type'] = 'application/x-www-form-urlencoded';
  return { method: c.method, path: c.path, query, headers, body: Buffer.from(body, 'latin1'), secure: true };
}

function state(): ServerState {
  const s = createState({ maxArticles: 10, maxBodyBytes: 65536 });
  s.oauth1.tokens.add(TOKEN.key, { consumer: CONSUMER.key, secret: TOKEN.secret, user: 'alice' }, Infinity, 0);
  return s;
}

const deps: HandlerDeps = { now: () => new Date(NOW), newId: () => 'x', faults: new Set(), variants: new Set() };

function copy(pairs: readonly Pair[]): Pair[] {
  return pairs.map(([n, v]) => [Buffer.from(n), Buffer.from(v)]);
}

/** Changes one byte of one name or value (or appends one to an empty one); false when the list is empty. */
function mutate(pairs: Pair[], m: Mutation): boolean {
  const pair = pairs[m.index % Math.max(1, pairs.length)];
  if (pair === undefined) return false;
  const bytes = pair[m.part];
  if (bytes.byteLength === 0) pair[m.part] = Buffer.from([m.xor]);
  else bytes[m.position % bytes.byteLength] = (bytes[m.position % bytes.byteLength] as number) ^ m.xor;
  return true;
}

describe('OAuth 1 signature properties', () => {
  it('a correctly signed request verifies, with its protocol parameters in the header, the body or the query', () => {
    fc.assert(
      fc.property(caseArb, (c) => {
        expect(verifyCredentials(request(c, sign(c)), state(), deps)).toMatchObject({ kind: 'valid', user: 'alice' });
      }),
      { numRuns: 300 },
    );
  });

  it('changing any byte of any parameter name or value (query, form, protocol) makes it fail', () => {
    fc.assert(
      fc.property(caseArb, mutationArb, (c, m) => {
        const protocol = copy(sign(c));
        const changed: Case = { ...c, query: copy(c.query), form: copy(c.form) };
        const list = m.where === 'query' ? changed.query : m.where === 'form' ? changed.form : protocol;
        fc.pre(mutate(list, m));
        expect(verifyCredentials(request(changed, protocol), state(), deps).kind).toBe('invalid');
      }),
      { numRuns: 1000 },
    );
  });

  it('the realm is not signed: any realm verifies', () => {
    fc.assert(
      fc.property(caseArb, fc.stringMatching(/^[A-Za-z0-9 ]{0,12}$/), (c, realm) => {
        const req = request({ ...c, place: 'header', realm: false }, sign(c));
        req.headers.authorization = `OAuth realm="${realm}", ${String(req.headers.authorization).slice('OAuth '.length)}`;
        expect(verifyCredentials(req, state(), deps).kind).toBe('valid');
      }),
      { numRuns: 100 },
    );
  });
});
