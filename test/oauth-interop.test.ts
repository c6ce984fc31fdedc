/**
 * Interoperability of the reference server's OAuth with clients it did not write: the widely used `oauth-1.0a`
 * npm library for OAuth 1.0a (three-legged flow, signed GETs with reserved and non-ASCII query characters, a
 * form-encoded POST, tampering refused), and a plain RFC 6749 client credentials flow in undici (Basic client
 * authentication, form body, JSON answers, bearer use, the error shapes). Real sockets over TLS; no sleeps.
 */
import { createHmac } from 'node:crypto';
import OAuth from 'oauth-1.0a';
import { Agent, request } from 'undici';
import type { Dispatcher } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basicHeader } from '../harness/src/auth/signers.js';
import type { RunningServer } from '../reference-server/src/index.js';
import { useReferenceServer } from './helpers.js';

const CONSUMER = { key: 'conform-consumer', secret: 'consumer-secret-1' };
const CLIENT = { id: 'reporting', secret: 'rep-secret' };
const OWNER = { user: 'alice', password: 'wonder:land' };
const RECORDS = '/users/alice/financialrecords';
const FORM = 'application/x-www-form-urlencoded';

const reference = useReferenceServer();
let server: RunningServer;
let agent: Agent;
let base: string;

beforeAll(() => {
  server = reference();
  agent = new Agent({ connect: { ca: server.certificate ?? '' } });
  base = server.httpsUrl ?? '';
});

afterAll(async () => {
  await agent?.close();
});

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

async function send(
  method: Dispatcher.HttpMethod,
  url: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<Reply> {
  const res = await request(url, {
    method,
    headers,
    dispatcher: url.startsWith('https:') ? agent : undefined,
    ...(body === undefined ? {} : { body }),
  });
  return { status: res.statusCode, headers: res.headers, text: await res.body.text() };
}

function form(text: string): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(text));
}

describe('OAuth 1.0a with the oauth-1.0a library', () => {
  const oauth = new OAuth({
    consumer: CONSUMER,
    signature_method: 'HMAC-SHA1',
    hash_function: (baseString: string, key: string) => createHmac('sha1', key).update(baseString).digest('base64'),
  });

  /** Signs with the library and returns the Authorization header. */
  function authorization(method: string, url: string, token?: OAuth.Token, data?: Record<string, string>): string {
    return oauth.toHeader(oauth.authorize({ url, method, ...(data === undefined ? {} : { data }) }, token))
      .Authorization;
  }

  async function tokenCredentials(): Promise<OAuth.Token> {
    const temporaryUrl = `${base}/oauth1/request_token`;
    const temporary = await send('POST', temporaryUrl, {
      authorization: authorization('POST', temporaryUrl, undefined, { oauth_callback: 'oob' }),
    });
    expect([temporary.status, temporary.headers['content-type']]).toEqual([200, FORM]);
    const t = form(temporary.text);
    expect(t.oauth_callback_confirmed).toBe('true');

    const approval = await send(
      'GET',
      `${base}/oauth1/authorize?oauth_token=${encodeURIComponent(t.oauth_token ?? '')}`,
      { authorization: basicHeader(OWNER.user, OWNER.password) },
    );
    expect(approval.status).toBe(200);
    const verifier = form(approval.text).oauth_verifier ?? '';

    const tokenUrl = `${base}/oauth1/access_token`;
    const temporaryToken = { key: t.oauth_token ?? '', secret: t.oauth_token_secret ?? '' };
    const exchanged = await send('POST', tokenUrl, {
      authorization: authorization('POST', tokenUrl, temporaryToken, { oauth_verifier: verifier }),
    });
    expect(exchanged.status).toBe(200);
    const again = await send('POST', tokenUrl, {
      authorization: authorization('POST', tokenUrl, temporaryToken, { oauth_verifier: verifier }),
    });
    expect(again.status).toBe(401);
    const c = form(exchanged.text);
    return { key: c.oauth_token ?? '', secret: c.oauth_token_secret ?? '' };
  }

  it('runs the three-legged flow and reads the records with signed GETs, reserved and non-ASCII characters included', async () => {
    const token = await tokenCredentials();
    const queries = [
      '',
      '?q=caf%C3%A9',
      "?x=!*'()&y=%21%2A%27%28%29",
      '?r=%26%3D%3F%2F%3A%40%2B%23&s=a%20b&t=%E2%9C%93%F0%9F%98%80',
      '?dup=2&dup=1&empty=',
    ];
    for (const query of queries) {
      const url = `${base}${RECORDS}${query}`;
      const res = await send('GET', url, { authorization: authorization('GET', url, token) });
      expect([query, res.status, res.text]).toEqual([query, 200, expect.stringContaining('user="alice"')]);
    }
    const root = `${base}/`;
    expect((await send('GET', root, { authorization: authorization('GET', root, token) })).status).toBe(200);
    const bob = `${base}/users/bob/financialrecords`;
    expect((await send('GET', bob, { authorization: authorization('GET', bob, token) })).status).toBe(403);
  });

  it('signs a form-encoded POST body that the server covers', async () => {
    const url = `${base}/oauth1/request_token`;
    const data = { scope: 'records read', note: 'café ✓ & more' };
    const header = authorization('POST', url, undefined, { oauth_callback: 'oob', ...data });
    const body = `scope=${oauth.percentEncode(data.scope)}&note=${oauth.percentEncode(data.note)}`;
    const accepted = await send('POST', url, { authorization: header, 'content-type': FORM }, body);
    expect(accepted.status).toBe(200);
    const tamperedHeader = authorization('POST', url, undefined, { oauth_callback: 'oob', ...data });
    const tampered = await send(
      'POST',
      url,
      { authorization: tamperedHeader, 'content-type': FORM },
      body.replace('read', 'write'),
    );
    expect([tampered.status, tampered.headers['www-authenticate']]).toEqual([401, 'OAuth realm="conform"']);
  });

  it('refuses a tampered query, a replay, and plain HTTP', async () => {
    const token = await tokenCredentials();
    const signedUrl = `${base}${RECORDS}?amount=10`;
    const tampered = await send('GET', `${base}${RECORDS}?amount=1000`, {
      authorization: authorization('GET', signedUrl, token),
    });
    expect([tampered.status, tampered.headers['www-authenticate']]).toEqual([401, 'OAuth realm="conform"']);
    const header = authorization('GET', signedUrl, token);
    expect((await send('GET', signedUrl, { authorization: header })).status).toBe(200);
    expect((await send('GET', signedUrl, { authorization: header })).status).toBe(401);
    const plainUrl = `${server.url}${RECORDS}`;
    expect((await send('GET', plainUrl, { authorization: authorization('GET', plainUrl, token) })).status).toBe(401);
  });
});

