/** Access rules, challenges and the Date window through the pure core, with an injected clock (no sleeps). */
import { describe, expect, it } from 'vitest';
import { articleXml, problemOf, testServer, TEST_NOW } from '../testkit/index.js';
import type { HeaderMap } from './records.js';
import type { TestServer } from '../testkit/index.js';

const RECORDS = '/users/alice/financialrecords';
const HMAC_ONLY = 'hmac realm="conform"';
const WITH_BASIC =
  'hmac realm="conform", Basic realm="conform", charset="UTF-8", Bearer realm="conform", OAuth realm="conform"';

function anon(): TestServer {
  return testServer({ signAs: null });
}

/** GET of alice's records, date-and-nonce form, Date `skew` seconds off (or the given text). */
function nonceGet(s: TestServer, nonce: string, date: number | string = 0, method = 'GET', target = RECORDS) {
  const when = typeof date === 'string' ? date : new Date(s.clock.now().getTime() + date * 1000);
  return s.send({ method, target, headers: { ...s.sign(method, target, { user: 'alice', nonce, date: when }) } });
}

describe('protected resources', () => {
  it.each(['/', RECORDS])('GET %s without credentials: 401, hmac challenge, problem body', (path) => {
    const res = anon().send({ method: 'GET', target: path });
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe(HMAC_ONLY);
    expect(res.headers['content-type']).toBe('application/problem+json');
    expect(problemOf(res)).toMatchObject({ type: 'about:blank', title: 'Unauthorized', status: 401 });
  });

  it('over TLS the challenge offers Basic, Bearer and OAuth too; HEAD gets the headers without a body', () => {
    const s = anon();
    expect(s.send({ method: 'GET', target: '/', secure: true }).headers['www-authenticate']).toBe(WITH_BASIC);
    const head = s.send({ method: 'HEAD', target: RECORDS, secure: true });
    expect([head.status, head.headers['www-authenticate'], head.body]).toEqual([401, WITH_BASIC, undefined]);
  });

  it('records are readable by their owner only: 200, 403 for another user, 404 for an unknown user', () => {
    const s = anon();
    const as = (user: string, path: string) =>
      s.send({ method: 'GET', target: path, headers: { ...s.sign('GET', path, { user }) } });
    expect(as('alice', RECORDS).status).toBe(200);
    expect(as('bob', RECORDS).status).toBe(403);
    expect(as('bob', '/users/bob/financialrecords').status).toBe(200);
    expect(as('bob', '/users/nobody/financialrecords').status).toBe(404);
    expect(s.send({ method: 'GET', target: '/users/nobody/financialrecords' }).status).toBe(401);
    const head = s.send({
      method: 'HEAD',
      target: RECORDS,
      headers: { ...s.sign('HEAD', RECORDS, { user: 'carol' }) },
    });
    expect([head.status, head.body]).toEqual([403, undefined]);
  });

  it('Basic works over TLS for every default user (colons and non-ASCII in passwords), never over plain HTTP', () => {
    const s = anon();
    for (const user of ['alice', 'bob', 'carol']) {
      const path = `/users/${user}/financialrecords`;
      expect(s.send({ method: 'GET', target: path, headers: s.basic(user), secure: true }).status).toBe(200);
      const plain = s.send({ method: 'GET', target: path, headers: s.basic(user) });
      expect(plain.status).toBe(401);
      expect(problemOf(plain).detail).toMatch(/refused over plain HTTP/);
    }
  });

  it('wrong or malformed credentials are 401 with a challenge', () => {
    const s = anon();
    const tries: HeaderMap[] = [
      { authorization: 'Basic !!!' },
      { authorization: 'Basic YWxpY2U=' },
      { authorization: 'Digest abc' },
      { authentication: 'hmac alice' },
      { authentication: 'hmac alice:1:2:3' },
      { authentication: 'hmac alice:12a:digest' },
      { authentication: 'digest alice:x' },
      { authentication: 'hmac mallory:/w93b+N4EVEPfWcqSP2VJJBgnXDNvSeNkHW0fMI/VRs=' },
      {
        authentication: 'hmac alice:/w93b+N4EVEPfWcqSP2VJJBgnXDNvSeNkHW0fMI/VRs=',
        authorization: 'Basic YWxpY2U6d29uZGVyOmxhbmQ=',
      },
      {
        authentication: [
          'hmac alice:/w93b+N4EVEPfWcqSP2VJJBgnXDNvSeNkHW0fMI/VRs=',
          'hmac alice:/w93b+N4EVEPfWcqSP2VJJBgnXDNvSeNkHW0fMI/VRs=',
        ],
      },
    ];
    for (const headers of tries) {
      const res = s.send({ method: 'GET', target: '/', headers, secure: true });
      expect([headers, res.status, res.headers['www-authenticate']]).toEqual([headers, 401, WITH_BASIC]);
    }
    expect(
      s.send({
        method: 'GET',
        target: '/',
        headers: { authentication: 'HMAC alice:/w93b+N4EVEPfWcqSP2VJJBgnXDNvSeNkHW0fMI/VRs=' },
      }).status,
    ).toBe(200);
    const bearer = s.send({ method: 'GET', target: '/', headers: { authorization: 'Bearer abc' }, secure: true });
    expect([bearer.status, bearer.headers['www-authenticate']]).toEqual([
      401,
      expect.stringMatching(/^Bearer realm="conform", error="invalid_token"/),
    ]);
  });

  it('the signed path is the request-target as sent, query included', () => {
    const s = anon();
    const target = '/users/alice/financialrecords?year=2026';
    expect(s.send({ method: 'GET', target, headers: { ...s.sign('GET', target) } }).status).toBe(200);
    expect(s.send({ method: 'GET', target, headers: { ...s.sign('GET', RECORDS) } }).status).toBe(401);
  });

  it('no cookies and nothing per connection on a correct server', () => {
    const s = anon();
    const connection = {};
    const ok = s.send({ method: 'GET', target: RECORDS, headers: { ...s.sign('GET', RECORDS) }, connection });
    expect([ok.status, ok.headers['set-cookie'], connection]).toEqual([200, undefined, {}]);
    expect(s.send({ method: 'GET', target: RECORDS, connection }).status).toBe(401);
  });
});

