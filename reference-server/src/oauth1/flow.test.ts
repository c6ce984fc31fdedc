/** OAuth 1.0a through the pure core: the three-legged flow, authenticated requests and every refusal. */
import { describe, expect, it } from 'vitest';
import { CONSUMER, FORM, TLS_HOST, formOf, oauth1Request, oauth1Tokens, RECORDS } from '../../testkit/oauth.js';
import { TEMPORARY_TTL } from '../oauth/state.js';
import { articleXml, problemOf, testServer, text } from '../../testkit/index.js';
import type { TestServer } from '../../testkit/index.js';

const OAUTH_CHALLENGE = 'OAuth realm="conform"';

function anon(options: Parameters<typeof testServer>[0] = {}): TestServer {
  return testServer({ signAs: null, ...options });
}

function requestToken(s: TestServer, callback = 'oob') {
  return oauth1Request(s, { method: 'POST', target: '/oauth1/request_token', extra: [['oauth_callback', callback]] })
    .res;
}

function authorize(s: TestServer, token: string, user = 'alice', secure = true) {
  return s.send({
    method: 'GET',
    target: `/oauth1/authorize?oauth_token=${encodeURIComponent(token)}`,
    headers: s.basic(user),
    secure,
  });
}

function accessToken(s: TestServer, token: { key: string; secret: string }, verifier: string) {
  return oauth1Request(s, {
    method: 'POST',
    target: '/oauth1/access_token',
    token,
    extra: [['oauth_verifier', verifier]],
  }).res;
}

