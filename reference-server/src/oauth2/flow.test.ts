/** OAuth 2 client credentials and bearer tokens through the pure core, with an injected clock (expiry without sleeping). */
import { describe, expect, it } from 'vitest';
import { DEFAULT_OAUTH2_CLIENTS } from '../oauth/accounts.js';
import { RECORDS, bearerRequest, clientBasic, issueToken, revoke, tokenRequest } from '../../testkit/oauth.js';
import { articleXml, testServer, text } from '../../testkit/index.js';
import type { TestServer } from '../../testkit/index.js';
import type { ResponseRecord } from '../records.js';

const SPECIAL = { id: 'ops team:1', secret: 'p@ss wörd+1&=%', user: 'bob' };

function anon(options: Parameters<typeof testServer>[0] = {}): TestServer {
  return testServer({ signAs: null, oauth2Clients: [...DEFAULT_OAUTH2_CLIENTS, SPECIAL], ...options });
}

function json(res: ResponseRecord): Record<string, unknown> {
  return JSON.parse(text(res)) as Record<string, unknown>;
}

/** The RFC 6749 §5.2 shape: JSON `{error, error_description}`, not cacheable. */
function oauthError(res: ResponseRecord): [number, unknown, string | string[] | undefined] {
  expect(res.headers['content-type']).toBe('application/json');
  expect([res.headers['cache-control'], res.headers.pragma]).toEqual(['no-store', 'no-cache']);
  const body = json(res);
  expect(Object.keys(body).sort()).toEqual(['error', 'error_description']);
  return [res.status, body.error, res.headers['www-authenticate']];
}

const INVALID_CLIENT = [401, 'invalid_client', 'Basic realm="conform"'];

