import { describe, expect, it } from 'vitest';
import { basicAuthorization } from '../auth/sign.js';
import type { RecordedExchange } from '../recording.js';
import { GRANT_CLIENT_RULES } from './grant-rules.js';
import { CLIENT_RULES, judgeClient, type ClientJudgeContext } from './judge.js';

const CONTEXT: ClientJudgeContext = {
  users: [{ name: 'alice', secret: 'alice-secret-1' }],
  window: 600,
  bodyHash: true,
  oauth2Endpoints: ['/oauth2/token', '/oauth2/revoke'],
  oauth2AuthorizeEndpoints: ['/oauth2/authorize'],
};
const CLIENT = basicAuthorization('reporting', 'rep-secret');
const OWNER = basicAuthorization('alice', 'wonder:land');
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

let seq = 0;
function exchange(over: Partial<RecordedExchange>): RecordedExchange {
  seq += 1;
  return {
    seq,
    method: 'GET',
    target: '/',
    headers: {},
    body: new Uint8Array(),
    transport: 'https',
    at: 0,
    status: 200,
    ...over,
  };
}

/** An authorization request with `query`, answered with a redirect carrying `code` (or an error). */
const authorize = (query: string, code?: string) =>
  exchange({
    target: `/oauth2/authorize?response_type=code&client_id=reporting&${query}`,
    headers: { authorization: OWNER },
    status: 302,
    location: `https://client.example/oauth2/callback?${code === undefined ? 'error=invalid_request' : `code=${code}`}`,
  });

/** A token request with `body`, answered `status` (and a new refresh token when given). */
const token = (body: string, over: Partial<RecordedExchange> = {}) =>
  exchange({
    method: 'POST',
    target: '/oauth2/token',
    headers: { authorization: CLIENT, ...FORM },
    body: Buffer.from(body),
    ...over,
  });

const judge = (exchanges: RecordedExchange[]) =>
  Object.fromEntries(judgeClient(exchanges, CONTEXT).map((v) => [v.rule, v]));

