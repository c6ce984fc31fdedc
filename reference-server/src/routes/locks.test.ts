/** The `webdav-lock` variant: LOCK and UNLOCK on the article collection and items, and the default server without them. */
import { describe, expect, it } from 'vitest';
import { resolveServerOptions } from '../options.js';
import type { HeaderMap, ResponseRecord } from '../records.js';
import { articleXml, elementText, testServer, text } from '../../testkit/index.js';
import type { TestServer } from '../../testkit/index.js';
import type { VariantName } from '../variants.js';

const XML = { 'content-type': 'application/xml' };

/** Basic over TLS as alice, so no nonce or Date concerns; an article at /articles/x. */
function serve(variants: VariantName[] = ['webdav-lock']): TestServer {
  const s = testServer({ variants, signWith: 'basic-tls' });
  expect(s.call('PUT', '/articles/x', articleXml(), XML).status).toBe(201);
  return s;
}

function lockToken(res: ResponseRecord): string {
  return String(res.headers['lock-token']);
}

/** Statuses of the writes a lock on /articles/x (or the collection) blocks, each with a valid body. */
function writes(s: TestServer): number[] {
  return [
    s.call('PUT', '/articles/x', articleXml({ title: 'New' }), XML).status,
    s.call('PUT', '/article/x', articleXml({ title: 'New' }), XML).status,
    s.call('DELETE', '/articles/x').status,
  ];
}

const anonymous = (s: TestServer, method: string, target: string, headers: HeaderMap = {}) =>
  s.send({ method, target, headers });