describe('OAuth 2 token endpoint', () => {
  it('issues a bearer token to a client authenticated with Basic: JSON, not cacheable', () => {
    const s = anon();
    const res = tokenRequest(s);
    expect(res.status).toBe(200);
    expect(res.headers).toMatchObject({
      'content-type': 'application/json',
      'cache-control': 'no-store',
      pragma: 'no-cache',
    });
    const body = json(res);
    expect(Object.keys(body).sort()).toEqual(['access_token', 'expires_in', 'token_type']);
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 5 });
    expect(body.access_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(issueToken(s)).not.toBe(body.access_token);
  });

  it('accepts client_id and client_secret in the body instead, and a scope', () => {
    const s = anon();
    const res = tokenRequest(s, {
      authorization: null,
      body: 'grant_type=client_credentials&client_id=reporting&client_secret=rep-secret&scope=read',
    });
    expect(res.status).toBe(200);
  });

  it('form-urldecodes the Basic id and secret (RFC 6749 §2.3.1)', () => {
    const s = anon();
    const token = issueToken(s, { authorization: clientBasic(SPECIAL.id, SPECIAL.secret) });
    expect(bearerRequest(s, token, { target: '/users/bob/financialrecords' }).status).toBe(200);
    const overEncoded = `Basic ${Buffer.from('reportin%67:rep%2Dsecret').toString('base64')}`;
    expect(tokenRequest(s, { authorization: overEncoded }).status).toBe(200);
    expect(
      tokenRequest(testServer({ faults: ['oauth2-basic-undecoded'] }), { authorization: overEncoded }).status,
    ).toBe(401);
    const raw = `Basic ${Buffer.from(`${SPECIAL.id}:${SPECIAL.secret}`).toString('base64')}`;
    expect(oauthError(tokenRequest(s, { authorization: raw }))).toEqual(INVALID_CLIENT);
  });

  it('wrong, unknown or missing client authentication: 401 invalid_client with a Basic challenge', () => {
    const s = anon();
    expect(oauthError(tokenRequest(s, { authorization: clientBasic('reporting', 'wrong') }))).toEqual(INVALID_CLIENT);
    expect(oauthError(tokenRequest(s, { authorization: clientBasic('nobody', 'rep-secret') }))).toEqual(INVALID_CLIENT);
    expect(oauthError(tokenRequest(s, { authorization: null }))).toEqual(INVALID_CLIENT);
    expect(oauthError(tokenRequest(s, { authorization: 'Bearer abc' }))).toEqual(INVALID_CLIENT);
    expect(oauthError(tokenRequest(s, { authorization: 'Basic !!!' }))).toEqual(INVALID_CLIENT);
    const bodyWrong = tokenRequest(s, {
      authorization: null,
      body: 'grant_type=client_credentials&client_id=reporting&client_secret=nope',
    });
    expect(oauthError(bodyWrong)).toEqual(INVALID_CLIENT);
    expect(
      oauthError(tokenRequest(s, { authorization: null, body: 'grant_type=client_credentials&client_id=reporting' })),
    ).toEqual(INVALID_CLIENT);
    expect(s.state.oauth2.tokens.size()).toBe(0);
  });

  it('unsupported grants: 400 unsupported_grant_type', () => {
    const s = anon();
    for (const grant of ['password', 'authorization_code', 'Client_Credentials']) {
      expect(oauthError(tokenRequest(s, { body: `grant_type=${grant}` }))).toEqual([
        400,
        'unsupported_grant_type',
        undefined,
      ]);
    }
  });

  it('malformed requests: 400 invalid_request', () => {
    const s = anon();
    const cases: Array<Parameters<typeof tokenRequest>[1]> = [
      { body: '' },
      { body: 'grant_type=' },
      { body: 'scope=read' },
      { body: 'grant_type=client_credentials&grant_type=client_credentials' },
      { body: 'grant_type=client_credentials&client_secret=rep-secret' },
      { body: 'grant_type=client_credentials&client_id=other' },
      { contentType: 'application/json', body: '{"grant_type":"client_credentials"}' },
      { contentType: null },
      { contentType: 'application/x-www-form-urlencoded; charset=iso-8859-1' },
      { body: 'grant_type=client_credentials&x=%FF' },
    ];
    for (const c of cases)
      expect([c, oauthError(tokenRequest(s, c))]).toEqual([c, [400, 'invalid_request', undefined]]);
    expect(tokenRequest(s, { body: 'grant_type=client_credentials&client_id=reporting' }).status).toBe(200);
  });

  it('refuses plain HTTP with invalid_request and issues nothing', () => {
    const s = anon();
    const res = tokenRequest(s, { secure: false });
    expect(oauthError(res)).toEqual([400, 'invalid_request', undefined]);
    expect(json(res).error_description).toMatch(/TLS required/);
    expect(s.state.oauth2.tokens.size()).toBe(0);
  });

  it('answers POST and OPTIONS; 405 with Allow for other methods, unknown ones included', () => {
    const s = anon();
    const get = tokenRequest(s, { method: 'GET' });
    expect([get.status, get.headers.allow]).toEqual([405, 'POST, OPTIONS']);
    expect(tokenRequest(s, { method: 'OPTIONS' }).headers.allow).toBe('POST, OPTIONS');
    expect(tokenRequest(s, { method: 'BREW' })).toMatchObject({ status: 405, headers: { allow: 'POST, OPTIONS' } });
  });

  it('the lifetime is a setting', () => {
    const s = anon({ tokenTtl: 3600 });
    expect(json(tokenRequest(s)).expires_in).toBe(3600);
    expect(() => anon({ tokenTtl: 0 })).toThrow(RangeError);
    expect(() => anon({ tokenTtl: 1.5 })).toThrow(RangeError);
  });

  it('a full token store answers 503 with Retry-After until the oldest token expires', () => {
    const s = anon({ tokenCapacity: 2 });
    issueToken(s);
    s.clock.advance(2);
    issueToken(s);
    const full = tokenRequest(s);
    expect([full.status, full.headers['retry-after'], json(full).error]).toEqual([503, '3', 'temporarily_unavailable']);
    s.clock.advance(3);
    expect(tokenRequest(s).status).toBe(200);
  });
});

