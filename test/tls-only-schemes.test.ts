/**
 * A target whose only schemes are TLS-only, with its plain listener open (issue 11, class 1): requests that need
 * credentials go over the TLS base URL, OAuth-only targets get their tokens from the target first, and the
 * scenarios that cannot apply skip with a `profile lacks …` reason instead of erroring.
 */
import { describe, expect } from 'vitest';
import { loadVariantProfile } from '../cli/src/variant-profile.js';
import type { VariantName } from '../reference-server/src/index.js';
import { it } from './fixtures.js';
import { byStatus, REFERENCE_PROFILE, runAgainst, useReferenceServer } from './helpers.js';

const WRITES = [
  'articles/post-create',
  'articles/put-create',
  'articles/put-replace',
  'options/item-allow',
  'articles/delete-removes',
  'auth/options-allow-depends-on-auth',
];

describe.each<VariantName>(['basic-only', 'oauth-only'])('%s, plain and TLS listeners both open', (variant) => {
  const server = useReferenceServer({ variants: [variant] });

  it('authenticated article scenarios run over TLS and pass; none errors', async () => {
    const profile = loadVariantProfile(REFERENCE_PROFILE, [variant]);
    const run = await runAgainst(server(), { profile, seed: 3, runs: 3 });
    const s = byStatus(run);
    expect(s['errored']).toEqual([]);
    expect(s['failed']).toEqual([]);
    for (const id of WRITES) expect(s['passed'], id).toContain(id);
    const post = run.scenarios.find((x) => x.id === 'articles/post-create')!;
    expect(post.transcript.some((x) => x.request.method === 'POST' && x.request.url.startsWith('https:'))).toBe(true);
    // The scenarios about plain HTTP still use the plain listener.
    const plain = variant === 'basic-only' ? 'auth/basic-refused-over-http' : 'auth/oauth2-over-http-refused';
    expect(s['passed']).toContain(plain);
    // Scenarios for schemes the profile lacks skip, naming the key.
    const hmac = run.scenarios.find((x) => x.id === 'auth/hmac-accepted')!;
    expect(hmac.status).toBe('skipped');
    expect(hmac.reason).toMatch(/^profile lacks auth\.schemes/);
    for (const id of ['auth/records-owner-only', 'auth/stateless-connection', 'auth/stateless-cookie'])
      expect(s['passed'], id).toContain(id);
  });

  it.runIf(variant === 'oauth-only')(
    'with OAuth 1 alone, writes use token credentials obtained through the three legs',
    async () => {
      const loaded = loadVariantProfile(REFERENCE_PROFILE, [variant]);
      const profile = {
        ...loaded,
        auth: { ...loaded.auth, schemes: ['oauth1' as const], tlsOnly: ['oauth1' as const] },
      };
      const run = await runAgainst(server(), {
        profile,
        seed: 3,
        runs: 2,
        filter: ['articles/', 'options/item-allow'],
      });
      const s = byStatus(run);
      expect(s['errored']).toEqual([]);
      expect(s['failed']).toEqual([]);
      expect(s['passed']).toContain('articles/post-create');
      const post = run.scenarios.find((x) => x.id === 'articles/post-create')!;
      expect(
        post.transcript.find((x) => x.request.method === 'POST' && x.request.url.endsWith('/articles'))?.request
          .headers['authorization'],
      ).toMatch(/^OAuth|\*/);
    },
  );
});

describe('basic-only with a server that remembers the connection (connection-remembers)', () => {
  it('auth/stateless-connection sends its request without credentials on the TLS connection that authenticated, and fails', async ({
    startReference,
  }) => {
    const server = await startReference({ variants: ['basic-only'], faults: ['connection-remembers'] });
    const profile = loadVariantProfile(REFERENCE_PROFILE, ['basic-only']);
    const run = await runAgainst(server, { profile, seed: 3, filter: ['auth/stateless-connection'] });
    const r = run.scenarios.find((x) => x.id === 'auth/stateless-connection')!;
    expect(r.status, r.reason).toBe('failed');
    expect(r.transcript.every((x) => x.request.url.startsWith('https:'))).toBe(true);
  });
});