describe('articles', () => {
  it('reads stay public; writes need credentials (401, not 405) and create nothing', () => {
    const s = anon();
    expect(s.send({ method: 'PUT', target: '/articles/a', body: articleXml() }).status).toBe(401);
    expect(s.send({ method: 'POST', target: '/articles', body: articleXml() }).status).toBe(401);
    expect(s.state.store.size).toBe(0);
    expect(s.send({ method: 'GET', target: '/articles/a' }).status).toBe(404);
    const body = articleXml();
    expect(
      s.send({ method: 'PUT', target: '/articles/a', body, headers: { ...s.sign('PUT', '/articles/a', { body }) } })
        .status,
    ).toBe(201);
    expect(s.send({ method: 'GET', target: '/articles/a' }).status).toBe(200);
    expect(s.send({ method: 'HEAD', target: '/article/a' }).status).toBe(200);
    const del = s.send({ method: 'DELETE', target: '/articles/a' });
    expect([del.status, del.headers['www-authenticate']]).toEqual([401, HMAC_ONLY]);
    expect(
      s.send({ method: 'DELETE', target: '/articles/a', headers: { ...s.sign('DELETE', '/articles/a') } }).status,
    ).toBe(204);
  });

  it('Basic over TLS may write too', () => {
    const s = anon();
    expect(
      s.send({ method: 'POST', target: '/articles', body: articleXml(), headers: s.basic('carol'), secure: true })
        .status,
    ).toBe(201);
  });

  it('with body hashing on, a PUT signed without the hash is refused; off, the plain message is the one; optional, both', () => {
    const body = articleXml();
    for (const bodyHash of [true, false, 'optional'] as const) {
      const s = testServer({ signAs: null, bodyHash });
      const without = s.send({
        method: 'PUT',
        target: '/articles/a',
        body,
        headers: { ...s.sign('PUT', '/articles/a', { body, bodyHash: false }) },
      });
      const withHash = s.send({
        method: 'PUT',
        target: '/articles/b',
        body,
        headers: { ...s.sign('PUT', '/articles/b', { body, bodyHash: true }) },
      });
      expect([without.status, withHash.status]).toEqual(
        bodyHash === 'optional' ? [201, 201] : bodyHash ? [401, 201] : [201, 401],
      );
    }
  });
});

