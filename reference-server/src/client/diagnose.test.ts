import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { oauth1Request, oauth1Tokens } from '../../testkit/oauth.js';
import { TEST_NOW, testServer, text, type TestServer } from '../../testkit/index.js';
import { formatSignedDate } from '../auth/date.js';
import type { ResponseRecord } from '../records.js';
import { startServer } from '../server.js';
import { withDiagnostic, type Diagnostic } from './diagnose.js';

const RECORDS = '/users/alice/financialrecords';

/** Sends a request through the pure core and adds the diagnostic, as the IO shell does under `diagnose`. */
function diagnosed(s: TestServer, r: Parameters<TestServer['send']>[0]): ResponseRecord {
  const q = r.target.indexOf('?');
  const body = new TextEncoder().encode(typeof r.body === 'string' ? r.body : '');
  const record = {
    method: r.method,
    path: q < 0 ? r.target : r.target.slice(0, q),
    query: q < 0 ? '' : r.target.slice(q + 1),
    target: r.target,
    headers: r.headers ?? {},
    body,
    secure: r.secure ?? false,
  };
  return withDiagnostic(record, s.send(r), s.state, s.deps);
}

const diagnosticOf = (res: ResponseRecord) => (JSON.parse(text(res)) as { diagnostic?: Diagnostic }).diagnostic;
const digest = (message: string) => createHmac('sha256', 'alice-secret-1').update(message).digest('base64');

describe('diagnostic refusals: hmac', () => {
  const date = formatSignedDate(TEST_NOW);
  const dateText = date.replaceAll(' ', '').toLowerCase();

  it('an uppercase month in the date text: the message the server signed, and the mistake named', () => {
    const s = testServer();
    const wrong = `GET+${RECORDS}+${date.replaceAll(' ', '')}+41`;
    const res = diagnosed(s, {
      method: 'GET',
      target: RECORDS,
      headers: { authentication: `hmac alice:41:${digest(wrong)}`, date },
    });
    expect(res.status).toBe(401);
    expect(diagnosticOf(res)).toEqual({
      scheme: 'hmac',
      signed: `GET+${RECORDS}+${dateText}+41`,
      dateText,
      digestMatches: false,
      mistake: 'date-text-case-kept',
      explanation: expect.stringMatching(/lowercase/) as string,
    });
  });

  it.each([
    ['nonce-left-out', `GET+${RECORDS}+DATE`],
    ['date-left-out', `GET+${RECORDS}+42`],
    ['date-and-nonce-left-out', `GET+${RECORDS}`],
    ['date-and-nonce-swapped', `GET+${RECORDS}+42+DATE`],
    ['verb-lowercased', `get+${RECORDS}+DATE+42`],
    ['date-text-spaces-kept', `GET+${RECORDS}+LOWER+42`],
  ])('%s is named', (mistake, message) => {
    const s = testServer();
    const m = message.replace('DATE', dateText).replace('LOWER', date.toLowerCase());
    const res = diagnosed(s, {
      method: 'GET',
      target: RECORDS,
      headers: { authentication: `hmac alice:42:${digest(m)}`, date },
    });
    expect(diagnosticOf(res)?.mistake).toBe(mistake);
  });

  it('a PUT without the body hash, and a path signed without its query', () => {
    const s = testServer();
    const body = '<article><title>t</title><price currency="eur">1.00</price></article>';
    const put = diagnosed(s, {
      method: 'PUT',
      target: '/articles/a',
      body,
      headers: {
        authentication: `hmac alice:43:${digest(`PUT+/articles/a+${dateText}+43`)}`,
        date,
        'content-type': 'application/xml',
      },
    });
    expect(diagnosticOf(put)?.mistake).toBe('body-hash-left-out');
    expect(diagnosticOf(put)?.signed).toMatch(/^PUT\+\/articles\/a\+.*\+43\+[A-Za-z0-9+/]+=*$/);
    const query = diagnosed(s, {
      method: 'GET',
      target: `${RECORDS}?x=1`,
      headers: { authentication: `hmac alice:${digest(`GET+${RECORDS}`)}` },
    });
    expect(diagnosticOf(query)).toMatchObject({ signed: `GET+${RECORDS}?x=1`, mistake: 'query-left-out' });
  });

  it('a right digest refused for another reason (a replayed nonce) says so; a missing Date is named', () => {
    const s = testServer();
    const headers = s.sign('GET', RECORDS, { nonce: '44' });
    expect(s.send({ method: 'GET', target: RECORDS, headers: { ...headers } }).status).toBe(200);
    const replay = diagnosed(s, { method: 'GET', target: RECORDS, headers: { ...headers } });
    expect(replay.status).toBe(401);
    expect(diagnosticOf(replay)).toMatchObject({ digestMatches: true });
    const missing = diagnosed(s, {
      method: 'GET',
      target: RECORDS,
      headers: { authentication: headers.authentication },
    });
    expect(diagnosticOf(missing)?.explanation).toMatch(/Date header is missing/);
  });

  it('never a secret or a digest: an unexplained digest is only said to be unexplained', () => {
    const s = testServer();
    const given = digest('something else');
    const res = diagnosed(s, {
      method: 'GET',
      target: RECORDS,
      headers: { authentication: `hmac alice:45:${given}`, date },
    });
    const body = text(res);
    expect(diagnosticOf(res)).toMatchObject({ digestMatches: false });
    expect(diagnosticOf(res)?.mistake).toBeUndefined();
    for (const secret of ['alice-secret-1', given, digest(`GET+${RECORDS}+${dateText}+45`)])
      expect(body).not.toContain(secret);
  });

  it('hmac credentials in Authorization are named', () => {
    const s = testServer();
    const res = diagnosed(s, {
      method: 'GET',
      target: RECORDS,
      headers: { authorization: `hmac alice:${digest(`GET+${RECORDS}`)}` },
    });
    expect(res.status).toBe(401);
    expect(diagnosticOf(res)?.mistake).toBe('hmac-in-authorization');
  });

  it('accepted requests and refusals of unsigned requests are left as they are', () => {
    const s = testServer();
    const ok = s.send({ method: 'GET', target: RECORDS, headers: { ...s.sign('GET', RECORDS, { nonce: '46' }) } });
    expect(
      withDiagnostic(
        { method: 'GET', path: RECORDS, query: '', headers: {}, body: new Uint8Array(), secure: false },
        ok,
        s.state,
        s.deps,
      ),
    ).toBe(ok);
    const bare = diagnosed(s, { method: 'GET', target: RECORDS });
    expect(diagnosticOf(bare)).toBeUndefined();
  });
});

