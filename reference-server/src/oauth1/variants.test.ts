/**
 * The OAuth 1 variants (variants.ts) — `oauth1-approve-post`, `oauth1-any-approver`, `oauth1-header-only`,
 * `oauth1-realm-configured` — each
 * beside the default server's answer to the same requests, and the `oauth1-authorize-any-user` fault beside the
 * variant that lets any user approve correctly.
 */
import { describe, expect, it } from 'vitest';
import { CONSUMER, FORM, formOf, oauth1Raw, oauth1Request, RECORDS } from '../../testkit/oauth.js';
import {
  DEFAULT_OAUTH1_CONSUMERS,
  DEFAULT_OAUTH1_REDIRECT_URI,
  InvalidOAuthClientError,
  consumerTable,
} from '../oauth/accounts.js';
import type { OAuth1Consumer } from '../oauth/accounts.js';
import type { HeaderMap, ResponseRecord } from '../records.js';
import { testServer, text } from '../../testkit/index.js';
import type { TestServer, TestServerOptions } from '../../testkit/index.js';
import type { FaultName } from '../faults.js';
import type { VariantName } from '../variants.js';
import { escapeHtml, withQuery } from './endpoints.js';

const AUTHORIZE = '/oauth1/authorize';

function serve(variants: VariantName[] = [], options: TestServerOptions = {}): TestServer {
  return testServer({ signAs: null, variants, ...options });
}

type Credentials = { key: string; secret: string };

/** Temporary credentials for the default consumer, with `callback`. */
function temporary(s: TestServer, callback = 'oob'): Credentials {
  const res = oauth1Request(s, {
    method: 'POST',
    target: '/oauth1/request_token',
    extra: [['oauth_callback', callback]],
  }).res;
  expect(res.status).toBe(200);
  const t = formOf(res);
  return { key: t.oauth_token ?? '', secret: t.oauth_token_secret ?? '' };
}

/** GET of the authorize endpoint for `token` over TLS, with `headers`. */
function page(s: TestServer, token: string, headers: HeaderMap = {}): ResponseRecord {
  return s.send({
    method: 'GET',
    target: `${AUTHORIZE}?oauth_token=${encodeURIComponent(token)}`,
    headers,
    secure: true,
  });
}

interface Answer {
  /** Default: `oauth_token=<token>&confirm=yes`. */
  body?: string;
  /** Who signs (hmac, simple form unless `nonce`); null for nobody. Default: alice. */
  user?: string | null;
  nonce?: string;
  /** Headers sent instead of (or besides) the signature. */
  headers?: HeaderMap;
  contentType?: string;
}

/** The owner's POST answer to the approval form, signed with hmac as `user` (body hash included). */
function answer(s: TestServer, token: string, a: Answer = {}): ResponseRecord {
  const body = a.body ?? `oauth_token=${encodeURIComponent(token)}&confirm=yes`;
  const user = a.user === undefined ? 'alice' : a.user;
  const signed =
    user === null
      ? {}
      : s.sign('POST', AUTHORIZE, { user, body, ...(a.nonce === undefined ? {} : { nonce: a.nonce }) });
  const headers: HeaderMap = { 'content-type': a.contentType ?? FORM, ...signed, ...a.headers };
  return s.send({ method: 'POST', target: AUTHORIZE, body, headers, secure: true });
}

/** The query parameters of a Location. */
function paramsOf(location: unknown): Record<string, string> {
  return Object.fromEntries(new URL(String(location)).searchParams);
}

/** Token credentials for `temp` with `verifier`. */
function exchange(s: TestServer, temp: Credentials, verifier: string): ResponseRecord {
  return oauth1Request(s, {
    method: 'POST',
    target: '/oauth1/access_token',
    token: temp,
    extra: [['oauth_verifier', verifier]],
  }).res;
}

function credentialsOf(res: ResponseRecord): Credentials {
  expect(res.status).toBe(200);
  const c = formOf(res);
  return { key: c.oauth_token ?? '', secret: c.oauth_token_secret ?? '' };
}

