import { describe, expect, it } from 'vitest';
import { PROBLEM_TYPE, XML_TYPE } from './responses.js';
import { articleXml, elementText, problemOf, testServer, text } from '../testkit/index.js';

const XML = { 'content-type': 'application/xml' };

describe('POST /articles', () => {
  it('creates at a generated id: 201, Location path, the stored article as body', () => {
    const { call } = testServer();
    const res = call('POST', '/articles', articleXml(), XML);
    expect(res.status).toBe(201);
    expect(res.headers.location).toBe('/articles/id-1');
    expect(res.headers['content-type']).toBe(XML_TYPE);
    expect(text(res)).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><article><title>Hello</title><price currency="eur">12.50</price></article>',
    );
    expect(res.headers['content-length']).toBe(String(Buffer.byteLength(text(res))));
    expect(text(call('GET', '/articles/id-1'))).toBe(text(res));
  });

  it('is not idempotent: each POST creates another article', () => {
    const { call, state } = testServer();
    expect(call('POST', '/articles', articleXml()).headers.location).toBe('/articles/id-1');
    expect(call('POST', '/articles', articleXml()).headers.location).toBe('/articles/id-2');
    expect(state.store.size).toBe(2);
  });

  it('draws again on an id collision, and gives up after a bounded number of draws', () => {
    const ids = ['x', 'x', 'y'];
    const { call } = testServer({ newId: () => ids.shift() ?? 'x' });
    expect(call('POST', '/articles', articleXml()).headers.location).toBe('/articles/x');
    expect(call('POST', '/articles', articleXml()).headers.location).toBe('/articles/y');
    expect(call('POST', '/articles', articleXml()).status).toBe(500);
  });

  it('answers 507 when the store is full', () => {
    const { call } = testServer({ maxArticles: 1 });
    expect(call('POST', '/articles', articleXml()).status).toBe(201);
    const res = call('POST', '/articles', articleXml());
    expect(res.status).toBe(507);
    expect(problemOf(res).detail).toMatch(/store is full \(1 articles\)/);
  });
});

describe('request bodies', () => {
  it.each([
    'application/xml',
    'text/xml',
    'application/atom+xml',
    'application/xml; charset=UTF-8',
    'APPLICATION/XML;charset="utf-8"',
  ])('accepts Content-Type %s', (type) =>
    expect(testServer().call('PUT', '/articles/a', articleXml(), { 'content-type': type }).status).toBe(201),
  );

  it('accepts a missing Content-Type as XML', () => {
    expect(testServer().call('PUT', '/articles/a', articleXml()).status).toBe(201);
  });

  it.each(['application/json', 'text/plain', 'application/xml-dtd', 'xml', 'application/xml; charset=iso-8859-1'])(
    'refuses Content-Type %s with 415',
    (type) => {
      const res = testServer().call('POST', '/articles', articleXml(), { 'content-type': type });
      expect(res.status).toBe(415);
      expect(res.headers['content-type']).toBe(PROBLEM_TYPE);
    },
  );

  it('refuses bodies that are empty, not UTF-8, too large or not a valid article', () => {
    const { call, state } = testServer({ maxBodyBytes: 100 });
    expect(problemOf(call('POST', '/articles', '')).detail).toMatch(/body is empty/);
    expect(problemOf(call('POST', '/articles', new Uint8Array([0x3c, 0xff, 0x3e]))).detail).toBe(
      'request body is not valid UTF-8',
    );
    expect(call('POST', '/articles', `<article>${' '.repeat(100)}</article>`).status).toBe(413);
    const bad = call('POST', '/articles', articleXml({ price: '12' }));
    expect(problemOf(bad)).toEqual({
      type: 'tag:conform.example,2025:problems/invalid-article',
      title: 'Invalid article',
      status: 400,
      detail: 'price must have a fractional part, e.g. 12.50 (got "12")',
    });
    expect(state.store.size).toBe(0);
  });

  it('refuses a document nested too deep, even under a body cap of 10 MB, with 400 and stores nothing', () => {
    const { call, state } = testServer({ maxBodyBytes: 10 * 1024 * 1024 });
    const depth = 1_000_000;
    const res = call(
      'PUT',
      '/articles/a',
      `<article>${'<x>'.repeat(depth)}${'</x>'.repeat(depth)}<title>t</title><price currency="eur">1.00</price></article>`,
    );
    expect(res.status).toBe(400);
    expect(problemOf(res)).toMatchObject({
      title: 'XML too deep or too large',
      detail: expect.stringMatching(/nested deeper than 32 levels/),
    });
    expect(state.store.size).toBe(0);
  });

  it('refuses a DOCTYPE with 400 and stores nothing', () => {
    const { call, state } = testServer();
    const res = call('PUT', '/articles/a', `<!DOCTYPE article [<!ENTITY x "boom">]>${articleXml({ title: '&x;' })}`);
    expect(res.status).toBe(400);
    expect(problemOf(res).type).toMatch(/doctype-refused$/);
    expect(state.store.size).toBe(0);
  });
});

