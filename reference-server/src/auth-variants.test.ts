/**
 * The authentication variants (variants.ts) change what the server does, each away from the default: shown here
 * request by request, beside the default server's answer to the same request.
 */
import { describe, expect, it } from 'vitest';
import { hmacDigest } from './auth/message.js';
import { RECORDS, clientBasic, oauth1Request, oauth1Tokens, tokenRequest } from '../testkit/oauth.js';
import { testServer, text } from '../testkit/index.js';
import type { TestServer } from '../testkit/index.js';
import type { HeaderMap } from './records.js';
import type { VariantName } from './variants.js';

const serve = (variant?: VariantName) => testServer({ signAs: null, ...(variant ? { variants: [variant] } : {}) });

describe('refusals: refuse-403 and refuse-400', () => {
  it('answer missing or wrong credentials with 403 or 400 and no challenge, where the default answers 401 with one', () => {
    for (const [variant, status] of [
      ['refuse-403', 403],
      ['refuse-400', 400],
    ] as const) {
      for (const headers of [{}, { authentication: 'hmac alice:AAAA' }] as HeaderMap[]) {
        const plain = serve().send({ method: 'GET', target: RECORDS, headers });
        expect(plain.status).toBe(401);
        expect(plain.headers['www-authenticate']).toBeDefined();
        const res = serve(variant).send({ method: 'GET', target: RECORDS, headers });
        expect(res.status).toBe(status);
        expect(res.headers['www-authenticate']).toBeUndefined();
      }
    }
  });

  it('keep the 401 and challenge of a refused bearer token (RFC 6750 §3.1)', () => {
    const res = serve('refuse-403').send({
      method: 'GET',
      target: RECORDS,
      headers: { authorization: 'Bearer nope' },
      secure: true,
    });
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toMatch(/^Bearer /);
  });
});

describe('error bodies: errors-json, errors-text, errors-empty', () => {
  const refusal = (variant?: VariantName) => serve(variant).send({ method: 'GET', target: RECORDS });

  it('the default is RFC 9457 problem+json', () => {
    expect(refusal().headers['content-type']).toBe('application/problem+json');
  });

  it('each variant writes another format, same status and challenge', () => {
    const json = refusal('errors-json');
    expect(json.headers['content-type']).toBe('application/json');
    expect(JSON.parse(text(json))).toEqual({
      error: 'Unauthorized',
      message: expect.stringContaining('needs credentials'),
    });
    const plain = refusal('errors-text');
    expect(plain.headers['content-type']).toMatch(/^text\/plain/);
    expect(text(plain)).toMatch(/^401 Unauthorized: GET \/users\/alice\/financialrecords needs credentials/);
    const empty = refusal('errors-empty');
    expect(empty.headers['content-type']).toBeUndefined();
    expect(text(empty)).toBe('');
    for (const res of [json, plain, empty]) {
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toBeDefined();
    }
  });

  it("leave the OAuth 2 endpoints' RFC 6749 §5.2 JSON errors alone", () => {
    const res = tokenRequest(serve('errors-text'), { body: 'grant_type=password' });
    expect(res.headers['content-type']).toBe('application/json');
  });
});

describe('digest-decoded', () => {
  it('accepts the digest without its padding (the same bytes), which the default refuses as text', () => {
    const s = serve('digest-decoded');
    const headers = { authentication: s.sign('GET', RECORDS, { user: 'alice' }).authentication.replace(/=+$/, '') };
    expect(s.send({ method: 'GET', target: RECORDS, headers }).status).toBe(200);
    const d = serve();
    expect(
      d.send({
        method: 'GET',
        target: RECORDS,
        headers: { authentication: d.sign('GET', RECORDS, { user: 'alice' }).authentication.replace(/=+$/, '') },
      }).status,
    ).toBe(401);
  });

  it('still refuses other bytes, base64url, and junk after the padding', () => {
    const s = serve('digest-decoded');
    const good = s.sign('GET', RECORDS, { user: 'alice' }).authentication;
    const digest = good.slice(good.lastIndexOf(':') + 1);
    const flipped = (digest[0] === 'A' ? 'B' : 'A') + digest.slice(1);
    const url = Buffer.from(digest, 'base64').toString('base64url');
    for (const bad of [
      flipped,
      digest.slice(0, -2),
      `${digest}x1`,
      url === digest.replace(/=+$/, '') ? `${flipped}-` : url,
    ]) {
      expect(
        s.send({ method: 'GET', target: RECORDS, headers: { authentication: `hmac alice:${bad}` } }).status,
        bad,
      ).toBe(401);
    }
  });
});

