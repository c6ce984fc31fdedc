import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { basicAuthorization, signRequest } from '../auth/sign.js';
import { signOAuth1 } from '../oauth1/sign.js';
import type { RecordedExchange } from '../recording.js';
import { CLIENT_RULES, judgeClient, type ClientJudgeContext } from './judge.js';

const NOW = Date.UTC(2026, 10, 26, 14, 5, 9);
const CONTEXT: ClientJudgeContext = {
  users: [
    { name: 'alice', secret: 'alice-secret-1' },
    { name: 'bob', secret: 'bob-secret-2' },
  ],
  window: 600,
  bodyHash: true,
  oauth2Endpoints: ['/oauth2/token', '/oauth2/revoke'],
};

let seq = 0;
function exchange(over: Partial<RecordedExchange> & { headers?: RecordedExchange['headers'] }): RecordedExchange {
  seq += 1;
  return {
    seq,
    method: 'GET',
    target: '/users/alice/financialrecords',
    headers: { host: '127.0.0.1' },
    body: new Uint8Array(),
    transport: 'https',
    at: NOW,
    status: 200,
    ...over,
  };
}

/** A date-and-nonce request signed as docs/auth.md says (the body hash on PUT and POST unless `bodyHash: false`). */
function signed(
  nonce: string,
  options: { date?: string; method?: string; target?: string; body?: string; bodyHash?: boolean } = {},
) {
  const method = options.method ?? 'GET';
  const target = options.target ?? '/users/alice/financialrecords';
  const date = options.date ?? '26 Nov 2026 14:05:09';
  const headers = signRequest({
    method,
    target,
    user: 'alice',
    secret: 'alice-secret-1',
    nonce,
    date,
    body: options.body ?? '',
    bodyHash: options.bodyHash ?? true,
  });
  return exchange({
    method,
    target,
    headers: {
      host: '127.0.0.1',
      authentication: headers.authentication,
      ...(headers.date ? { date: headers.date } : {}),
    },
    body: Buffer.from(options.body ?? ''),
  });
}

/** A date-and-nonce request whose digest is HMAC over `message` (a client's own, maybe wrong, message). */
async function signedOver(message: string, nonce: string, date: string): Promise<RecordedExchange> {
  const { createHmac } = await import('node:crypto');
  const digest = createHmac('sha256', 'alice-secret-1').update(message).digest('base64');
  return exchange({ headers: { authentication: `hmac alice:${nonce}:${digest}`, date } });
}

const verdict = (verdicts: ReturnType<typeof judgeClient>, rule: string) => verdicts.find((v) => v.rule === rule);

