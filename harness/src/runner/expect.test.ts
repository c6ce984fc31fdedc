import { describe, expect, it } from 'vitest';
import type { HttpResponse } from '../http/client.js';
import { checkRefused, checkResponse } from './expect.js';
import { parseAllow, statusMatches, statusSet } from './response-parts.js';
import { locationPath, samePath, shapeRegex } from './location.js';

describe('expectation helpers', () => {
  it('parses Allow lists per RFC 9110 list syntax', () => {
    expect(parseAllow('GET, HEAD,PUT ,, OPTIONS')).toEqual({ methods: ['GET', 'HEAD', 'PUT', 'OPTIONS'], bad: [] });
    expect(parseAllow('GET; PUT, "X"').bad).toEqual(['GET; PUT', '"X"']);
  });

  it('matches codes, classes and templated lists', () => {
    const render = () => [200, 204];
    expect(statusSet(['2xx', 405, '{{ x }}'], render)).toEqual(['2xx', 405, 200, 204]);
    expect(statusMatches(204, ['2xx'])).toBe(true);
    expect(statusMatches(201, [200, 204])).toBe(false);
  });

  it('resolves Location against the request and strips the base path', () => {
    expect(locationPath('/api/articles/7', 'http://h/api/articles', 'http://h/api')).toEqual({ path: '/articles/7' });
    expect(locationPath('http://h/articles/7', 'http://h/articles', 'http://h')).toEqual({ path: '/articles/7' });
    expect(locationPath('7', 'http://h/articles/', 'http://h')).toEqual({ path: '/articles/7' });
  });

  it('reads an absolute Location on another origin through the base URL, unless the profile lists the origins', () => {
    // Default: any origin, read by its path (a public URL in front of a proxy); the base's prefix is dropped.
    expect(locationPath('https://public.example/articles/7', 'http://h/articles', 'http://h')).toEqual({
      path: '/articles/7',
    });
    expect(locationPath('https://public.example/api/articles/7', 'http://h/api/articles', 'http://h/api')).toEqual({
      path: '/articles/7',
    });
    // A listed origin with its own prefix: that prefix is dropped, and the rest is read through the base URL.
    const own = { own: ['https://public.example/v1'], strict: true };
    expect(locationPath('https://public.example/v1/articles/7', 'http://h/api/articles', 'http://h/api', own)).toEqual({
      path: '/articles/7',
    });
    expect(locationPath('http://h/api/articles/7', 'http://h/api/articles', 'http://h/api', own)).toEqual({
      path: '/articles/7',
    });
    // With target.origins, any other origin is outside the target.
    expect(locationPath('http://evil/articles/7', 'http://h/articles', 'http://h', own)).toHaveProperty('problem');
  });

  it('compares paths after percent-decoding and matches shapes segment-wise', () => {
    expect(samePath('/articles/a%2Db', '/articles/a-b')).toBe(true);
    expect(shapeRegex('/articles/{id}').test('/articles/x1')).toBe(true);
    expect(shapeRegex('/articles/{id}').test('/articles/x/y')).toBe(false);
    expect(shapeRegex('/articles/{id}').test('/items/x')).toBe(false);
  });
});

const answer = (status: number, headers: Record<string, string> = {}, body = ''): HttpResponse => ({
  status,
  headers,
  body: new TextEncoder().encode(body),
  durationMs: 0,
});

