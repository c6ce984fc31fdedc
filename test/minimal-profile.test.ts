/**
 * Issue 23: a silent profile never fails a correct service. Every variant of the reference server, and the default
 * server, judged with a minimal profile — where the service is, its users and their secrets, its OAuth endpoints and
 * clients, nothing about the open points — passes: no scenario failed or errored, at any level.
 */
import { describe, expect, it } from 'vitest';
import { VARIANT_NAMES, combinableVariants, type VariantName } from '../reference-server/src/index.js';
import { runAgainst, withReferenceServer } from './helpers.js';
import { minimalProfile } from './minimal-profile.js';

async function misjudged(variants: VariantName[]) {
  return withReferenceServer({ variants }, async (server) => {
    const run = await runAgainst(server, { profile: minimalProfile(variants), seed: 7, runs: 10 });
    expect(run.credentialsRefused).toBeUndefined();
    expect(run.summary.passed).toBeGreaterThan(0);
    return run.scenarios
      .filter((s) => s.status === 'failed' || s.status === 'errored')
      .map((s) => ({ id: s.id, status: s.status, reason: s.reason }));
  });
}

describe('minimal profile: every variant passes with nothing declared about the open points', () => {
  it.concurrent('the default reference server', async () => {
    expect(await misjudged([])).toEqual([]);
  });
  // Each a whole-suite run; bounded, with room for a loaded machine (no timing is asserted).
  it.concurrent.each(VARIANT_NAMES)(
    '%s',
    async (variant) => {
      expect(await misjudged([variant])).toEqual([]);
    },
    180_000,
  );
  it.concurrent(
    'all combinable variants at once',
    async () => {
      expect(await misjudged(combinableVariants())).toEqual([]);
    },
    180_000,
  );
});