describe('path-without-query', () => {
  it('signs the path alone: a digest over the path opens it with any query, one over path and query does not', () => {
    const s = serve('path-without-query');
    const pathOnly = s.sign('GET', RECORDS, { user: 'alice' });
    const withQuery = s.sign('GET', `${RECORDS}?year=2026`, { user: 'alice' });
    expect(s.send({ method: 'GET', target: `${RECORDS}?year=2026`, headers: { ...pathOnly } }).status).toBe(200);
    expect(s.send({ method: 'GET', target: `${RECORDS}?year=2026`, headers: { ...withQuery } }).status).toBe(401);
    const d = serve();
    expect(
      d.send({
        method: 'GET',
        target: `${RECORDS}?year=2026`,
        headers: { ...d.sign('GET', RECORDS, { user: 'alice' }) },
      }).status,
    ).toBe(401);
  });
});

describe('nonce-int64', () => {
  const get = (variant: VariantName | undefined, nonce: string) => {
    const s = serve(variant);
    return s.send({ method: 'GET', target: RECORDS, headers: { ...s.sign('GET', RECORDS, { user: 'alice', nonce }) } });
  };

  it('refuses with 400 what is no signed 64-bit integer: beyond its maximum, a leading zero', () => {
    for (const nonce of ['9223372036854775808', '10000000000000000000', '0123']) {
      expect(get('nonce-int64', nonce).status, nonce).toBe(400);
      expect(get(undefined, nonce).status, nonce).toBe(200);
    }
    expect(get('nonce-int64', '9223372036854775807').status).toBe(200);
    expect(get('nonce-int64', '0').status).toBe(200);
  });

  it('keys nonces by their exact value: neighbours beyond 2^53 are two nonces, a replay is refused', () => {
    const s = serve('nonce-int64');
    const send = (nonce: string) =>
      s.send({ method: 'GET', target: RECORDS, headers: { ...s.sign('GET', RECORDS, { user: 'alice', nonce }) } })
        .status;
    expect(send('9007199254740993')).toBe(200);
    expect(send('9007199254740992')).toBe(200);
    expect(send('9007199254740993')).toBe(401);
  });
});

describe('date-formats-extra', () => {
  const get = (variant: VariantName | undefined, date: string) => {
    const s = serve(variant);
    return s.send({
      method: 'GET',
      target: RECORDS,
      headers: { ...s.sign('GET', RECORDS, { user: 'alice', nonce: '42', date }) },
    });
  };

  it('accepts a current HTTP-date or ISO 8601 instant, signed as sent, which the default refuses', () => {
    for (const date of [
      'Wed, 01 Jan 2025 00:00:00 GMT',
      'Wednesday, 01-Jan-25 00:00:00 GMT',
      'Wed Jan  1 00:00:00 2025',
      '2025-01-01T00:00:00Z',
    ]) {
      expect(get('date-formats-extra', date).status, date).toBe(200);
      expect(get(undefined, date).status, date).toBe(401);
    }
  });

  it('still refuses impossible dates and dates outside the window', () => {
    for (const date of [
      'Sat, 31 Feb 2025 00:00:00 GMT',
      '2025-02-30T00:00:00Z',
      '31 Feb 2025 00:00:00',
      '01 Jan 2025 25:00:00',
      'Tue, 31 Dec 2024 23:00:00 GMT',
    ]) {
      expect(get('date-formats-extra', date).status, date).toBe(401);
    }
  });
});

