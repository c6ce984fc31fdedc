import { describe, expect, it } from 'vitest';
import { basicAuthorization, signRequest } from '../auth/sign.js';
import type { RecordedExchange } from '../recording.js';
import { judgeClient, type ClientJudgeContext } from './judge.js';

const CONTEXT: ClientJudgeContext = {
  users: [{ name: 'alice', secret: 'alice-secret-1' }],
  window: 600,
  bodyHash: true,
  oauth2Endpoints: ['/oauth2/token'],
};
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

function exchange(seq: number, over: Partial<RecordedExchange>): RecordedExchange {
  return {
    seq,
    method: 'GET',
    target: '/',
    headers: {},
    body: new Uint8Array(),
    transport: 'https',
    at: Date.UTC(2026, 10, 26, 14, 5, 9),
    status: 200,
    ...over,
  };
}

/** Request `seq`: alice's signed GET with `nonce`, dated as the recording's clock. */
function signed(seq: number, nonce: string): RecordedExchange {
  const target = '/users/alice/financialrecords';
  const headers = signRequest({
    method: 'GET',
    target,
    user: 'alice',
    secret: 'alice-secret-1',
    nonce,
    date: '26 Nov 2026 14:05:09',
    body: '',
    bodyHash: true,
  });
  return exchange(seq, {
    target,
    headers: { authentication: headers.authentication, ...(headers.date ? { date: headers.date } : {}) },
  });
}

const verdictOf = (exchanges: RecordedExchange[], rule: string, context = CONTEXT) =>
  judgeClient(exchanges, context).find((v) => v.rule === rule);

describe('judgeClient judges in the order the server received the requests (seq), not the order given', () => {
  it('a reused nonce is the later request, even when it is listed first', () => {
    const v = verdictOf([signed(9, '7'), signed(2, '7'), signed(5, '8')], '5.2-nonce-change');
    expect(v?.violations).toEqual([{ seq: 9, reason: 'nonce 7 of user alice was already sent in request #2' }]);
  });

  it('a refresh token is stale only after the answer that replaced it', () => {
    const refresh = (seq: number, issued: string) =>
      exchange(seq, {
        method: 'POST',
        target: '/oauth2/token',
        headers: { authorization: basicAuthorization('reporting', 'rep-secret'), ...FORM },
        body: Buffer.from('grant_type=refresh_token&refresh_token=old'),
        refreshToken: issued,
      });
    const v = verdictOf(
      [refresh(30, 'newer'), refresh(4, 'new'), refresh(17, 'newest')],
      'rfc6749-client-refresh-replaced',
    );
    expect(v?.violations.map((violation) => violation.seq)).toEqual([17, 30]);
  });
});

describe('judgeClient: the OAuth 2 client authentication rules, each violation with its reason', () => {
  const tokenRequest = (seq: number, target: string, over: Partial<RecordedExchange> = {}) =>
    exchange(seq, { method: 'POST', target, headers: { ...FORM }, ...over });

  it('client credentials in the request URI are named', () => {
    const inUri = tokenRequest(1, '/oauth2/token?client_id=reporting&client_secret=rep-secret');
    expect(verdictOf([inUri], 'rfc6749-client-credentials-not-in-uri')?.violations).toEqual([
      {
        seq: 1,
        reason: 'client_id and client_secret in the request URI; send them in the form body, or use HTTP Basic',
      },
    ]);
  });

  it('HTTP Basic with a client_secret in the query is two methods at once; Basic alone passes', () => {
    const basic = { authorization: basicAuthorization('reporting', 'rep-secret'), ...FORM };
    const both = tokenRequest(1, '/oauth2/token?client_secret=rep-secret', { headers: basic });
    expect(verdictOf([both], 'rfc6749-client-one-auth-method')?.violations).toEqual([
      {
        seq: 1,
        reason: 'HTTP Basic client authentication and a client_secret parameter in one request; use one method',
      },
    ]);
    const alone = tokenRequest(2, '/oauth2/token', { headers: basic });
    expect(verdictOf([alone], 'rfc6749-client-one-auth-method')).toMatchObject({ status: 'passed', exercised: 1 });
  });
});

describe('judgeClient: a PUT to an article item with a query is still a PUT to that item', () => {
  const incomplete = (seq: number, target: string) =>
    exchange(seq, { method: 'PUT', target, body: Buffer.from('<article><title>T</title></article>') });

  it('the query is cut off before the path is matched against the item templates', () => {
    const context = { ...CONTEXT, articleItems: ['/articles/{id}', '/users/{name}/article'] };
    const v = verdictOf(
      [incomplete(1, '/articles/a?v=12'), incomplete(2, '/users/alice/article?v=12'), incomplete(3, '/articles/?v=1')],
      '4.1-put-complete-body',
      context,
    );
    expect(v).toMatchObject({ status: 'failed', exercised: 2 });
    expect(v?.violations.map((violation) => violation.seq)).toEqual([1, 2]);
  });
});
