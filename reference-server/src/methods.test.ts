import { describe, expect, it } from 'vitest';
import { articleXml, problemOf, testServer, text } from '../testkit/index.js';

const RESOURCES = [
  ['/articles', 'POST, OPTIONS'],
  ['/articles/a', 'GET, HEAD, PUT, DELETE, OPTIONS'],
  ['/article/a', 'GET, HEAD, PUT, DELETE, OPTIONS'],
  ['/', 'GET, HEAD, OPTIONS'],
  ['/users/alice/financialrecords', 'GET, HEAD, OPTIONS'],
  ['/elsewhere', 'OPTIONS'],
  ['*', 'OPTIONS'],
] as const;

describe('OPTIONS and 405', () => {
  it.each(RESOURCES)('OPTIONS %s: 200, Allow %s, Content-Length 0, no body', (path, allow) => {
    expect(testServer().call('OPTIONS', path)).toEqual({ status: 200, headers: { allow, 'content-length': '0' } });
  });

  it.each([
    ['GET', '/articles'],
    ['PUT', '/articles'],
    ['DELETE', '/articles'],
    ['HEAD', '/articles'],
    ['POST', '/articles/a'],
    ['PATCH', '/articles/a'],
    ['TRACE', '/article/a'],
    ['PUT', '/'],
    ['DELETE', '/users/bob/financialrecords'],
  ])('%s %s: 405 with the Allow of OPTIONS', (method, path) => {
    const { call } = testServer();
    const res = call(method, path, articleXml());
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe(call('OPTIONS', path).headers.allow);
    if (method === 'HEAD') expect(res.body).toBeUndefined();
    else
      expect(problemOf(res).detail).toBe(`${method} is not allowed on ${path}; allowed: ${String(res.headers.allow)}`);
  });

  it.each(['GET', 'HEAD', 'PUT', 'POST', 'DELETE', 'PATCH'])('%s on an unknown path is 404', (method) => {
    const res = testServer().call(method, '/nowhere', articleXml());
    expect(res.status).toBe(404);
    expect(res.headers.allow).toBeUndefined();
  });

  it.each(['FOO', 'PROPFIND', 'get', 'BREW'])(
    'unknown method %s is 405 with the Allow of OPTIONS (a 4xx, not 501)',
    (method) => {
      const { call } = testServer();
      for (const [path, allow] of RESOURCES) {
        const res = call(method, path);
        expect([path, res.status, res.headers.allow]).toEqual([path, 405, allow]);
        expect(problemOf(res).detail).toBe(
          `method ${method} is not implemented by this server; allowed on ${path}: ${allow}`,
        );
      }
    },
  );
});

describe('documents', () => {
  it('GET / is a service document listing /articles', () => {
    const res = testServer().call('GET', '/');
    expect(res.status).toBe(200);
    expect(text(res)).toBe('<?xml version="1.0" encoding="UTF-8"?><service><collection href="/articles"/></service>');
  });

  it('GET /users/<name>/financialrecords is a placeholder; HEAD has no body', () => {
    const { call } = testServer();
    expect(text(call('GET', '/users/alice/financialrecords'))).toContain('<financialrecords user="alice"/>');
    const head = call('HEAD', '/users/alice/financialrecords');
    expect([head.status, head.body]).toEqual([200, undefined]);
  });

  it('user names outside the unreserved set are 404', () => {
    expect(testServer().call('GET', '/users/a%2Fb/financialrecords').status).toBe(404);
  });
});

describe('robustness', () => {
  it('turns an unexpected exception into a 500 problem', () => {
    const res = testServer({
      newId: () => {
        throw new Error('boom');
      },
    }).call('POST', '/articles', articleXml());
    expect(res.status).toBe(500);
    expect(problemOf(res)).toMatchObject({ status: 500, title: 'Internal Server Error' });
  });
});