describe('oauth2-client-basic-only', () => {
  const form = (variant?: VariantName) =>
    tokenRequest(serve(variant), {
      authorization: null,
      body: 'grant_type=client_credentials&client_id=reporting&client_secret=rep-secret',
    });

  it('refuses client credentials in the form body with 401 invalid_client and a Basic challenge; the default takes them', () => {
    expect(form().status).toBe(200);
    const res = form('oauth2-client-basic-only');
    expect(res.status).toBe(401);
    expect(JSON.parse(text(res))).toMatchObject({ error: 'invalid_client' });
    expect(res.headers['www-authenticate']).toMatch(/^Basic /);
  });

  it('still issues a token to HTTP Basic', () => {
    expect(tokenRequest(serve('oauth2-client-basic-only')).status).toBe(200);
  });
});

describe('oauth2-unauthorized-client', () => {
  const errors = (variant?: VariantName) => {
    const s = serve(variant);
    return ['password', 'authorization_code', 'refresh_token', 'urn:example:nothing', 'Client_Credentials'].map(
      (grant) => {
        const res = tokenRequest(s, { body: `grant_type=${encodeURIComponent(grant)}` });
        return [res.status, (JSON.parse(text(res)) as { error?: string }).error];
      },
    );
  };

  it("answers unauthorized_client for the RFC's grants this client may not use, unsupported_grant_type for others", () => {
    const unsupported = [400, 'unsupported_grant_type'];
    expect(errors()).toEqual([unsupported, unsupported, unsupported, unsupported, unsupported]);
    const unauthorized = [400, 'unauthorized_client'];
    expect(errors('oauth2-unauthorized-client')).toEqual([
      unauthorized,
      unauthorized,
      unauthorized,
      unsupported,
      unsupported,
    ]);
  });
});

describe('error formats at the token endpoint over plain HTTP', () => {
  it("no OAuth exchange happens there, so the variant's own format is used: no JSON, no token", () => {
    const res = tokenRequest(serve('errors-text'), { secure: false });
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(tokenRequest(serve(), { secure: false }).headers['content-type']).toBe('application/json');
  });
});

describe('oauth2-basic-undecoded', () => {
  const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
  const statuses = (variant?: VariantName) => {
    const s = serve(variant);
    return [
      tokenRequest(s, { authorization: basic('reporting', 'rep-secret') }).status,
      tokenRequest(s, { authorization: basic('reportin%67', 'rep%2Dsecret') }).status,
      tokenRequest(s, { authorization: clientBasic('auditing', 'aud secret+/:2') }).status,
      tokenRequest(s, { authorization: basic('auditing', 'aud secret+/:2') }).status,
      tokenRequest(s, {
        path: '/oauth2/revoke',
        body: 'token=unknown',
        authorization: basic('reporting', 'rep%2Dsecret'),
      }).status,
      tokenRequest(s, {
        authorization: null,
        body: 'grant_type=client_credentials&client_id=reporting&client_secret=rep%2Dsecret',
      }).status,
    ];
  };

  it('compares the Basic id and secret as sent: plain ones served, over-encoded ones and RFC-encoded special ones refused', () => {
    expect(statuses()).toEqual([200, 200, 200, 401, 200, 200]);
    expect(statuses('oauth2-basic-undecoded')).toEqual([200, 401, 401, 200, 401, 200]);
  });
});

