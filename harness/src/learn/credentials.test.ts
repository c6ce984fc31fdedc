import { describe, expect, it } from 'vitest';
import type { HttpResponse } from '../http/client.js';
import { challengeSchemes, notOfferedEvidence, said } from './credentials.js';

const answer = (status: number, headers: Record<string, string> = {}, body = ''): HttpResponse => ({
  status,
  headers,
  body: new TextEncoder().encode(body),
  durationMs: 0,
});

describe('a refusal is "not offered" only on positive evidence (issue 35)', () => {
  it('reads the schemes of a challenge, not its parameters', () => {
    expect(challengeSchemes('Basic realm="a, b", charset="UTF-8", Bearer realm="x", error="invalid_token"')).toEqual([
      'basic',
      'bearer',
    ]);
    expect(challengeSchemes('hmac realm="conform"')).toEqual(['hmac']);
    expect(challengeSchemes('Negotiate, NTLM')).toEqual(['negotiate', 'ntlm']);
  });

  it('a 401 that challenges with other schemes only', () => {
    expect(notOfferedEvidence('hmac', answer(401, { 'www-authenticate': 'Basic realm="x"' }))).toMatch(/basic only/);
    expect(notOfferedEvidence('basic', answer(401, { 'www-authenticate': 'Basic realm="x"' }))).toBeUndefined();
    expect(notOfferedEvidence('hmac-nonce', answer(401, { 'www-authenticate': 'hmac realm="x"' }))).toBeUndefined();
  });

  it('a refusal that says nothing of the scheme is no evidence: a wrong password looks the same', () => {
    expect(notOfferedEvidence('basic', answer(401))).toBeUndefined();
    expect(notOfferedEvidence('basic', answer(403, {}, '{"detail":"forbidden"}'))).toBeUndefined();
    expect(notOfferedEvidence('hmac', answer(400, {}, 'bad request'))).toBeUndefined();
  });

  it('a 400 or 501 naming the scheme unsupported; a bearer token of insufficient scope', () => {
    expect(notOfferedEvidence('hmac', answer(400, {}, '{"detail":"the hmac scheme is not supported"}'))).toBeTruthy();
    expect(notOfferedEvidence('basic', answer(501, {}, 'Unsupported authentication scheme Basic'))).toBeTruthy();
    expect(
      notOfferedEvidence('oauth2', answer(403, { 'www-authenticate': 'Bearer error="insufficient_scope"' })),
    ).toMatch(/insufficient/);
  });

  it('says the first line of what the target said', () => {
    expect(said(answer(401, {}, '{"type":"x","detail":"unknown user or wrong password"}'))).toBe(
      'unknown user or wrong password',
    );
    expect(said(answer(400, {}, '{"error":"invalid_grant","error_description":"bad"}'))).toBe('bad');
    expect(said(answer(401, {}, '<html><body><h1>Unauthorized</h1></body></html>'))).toBe('Unauthorized');
    expect(said(answer(401))).toBeUndefined();
  });
});