describe('OAuth 1 three-legged flow', () => {
  it('temporary credentials, authorization, token credentials, then the records', () => {
    const s = anon();
    const temp = requestToken(s);
    expect([temp.status, temp.headers['content-type'], temp.headers['cache-control']]).toEqual([200, FORM, 'no-store']);
    const t = formOf(temp);
    expect(Object.keys(t)).toEqual(['oauth_token', 'oauth_token_secret', 'oauth_callback_confirmed']);
    expect(t.oauth_callback_confirmed).toBe('true');
    expect(t.oauth_token).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const approval = authorize(s, t.oauth_token ?? '');
    expect([approval.status, approval.headers['content-type']]).toEqual([200, FORM]);
    const a = formOf(approval);
    expect(Object.keys(a)).toEqual(['oauth_token', 'oauth_verifier']);
    expect(a.oauth_token).toBe(t.oauth_token);

    const temporary = { key: t.oauth_token ?? '', secret: t.oauth_token_secret ?? '' };
    const tokens = accessToken(s, temporary, a.oauth_verifier ?? '');
    expect([tokens.status, tokens.headers['content-type'], tokens.headers['cache-control']]).toEqual([
      200,
      FORM,
      'no-store',
    ]);
    const c = formOf(tokens);
    expect(Object.keys(c)).toEqual(['oauth_token', 'oauth_token_secret']);

    const token = { key: c.oauth_token ?? '', secret: c.oauth_token_secret ?? '' };
    const records = oauth1Request(s, { target: RECORDS, token }).res;
    expect([records.status, text(records)]).toEqual([200, expect.stringContaining('user="alice"')]);
    expect(oauth1Request(s, { target: '/', token }).res.status).toBe(200);
    expect(oauth1Request(s, { target: '/users/bob/financialrecords', token }).res.status).toBe(403);
  });

  it('the temporary credentials and the verifier work once', () => {
    const s = anon();
    const t = formOf(requestToken(s));
    const temporary = { key: t.oauth_token ?? '', secret: t.oauth_token_secret ?? '' };
    const verifier = formOf(authorize(s, temporary.key)).oauth_verifier ?? '';
    expect(authorize(s, temporary.key).status).toBe(400);
    expect(accessToken(s, temporary, `${verifier}x`).status).toBe(401);
    expect(accessToken(s, temporary, verifier).status).toBe(200);
    const again = accessToken(s, temporary, verifier);
    expect([again.status, again.headers['www-authenticate']]).toEqual([401, OAUTH_CHALLENGE]);
    expect(authorize(s, temporary.key).status).toBe(400);
  });

  it('token credentials need an authorized request: before authorization the token request is 401', () => {
    const s = anon();
    const t = formOf(requestToken(s));
    expect(accessToken(s, { key: t.oauth_token ?? '', secret: t.oauth_token_secret ?? '' }, 'guess').status).toBe(401);
  });

  it("authorization needs the consumer's user with Basic over TLS", () => {
    const s = anon();
    const token = formOf(requestToken(s)).oauth_token ?? '';
    const none = s.send({ method: 'GET', target: `/oauth1/authorize?oauth_token=${token}`, secure: true });
    expect([none.status, none.headers['www-authenticate']]).toEqual([401, 'Basic realm="conform", charset="UTF-8"']);
    expect(
      s.send({
        method: 'GET',
        target: `/oauth1/authorize?oauth_token=${token}`,
        headers: s.basic('alice', 'wrong'),
        secure: true,
      }).status,
    ).toBe(401);
    expect(authorize(s, token, 'bob').status).toBe(403);
    expect(authorize(s, token, 'alice', false).status).toBe(400);
    expect(s.send({ method: 'GET', target: '/oauth1/authorize', headers: s.basic('alice'), secure: true }).status).toBe(
      400,
    );
    expect(
      s.send({
        method: 'GET',
        target: `/oauth1/authorize?oauth_token=${token}&oauth_token=${token}`,
        headers: s.basic('alice'),
        secure: true,
      }).status,
    ).toBe(400);
    expect(authorize(s, 'unknown').status).toBe(400);
    expect(authorize(s, token).status).toBe(200);
  });

  it('temporary credentials expire', () => {
    const s = anon();
    const token = formOf(requestToken(s)).oauth_token ?? '';
    s.clock.advance(TEMPORARY_TTL);
    expect(authorize(s, token).status).toBe(400);
  });

  it('the callback is required: oob or an absolute http(s) URI', () => {
    const s = anon();
    expect(requestToken(s, 'https://client.example/cb?x=1').status).toBe(200);
    expect(requestToken(s, 'ftp://client.example/').status).toBe(400);
    expect(requestToken(s, 'not a uri').status).toBe(400);
    expect(oauth1Request(s, { method: 'POST', target: '/oauth1/request_token' }).res.status).toBe(400);
  });

  it('the temporary credential request carries no token; the token request needs the verifier', () => {
    const s = anon();
    const withToken = oauth1Request(s, {
      method: 'POST',
      target: '/oauth1/request_token',
      token: { key: 'x', secret: 'y' },
      extra: [['oauth_callback', 'oob']],
    }).res;
    expect(withToken.status).toBe(400);
    const t = formOf(requestToken(s));
    const temporary = { key: t.oauth_token ?? '', secret: t.oauth_token_secret ?? '' };
    authorize(s, temporary.key);
    expect(oauth1Request(s, { method: 'POST', target: '/oauth1/access_token', token: temporary }).res.status).toBe(400);
  });

  it('every OAuth 1 endpoint refuses plain HTTP; each answers its method, OPTIONS, and 405 for the rest', () => {
    const s = anon();
    expect(
      oauth1Request(s, {
        method: 'POST',
        target: '/oauth1/request_token',
        extra: [['oauth_callback', 'oob']],
        secure: false,
      }).res.status,
    ).toBe(400);
    expect(
      oauth1Request(s, {
        method: 'POST',
        target: '/oauth1/access_token',
        token: { key: 'a', secret: 'b' },
        extra: [['oauth_verifier', 'v']],
        secure: false,
      }).res.status,
    ).toBe(400);
    for (const [path, allow] of [
      ['/oauth1/request_token', 'POST, OPTIONS'],
      ['/oauth1/authorize', 'GET, OPTIONS'],
      ['/oauth1/access_token', 'POST, OPTIONS'],
    ] as const) {
      expect(s.send({ method: 'OPTIONS', target: path, secure: true }).headers.allow).toBe(allow);
      const wrong = s.send({ method: 'PUT', target: path, secure: true });
      expect([wrong.status, wrong.headers.allow]).toEqual([405, allow]);
      expect(s.send({ method: 'BREW', target: path, secure: true }).status).toBe(405);
    }
  });

  it('a full credential store answers 503 with Retry-After', () => {
    const s = anon({ tokenCapacity: 1 });
    expect(requestToken(s).status).toBe(200);
    const full = requestToken(s);
    expect([full.status, full.headers['retry-after']]).toEqual([503, String(TEMPORARY_TTL)]);
  });
});