describe('OPTIONS and Allow depend on credentials', () => {
  const cases = [
    ['/articles/a', 'GET, HEAD, PUT, DELETE, OPTIONS', 'GET, HEAD, OPTIONS'],
    ['/articles', 'POST, OPTIONS', 'OPTIONS'],
    ['/', 'GET, HEAD, OPTIONS', 'GET, HEAD, OPTIONS'],
    [RECORDS, 'GET, HEAD, OPTIONS', 'GET, HEAD, OPTIONS'],
    ['/elsewhere', 'OPTIONS', 'OPTIONS'],
  ] as const;

  it.each(cases)(
    'OPTIONS %s: full Allow with credentials, no writes without or with wrong ones',
    (path, full, anonymous) => {
      const s = anon();
      expect(s.send({ method: 'OPTIONS', target: path, headers: { ...s.sign('OPTIONS', path) } }).headers.allow).toBe(
        full,
      );
      expect(s.send({ method: 'OPTIONS', target: path }).headers.allow).toBe(anonymous);
      const wrong = s.send({ method: 'OPTIONS', target: path, headers: { authentication: 'hmac alice:AAAA' } });
      expect([wrong.status, wrong.headers.allow]).toEqual([200, anonymous]);
    },
  );

  it('a 405 carries the Allow the same OPTIONS would', () => {
    const s = anon();
    for (const [path, method] of [
      ['/articles/a', 'POST'],
      ['/articles/a', 'PATCH'],
      ['/articles', 'GET'],
      ['/', 'PUT'],
    ] as const) {
      const anonymous = s.send({ method, target: path, body: articleXml() });
      expect([anonymous.status, anonymous.headers.allow]).toEqual([
        405,
        s.send({ method: 'OPTIONS', target: path }).headers.allow,
      ]);
      const signed = s.send({
        method,
        target: path,
        body: articleXml(),
        headers: { ...s.sign(method, path, { body: articleXml() }) },
      });
      const full = s.send({ method: 'OPTIONS', target: path, headers: { ...s.sign('OPTIONS', path) } }).headers.allow;
      expect([signed.status, signed.headers.allow]).toEqual([405, full]);
    }
  });

  it('a valid nonce is consumed whatever the method or resource', () => {
    const s = anon();
    expect(nonceGet(s, '1', 0, 'OPTIONS', '/articles/a').headers.allow).toBe('GET, HEAD, PUT, DELETE, OPTIONS');
    expect(nonceGet(s, '1', 0, 'OPTIONS', '/articles/a').headers.allow).toBe('GET, HEAD, OPTIONS');
    expect(nonceGet(s, '2', 0, 'GET', '/articles/nothing').status).toBe(404);
    expect(nonceGet(s, '2').status).toBe(401);
    expect(s.state.nonces.size()).toBe(2);
  });
});

