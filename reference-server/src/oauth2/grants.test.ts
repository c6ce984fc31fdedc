/**
 * The grant variants (variants-oauth2.ts) through the pure core: `oauth2-code-pkce-only` (the authorization code grant
 * with PKCE, refresh tokens) and `oauth2-refresh-rotation`, each beside the default server's answer.
 */
import { describe, expect, it } from 'vitest';
import {
  PKCE,
  REDIRECT_URI,
  authorizeCode,
  bearerRequest,
  exchangeCode,
  revoke,
  tokenRequest,
} from '../../testkit/oauth.js';
import { testServer, text } from '../../testkit/index.js';
import type { TestServer } from '../../testkit/index.js';
import type { ResponseRecord } from '../records.js';
import type { VariantName } from '../variants.js';

const serve = (variants: VariantName[] = []): TestServer => testServer({ signAs: null, variants });
const json = (res: ResponseRecord) => JSON.parse(text(res)) as Record<string, string>;
const refresh = (s: TestServer, token: string) =>
  tokenRequest(s, { body: `grant_type=refresh_token&refresh_token=${encodeURIComponent(token)}` });

describe('oauth2-code-pkce-only', () => {
  it('the default server has no authorization endpoint and refuses the code grant', () => {
    const s = serve();
    expect(authorizeCode(s).res.status).toBe(404);
    expect(json(exchangeCode(s, 'x')).error).toBe('unsupported_grant_type');
  });

  it("the owner's Basic approval redirects with a code and the state; the code gives a token for the owner and a refresh token", () => {
    const s = serve(['oauth2-code-pkce-only']);
    const { res, code } = authorizeCode(s);
    expect(res.status).toBe(302);
    expect(String(res.headers.location)).toMatch(new RegExp(`^${REDIRECT_URI}\\?code=[^&]+&state=st$`));
    const answer = exchangeCode(s, code);
    expect(answer.status).toBe(200);
    const body = json(answer);
    expect(Object.keys(body).sort()).toEqual(['access_token', 'expires_in', 'refresh_token', 'token_type']);
    expect(bearerRequest(s, body.access_token!).status).toBe(200);
    expect(bearerRequest(s, body.access_token!, { target: '/users/bob/financialrecords' }).status).toBe(403);
    expect(json(tokenRequest(s)).error).toBe('unsupported_grant_type');
  });

  it('requires PKCE S256, the owner, a registered redirect URI', () => {
    const s = serve(['oauth2-code-pkce-only']);
    const noPkce = authorizeCode(s, { query: 'response_type=code&client_id=reporting&state=st' }).res;
    expect([noPkce.status, String(noPkce.headers.location)]).toEqual([
      302,
      expect.stringMatching(/[?&]error=invalid_request/),
    ]);
    const plain = `response_type=code&client_id=reporting&code_challenge=${PKCE.challenge}&code_challenge_method=plain`;
    expect(String(authorizeCode(s, { query: plain }).res.headers.location)).toMatch(/error=invalid_request/);
    const other = `response_type=code&client_id=reporting&redirect_uri=https%3A%2F%2Fattacker.example%2F&code_challenge=${PKCE.challenge}&code_challenge_method=S256`;
    expect(authorizeCode(s, { query: other }).res.status).toBe(400);
    const anonymous = s.send({ method: 'GET', target: '/oauth2/authorize?client_id=reporting', secure: true });
    expect(anonymous.status).toBe(401);
  });

  it('a code is exchanged once, with its redirect URI and verifier; its reuse revokes what it gave', () => {
    const s = serve(['oauth2-code-pkce-only']);
    expect(json(exchangeCode(s, authorizeCode(s).code, { redirectUri: null })).error).toBe('invalid_grant');
    expect(json(exchangeCode(s, authorizeCode(s).code, { verifier: 'x'.repeat(43) })).error).toBe('invalid_grant');
    const { code } = authorizeCode(s);
    const first = json(exchangeCode(s, code));
    expect(json(exchangeCode(s, code)).error).toBe('invalid_grant');
    expect(bearerRequest(s, first.access_token!).status).toBe(401);
    expect(json(refresh(s, first.refresh_token!)).error).toBe('invalid_grant');
  });

  it('a refresh token gives a new access token, to its own client only; revoked (RFC 7009) it is refused', () => {
    const s = serve(['oauth2-code-pkce-only']);
    const first = json(exchangeCode(s, authorizeCode(s).code));
    const again = refresh(s, first.refresh_token!);
    expect(again.status).toBe(200);
    expect(bearerRequest(s, json(again).access_token!).status).toBe(200);
    expect(refresh(s, first.refresh_token!).status).toBe(200);
    const other = tokenRequest(s, {
      body: `grant_type=refresh_token&refresh_token=${encodeURIComponent(first.refresh_token!)}`,
      authorization: `Basic ${Buffer.from('auditing:aud+secret%2B%2F%3A2').toString('base64')}`,
    });
    expect(json(other).error).toBe('invalid_grant');
    expect(revoke(s, first.refresh_token!).status).toBe(200);
    expect(json(refresh(s, first.refresh_token!)).error).toBe('invalid_grant');
  });
});

describe('oauth2-refresh-rotation', () => {
  it('a refresh replaces the refresh token: the old one is refused, the new one works', () => {
    const s = serve(['oauth2-code-pkce-only', 'oauth2-refresh-rotation']);
    const first = json(exchangeCode(s, authorizeCode(s).code));
    const second = json(refresh(s, first.refresh_token!));
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(json(refresh(s, first.refresh_token!)).error).toBe('invalid_grant');
    expect(refresh(s, second.refresh_token!).status).toBe(200);
  });

  it('with the password grant too', () => {
    const s = serve(['oauth2-password-only', 'oauth2-refresh-rotation']);
    const first = json(tokenRequest(s, { body: 'grant_type=password&username=alice&password=wonder%3Aland' }));
    expect(refresh(s, first.refresh_token!).status).toBe(200);
    expect(refresh(s, first.refresh_token!).status).toBe(400);
  });
});

describe('RFC 8414 metadata', () => {
  const metadata = (s: TestServer) =>
    json(
      s.send({
        method: 'GET',
        target: '/.well-known/oauth-authorization-server',
        headers: { host: 'h:1' },
        secure: true,
      }),
    );

  it('names the endpoints and the grants the variants on offer', () => {
    expect(metadata(serve())).toMatchObject({
      issuer: 'https://h:1',
      token_endpoint: 'https://h:1/oauth2/token',
      grant_types_supported: ['client_credentials'],
    });
    expect(metadata(serve()).authorization_endpoint).toBeUndefined();
    expect(metadata(serve(['oauth2-code-pkce-only']))).toMatchObject({
      authorization_endpoint: 'https://h:1/oauth2/authorize',
      code_challenge_methods_supported: ['S256'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
    });
  });
});