describe('judgeClient', () => {
  it('no request: every rule is not exercised', () => {
    const verdicts = judgeClient([], CONTEXT);
    expect(verdicts.map((v) => v.rule)).toEqual(CLIENT_RULES);
    expect(new Set(verdicts.map((v) => v.status))).toEqual(new Set(['not exercised']));
  });

  it('a correct signed client passes every §5.2 rule it exercises', () => {
    const body = '<article><title>t</title></article>';
    const verdicts = judgeClient(
      [signed('1'), signed('2'), signed('3', { method: 'PUT', target: '/articles/a?x=1', body })],
      CONTEXT,
    );
    for (const rule of [
      '5.2-nonce-change',
      '4.4-date-with-nonce',
      '5.2-client-date-format',
      '5.2-client-date-text',
      '5.2-client-message',
      '5.2-client-clock-sync',
    ])
      expect(verdict(verdicts, rule), rule).toMatchObject({ status: 'passed', exercised: 3 });
    expect(verdict(verdicts, '5.2-client-simple-message')?.status).toBe('not exercised');
  });

  it('a nonce reused within the same second fails 5.2-nonce-change, naming both requests', () => {
    const verdicts = judgeClient([signed('7'), signed('7')], CONTEXT);
    const v = verdict(verdicts, '5.2-nonce-change');
    expect(v?.status).toBe('failed');
    expect(v?.violations).toEqual([
      { seq: seq, reason: `nonce 7 of user alice was already sent in request #${seq - 1}` },
    ]);
  });

  it('the same nonce for two users is no reuse', () => {
    const other = signRequest({
      method: 'GET',
      target: '/',
      user: 'bob',
      secret: 'bob-secret-2',
      nonce: '9',
      date: '26 Nov 2026 14:05:09',
    });
    const verdicts = judgeClient([signed('9'), exchange({ target: '/', headers: { ...other } })], CONTEXT);
    expect(verdict(verdicts, '5.2-nonce-change')?.status).toBe('passed');
  });

  it('an uppercase month in the date text fails 5.2-client-date-text with its mistake named', async () => {
    const ex = await signedOver('GET+/users/alice/financialrecords+26Nov202614:05:09+11', '11', '26 Nov 2026 14:05:09');
    const verdicts = judgeClient([ex], CONTEXT);
    expect(verdict(verdicts, '5.2-client-date-text')).toMatchObject({
      status: 'failed',
      violations: [{ seq: ex.seq, mistake: 'date-text-case-kept' }],
    });
    expect(verdict(verdicts, '5.2-client-message')?.status).toBe('passed');
  });

  it('a digest over the path without the nonce fails 5.2-client-message (nonce-left-out)', async () => {
    const ex = await signedOver('GET+/users/alice/financialrecords+26nov202614:05:09', '12', '26 Nov 2026 14:05:09');
    const v = verdict(judgeClient([ex], CONTEXT), '5.2-client-message');
    expect(v).toMatchObject({ status: 'failed', violations: [{ seq: ex.seq, mistake: 'nonce-left-out' }] });
  });

  it('a digest no common mistake explains is still a failure, without naming a mistake', async () => {
    const ex = await signedOver('something else', '13', '26 Nov 2026 14:05:09');
    const v = verdict(judgeClient([ex], CONTEXT), '5.2-client-message');
    expect(v?.status).toBe('failed');
    expect(v?.violations[0]?.mistake).toBeUndefined();
  });

  it('a Date outside the window fails clock sync; a missing Date fails 4.4-date-with-nonce; a bad shape the date format', () => {
    const late = signed('21', { date: '26 Nov 2026 13:45:00' });
    const missing = exchange({ headers: { authentication: 'hmac alice:22:AAAA' } });
    const shaped = signed('23', { date: 'Thu, 26 Nov 2026 14:05:09 GMT' });
    const verdicts = judgeClient([late, missing, shaped], CONTEXT);
    expect(verdict(verdicts, '5.2-client-clock-sync')?.violations).toEqual([
      { seq: late.seq, reason: "the Date is 1209 s behind the server's clock (window 600 s)" },
    ]);
    expect(verdict(verdicts, '4.4-date-with-nonce')?.violations.map((v) => v.seq)).toEqual([missing.seq]);
    expect(verdict(verdicts, '5.2-client-date-format')?.violations.map((v) => v.seq)).toEqual([shaped.seq]);
  });

  it('the simple form is judged by 5.2-client-simple-message, its query left out named', () => {
    const good = signRequest({ method: 'GET', target: '/?a=1', user: 'alice', secret: 'alice-secret-1' });
    const bad = signRequest({ method: 'GET', target: '/', user: 'alice', secret: 'alice-secret-1' });
    const a = exchange({ target: '/?a=1', headers: { ...good } });
    const b = exchange({ target: '/?a=1', headers: { ...bad } });
    const v = verdict(judgeClient([a, b], CONTEXT), '5.2-client-simple-message');
    expect(v).toMatchObject({
      status: 'failed',
      exercised: 2,
      violations: [{ seq: b.seq, mistake: 'query-left-out' }],
    });
  });

  it('Basic, bearer tokens and OAuth 1 over plain HTTP fail 5-client-tls-only; over TLS they pass', () => {
    const basic = basicAuthorization('alice', 'wonder:land');
    const plain = exchange({ transport: 'http', headers: { authorization: basic } });
    const tls = exchange({ headers: { authorization: basic } });
    const oauth1 = exchange({ transport: 'http', target: '/?oauth_consumer_key=c&oauth_signature=x' });
    const v = verdict(judgeClient([plain, tls, oauth1], CONTEXT), '5-client-tls-only');
    expect(v).toMatchObject({ status: 'failed', exercised: 3 });
    expect(v?.violations.map((x) => x.seq)).toEqual([plain.seq, oauth1.seq]);
  });

  it('OAuth 2: credentials in the URI, two methods at once, a token in the query', () => {
    const basic = basicAuthorization('reporting', 'rep-secret');
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const inUri = exchange({ method: 'POST', target: '/oauth2/token?client_id=reporting&client_secret=rep-secret' });
    const both = exchange({
      method: 'POST',
      target: '/oauth2/token',
      headers: { authorization: basic, ...form },
      body: Buffer.from('grant_type=client_credentials&client_secret=rep-secret'),
    });
    const good = exchange({ method: 'POST', target: '/oauth2/token', headers: { authorization: basic, ...form } });
    const query = exchange({ target: '/users/alice/financialrecords?access_token=abc' });
    const header = exchange({ headers: { authorization: 'Bearer abc' } });
    const verdicts = judgeClient([inUri, both, good, query, header], CONTEXT);
    expect(verdict(verdicts, 'rfc6749-client-credentials-not-in-uri')).toMatchObject({
      status: 'failed',
      exercised: 3,
    });
    expect(verdict(verdicts, 'rfc6749-client-one-auth-method')?.violations.map((v) => v.seq)).toEqual([both.seq]);
    expect(verdict(verdicts, 'rfc6750-client-bearer-header')).toMatchObject({
      status: 'failed',
      exercised: 2,
      violations: [{ seq: query.seq }],
    });
  });

  it('a credential in the body counts over plain HTTP whatever its Content-Type; a body token is held to RFC 6750 §2.2', () => {
    const text = { 'content-type': 'text/plain' };
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    // requests-oauthlib with placement="body" on a GET: a form body, labelled as nothing a server reads as a form.
    const getBody = exchange({ transport: 'http', headers: text, body: Buffer.from('access_token=tok-1') });
    const json = exchange({
      method: 'POST',
      target: '/x',
      transport: 'http',
      headers: { 'content-type': 'application/json' },
      body: Buffer.from('{"client_secret":"s3cret"}'),
    });
    const postForm = exchange({ method: 'POST', target: '/x', headers: form, body: Buffer.from('access_token=tok-2') });
    const unlabelled = exchange({ method: 'POST', target: '/x', body: Buffer.from('a=1&access_token=tok-3') });
    const plainText = exchange({ transport: 'http', headers: text, body: Buffer.from('just words') });
    const verdicts = judgeClient([getBody, json, postForm, unlabelled, plainText], CONTEXT);
    expect(verdict(verdicts, '5-client-tls-only')?.violations).toEqual([
      {
        seq: getBody.seq,
        reason:
          'an OAuth 2 access token (access_token in the request body, sent as text/plain) sent over plain HTTP; use TLS',
      },
      {
        seq: json.seq,
        reason:
          'an OAuth 2 client secret (client_secret in the request body, sent as application/json) sent over plain HTTP; use TLS',
      },
    ]);
    const body = verdict(verdicts, 'rfc6750-client-body-token');
    expect(body).toMatchObject({ status: 'failed', exercised: 3 });
    expect(body?.violations.map((v) => v.seq)).toEqual([getBody.seq, unlabelled.seq]);
    expect(body?.violations[0]?.reason).toMatch(/Content-Type is text\/plain.*GET is a method whose request body/);
    expect(body?.violations[1]?.reason).toMatch(/Content-Type is missing/);
    expect(verdict(verdicts, 'rfc6750-client-bearer-header')?.violations.map((v) => v.seq)).toEqual([
      getBody.seq,
      postForm.seq,
      unlabelled.seq,
    ]);
  });

  it('OAuth 1 with a token the recording did not see issued: judged by the server recomputation in its answer', () => {
    const header = {
      host: '127.0.0.1:8443',
      authorization: 'OAuth oauth_consumer_key="c", oauth_token="t", oauth_signature="x"',
    };
    const refused = exchange({ headers: header, status: 401, detail: 'unknown credentials or wrong signature' });
    const accepted = exchange({ headers: header });
    const context = { ...CONTEXT, oauth1Consumers: [{ key: 'c', secret: 's' }] };
    const v = verdict(judgeClient([refused, accepted], context), 'rfc5849-client-signature');
    expect(v).toMatchObject({ status: 'failed', exercised: 2, violations: [{ seq: refused.seq }] });
  });

  it('OAuth 1 signatures recomputed with the token secret the server issued; a wrong one names its mistake', () => {
    const context = { ...CONTEXT, oauth1Consumers: [{ key: 'ck', secret: 'cs' }] };
    const issued = exchange({
      method: 'POST',
      target: '/oauth1/access_token',
      formAnswer: 'oauth_token=tk&oauth_token_secret=ts',
    });
    const request = (signedTarget: string, sent: string, consumer = { key: 'ck', secret: 'cs' }) => {
      const signed = signOAuth1({
        method: 'GET',
        url: `https://127.0.0.1:8443${signedTarget}`,
        consumerKey: consumer.key,
        consumerSecret: consumer.secret,
        token: 'tk',
        tokenSecret: 'ts',
        nonce: `n${seq}`,
        timestamp: 1,
      });
      return exchange({ target: sent, headers: { host: '127.0.0.1:8443', authorization: signed.authorization } });
    };
    const right = request('/r?a=b', '/r?a=b');
    const noQuery = request('/r', '/r?a=b');
    const stranger = request('/r', '/r', { key: 'other', secret: 'x' });
    const v = verdict(judgeClient([issued, right, noQuery, stranger], context), 'rfc5849-client-signature');
    expect(v).toMatchObject({
      status: 'failed',
      exercised: 3,
      violations: [
        { seq: noQuery.seq, mistake: 'query-left-out' },
        { seq: stranger.seq, reason: 'unknown oauth_consumer_key "other"' },
      ],
    });
    expect(JSON.stringify(v)).not.toMatch(/\bts\b|\bcs\b/);
  });

  it('OAuth 1: wrong host, wrong port and the swapped scheme are named with what was signed and where it went', () => {
    const context = { ...CONTEXT, oauth1Consumers: [{ key: 'ck', secret: 'cs' }], ports: [8080, 8443] };
    const issued = exchange({ method: 'POST', target: '/t', formAnswer: 'oauth_token=tk&oauth_token_secret=ts' });
    const request = (signedUrl: string, host = '127.0.0.1:8443', target = '/r') => {
      const s = signOAuth1({
        method: 'GET',
        url: signedUrl,
        consumerKey: 'ck',
        consumerSecret: 'cs',
        token: 'tk',
        tokenSecret: 'ts',
        nonce: `n${seq}`,
        timestamp: 1,
      });
      return exchange({ target, headers: { host, authorization: s.authorization } });
    };
    const host = request('https://localhost:8443/r');
    const port = request('https://127.0.0.1:8080/r');
    const scheme = request('http://127.0.0.1:8443/r');
    const v = verdict(judgeClient([issued, host, port, scheme], context), 'rfc5849-client-signature');
    expect(v?.violations).toEqual([
      {
        seq: host.seq,
        mistake: 'host-wrong',
        reason:
          'signed https://localhost:8443/r, sent to 127.0.0.1:8443: the base string URI names the host of the Host header the request carries (RFC 5849 §3.4.1.2)',
      },
      {
        seq: port.seq,
        mistake: 'port-wrong',
        reason:
          'signed https://127.0.0.1:8080/r, sent to port 8443: the base string URI names the port the request was sent to (RFC 5849 §3.4.1.2)',
      },
      {
        seq: scheme.seq,
        mistake: 'scheme-swapped',
        reason:
          'signed http://127.0.0.1:8443/r, sent over https: the base string URI has the scheme the request was sent with (RFC 5849 §3.4.1.2)',
      },
    ]);
  });

  it('a signature no mistake explains: the base string the server built beside the one of the request as encoded', () => {
    const context = { ...CONTEXT, oauth1Consumers: [{ key: 'ck', secret: 'cs' }] };
    const issued = exchange({ method: 'POST', target: '/t', formAnswer: 'oauth_token=tk&oauth_token_secret=ts' });
    // The client signed its own encoding of the query (a+b kept as sent, "+" not decoded to a space).
    const header = (signature: string) =>
      `OAuth oauth_consumer_key="ck", oauth_token="tk", oauth_signature_method="HMAC-SHA1", oauth_timestamp="1", oauth_nonce="n${seq}", oauth_signature="${encodeURIComponent(signature)}"`;
    const own =
      'GET&https%3A%2F%2F127.0.0.1%3A8443%2Fr&oauth_consumer_key%3Dck%26oauth_nonce%3Dnx%26oauth_signature_method%3DHMAC-SHA1%26oauth_timestamp%3D1%26oauth_token%3Dtk%26q%3Da%2Bb';
    const signature = createHmac('sha1', 'cs&ts').update(own).digest('base64');
    const ex = exchange({ target: '/r?q=a+b', headers: { host: '127.0.0.1:8443', authorization: header(signature) } });
    const v = verdict(judgeClient([issued, ex], context), 'rfc5849-client-signature')?.violations[0];
    expect(v?.mistake).toBeUndefined();
    expect(v?.signed).toMatch(/%26q%3Da%2520b$/);
    expect(v?.sent).toMatch(/%26q%3Da%2Bb$/);
    expect(v?.difference).toBe('the parameter q');
    expect(v?.reason).toMatch(/first differs at the parameter q/);

    const hmac = verdict(
      judgeClient(
        [exchange({ headers: { authentication: 'hmac alice:61:AAAA', date: '26 Nov 2026 14:05:09' } })],
        CONTEXT,
      ),
      '5.2-client-message',
    )?.violations[0];
    expect(hmac?.signed).toBe('GET+/users/alice/financialrecords+26nov202614:05:09+61');
  });

  it('OAuth 1 signatures are judged by the method they name: PLAINTEXT is the key; another method is not judged', () => {
    const context = { ...CONTEXT, oauth1Consumers: [{ key: 'ck', secret: 'c s' }] };
    const issued = exchange({ method: 'POST', target: '/t', formAnswer: 'oauth_token=tk&oauth_token_secret=t%26s' });
    const request = (method: string, signature: string) =>
      exchange({
        headers: {
          host: '127.0.0.1:8443',
          authorization: `OAuth oauth_consumer_key="ck", oauth_token="tk", oauth_signature_method="${method}", oauth_timestamp="1", oauth_nonce="n${seq}", oauth_signature="${encodeURIComponent(signature)}"`,
        },
      });
    const right = request('PLAINTEXT', 'c%20s&t%26s');
    const noToken = request('PLAINTEXT', 'c%20s&');
    const raw = request('PLAINTEXT', 'c s&t&s');
    const rsa = request('RSA-SHA1', 'c2lnbmF0dXJl');
    const v = verdict(judgeClient([issued, right, noToken, raw, rsa], context), 'rfc5849-client-signature');
    expect(v).toMatchObject({
      status: 'failed',
      exercised: 3,
      violations: [
        { seq: noToken.seq, mistake: 'token-secret-left-out' },
        { seq: raw.seq, mistake: 'plaintext-not-encoded' },
      ],
      notJudged: [{ seq: rsa.seq, reason: expect.stringMatching(/^oauth_signature_method "RSA-SHA1" is not one/) }],
    });
    expect(JSON.stringify(v)).not.toMatch(/c s|t&s|t%26s/);
  });

  it('4.1-put-complete-body: a PUT to an article item carries a complete article', () => {
    const context = { ...CONTEXT, articleItems: ['/articles/{id}', '/article/{id}'] };
    const xml = (body: string) => Buffer.from(body);
    const complete = exchange({
      method: 'PUT',
      target: '/articles/a1',
      body: xml('<article><title>T</title><price currency="eur">1.50</price></article>'),
    });
    const noPrice = exchange({
      method: 'PUT',
      target: '/article/a2',
      body: xml('<article><title>T</title></article>'),
    });
    const notAnItem = exchange({ method: 'PUT', target: '/articles', body: xml('junk') });
    const post = exchange({ method: 'POST', target: '/articles/a3', body: xml('junk') });
    const v = verdict(judgeClient([complete, noPrice, notAnItem, post], context), '4.1-put-complete-body');
    expect(v).toMatchObject({ status: 'failed', exercised: 2, violations: [{ seq: noPrice.seq }] });
    expect(v?.violations[0]?.reason).toMatch(/^the PUT body is not a complete article .*no <price>/);
    expect(verdict(judgeClient([complete], CONTEXT), '4.1-put-complete-body')?.status).toBe('not exercised');
  });

  it('4.1-put-complete-body is judged by §2, not by the reference parser: more fields, any declared encoding', () => {
    const context = { ...CONTEXT, articleItems: ['/articles/{id}'] };
    const put = (body: Buffer, headers: RecordedExchange['headers'] = {}) =>
      exchange({ method: 'PUT', target: '/articles/a', body, headers });
    const extra = put(
      Buffer.from('<article><title>T</title><author>Ann</author><price currency="eur">1.50</price></article>'),
    );
    const latin1 = put(
      Buffer.from(
        '<?xml version="1.0" encoding="ISO-8859-1"?><article><title>Café</title><price currency="eur">2.00</price></article>',
        'latin1',
      ),
    );
    const charset = put(
      Buffer.from('<article><title>Thé</title><price currency="gbp">3.10</price></article>', 'latin1'),
      { 'content-type': 'application/xml; charset=iso-8859-1' },
    );
    const utf16 = put(
      Buffer.concat([
        Buffer.from([0xff, 0xfe]),
        Buffer.from('<article><title>T</title><price currency="usd">0.99</price></article>', 'utf16le'),
      ]),
    );
    const good = judgeClient([extra, latin1, charset, utf16], context);
    expect(verdict(good, '4.1-put-complete-body')).toMatchObject({ status: 'passed', exercised: 4, violations: [] });

    const cases: Array<[string, RegExp]> = [
      ['<article><title>T</title><price currency="EUR">1.50</price></article>', /currency "EUR"/],
      ['<article><title>T</title><price currency="eur">15</price></article>', /fractional part/],
      ['<article><title>T</title><price>1.50</price></article>', /no currency attribute/],
      ['<item><title>T</title><price currency="eur">1.50</price></item>', /root element is <item>/],
      ['<article><title>T</title><price currency="eur">1.50</price>', /not well-formed XML/],
    ];
    const wrong = cases.map(([body]) => put(Buffer.from(body)));
    const bad = Buffer.from('<?xml version="1.0" encoding="UTF-8"?><article><title>\xff</title></article>', 'latin1');
    const v = verdict(judgeClient([...wrong, put(bad)], context), '4.1-put-complete-body');
    expect(v?.violations.map((x) => x.seq)).toEqual([...wrong.map((w) => w.seq), seq]);
    cases.forEach(([, reason], i) => expect(v?.violations[i]?.reason).toMatch(reason));
    expect(v?.violations.at(-1)?.reason).toMatch(/the bytes are not UTF-8/i);

    const doctype = put(Buffer.from('<!DOCTYPE article SYSTEM "a.dtd"><article/>'));
    const unknown = put(Buffer.from('<?xml version="1.0" encoding="x-nothing"?><article/>'));
    const unread = verdict(judgeClient([doctype, unknown], context), '4.1-put-complete-body');
    expect(unread).toMatchObject({ status: 'not exercised', violations: [] });
    expect(unread?.notJudged?.map((x) => x.seq)).toEqual([doctype.seq, unknown.seq]);
  });

  it('the body hash: either message passes by default (optional); required or off names the other one', async () => {
    const body = '<article><title>t</title><price currency="eur">1.00</price></article>';
    const put = (nonce: string, bodyHash: boolean) =>
      signed(nonce, { method: 'PUT', target: '/articles/a', body, bodyHash });
    const post = (nonce: string, bodyHash: boolean) =>
      signed(nonce, { method: 'POST', target: '/articles', body, bodyHash });
    const requests = [put('41', true), put('42', false), post('43', true), post('44', false)];
    const judged = (bodyHash: boolean | 'optional') =>
      verdict(judgeClient(requests, { ...CONTEXT, bodyHash }), '5.2-client-message');
    expect(judged('optional')).toMatchObject({ status: 'passed', exercised: 4, violations: [] });
    expect(judged(true)?.violations).toMatchObject([
      { seq: requests[1]?.seq, mistake: 'body-hash-left-out' },
      { seq: requests[3]?.seq, mistake: 'body-hash-left-out' },
    ]);
    expect(judged(false)?.violations).toMatchObject([
      { seq: requests[0]?.seq, mistake: 'body-hash-added' },
      { seq: requests[2]?.seq, mistake: 'body-hash-added' },
    ]);
    // Under optional a mistake is still named, made with the body hash or without it.
    const { createHmac } = await import('node:crypto');
    const date = '26 Nov 2026 14:05:09';
    const caseKept = createHmac('sha256', 'alice-secret-1')
      .update('PUT+/articles/a+26Nov202614:05:09+45')
      .digest('base64');
    const ex = exchange({
      method: 'PUT',
      target: '/articles/a',
      body: Buffer.from(body),
      headers: { authentication: `hmac alice:45:${caseKept}`, date },
    });
    expect(verdict(judgeClient([ex], { ...CONTEXT, bodyHash: 'optional' }), '5.2-client-date-text')).toMatchObject({
      status: 'failed',
      violations: [{ seq: ex.seq, mistake: 'date-text-case-kept' }],
    });
  });

  it("the server's signing variants are the client's to follow", () => {
    const sign = (target: string, nonce: string, date = '26 Nov 2026 14:05:09') => {
      const h = signRequest({ method: 'GET', target, user: 'alice', secret: 'alice-secret-1', nonce, date });
      return exchange({ target: '/r?a=1', headers: { authentication: h.authentication, date } });
    };
    const pathOnly = sign('/r', '51');
    const withQuery = sign('/r?a=1', '52');
    const message = (variants: string[]) =>
      verdict(judgeClient([pathOnly, withQuery], { ...CONTEXT, variants }), '5.2-client-message')?.violations.map(
        (v) => v.seq,
      );
    expect(message([])).toEqual([pathOnly.seq]);
    expect(message(['path-without-query'])).toEqual([withQuery.seq]);

    const lowerMonth = sign('/r?a=1', '53', '26 nov 2026 14:05:09');
    const format = (variants: string[]) =>
      verdict(judgeClient([lowerMonth], { ...CONTEXT, variants }), '5.2-client-date-format')?.status;
    expect(format([])).toBe('failed');
    expect(format(['date-month-any-case'])).toBe('passed');

    const unpadded = exchange({
      target: '/r?a=1',
      headers: {
        authentication: String(withQuery.headers['authentication']).replace(/=+$/, ''),
        date: '26 Nov 2026 14:05:09',
      },
    });
    const decoded = (variants: string[]) =>
      verdict(judgeClient([unpadded], { ...CONTEXT, variants }), '5.2-client-message')?.status;
    expect(decoded([])).toBe('failed');
    expect(decoded(['digest-decoded'])).toBe('passed');
  });

  it('hmac credentials in Authorization fail 5.2-client-header; in Authentication they pass it', () => {
    const good = signRequest({ method: 'GET', target: '/', user: 'alice', secret: 'alice-secret-1' });
    const right = exchange({ target: '/', headers: { authentication: good.authentication } });
    const wrong = exchange({ target: '/', headers: { authorization: good.authentication } });
    expect(verdict(judgeClient([right, wrong], CONTEXT), '5.2-client-header')).toMatchObject({
      status: 'failed',
      exercised: 2,
      violations: [{ seq: wrong.seq, mistake: 'hmac-in-authorization' }],
    });
  });

  it('no reason carries a secret or a digest', async () => {
    const ex = await signedOver('GET+/users/alice/financialrecords', '31', '26 Nov 2026 14:05:09');
    const digest = String(ex.headers['authentication']).split(':').pop() ?? '';
    const text = JSON.stringify(judgeClient([ex, signed('31')], CONTEXT));
    expect(text).not.toContain('alice-secret-1');
    expect(text).not.toContain(digest);
  });
});