describe('Host (RFC 9112 §3.2)', () => {
  it.each([
    ['127.0.0.1'],
    ['127.0.0.1:8080'],
    ['localhost'],
    ['[::1]:8443'],
    ['[v1.x]'],
    ['ex-ample.com.'],
    ['a%20b'],
    [''],
  ])('Host %j is accepted', (host) => {
    expect(testServer().call('GET', '/articles/none', undefined, { host }).status).toBe(404);
  });

  it.each([
    [['127.0.0.1', '127.0.0.1']],
    [['127.0.0.1', 'evil.example']],
    ['a b'],
    ['127.0.0.1/evil'],
    ['user@127.0.0.1'],
    ['127.0.0.1:80a'],
    ['[::1'],
    ['[nothex]'],
    ['a%2'],
  ])('Host %j gets 400 before anything else happens', (host) => {
    const { call, state } = testServer();
    const res = call('PUT', '/articles/a', articleXml(), { host });
    expect(res.status).toBe(400);
    expect(problemOf(res).detail).toMatch(/Host/);
    expect(state.store.size).toBe(0);
  });
});

describe('article items', () => {
  it('PUT creates at the client-chosen path: 201 with Location exactly as requested', () => {
    const { call } = testServer();
    const plural = call('PUT', '/articles/my-slug', articleXml());
    expect([plural.status, plural.headers.location]).toEqual([201, '/articles/my-slug']);
    const singular = call('PUT', '/article/x?draft=1', articleXml());
    expect([singular.status, singular.headers.location]).toEqual([201, '/article/x']);
    expect(text(singular)).toContain('<title>Hello</title>');
  });

  it('PUT replaces completely: 200 with the stored article, optional fields dropped', () => {
    const { call } = testServer();
    call('PUT', '/articles/a', articleXml({ summary: 'old' }));
    const res = call('PUT', '/articles/a', articleXml({ title: 'New' }));
    expect(res.status).toBe(200);
    expect(res.headers.location).toBeUndefined();
    expect(text(call('GET', '/articles/a'))).toBe(text(res));
    expect(text(res)).not.toContain('summary');
    expect(elementText(res, 'title')).toBe('New');
  });

  it('PUT is idempotent', () => {
    const { call, state } = testServer();
    const first = call('PUT', '/articles/a', articleXml());
    const second = call('PUT', '/articles/a', articleXml());
    expect([first.status, second.status]).toEqual([201, 200]);
    expect(text(second)).toBe(text(first));
    expect(state.store.get('a')).toEqual({ title: 'Hello', price: '12.50', currency: 'eur' });
  });

  it('PUT creating into a full store is 507, replacing still works', () => {
    const { call } = testServer({ maxArticles: 1 });
    call('PUT', '/articles/a', articleXml());
    expect(call('PUT', '/articles/b', articleXml()).status).toBe(507);
    expect(call('PUT', '/articles/a', articleXml({ title: 'T' })).status).toBe(200);
  });

  it('the singular form is an alias of the plural one', () => {
    const { call, state } = testServer();
    call('PUT', '/article/x', articleXml({ title: 'Via alias' }));
    expect(elementText(call('GET', '/articles/x'), 'title')).toBe('Via alias');
    call('PUT', '/articles/x', articleXml({ title: 'Via plural' }));
    expect(elementText(call('GET', '/article/x'), 'title')).toBe('Via plural');
    expect(state.store.size).toBe(1);
    expect(call('DELETE', '/article/x').status).toBe(204);
    expect(call('GET', '/articles/x').status).toBe(404);
  });

  it('GET answers 404 with a problem when absent', () => {
    const res = testServer().call('GET', '/articles/none');
    expect(res.status).toBe(404);
    expect(problemOf(res)).toMatchObject({
      type: 'about:blank',
      title: 'Not Found',
      detail: 'no article at /articles/none',
    });
  });

  it('HEAD has the headers of GET and no body', () => {
    const { call } = testServer();
    call('PUT', '/articles/a', articleXml());
    const get = call('GET', '/articles/a');
    const head = call('HEAD', '/articles/a');
    expect(head).toEqual({ status: 200, headers: get.headers });
    const missing = call('HEAD', '/articles/b');
    expect([missing.status, missing.body]).toEqual([404, undefined]);
    expect(Number(missing.headers['content-length'])).toBeGreaterThan(0);
  });

  it('DELETE answers 204 without body, then 404', () => {
    const { call } = testServer();
    call('PUT', '/articles/a', articleXml());
    expect(call('DELETE', '/articles/a')).toEqual({ status: 204, headers: {} });
    expect(call('GET', '/articles/a').status).toBe(404);
    expect(call('DELETE', '/articles/a').status).toBe(404);
  });

  it.each([
    ['/articles/%41'],
    ['/articles/a%20b'],
    ['/articles/.'],
    ['/articles/..'],
    ['/articles/a/b'],
    ['/articles/'],
    [`/articles/${'a'.repeat(201)}`],
  ])('%s is not an item: 404, OPTIONS lists only OPTIONS', (path) => {
    const { call } = testServer();
    expect(call('PUT', path, articleXml()).status).toBe(404);
    expect(call('OPTIONS', path).headers.allow).toBe('OPTIONS');
  });

  it('accepts every unreserved character in slugs, up to 200 of them', () => {
    const { call } = testServer();
    for (const slug of ['a.b_c~d-e', 'A9', '...', 'x'.repeat(200)])
      expect(call('PUT', `/articles/${slug}`, articleXml()).status).toBe(201);
  });
});
