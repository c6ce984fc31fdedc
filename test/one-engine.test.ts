/**
 * Issue 25: one engine behind `conform run`, `conform/vitest` and `conform diff` (runner/session.ts). Before it, each
 * built its own context and only `conform run` applied the out-of-band rule: under vitest or diff a scenario that
 * needs the harness's listener passed, against a target that cannot reach it, for free. The target here is the
 * reference server addressed as [::ffff:127.0.0.1] — a host the out-of-band rule does not take for loopback — so all
 * three must skip `articles/no-external-entities` with the same reason.
 */
import { describe, expect } from 'vitest';
import { createAuthenticator } from '../harness/src/auth/authenticator.js';
import { runDiff } from '../harness/src/diff/run-diff.js';
import { createHttpClient } from '../harness/src/http/client.js';
import { loadProfileSync } from '../harness/src/profile/load.js';
import { defineConformSuite } from '../harness/src/vitest/index.js';
import { it } from './fixtures.js';
import { REFERENCE_PROFILE, bundledSuite, runAgainst, startReferenceServer, withReferenceServer } from './helpers.js';

const OOB = 'articles/no-external-entities';
const remote = (url: string) => url.replace('//127.0.0.1:', '//[::ffff:127.0.0.1]:');
const WANTED = /^the target \(::ffff:7f00:1\) is not on loopback and cannot reach the harness's out-of-band listener/;

const vitestSuite = defineConformSuite({
  name: 'one engine: conform/vitest',
  target: async () => {
    const s = await startReferenceServer();
    return { ...s, url: remote(s.url) }; // the TLS base keeps the name its certificate holds
  },
  filter: [OOB, 'articles/post-create'],
  runs: 2,
  seed: 3,
});

describe('the out-of-band rule holds in all three entry points', () => {
  it('conform run skips it', async () => {
    await withReferenceServer({}, async (server) => {
      const run = await runAgainst(
        { url: remote(server.url), httpsUrl: server.httpsUrl!, certificate: server.certificate! },
        { filter: [OOB], runs: 2 },
      );
      const r = run.scenarios.find((s) => s.id === OOB)!;
      expect([r.status, r.reason]).toEqual(['skipped', expect.stringMatching(WANTED)]);
    });
  });

  it('conform diff skips it (the target side names the reason)', async () => {
    await withReferenceServer({}, async (server) => {
      const loaded = loadProfileSync(REFERENCE_PROFILE);
      const side = (url: string, httpsUrl: string) => {
        const profile = { ...loaded, target: { ...loaded.target, http: url, https: httpsUrl } };
        const client = createHttpClient({ timeoutMs: 5000, ca: server.certificate! });
        return {
          client,
          deps: {
            profile,
            bases: { primary: url, plain: url, tls: httpsUrl },
            client,
            authenticator: createAuthenticator({ profile }),
          },
        };
      };
      const reference = side(server.url, server.httpsUrl!);
      const target = side(remote(server.url), server.httpsUrl!);
      try {
        const result = await runDiff(await bundledSuite(), reference.deps, target.deps, {
          seed: 3,
          runs: 2,
          filter: [OOB],
          version: 'test',
          embeddedReference: true,
        });
        const r = result.scenarios.find((s) => s.id === OOB)!;
        expect(r.status).toBe('skipped');
        expect(r.reason).toMatch(/^target profile: the target \(::ffff:7f00:1\) is not on loopback/);
      } finally {
        await Promise.all([reference.client.close(), target.client.close()]);
      }
    });
  });

  // Runs after the conform/vitest tests above (a file runs its blocks in order).
  it('conform/vitest skips it, with the same reason', () => {
    const r = vitestSuite.results.get(OOB);
    expect([r?.status, r?.reason]).toEqual(['skipped', expect.stringMatching(WANTED)]);
    expect(vitestSuite.results.get('articles/post-create')?.status).toBe('passed');
  });
});