describe('diagnostic refusals: OAuth 1', () => {
  it('a signature over the path without the query: the base string, and the mistake named', () => {
    const s = testServer();
    const token = oauth1Tokens(s);
    const { res, signed } = oauth1Request(s, { target: RECORDS, sendTarget: `${RECORDS}?a=b`, token });
    const q = `${RECORDS}?a=b`;
    const record = {
      method: 'GET',
      path: RECORDS,
      query: 'a=b',
      target: q,
      headers: { host: '127.0.0.1:8443', authorization: signed.authorization },
      body: new Uint8Array(),
      secure: true,
    };
    const out = withDiagnostic(record, res, s.state, s.deps);
    expect(res.status).toBe(401);
    const d = diagnosticOf(out);
    expect(d).toMatchObject({ scheme: 'oauth1', digestMatches: false, mistake: 'query-left-out' });
    expect(d?.signed).toMatch(
      /^GET&https%3A%2F%2F127\.0\.0\.1%3A8443%2Fusers%2Falice%2Ffinancialrecords&a%3Db%26oauth_consumer_key/,
    );
    expect(text(out)).not.toContain(signed.signature);
    expect(text(out)).not.toContain(token.secret);
  });

  it('a key without the token secret is named', () => {
    const s = testServer();
    const token = oauth1Tokens(s);
    const { res, signed } = oauth1Request(s, { target: RECORDS, token: { key: token.key, secret: '' } });
    const record = {
      method: 'GET',
      path: RECORDS,
      query: '',
      target: RECORDS,
      headers: { host: '127.0.0.1:8443', authorization: signed.authorization },
      body: new Uint8Array(),
      secure: true,
    };
    expect(diagnosticOf(withDiagnostic(record, res, s.state, s.deps))?.mistake).toBe('token-secret-left-out');
  });
});

describe('the diagnose option of the server', () => {
  it('off by default: a refusal is bare; with diagnose it carries the diagnostic', async () => {
    for (const diagnose of [false, true]) {
      const server = await startServer(diagnose ? { diagnose } : {});
      try {
        const res = await fetch(`${server.url}${RECORDS}`, {
          headers: { authentication: `hmac alice:${digest('GET+/')}` },
        });
        const body = (await res.json()) as { diagnostic?: Diagnostic };
        expect(res.status).toBe(401);
        expect(body.diagnostic !== undefined, `diagnose ${diagnose}`).toBe(diagnose);
      } finally {
        await server.close();
      }
    }
  });
});