describe('OAuth 2 client credentials (RFC 6749 §4.4) with plain undici', () => {
  /** RFC 6749 §2.3.1: the client id and secret are form-urlencoded before Basic. */
  function clientAuthorization(id: string, secret: string): string {
    const encode = (text: string) => new URLSearchParams({ x: text }).toString().slice(2);
    return basicHeader(encode(id), encode(secret));
  }

  async function tokenRequest(
    body: string,
    id = CLIENT.id,
    secret = CLIENT.secret,
    url = `${base}/oauth2/token`,
  ): Promise<Reply> {
    return send(
      'POST',
      url,
      { authorization: clientAuthorization(id, secret), 'content-type': FORM, accept: 'application/json' },
      body,
    );
  }

  it('obtains a token and uses it as Bearer on the records', async () => {
    const res = await tokenRequest('grant_type=client_credentials');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect([res.headers['cache-control'], res.headers.pragma]).toEqual(['no-store', 'no-cache']);
    const body = JSON.parse(res.text) as { access_token: string; token_type: string; expires_in: number };
    expect(body.token_type.toLowerCase()).toBe('bearer');
    expect(body.expires_in).toBe(5);
    const records = await send('GET', `${base}${RECORDS}`, { authorization: `Bearer ${body.access_token}` });
    expect([records.status, records.text]).toEqual([200, expect.stringContaining('user="alice"')]);
    const plain = await send('GET', `${server.url}${RECORDS}`, { authorization: `Bearer ${body.access_token}` });
    expect(plain.status).toBe(401);

    const revoked = await send(
      'POST',
      `${base}/oauth2/revoke`,
      { authorization: clientAuthorization(CLIENT.id, CLIENT.secret), 'content-type': FORM },
      `token=${body.access_token}`,
    );
    expect(revoked.status).toBe(200);
    const after = await send('GET', `${base}${RECORDS}`, { authorization: `Bearer ${body.access_token}` });
    expect([after.status, after.headers['www-authenticate']]).toEqual([
      401,
      expect.stringMatching(/^Bearer realm="conform", error="invalid_token"/),
    ]);
  });

  it('a wrong secret is 401 invalid_client with WWW-Authenticate', async () => {
    const res = await tokenRequest('grant_type=client_credentials', CLIENT.id, 'wrong');
    expect([res.status, res.headers['www-authenticate'], res.headers['cache-control']]).toEqual([
      401,
      'Basic realm="conform"',
      'no-store',
    ]);
    const body = JSON.parse(res.text) as { error: string; error_description?: string };
    expect(body.error).toBe('invalid_client');
    expect(typeof body.error_description).toBe('string');
  });

  it('a wrong grant is 400 unsupported_grant_type; plain HTTP is 400 invalid_request', async () => {
    const wrong = await tokenRequest('grant_type=password&username=alice&password=x');
    expect([wrong.status, (JSON.parse(wrong.text) as { error: string }).error]).toEqual([
      400,
      'unsupported_grant_type',
    ]);
    const plain = await tokenRequest(
      'grant_type=client_credentials',
      CLIENT.id,
      CLIENT.secret,
      `${server.url}/oauth2/token`,
    );
    expect([plain.status, (JSON.parse(plain.text) as { error: string }).error]).toEqual([400, 'invalid_request']);
  });
});