describe('refused: a refusal of credentials (§5.4 leaves its status and body open)', () => {
  it('accepts any refusing 4xx by default, with a challenge required only on a 401', () => {
    expect(checkRefused(answer(401, { 'www-authenticate': 'hmac realm="x"' }), {}, undefined)).toEqual([]);
    expect(checkRefused(answer(403), {}, undefined)).toEqual([]);
    expect(checkRefused(answer(400), {}, undefined)).toEqual([]);
    expect(checkRefused(answer(401), {}, undefined)[0]).toMatch(/WWW-Authenticate/);
  });

  it('does not take a status that means something else, nor a success', () => {
    for (const status of [200, 204, 302, 404, 405, 429, 500])
      expect(checkRefused(answer(status), {}, undefined), String(status)).toHaveLength(1);
  });

  it('takes 404 where the target may hide the resource, and what the profile pins and nothing else', () => {
    expect(checkRefused(answer(404), { hidden: true }, undefined)).toEqual([]);
    expect(checkRefused(answer(403), {}, [401])).toHaveLength(1);
    expect(checkRefused(answer(404), {}, [404])).toEqual([]);
  });

  it('auth.refusalStatus reaches only missing or wrong credentials (issue 33)', () => {
    // Someone else's resource: 403 and 404 whatever the key lists.
    for (const kind of [{ kind: 'authorization' as const }, { hidden: true }]) {
      expect(checkRefused(answer(403), kind, [400, 401])).toEqual([]);
      expect(checkRefused(answer(404), kind, [400, 401])).toEqual([]);
      expect(checkRefused(answer(400), kind, [400, 401])).toEqual([]);
      expect(checkRefused(answer(200), kind, [400, 401])[0]).toMatch(/400 or 401.*or 403 or 404, got 200/);
    }
    // Two credentials in one request: 400 whatever the key lists.
    expect(checkRefused(answer(400), { kind: 'malformed' }, [401, 403])).toEqual([]);
    expect(checkRefused(answer(409), { kind: 'malformed' }, [401, 403])).toHaveLength(1);
    // An OAuth endpoint: any refusing 4xx; the key is about resources.
    expect(checkRefused(answer(400), { kind: 'endpoint' }, [401])).toEqual([]);
    expect(checkRefused(answer(401), { kind: 'endpoint' }, [403])[0]).toMatch(/WWW-Authenticate/);
    expect(checkRefused(answer(404), { kind: 'endpoint' }, [404])).toHaveLength(1);
    // Missing or wrong credentials: the key, and nothing else.
    expect(checkRefused(answer(403), { kind: 'credentials' }, [400, 401])).toHaveLength(1);
  });
});

describe('json', () => {
  const ctx = { requestUrl: 'http://h/x', baseUrl: 'http://h', optionalFields: [], render: (t: string) => t };
  it('a body that is not JSON holds no member: it satisfies absence, not presence', () => {
    expect(checkResponse(answer(400, {}, 'TLS required'), { json: { access_token: { present: false } } }, ctx)).toEqual(
      [],
    );
    expect(checkResponse(answer(400, {}, ''), { json: { error: { type: 'string' } } }, ctx)).toEqual([
      'the body is not JSON',
    ]);
  });
});

describe('article', () => {
  const one = { title: 'T', price: '1.50', currency: 'EUR', fields: {} };
  const two = { title: 'U', price: '2.00', currency: 'EUR', fields: {} };
  const articles: Record<string, typeof one> = { '{{ one }}': one, '{{ two }}': two };
  const ctx = { requestUrl: 'http://h/x', baseUrl: 'http://h', optionalFields: [], render: (t: string) => articles[t] };
  const xml = (a: typeof one) =>
    `<?xml version="1.0"?><article><title>${a.title}</title><price currency="${a.currency}">${a.price}</price></article>`;

  it('compares the body with the one article expected, or with each of a list', () => {
    expect(checkResponse(answer(200, {}, xml(one)), { article: '{{ one }}' }, ctx)).toEqual([]);
    expect(checkResponse(answer(200, {}, xml(two)), { article: '{{ one }}' }, ctx)).toEqual([
      expect.stringMatching(/^article: .*title/),
      expect.stringMatching(/^article: .*price/),
    ]);
    expect(checkResponse(answer(200, {}, xml(two)), { article: ['{{ one }}', '{{ two }}'] }, ctx)).toEqual([]);
    expect(checkResponse(answer(200, {}, xml(two)), { article: ['{{ one }}'] }, ctx)).toEqual(
      checkResponse(answer(200, {}, xml(two)), { article: '{{ one }}' }, ctx),
    );
    const none = checkResponse(answer(200, {}, xml(one)), { article: ['{{ two }}', '{{ two }}'] }, ctx);
    expect(none).toEqual([
      expect.stringMatching(/^article: equal to none of the 2 expected, not the first: .*; not the second/),
    ]);
    expect(checkResponse(answer(200, {}, ' \n'), { article: '{{ one }}' }, ctx)).toEqual([
      'the body is empty, expected the article',
    ]);
  });
});