describe('window-300', () => {
  const nonceGet = (variant: VariantName | undefined, skew: number, nonce = '42') => {
    const s = serve(variant);
    const date = new Date(s.clock.now().getTime() + skew * 1000);
    return s.send({
      method: 'GET',
      target: RECORDS,
      headers: { ...s.sign('GET', RECORDS, { user: 'alice', nonce, date }) },
    }).status;
  };

  it('accepts a Date up to 300 s away (edges included) and refuses one beyond, where the default allows 600 s', () => {
    for (const skew of [-300, 300]) expect([skew, nonceGet('window-300', skew)]).toEqual([skew, 200]);
    for (const skew of [-301, 301, 600]) {
      expect([skew, nonceGet('window-300', skew)]).toEqual([skew, 401]);
      expect([skew, nonceGet(undefined, skew)]).toEqual([skew, 200]);
    }
    expect(nonceGet(undefined, 601)).toBe(401);
  });

  it('wins over the window setting, and keeps nonces until max(Date, now) + 300 s', () => {
    const s = testServer({ signAs: null, variants: ['window-300'], window: 900 });
    const send = (nonce: string) =>
      s.send({
        method: 'GET',
        target: RECORDS,
        headers: {
          ...s.sign('GET', RECORDS, { user: 'alice', nonce, date: new Date(s.clock.now().getTime() - 400_000) }),
        },
      }).status;
    expect(send('1')).toBe(401);
    const at = s.clock.now().getTime();
    expect(
      s.send({ method: 'GET', target: RECORDS, headers: { ...s.sign('GET', RECORDS, { user: 'alice', nonce: '2' }) } })
        .status,
    ).toBe(200);
    expect(s.state.nonces.has('alice', '2', at + 299_000)).toBe(true);
    expect(s.state.nonces.has('alice', '2', at + 301_000)).toBe(false);
  });

  it('bounds the OAuth 1 timestamp too', () => {
    for (const [variant, skew, status] of [
      ['window-300', 301, 401],
      [undefined, 301, 200],
      ['window-300', -300, 200],
      ['window-300', -301, 401],
    ] as const) {
      const s = serve(variant);
      const token = oauth1Tokens(s);
      const timestamp = Math.floor(s.clock.now().getTime() / 1000) + skew;
      expect([variant, skew, oauth1Request(s, { target: RECORDS, token, timestamp }).res.status]).toEqual([
        variant,
        skew,
        status,
      ]);
    }
  });
});

describe('date-month-any-case', () => {
  const get = (
    variants: VariantName[],
    date: string,
    sign: (s: TestServer) => HeaderMap = (s) => ({ ...s.sign('GET', RECORDS, { user: 'alice', nonce: '42', date }) }),
  ) => {
    const s = testServer({ signAs: null, variants });
    return s.send({ method: 'GET', target: RECORDS, headers: sign(s) }).status;
  };

  it('accepts the month abbreviation in any case, which the default refuses', () => {
    for (const date of ['01 jan 2025 00:00:00', '01 JAN 2025 00:00:00', '1 jAN 2025 00:00:01']) {
      expect([date, get(['date-month-any-case'], date)]).toEqual([date, 200]);
      expect([date, get([], date)]).toEqual([date, 401]);
    }
    expect(get([], '01 Jan 2025 00:00:00')).toBe(200);
  });

  it('still signs <date_text> as §5.2 builds it, lowercased: a digest over the month as sent is refused', () => {
    const date = '01 JAN 2025 00:00:00';
    const asSent = () => ({
      authentication: `hmac alice:42:${hmacDigest('alice-secret-1', `GET+${RECORDS}+01JAN202500:00:00+42`)}`,
      date,
    });
    expect(get(['date-month-any-case'], date, asSent)).toBe(401);
  });

  it('changes nothing else: impossible dates, unknown months, other shapes and dates outside the window are refused', () => {
    for (const date of [
      '31 feb 2025 00:00:00',
      '01 foo 2025 00:00:00',
      '01 janu 2025 00:00:00',
      '01 jan 2025 24:00:00',
      '01 jan 2024 00:00:00',
      'Wed, 01 jan 2025 00:00:00 GMT',
      'wed, 01 Jan 2025 00:00:00 GMT',
    ]) {
      expect([date, get(['date-month-any-case'], date)]).toEqual([date, 401]);
    }
    // With date-formats-extra, only the spec's shape takes its month in any case.
    expect(get(['date-month-any-case', 'date-formats-extra'], '01 JAN 2025 00:00:00')).toBe(200);
    expect(get(['date-month-any-case', 'date-formats-extra'], 'Wed, 01 jan 2025 00:00:00 GMT')).toBe(401);
    expect(get(['date-month-any-case', 'date-formats-extra'], 'Wed, 01 Jan 2025 00:00:00 GMT')).toBe(200);
  });
});
