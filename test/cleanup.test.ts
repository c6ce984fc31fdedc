/**
 * Issue 23, class 7: a run leaves the target as it found it. Every article the scenarios create is deleted when the
 * run ends (the target deletes); `keep` leaves them; a target that offers no DELETE keeps them, and the report
 * lists what was left.
 */
import { describe, expect, it } from 'vitest';
import { loadVariantProfile } from '../cli/src/variant-profile.js';
import { REFERENCE_PROFILE, runAgainst, withReferenceServer } from './helpers.js';
import { minimalProfile } from './minimal-profile.js';

describe('cleanup', () => {
  it('a default run against the reference server leaves no article behind', async () => {
    await withReferenceServer({}, async (server) => {
      const run = await runAgainst(server, { seed: 3, runs: 10 });
      expect(run.summary.failed + run.summary.errored).toBe(0);
      expect(run.cleanup?.created).toBeGreaterThan(100);
      expect(run.cleanup?.deleted).toBe(run.cleanup?.created);
      expect(run.leftovers).toBeUndefined();
      expect(server.articleCount()).toBe(0);
    });
  });

  it('keep leaves every article the run created, and says so', async () => {
    await withReferenceServer({}, async (server) => {
      const run = await runAgainst(server, {
        seed: 3,
        runs: 5,
        filter: ['articles/post-create', 'articles/put-create'],
        keep: true,
      });
      expect(run.cleanup?.kept).toBe(true);
      expect(server.articleCount()).toBeGreaterThan(0);
      expect(run.leftovers?.length).toBe(server.articleCount());
    });
  });

  it('a target that offers no DELETE keeps them: the report lists them', async () => {
    await withReferenceServer({ variants: ['not-deletable'] }, async (server) => {
      const profile = loadVariantProfile(REFERENCE_PROFILE, ['not-deletable']);
      const run = await runAgainst(server, { profile, seed: 3, runs: 5, filter: ['articles/post-create'] });
      expect(run.leftovers?.length).toBe(server.articleCount());
      expect(run.cleanup).toMatchObject({ deleted: 0 });
    });
  });

  it('with a minimal profile, the learning deletes its own probes too', async () => {
    await withReferenceServer({}, async (server) => {
      const run = await runAgainst(server, {
        profile: minimalProfile(),
        seed: 3,
        runs: 5,
        filter: ['articles/post-create'],
      });
      expect(run.learned?.map((l) => l.key)).toContain('articles.deletable');
      expect(server.articleCount()).toBe(0);
    });
  });
});