describe('the grant rules', () => {
  it('are client rules of the judge, not exercised by a client that never takes a grant', () => {
    for (const rule of GRANT_CLIENT_RULES) expect(CLIENT_RULES).toContain(rule);
    const verdicts = judge([exchange({ headers: { authorization: 'Bearer abc' } })]);
    for (const rule of GRANT_CLIENT_RULES) expect(verdicts[rule]?.status, rule).toBe('not exercised');
  });

  it('a correct code + PKCE client passes each, then a correct refresh', () => {
    const verdicts = judge([
      authorize(`code_challenge=${CHALLENGE}&code_challenge_method=S256&state=s1`, 'code-1'),
      token('grant_type=authorization_code&code=code-1&code_verifier=v&redirect_uri=x', { refreshToken: 'r1' }),
      token('grant_type=refresh_token&refresh_token=r1', { refreshToken: 'r2' }),
      token('grant_type=refresh_token&refresh_token=r2', { refreshToken: 'r3' }),
    ]);
    expect(verdicts['rfc6749-client-secret-not-in-authorization-request']).toMatchObject({
      status: 'passed',
      exercised: 1,
    });
    expect(verdicts['rfc7636-client-s256']).toMatchObject({ status: 'passed', exercised: 1 });
    expect(verdicts['rfc7636-client-verifier-sent']).toMatchObject({ status: 'passed', exercised: 1 });
    expect(verdicts['rfc6749-client-code-once']).toMatchObject({ status: 'passed', exercised: 1 });
    expect(verdicts['rfc6749-client-refresh-replaced']).toMatchObject({ status: 'passed', exercised: 2 });
    expect(verdicts['rfc6749-client-password-tls']?.status).toBe('not exercised');
  });

  it('a code exchanged twice fails rfc6749-client-code-once on the second exchange, whatever the first got', () => {
    const first = token('grant_type=authorization_code&code=c2', { status: 400 });
    const again = token('grant_type=authorization_code&code=c2', { status: 400 });
    const other = token('grant_type=authorization_code&code=c3');
    const v = judge([first, again, other])['rfc6749-client-code-once'];
    expect(v).toMatchObject({ status: 'failed', exercised: 3, violations: [{ seq: again.seq }] });
    expect(v?.violations[0]?.reason).toMatch(new RegExp(`exchanged in request #${first.seq} is exchanged again`));
  });

  it('the password grant over plain HTTP fails rfc6749-client-password-tls; over TLS it passes', () => {
    const plain = token('grant_type=password&username=alice&password=wonder%3Aland', { transport: 'http' });
    const tls = token('grant_type=password&username=alice&password=wonder%3Aland');
    // A password in a token request of another grant type is the owner's password all the same.
    const stray = token('grant_type=client_credentials&password=x', { transport: 'http' });
    const v = judge([plain, tls, stray])['rfc6749-client-password-tls'];
    expect(v).toMatchObject({ status: 'failed', exercised: 3 });
    expect(v?.violations.map((x) => x.seq)).toEqual([plain.seq, stray.seq]);
    expect(v?.violations[0]?.reason).toMatch(/^a password grant \(grant_type=password\) sent over plain HTTP/);
  });

  it('a client_secret in the authorization request fails its rule, not the token endpoint rule', () => {
    const leak = authorize(`client_secret=rep-secret&code_challenge=${CHALLENGE}&code_challenge_method=S256`, 'c4');
    const verdicts = judge([leak]);
    expect(verdicts['rfc6749-client-secret-not-in-authorization-request']).toMatchObject({
      status: 'failed',
      violations: [{ seq: leak.seq }],
    });
    expect(verdicts['rfc6749-client-credentials-not-in-uri']?.status).toBe('not exercised');
  });

  it('code_challenge_method plain, or none (plain by default), fails rfc7636-client-s256', () => {
    const plain = authorize('code_challenge=abc&code_challenge_method=plain');
    const none = authorize('code_challenge=abc');
    const noPkce = authorize('state=s');
    const v = judge([plain, none, noPkce])['rfc7636-client-s256'];
    expect(v).toMatchObject({ status: 'failed', exercised: 2 });
    expect(v?.violations.map((x) => x.reason)).toEqual([
      expect.stringMatching(/^code_challenge_method=plain; a client capable of S256 must use S256/) as string,
      expect.stringMatching(/without code_challenge_method, which means plain/) as string,
    ]);
  });

  it('a code issued for a challenge exchanged without code_verifier fails rfc7636-client-verifier-sent', () => {
    const asked = authorize(`code_challenge=${CHALLENGE}&code_challenge_method=S256`, 'c5');
    const bare = token('grant_type=authorization_code&code=c5', { status: 400 });
    // A code obtained without a challenge owes no verifier (RFC 7636 is the client's to use).
    const unchallenged = authorize('state=s', 'c6');
    const plainCode = token('grant_type=authorization_code&code=c6');
    const v = judge([asked, bare, unchallenged, plainCode])['rfc7636-client-verifier-sent'];
    expect(v).toMatchObject({ status: 'failed', exercised: 1, violations: [{ seq: bare.seq }] });
    expect(v?.violations[0]?.reason).toMatch(new RegExp(`code_challenge of request #${asked.seq}`));
  });

  it('a refresh token sent again after a refresh replaced it fails rfc6749-client-refresh-replaced', () => {
    const refresh = token('grant_type=refresh_token&refresh_token=old', { refreshToken: 'new' });
    const reused = token('grant_type=refresh_token&refresh_token=old', { refreshToken: 'newer' });
    // A refresh answered without a new refresh token (or refused) replaces nothing: the token may be sent again.
    const kept = token('grant_type=refresh_token&refresh_token=k');
    const keptAgain = token('grant_type=refresh_token&refresh_token=k');
    const refused = token('grant_type=refresh_token&refresh_token=z', { status: 400, refreshToken: 'x' });
    const retried = token('grant_type=refresh_token&refresh_token=z');
    const v = judge([refresh, reused, kept, keptAgain, refused, retried])['rfc6749-client-refresh-replaced'];
    expect(v).toMatchObject({ status: 'failed', exercised: 6, violations: [{ seq: reused.seq }] });
    expect(v?.violations[0]?.reason).toMatch(new RegExp(`answer to request #${refresh.seq} issued`));
  });

  it('a refresh answered with the same refresh token replaces nothing: sending it again is right', () => {
    const same = token('grant_type=refresh_token&refresh_token=s', { refreshToken: 's' });
    const again = token('grant_type=refresh_token&refresh_token=s', { refreshToken: 's' });
    expect(judge([same, again])['rfc6749-client-refresh-replaced']).toMatchObject({ status: 'passed', exercised: 2 });
  });

  it('a replaced refresh token sent again names the answer that first replaced it, every time', () => {
    const refresh = token('grant_type=refresh_token&refresh_token=old', { refreshToken: 'new' });
    // The server wrongly accepts the stale token and issues another: the first replacement still counts.
    const reused = token('grant_type=refresh_token&refresh_token=old', { refreshToken: 'newer' });
    const reusedAgain = token('grant_type=refresh_token&refresh_token=old', { refreshToken: 'newest' });
    const v = judge([refresh, reused, reusedAgain])['rfc6749-client-refresh-replaced'];
    expect(v?.violations.map((violation) => violation.seq)).toEqual([reused.seq, reusedAgain.seq]);
    for (const violation of v?.violations ?? [])
      expect(violation.reason).toMatch(new RegExp(`answer to request #${refresh.seq} issued`));
  });
});