describe('webdav-lock', () => {
  it('Allow lists LOCK and UNLOCK on the collection and items to authenticated requests only; the default server lists neither', () => {
    const s = serve();
    expect(s.call('OPTIONS', '/articles/x').headers.allow).toBe('GET, HEAD, PUT, DELETE, LOCK, UNLOCK, OPTIONS');
    expect(s.call('OPTIONS', '/articles').headers.allow).toBe('POST, LOCK, UNLOCK, OPTIONS');
    expect(anonymous(s, 'OPTIONS', '/articles/x').headers.allow).toBe('GET, HEAD, OPTIONS');
    expect(anonymous(s, 'OPTIONS', '/articles').headers.allow).toBe('OPTIONS');
    expect(s.call('OPTIONS', '/').headers.allow).toBe('GET, HEAD, OPTIONS');
    const d = serve([]);
    expect(d.call('OPTIONS', '/articles/x').headers.allow).toBe('GET, HEAD, PUT, DELETE, OPTIONS');
    const lock = d.call('LOCK', '/articles/x');
    expect([lock.status, lock.headers.allow]).toEqual([405, 'GET, HEAD, PUT, DELETE, OPTIONS']);
    expect(d.call('PUT', '/articles/x', articleXml({ title: 'New' }), XML).status).toBe(200);
  });

  it('LOCK on an item really locks it: 200, a Lock-Token and a lockdiscovery body; writes answer 423 until UNLOCK with the token', () => {
    const s = serve();
    const res = s.call('LOCK', '/articles/x');
    expect(res.status).toBe(200);
    expect(lockToken(res)).toMatch(/^<urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}>$/);
    expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(text(res)).toContain('<D:lockdiscovery>');
    expect(text(res)).toContain(`<D:href>${lockToken(res).slice(1, -1)}</D:href>`);
    expect(writes(s)).toEqual([423, 423, 423]);
    expect(s.call('GET', '/articles/x').status).toBe(200);
    expect(elementText(s.call('GET', '/articles/x'), 'title')).toBe('Hello');
    expect(s.call('LOCK', '/articles/x').status).toBe(423);
    expect(s.call('LOCK', '/articles').status).toBe(423);
    expect(s.call('UNLOCK', '/articles/x').status).toBe(400);
    expect(
      s.call('UNLOCK', '/articles/x', '', { 'lock-token': '<urn:uuid:00000000-0000-4000-8000-000000000000>' }).status,
    ).toBe(409);
    expect(s.call('UNLOCK', '/articles/x', '', { 'lock-token': lockToken(res) }).status).toBe(204);
    expect(writes(s)).toEqual([200, 200, 204]);
  });

  it('the alias is the same resource: a lock taken through /article/x blocks /articles/x, and either form unlocks', () => {
    const s = serve();
    const res = s.call('LOCK', '/article/x');
    expect(res.status).toBe(200);
    expect(s.call('PUT', '/articles/x', articleXml(), XML).status).toBe(423);
    expect(s.call('UNLOCK', '/articles/x', '', { 'lock-token': lockToken(res) }).status).toBe(204);
    expect(s.call('PUT', '/articles/x', articleXml(), XML).status).toBe(200);
  });

  it('a lock on the collection covers POST to it and every write of its items, new ones included', () => {
    const s = serve();
    const res = s.call('LOCK', '/articles');
    expect(res.status).toBe(200);
    expect(text(res)).toContain('<D:depth>infinity</D:depth>');
    expect(s.call('POST', '/articles', articleXml(), XML).status).toBe(423);
    expect(s.call('PUT', '/articles/new', articleXml(), XML).status).toBe(423);
    expect(writes(s)).toEqual([423, 423, 423]);
    expect(s.call('LOCK', '/articles/x').status).toBe(423);
    expect(s.call('UNLOCK', '/articles', '', { 'lock-token': lockToken(res) }).status).toBe(204);
    expect(s.call('POST', '/articles', articleXml(), XML).status).toBe(201);
  });

  it('an item lock leaves the collection and other items writable', () => {
    const s = serve();
    s.call('PUT', '/articles/y', articleXml(), XML);
    expect(s.call('LOCK', '/articles/x').status).toBe(200);
    expect(s.call('PUT', '/articles/y', articleXml(), XML).status).toBe(200);
    expect(s.call('POST', '/articles', articleXml(), XML).status).toBe(201);
  });

  it('LOCK under an If-Match that cannot hold answers 412 and locks nothing (RFC 9110 §13.1.1); If-Match: * on an existing article holds', () => {
    const s = serve();
    for (const target of ['/articles/x', '/articles']) {
      const res = s.call('LOCK', target, '', { 'if-match': '"conform-never-1"' });
      expect([target, res.status, res.headers['lock-token']]).toEqual([target, 412, undefined]);
    }
    expect(s.call('POST', '/articles', articleXml(), XML).status).toBe(201);
    expect(writes(s)).toEqual([200, 200, 204]);
    s.call('PUT', '/articles/x', articleXml(), XML);
    expect(s.call('UNLOCK', '/articles/x', '', { 'if-match': '"conform-never-2"' }).status).toBe(412);
    const star = s.call('LOCK', '/articles/x', '', { 'if-match': '*' });
    expect(star.status).toBe(200);
    expect(s.call('PUT', '/articles/x', articleXml(), XML).status).toBe(423);
  });

  it('LOCK of an item with no article is 404 (with or without If-Match); without credentials LOCK and UNLOCK are refused (401), nothing locked', () => {
    const s = serve();
    expect(s.call('LOCK', '/articles/none').status).toBe(404);
    expect(s.call('LOCK', '/articles/none', '', { 'if-match': '*' }).status).toBe(404);
    expect(s.call('PUT', '/articles/none', articleXml(), XML).status).toBe(201);
    for (const method of ['LOCK', 'UNLOCK']) {
      const res = anonymous(s, method, '/articles/x');
      expect([method, res.status, res.headers['www-authenticate'] !== undefined]).toEqual([method, 401, true]);
    }
    expect(anonymous(s, 'LOCK', '/articles').status).toBe(401);
    expect(writes(s)).toEqual([200, 200, 204]);
  });

  it('other resources do not handle LOCK: 405 with their Allow', () => {
    const s = serve();
    for (const target of ['/', '/users/alice/financialrecords']) {
      const res = s.call('LOCK', target);
      expect([target, res.status, res.headers.allow]).toEqual([target, 405, 'GET, HEAD, OPTIONS']);
    }
  });

  it('with post-updates, a POST updating a locked item is refused too', () => {
    const s = serve(['webdav-lock', 'post-updates']);
    expect(s.call('OPTIONS', '/articles/x').headers.allow).toBe('GET, HEAD, POST, PUT, DELETE, LOCK, UNLOCK, OPTIONS');
    s.call('LOCK', '/articles/x');
    expect(s.call('POST', '/articles/x', articleXml({ title: 'Updated' }), XML).status).toBe(423);
  });

  it('a signed LOCK (hmac over LOCK+<path>) is accepted like any write', () => {
    const s = testServer({ variants: ['webdav-lock'] });
    s.call('PUT', '/articles/x', articleXml(), XML);
    expect(s.call('LOCK', '/articles/x').status).toBe(200);
    expect(s.call('PUT', '/articles/x', articleXml(), XML).status).toBe(423);
  });

  it('cannot run in a cluster: its locks live in one process', () => {
    expect(() => resolveServerOptions({ variants: ['webdav-lock'], redis: { url: 'redis://127.0.0.1:6379' } })).toThrow(
      /webdav-lock/,
    );
    expect(() => resolveServerOptions({ variants: ['webdav-lock'] })).not.toThrow();
  });
});