describe('date-and-nonce form', () => {
  it('accepts each nonce once per user; another user may use the same nonce', () => {
    const s = anon();
    expect(nonceGet(s, '42').status).toBe(200);
    const replay = nonceGet(s, '42');
    expect([replay.status, problemOf(replay).detail]).toEqual([
      401,
      `GET ${RECORDS} needs credentials: this nonce was already used by this user`,
    ]);
    const bob = '/users/bob/financialrecords';
    expect(
      s.send({ method: 'GET', target: bob, headers: { ...s.sign('GET', bob, { user: 'bob', nonce: '42' }) } }).status,
    ).toBe(200);
    expect(nonceGet(s, '042').status).toBe(200);
  });

  it.each([
    [-600, 200],
    [600, 200],
    [-601, 401],
    [601, 401],
    [0, 200],
  ])('window edges: a Date %i s off is %i', (skew, status) => {
    expect(nonceGet(anon(), '1', skew).status).toBe(status);
  });

  it('the window is a setting, and the clock has millisecond precision', () => {
    const s = testServer({ signAs: null, window: 30 });
    expect(nonceGet(s, '1', 30).status).toBe(200);
    expect(nonceGet(s, '2', -31).status).toBe(401);
    s.clock.set(TEST_NOW.getTime() + 500);
    expect(nonceGet(s, '3', '31 Dec 2024 23:59:30').status).toBe(401);
    expect(nonceGet(s, '4', '01 Jan 2025 00:00:30').status).toBe(200);
  });

  it('a replay is refused until the Date leaves the window, since the nonce is kept until max(date, now) + window', () => {
    const s = anon();
    expect(nonceGet(s, '9', '01 Jan 2025 00:10:00').status).toBe(200);
    s.clock.set(new Date('2025-01-01T00:20:00Z'));
    expect(nonceGet(s, '9', '01 Jan 2025 00:10:00').status).toBe(401);
    expect(s.state.nonces.size()).toBe(1);
    s.clock.set(new Date('2025-01-01T00:20:00.001Z'));
    expect(nonceGet(s, '10', '01 Jan 2025 00:20:00').status).toBe(200);
    expect(s.state.nonces.size()).toBe(1);
  });

  it.each([
    ['1 Jan 2025 00:00:00', 200],
    ['01 Jan 2025 00:00:00', 200],
    ['01 jan 2025 00:00:00', 401],
    ['01 JAN 2025 00:00:00', 401],
    ['Wed, 01 Jan 2025 00:00:00 GMT', 401],
    ['2025-01-01T00:00:00Z', 401],
    ['01 Jan 2025 0:00:00', 401],
    ['01 Jan 2025 00:00', 401],
    ['01  Jan 2025 00:00:00', 401],
    ['32 Dec 2024 00:00:00', 401],
    ['29 Feb 2025 00:00:00', 401],
    ['31 Dec 2024 24:00:00', 401],
    ['31 Dec 2024 23:59:60', 401],
    ['', 401],
  ])('Date %j → %i', (date, status) => {
    expect(nonceGet(anon(), '1', date).status).toBe(status);
  });

  it('a nonce-form request without a Date is refused', () => {
    const s = anon();
    const { authentication } = s.sign('GET', RECORDS, { nonce: '1' });
    expect(s.send({ method: 'GET', target: RECORDS, headers: { authentication } }).status).toBe(401);
  });

  it('a nonce of more than 20 digits is refused; 20 digits beyond 2^64 are fine', () => {
    const s = anon();
    expect(nonceGet(s, '99999999999999999999').status).toBe(200);
    expect(nonceGet(s, '123456789012345678901').status).toBe(401);
  });

  it('when the nonce store is full: 503 with Retry-After until the oldest nonce expires, then accepted again', () => {
    const s = testServer({ signAs: null, nonceCapacity: 2, nonceShare: 2 });
    expect(nonceGet(s, '1').status).toBe(200);
    s.clock.advance(100);
    expect(nonceGet(s, '2').status).toBe(200);
    const full = nonceGet(s, '3');
    expect([full.status, full.headers['retry-after'], problemOf(full).status]).toEqual([503, '501', 503]);
    expect(nonceGet(s, '1').status).toBe(401);
    expect(s.send({ method: 'GET', target: RECORDS, headers: { ...s.sign('GET', RECORDS) } }).status).toBe(200);
    expect(nonceGet(s, '3', 0, 'OPTIONS', '/').status).toBe(503);
    s.clock.advance(500);
    expect(nonceGet(s, '3').status).toBe(503);
    s.clock.advance(1);
    expect(nonceGet(s, '3').status).toBe(200);
  });

  it("one user's burst fills that user's share only: the others' signed requests are still accepted", () => {
    const s = testServer({ signAs: null, nonceCapacity: 10, nonceShare: 4 });
    for (const n of ['1', '2', '3', '4']) expect(nonceGet(s, n).status).toBe(200);
    const burst = nonceGet(s, '5');
    expect([burst.status, burst.headers['retry-after']]).toEqual([503, '601']);
    const bobSigned = (nonce: string) =>
      s.send({
        method: 'GET',
        target: '/users/bob/financialrecords',
        headers: { ...s.sign('GET', '/users/bob/financialrecords', { user: 'bob', nonce, date: s.clock.now() }) },
      });
    for (const n of ['1', '2', '3', '4']) expect(bobSigned(n).status).toBe(200);
    expect(bobSigned('5').status).toBe(503);
    expect(s.state.nonces.size()).toBe(8);
  });

  it('by default the capacity is shared out evenly among the users and OAuth 1 consumers', () => {
    // Three users and two consumers by default: a share of 2 each out of 10.
    const s = testServer({ signAs: null, nonceCapacity: 10 });
    expect(nonceGet(s, '1').status).toBe(200);
    expect(nonceGet(s, '2').status).toBe(200);
    expect(nonceGet(s, '3').status).toBe(503);
  });
});