describe('OAuth 1 authenticated requests', () => {
  it('open the records with the protocol parameters in the header, the body or the query', () => {
    const s = anon();
    const token = oauth1Tokens(s);
    expect(oauth1Request(s, { target: RECORDS, token, place: 'query' }).res.status).toBe(200);
    expect(oauth1Request(s, { method: 'GET', target: RECORDS, token, place: 'body', formBody: 'a=1' }).res.status).toBe(
      200,
    );
    expect(oauth1Request(s, { target: RECORDS, token, place: 'header' }).res.status).toBe(200);
  });

  it('sign the query and the form body, reserved and non-ASCII characters included', () => {
    const s = anon();
    const token = oauth1Tokens(s);
    const target = `${RECORDS}?q=caf%C3%A9&x=%21%2A%27%28%29&sp=a+b&sp=a%20b&amp=%26%3D%3F%2F&empty=&bare`;
    expect(oauth1Request(s, { target, token }).res.status).toBe(200);
    expect(oauth1Request(s, { target, sendTarget: target.replace('caf%C3%A9', 'caf%C3%A8'), token }).res.status).toBe(
      401,
    );
    expect(oauth1Request(s, { target, sendTarget: `${target}&more=1`, token }).res.status).toBe(401);
    const form = 'amount=10%2C00+%E2%82%AC&note=%E2%9C%93&amount=9';
    expect(oauth1Request(s, { target: RECORDS, token, formBody: form }).res.status).toBe(200);
    const tampered = { body: form.replace('10%2C00', '99%2C00'), contentType: FORM };
    expect(oauth1Request(s, { target: RECORDS, token, formBody: form, rawBody: tampered }).res.status).toBe(401);
    const notForm = { body: form, contentType: 'text/plain' };
    expect(oauth1Request(s, { target: RECORDS, token, formBody: form, rawBody: notForm }).res.status).toBe(401);
  });

  it('open article writes (the XML body is not signed)', () => {
    const s = anon();
    const token = oauth1Tokens(s);
    const put = oauth1Request(s, {
      method: 'PUT',
      target: '/articles/x',
      token,
      rawBody: { body: articleXml(), contentType: 'application/xml' },
    }).res;
    expect(put.status).toBe(201);
    const del = oauth1Request(s, { method: 'DELETE', target: '/articles/x', token }).res;
    expect(del.status).toBe(204);
    const anonymous = s.send({
      method: 'PUT',
      target: '/articles/y',
      body: articleXml(),
      headers: { 'content-type': 'application/xml' },
      secure: true,
    });
    expect(anonymous.headers['www-authenticate']).toContain(OAUTH_CHALLENGE);
  });

  it('a replayed nonce, a stale timestamp, a wrong signature or unknown credentials: 401 with the OAuth challenge', () => {
    const s = anon();
    const token = oauth1Tokens(s);
    const now = s.clock.now().getTime() / 1000;
    expect(oauth1Request(s, { target: RECORDS, token, nonce: 'n1' }).res.status).toBe(200);
    const refusals = [
      oauth1Request(s, { target: RECORDS, token, nonce: 'n1' }).res,
      oauth1Request(s, { target: RECORDS, token, timestamp: now - 601 }).res,
      oauth1Request(s, { target: RECORDS, token, timestamp: now + 601 }).res,
      oauth1Request(s, { target: RECORDS, token: { ...token, secret: 'wrong' } }).res,
      oauth1Request(s, { target: RECORDS, token, consumer: { ...CONSUMER, secret: 'wrong' } }).res,
      oauth1Request(s, { target: RECORDS, token, consumer: { key: 'other', secret: CONSUMER.secret } }).res,
      oauth1Request(s, { target: RECORDS, token: { key: 'unknown', secret: token.secret } }).res,
    ];
    for (const res of refusals) expect([res.status, res.headers['www-authenticate']]).toEqual([401, OAUTH_CHALLENGE]);
    expect(oauth1Request(s, { target: RECORDS, token, timestamp: now - 600 }).res.status).toBe(200);
    expect(oauth1Request(s, { target: RECORDS, token, timestamp: now + 600 }).res.status).toBe(200);
  });

  it('the same nonce is fine with another timestamp or token', () => {
    const s = anon();
    const token = oauth1Tokens(s);
    const now = s.clock.now().getTime() / 1000;
    expect(oauth1Request(s, { target: RECORDS, token, nonce: 'same' }).res.status).toBe(200);
    expect(oauth1Request(s, { target: RECORDS, token, nonce: 'same', timestamp: now + 1 }).res.status).toBe(200);
    expect(oauth1Request(s, { target: RECORDS, token: oauth1Tokens(s), nonce: 'same' }).res.status).toBe(200);
  });

  it('malformed requests: 400 (missing, repeated or misplaced parameters, another signature method or version)', () => {
    const s = anon();
    const token = oauth1Tokens(s);
    const { signed } = oauth1Request(s, { target: RECORDS, token });
    const send = (authorization: string, target = RECORDS) =>
      s.send({ method: 'GET', target, headers: { host: TLS_HOST, authorization }, secure: true });
    const header = signed.authorization;
    const cases = [
      header.replace(/, oauth_nonce="[^"]*"/, ''),
      header.replace(/, oauth_timestamp="[^"]*"/, ''),
      header.replace(/, oauth_signature="[^"]*"/, ''),
      header.replace(/oauth_consumer_key="[^"]*", /, ''),
      header.replace(/, oauth_token="[^"]*"/, ''),
      `${header}, oauth_nonce="again"`,
      header.replace('HMAC-SHA1', 'PLAINTEXT'),
      header.replace('HMAC-SHA1', 'RSA-SHA1'),
      header.replace('oauth_version="1.0"', 'oauth_version="2.0"'),
      header.replace(/oauth_timestamp="[^"]*"/, 'oauth_timestamp="soon"'),
      header.replace(/"/g, ''),
    ];
    for (const authorization of cases)
      expect([authorization, send(authorization).status]).toEqual([authorization, 400]);
    expect(send(header, `${RECORDS}?oauth_nonce=x`).status).toBe(400);
    const empty = send(header.replace(/oauth_signature="[^"]*"/, 'oauth_signature=""'));
    expect([empty.status, empty.headers['www-authenticate']]).toEqual([401, OAUTH_CHALLENGE]);
    expect(problemOf(send(cases[0] ?? '')).detail).toContain('oauth_nonce');
  });

  it('over plain HTTP they are refused unchecked: 401, and the nonce is not consumed', () => {
    const s = anon();
    const token = oauth1Tokens(s);
    const plain = oauth1Request(s, { target: RECORDS, token, nonce: 'kept', secure: false }).res;
    expect([plain.status, plain.headers['www-authenticate']]).toEqual([401, 'hmac realm="conform"']);
    expect(oauth1Request(s, { target: RECORDS, token, nonce: 'kept' }).res.status).toBe(200);
  });

  it('temporary credentials open nothing; token credentials are bound to their consumer', () => {
    const s = anon({
      oauth1Consumers: [
        { ...CONSUMER, user: 'alice' },
        { key: 'second', secret: 'second-secret', user: 'alice' },
      ],
    });
    const t = formOf(requestToken(s));
    expect(
      oauth1Request(s, { target: RECORDS, token: { key: t.oauth_token ?? '', secret: t.oauth_token_secret ?? '' } }).res
        .status,
    ).toBe(401);
    const token = oauth1Tokens(s);
    expect(
      oauth1Request(s, { target: RECORDS, token, consumer: { key: 'second', secret: 'second-secret' } }).res.status,
    ).toBe(401);
  });

  it('wrong credentials on a public resource count as none', () => {
    const s = anon();
    const res = oauth1Request(s, { target: '/articles/missing', token: { key: 'x', secret: 'y' } }).res;
    expect(res.status).toBe(404);
  });

  it('a full nonce store answers 503 with Retry-After', () => {
    const s = anon({ nonceCapacity: 2, nonceShare: 2 });
    const token = oauth1Tokens(s);
    const full = oauth1Request(s, { target: RECORDS, token }).res;
    expect([full.status, full.headers['retry-after']]).toEqual([503, '601']);
    s.clock.advance(601);
    expect(oauth1Request(s, { target: RECORDS, token }).res.status).toBe(200);
  });
});