describe('Bearer tokens', () => {
  it("open the client user's records, / and article writes over TLS", () => {
    const s = anon();
    const token = issueToken(s);
    expect(bearerRequest(s, token).status).toBe(200);
    expect(bearerRequest(s, token, { target: '/' }).status).toBe(200);
    expect(bearerRequest(s, token, { target: '/users/bob/financialrecords' }).status).toBe(403);
    expect(bearerRequest(s, token, { method: 'PUT', target: '/articles/x', body: articleXml() }).status).toBe(201);
    expect(bearerRequest(s, token, { method: 'DELETE', target: '/articles/x' }).status).toBe(204);
    expect(
      s.send({ method: 'GET', target: RECORDS, headers: { authorization: `bearer ${token}` }, secure: true }).status,
    ).toBe(200);
  });

  it('expire ttl seconds after issue (injected clock), and expired tokens are swept', () => {
    const s = anon();
    const token = issueToken(s);
    s.clock.set(s.clock.now().getTime() + 4999);
    expect(bearerRequest(s, token).status).toBe(200);
    s.clock.advance(0.001);
    const res = bearerRequest(s, token);
    expect([res.status, res.headers['www-authenticate']]).toEqual([
      401,
      'Bearer realm="conform", error="invalid_token", error_description="the access token is unknown, expired or revoked"',
    ]);
    expect(s.state.oauth2.tokens.size()).toBe(0);
  });

  it('unknown, malformed or truncated tokens: 401 invalid_token', () => {
    const s = anon();
    const token = issueToken(s);
    for (const value of [
      'Bearer AAAA',
      `Bearer ${token.slice(0, 20)}`,
      `Bearer ${token}x`,
      'Bearer a b',
      'Bearer',
      `Bearer  ${token} extra`,
    ]) {
      const res = s.send({ method: 'GET', target: RECORDS, headers: { authorization: value }, secure: true });
      expect([value, res.status, res.headers['www-authenticate']]).toEqual([
        value,
        401,
        expect.stringMatching(/^Bearer realm="conform", error="invalid_token", error_description="[^"]+"$/),
      ]);
    }
  });

  it('are refused over plain HTTP without being looked at', () => {
    const s = anon();
    const token = issueToken(s);
    const res = bearerRequest(s, token, { secure: false });
    expect([res.status, res.headers['www-authenticate']]).toEqual([401, 'hmac realm="conform"']);
    expect(bearerRequest(s, token).status).toBe(200);
  });

  it('without credentials over TLS the challenges offer Bearer', () => {
    const s = anon();
    expect(s.send({ method: 'GET', target: RECORDS, secure: true }).headers['www-authenticate']).toContain(
      'Bearer realm="conform"',
    );
  });

  it('one credential per request: Bearer plus hmac is refused', () => {
    const s = anon();
    const token = issueToken(s);
    const headers = { authorization: `Bearer ${token}`, ...testServer().sign('GET', RECORDS) };
    expect(s.send({ method: 'GET', target: RECORDS, headers, secure: true }).status).toBe(401);
  });

  it('wrong tokens on public resources count as none', () => {
    const s = anon();
    expect(bearerRequest(s, 'AAAA', { target: '/articles/missing' }).status).toBe(404);
  });
});

describe('Revocation (RFC 7009)', () => {
  it('revokes: 200 with an empty body, then the token is refused', () => {
    const s = anon();
    const token = issueToken(s);
    const res = revoke(s, token);
    expect([res.status, res.body, res.headers['cache-control']]).toEqual([200, undefined, 'no-store']);
    expect(bearerRequest(s, token).status).toBe(401);
    expect(revoke(s, token).status).toBe(200);
  });

  it('unknown tokens also answer 200; a token_type_hint is ignored', () => {
    const s = anon();
    expect(revoke(s, 'never-issued').status).toBe(200);
    const token = issueToken(s);
    expect(
      tokenRequest(s, { path: '/oauth2/revoke', body: `token=${token}&token_type_hint=refresh_token` }).status,
    ).toBe(200);
    expect(bearerRequest(s, token).status).toBe(401);
  });

  it("needs client authentication, a token parameter and TLS; another client's token is kept", () => {
    const s = anon();
    const token = issueToken(s);
    expect(oauthError(revoke(s, token, { authorization: clientBasic('reporting', 'wrong') }))).toEqual(INVALID_CLIENT);
    expect(oauthError(revoke(s, token, { authorization: null }))).toEqual(INVALID_CLIENT);
    expect(oauthError(tokenRequest(s, { path: '/oauth2/revoke', body: 'token_type_hint=access_token' }))).toEqual([
      400,
      'invalid_request',
      undefined,
    ]);
    expect(oauthError(revoke(s, token, { secure: false }))).toEqual([400, 'invalid_request', undefined]);
    expect(oauthError(revoke(s, token, { authorization: clientBasic(SPECIAL.id, SPECIAL.secret) }))).toEqual([
      400,
      'unauthorized_client',
      undefined,
    ]);
    expect(bearerRequest(s, token).status).toBe(200);
  });
});
