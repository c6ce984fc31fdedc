import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { basicHeader, formatSpecDate, hmacDigest, signedMessage } from './signers.js';
import { oauth1BaseString, oauth1Signature } from '../oauth/signature.js';
import { checkOAuthSigner, checkSigners, loadAuthVectors, loadOAuthVectors } from './vectors.js';

const FILE = path.resolve(import.meta.dirname, '../../../specs/vectors/auth.yaml');

describe('harness signers against the known-answer vectors', () => {
  it('agree with every vector (RFC 4231, RFC 7617, both signed forms, body hash)', async () => {
    const v = await loadAuthVectors(FILE);
    expect(v.hmacSha256.length).toBeGreaterThanOrEqual(6);
    expect(checkSigners(v)).toEqual([]);
  });

  it('a corrupted vector is detected (the self-test can fail)', async () => {
    const v = await loadAuthVectors(FILE);
    v.hmacNonce[0]!.header = v.hmacNonce[0]!.header.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
    expect(checkSigners(v)).toHaveLength(1);
  });

  it('formats the spec Date in UTC with two-digit fields', () => {
    expect(formatSpecDate(new Date(Date.UTC(2027, 0, 1, 0, 0, 9)))).toBe('01 Jan 2027 00:00:09');
  });

  it('binds verb, path, date and nonce: any change changes the digest (property)', () => {
    const part = fc.string({ minLength: 1, maxLength: 12 });
    fc.assert(
      fc.property(
        part,
        part,
        fc.stringMatching(/^[0-9]{1,20}$/),
        fc.integer({ min: 0, max: 3 }),
        (p1, p2, nonce, which) => {
          fc.pre(p1 !== p2);
          const base = { method: 'GET', path: `/${p1}`, date: '22 Nov 2026 10:00:00', nonce };
          const changed = [
            { ...base, method: 'HEAD' },
            { ...base, path: `/${p2}` },
            { ...base, date: '22 Nov 2026 10:00:01' },
            { ...base, nonce: `${nonce}0` },
          ][which]!;
          expect(hmacDigest('k', signedMessage(changed))).not.toBe(hmacDigest('k', signedMessage(base)));
        },
      ),
      { seed: 3, numRuns: 300 },
    );
    expect(basicHeader('a', 'b:c')).toBe(`Basic ${Buffer.from('a:b:c').toString('base64')}`);
  });
});

describe('harness OAuth 1.0a signer against the known-answer vectors', () => {
  const OAUTH = path.resolve(import.meta.dirname, '../../../specs/vectors/oauth.yaml');
  it('reproduces RFC 5849 §1.2 (chapoH), OAuth Core 1.0a Appendix A, the §3.4.1 base string and more', async () => {
    const v = await loadOAuthVectors(OAUTH);
    expect(v.oauth1.map((c) => c.signature)).toContain('MdpQcU8iPSUjWoN/UDMsK2sui9I=');
    expect(v.oauth1.map((c) => c.signature)).toContain('tR3+Ty81lMeYAr/Fid0kMTYa/WM=');
    expect(checkOAuthSigner(v)).toEqual([]);
  });

  it('the nonce printed in RFC 5849 §1.2 base string (chapoh) does not reproduce its signature', async () => {
    const v = await loadOAuthVectors(OAUTH);
    const c = v.oauth1[0]!;
    const wrong = c.oauth.map(([k, val]) => [k, k === 'oauth_nonce' ? 'chapoh' : val] as [string, string]);
    expect(oauth1Signature(oauth1BaseString(c.method, c.url, c.body, wrong), c.consumerSecret, c.tokenSecret)).not.toBe(
      c.signature,
    );
  });
});