/** Status of a GET of `user`'s records with token credentials. */
function records(s: TestServer, token: Credentials, user = 'alice'): number {
  return oauth1Request(s, { target: `/users/${user}/financialrecords`, token }).res.status;
}

describe('oauth1-approve-post', () => {
  it('GET only describes the pending request: an HTML form, no verifier, nothing granted, no credentials needed', () => {
    const s = serve(['oauth1-approve-post']);
    const temp = temporary(s);
    for (const headers of [{}, s.basic('alice')]) {
      const res = page(s, temp.key, headers);
      expect([res.status, res.headers['content-type'], res.headers['cache-control']]).toEqual([
        200,
        'text/html; charset=utf-8',
        'no-store',
      ]);
      const html = text(res);
      expect(html).toContain('<form method="post" action="/oauth1/authorize">');
      expect(html).toContain(`<input type="hidden" name="oauth_token" value="${temp.key}">`);
      expect(html).toContain('<button type="submit" name="confirm" value="yes">Authorize</button>');
      expect(html).toContain('<button type="submit" name="confirm" value="no">Deny</button>');
      expect(html).not.toContain('oauth_verifier');
    }
    expect(s.state.oauth1.temporary.get(temp.key, s.clock.now().getTime())?.verifier).toBeUndefined();
    expect(exchange(s, temp, 'guess').status).toBe(401);
  });

  it('the default server approves at the GET with Basic and answers the verifier in a form body', () => {
    const s = serve();
    const temp = temporary(s);
    const res = page(s, temp.key, s.basic('alice'));
    expect([res.status, res.headers['content-type']]).toEqual([200, FORM]);
    expect(formOf(res).oauth_verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(answer(s, temp.key).status).toBe(405);
    expect(s.send({ method: 'OPTIONS', target: AUTHORIZE, secure: true }).headers.allow).toBe('GET, OPTIONS');
  });

  it('the page escapes the token as HTML; GET refuses a missing, repeated or unknown token (400)', () => {
    const s = serve(['oauth1-approve-post']);
    const odd = `a"<b>&'c`;
    s.state.oauth1.temporary.add(odd, { consumer: CONSUMER.key, secret: 's', callback: 'oob' }, Infinity, 0);
    expect(text(page(s, odd))).toContain('value="a&#34;&#60;b&#62;&#38;&#39;c"');
    expect(escapeHtml(`<&>"'`)).toBe('&#60;&#38;&#62;&#34;&#39;');
    expect(s.send({ method: 'GET', target: AUTHORIZE, secure: true }).status).toBe(400);
    const temp = temporary(s);
    expect(
      s.send({ method: 'GET', target: `${AUTHORIZE}?oauth_token=${temp.key}&oauth_token=${temp.key}`, secure: true })
        .status,
    ).toBe(400);
    expect(page(s, 'unknown').status).toBe(400);
    expect(s.send({ method: 'GET', target: `${AUTHORIZE}?oauth_token=${temp.key}`, secure: false }).status).toBe(400);
  });

  it("a signed POST with confirm=yes approves: 302 to the consumer's redirect URI for oob, the verifier only in Location", () => {
    const s = serve(['oauth1-approve-post']);
    const temp = temporary(s);
    const res = answer(s, temp.key);
    expect(res.status).toBe(302);
    expect(text(res)).toBe('');
    const location = String(res.headers.location);
    expect(location.startsWith(`${DEFAULT_OAUTH1_REDIRECT_URI}?oauth_token=`)).toBe(true);
    const params = paramsOf(location);
    expect(params.oauth_token).toBe(temp.key);
    expect(params.oauth_verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const token = credentialsOf(exchange(s, temp, params.oauth_verifier ?? ''));
    expect(records(s, token)).toBe(200);
    expect(answer(s, temp.key).status).toBe(400);
  });

  it('redirects to the callback given with the temporary credentials, its own query kept', () => {
    const s = serve(['oauth1-approve-post']);
    const temp = temporary(s, 'https://client.example/cb?x=1&y=a%20b');
    const location = String(answer(s, temp.key).headers.location);
    expect(location.startsWith('https://client.example/cb?x=1&y=a%20b&oauth_token=')).toBe(true);
    expect(paramsOf(location)).toMatchObject({ x: '1', y: 'a b', oauth_token: temp.key });
    expect(withQuery('https://c.example/p#frag', [['a', 'b c']])).toBe('https://c.example/p?a=b%20c#frag');
    expect(withQuery('https://c.example/é?', [['a', '1']])).toBe('https://c.example/%C3%A9?a=1');
  });

  it("the consumer's redirect URI is configurable like the accounts, and must be an absolute http(s) URI", () => {
    const consumers: OAuth1Consumer[] = [{ ...CONSUMER, user: 'alice', redirectUri: 'https://other.example/back' }];
    const s = serve(['oauth1-approve-post'], { oauth1Consumers: consumers });
    expect(String(answer(s, temporary(s).key).headers.location)).toMatch(
      /^https:\/\/other\.example\/back\?oauth_token=/,
    );
    const unset = serve(['oauth1-approve-post'], { oauth1Consumers: [{ ...CONSUMER, user: 'alice' }] });
    expect(String(answer(unset, temporary(unset).key).headers.location).startsWith(DEFAULT_OAUTH1_REDIRECT_URI)).toBe(
      true,
    );
    expect(() => consumerTable([{ ...CONSUMER, user: 'alice', redirectUri: 'ftp://x.example/' }])).toThrow(
      InvalidOAuthClientError,
    );
    expect(DEFAULT_OAUTH1_CONSUMERS.every((c) => c.redirectUri === DEFAULT_OAUTH1_REDIRECT_URI)).toBe(true);
  });

  it('confirm=no, or no confirm, denies: 302 with error=access_denied, and the temporary credentials are gone', () => {
    const s = serve(['oauth1-approve-post']);
    for (const make of [(t: string) => `oauth_token=${t}&confirm=no`, (t: string) => `oauth_token=${t}`]) {
      const temp = temporary(s, 'https://client.example/cb');
      const res = answer(s, temp.key, { body: make(temp.key) });
      expect(res.status).toBe(302);
      expect(paramsOf(res.headers.location)).toEqual({ error: 'access_denied' });
      expect(String(res.headers.location).startsWith('https://client.example/cb?')).toBe(true);
      expect(answer(s, temp.key).status).toBe(400);
      expect(page(s, temp.key).status).toBe(400);
    }
  });

  it('the owner signs with hmac, as for a resource: Basic, no credentials, a wrong digest or a tampered body get 401 and grant nothing', () => {
    const s = serve(['oauth1-approve-post']);
    const temp = temporary(s);
    const body = `oauth_token=${temp.key}&confirm=yes`;
    const refusals = [
      answer(s, temp.key, { user: null, headers: s.basic('alice') }),
      answer(s, temp.key, { user: null }),
      answer(s, temp.key, { user: null, headers: { authentication: 'hmac alice:AAAA' } }),
      answer(s, temp.key, {
        user: null,
        headers: { ...s.sign('POST', AUTHORIZE, { user: 'alice', body: `${body}&x=1` }) },
      }),
      answer(s, temp.key, { headers: s.basic('alice') }),
    ];
    for (const res of refusals) {
      expect([res.status, res.headers['www-authenticate'], res.headers.location]).toEqual([
        401,
        'hmac realm="conform"',
        undefined,
      ]);
    }
    expect(s.state.oauth1.temporary.get(temp.key, s.clock.now().getTime())?.verifier).toBeUndefined();
    expect(answer(s, temp.key).status).toBe(302);
  });

  it('the date-and-nonce form works, and its nonce is used once (the §5.2 nonce store)', () => {
    const s = serve(['oauth1-approve-post']);
    const first = temporary(s);
    expect(answer(s, first.key, { nonce: '777' }).status).toBe(302);
    const second = temporary(s);
    const replay = answer(s, second.key, { nonce: '777', body: `oauth_token=${first.key}&confirm=yes` });
    expect(replay.status).toBe(401);
    expect(answer(s, second.key, { nonce: '778' }).status).toBe(302);
    const plainGet = s.send({
      method: 'GET',
      target: RECORDS,
      headers: { ...s.sign('GET', RECORDS, { user: 'alice', nonce: '777' }) },
    });
    expect(plainGet.status).toBe(401);
  });

  it("only the consumer's user may answer (403), once (400); the form must be form-urlencoded (415)", () => {
    const s = serve(['oauth1-approve-post']);
    const temp = temporary(s);
    expect(answer(s, temp.key, { user: 'bob' }).status).toBe(403);
    expect(answer(s, temp.key, { user: 'bob', body: `oauth_token=${temp.key}&confirm=no` }).status).toBe(403);
    expect(answer(s, temp.key, { contentType: 'text/plain' }).status).toBe(415);
    expect(answer(s, temp.key, { body: `oauth_token=${temp.key}&confirm=yes&confirm=yes` }).status).toBe(400);
    expect(answer(s, temp.key, { body: 'confirm=yes' }).status).toBe(400);
    expect(answer(s, temp.key).status).toBe(302);
    expect(answer(s, temp.key).status).toBe(400);
  });

  it('answers GET, POST and OPTIONS (Allow lists POST); other methods 405', () => {
    const s = serve(['oauth1-approve-post']);
    expect(s.send({ method: 'OPTIONS', target: AUTHORIZE, secure: true }).headers.allow).toBe('GET, POST, OPTIONS');
    const put = s.send({ method: 'PUT', target: AUTHORIZE, secure: true });
    expect([put.status, put.headers.allow]).toEqual([405, 'GET, POST, OPTIONS']);
  });

  it('with oauth-only, the owner still signs the approval with hmac (resource access refuses hmac)', () => {
    const s = serve(['oauth1-approve-post', 'oauth-only']);
    const temp = temporary(s);
    expect(answer(s, temp.key).status).toBe(302);
    expect(
      s.send({ method: 'GET', target: RECORDS, headers: { ...s.sign('GET', RECORDS, { user: 'alice' }) } }).status,
    ).toBe(401);
  });
});

describe('oauth1-any-approver, and the fault oauth1-authorize-any-user', () => {
  /** bob approves alice's consumer with Basic at the GET; then the records his token credentials open. */
  function bobApproves(variants: VariantName[], faults: FaultName[] = []): unknown[] {
    const s = serve(variants, { faults });
    const temp = temporary(s);
    const approval = page(s, temp.key, s.basic('bob'));
    if (approval.status !== 200) return [approval.status];
    const token = credentialsOf(exchange(s, temp, formOf(approval).oauth_verifier ?? ''));
    return [
      approval.status,
      records(s, token, 'alice'),
      records(s, token, 'bob'),
      page(s, temp.key, s.basic('bob')).status,
    ];
  }

  it("the default server lets only the consumer's user approve", () => {
    expect(bobApproves([])).toEqual([403]);
  });

  it("the variant lets bob approve, and the token credentials act for bob: his records, not alice's", () => {
    expect(bobApproves(['oauth1-any-approver'])).toEqual([200, 403, 200, 400]);
  });

  it("the fault lets bob approve, but the token credentials act for alice, the consumer's user", () => {
    expect(bobApproves([], ['oauth1-authorize-any-user'])).toEqual([200, 200, 403, 400]);
  });

  it('a second approval of the same temporary credentials is still refused', () => {
    const s = serve(['oauth1-any-approver']);
    const temp = temporary(s);
    expect(page(s, temp.key, s.basic('carol')).status).toBe(200);
    expect(page(s, temp.key, s.basic('bob')).status).toBe(400);
    expect(page(s, temp.key, s.basic('alice')).status).toBe(400);
  });

  it('with oauth1-approve-post too: bob answers the form, and his token opens his records', () => {
    const s = serve(['oauth1-approve-post', 'oauth1-any-approver']);
    const temp = temporary(s);
    const res = answer(s, temp.key, { user: 'bob' });
    expect(res.status).toBe(302);
    const token = credentialsOf(exchange(s, temp, paramsOf(res.headers.location).oauth_verifier ?? ''));
    expect([records(s, token, 'bob'), records(s, token, 'alice')]).toEqual([200, 403]);
  });
});

describe('oauth1-header-only', () => {
  function statuses(variants: VariantName[]): unknown[] {
    const s = serve(variants);
    const temp = temporary(s);
    const token = credentialsOf(exchange(s, temp, formOf(page(s, temp.key, s.basic('alice'))).oauth_verifier ?? ''));
    const query = oauth1Request(s, { target: RECORDS, token, place: 'query' }).res;
    const body = oauth1Request(s, { method: 'GET', target: RECORDS, token, place: 'body', formBody: 'a=1' }).res;
    const header = oauth1Request(s, { target: RECORDS, token, place: 'header' }).res;
    // oauth_* in the query beside the header: a second place by default (400), an ordinary signed parameter here.
    const beside = oauth1Request(s, { target: `${RECORDS}?oauth_extra=1`, token, place: 'header' }).res;
    const temporaryInBody = oauth1Request(s, {
      method: 'POST',
      target: '/oauth1/request_token',
      extra: [['oauth_callback', 'oob']],
      place: 'body',
    }).res;
    return [
      query.status,
      body.status,
      header.status,
      beside.status,
      temporaryInBody.status,
      query.headers['www-authenticate'],
    ];
  }

  it('takes protocol parameters from the Authorization header only; in the query or the body they authenticate nothing', () => {
    const all =
      'hmac realm="conform", Basic realm="conform", charset="UTF-8", Bearer realm="conform", OAuth realm="conform"';
    expect(statuses([])).toEqual([200, 200, 200, 400, 200, undefined]);
    expect(statuses(['oauth1-header-only'])).toEqual([401, 401, 200, 200, 400, all]);
  });
});

describe('oauth1-realm-configured', () => {
  /** The statuses of a temporary-credential request naming each realm (undefined: none), and the reason of the last. */
  function statuses(variants: VariantName[], realms: Array<string | undefined>): number[] {
    const s = serve(variants);
    return realms.map(
      (realm) =>
        oauth1Request(s, {
          method: 'POST',
          target: '/oauth1/request_token',
          extra: [['oauth_callback', 'oob']],
          ...(realm === undefined ? {} : { realm }),
        }).res.status,
    );
  }

  it('takes its own realm and none, and refuses another (the realm="conform" conform sent before issue 33)', () => {
    expect(statuses([], [undefined, 'photos', 'conform', ''])).toEqual([200, 200, 200, 200]);
    expect(statuses(['oauth1-realm-configured'], [undefined, 'photos', 'conform', ''])).toEqual([200, 200, 401, 401]);
  });

  it('at a resource too', () => {
    const s = serve(['oauth1-realm-configured']);
    const temp = temporary(s);
    const token = credentialsOf(exchange(s, temp, formOf(page(s, temp.key, s.basic('alice'))).oauth_verifier ?? ''));
    const at = (realm?: string) =>
      oauth1Request(s, { target: RECORDS, token, ...(realm === undefined ? {} : { realm }) }).res.status;
    expect([at(), at('photos'), at('conform')]).toEqual([200, 200, 401]);
  });
});

describe('oauth1-methods-extra', () => {
  it('takes PLAINTEXT and HMAC-SHA256 beside HMAC-SHA1; the default refuses them (400)', () => {
    const statuses = (variants: VariantName[]) => {
      const s = serve(variants);
      const temp = temporary(s);
      const token = credentialsOf(exchange(s, temp, formOf(page(s, temp.key, s.basic('alice'))).oauth_verifier ?? ''));
      return [
        oauth1Raw(s, { target: RECORDS, token, plaintext: `consumer-secret-1&${encodeURIComponent(token.secret)}` })
          .status,
        oauth1Raw(s, { target: RECORDS, token, plaintext: 'consumer-secret-1&wrong' }).status,
        oauth1Raw(s, { target: RECORDS, token, method: 'HMAC-SHA256' }).status,
        oauth1Raw(s, { target: RECORDS, token }).status,
      ];
    };
    expect(statuses([])).toEqual([400, 400, 400, 200]);
    expect(statuses(['oauth1-methods-extra'])).toEqual([200, 401, 200, 200]);
  });
});
