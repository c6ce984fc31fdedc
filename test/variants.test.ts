/**
 * The variant matrix (VERDICTS.md §5): every variant of the reference server makes a choice the spec leaves open
 * differently, and the whole suite passes against it, given the variant's profile, and against all of them combined:
 * no scenario failed or errored at any level. A correct implementation the suite fails is a false failure.
 */
import { describe, expect, it } from 'vitest';
import { loadVariantProfile } from '../cli/src/variant-profile.js';
import { VARIANT_NAMES, combinableVariants, type VariantName } from '../reference-server/src/index.js';
import { REFERENCE_PROFILE, runAgainst, useReferenceServer, withReferenceServer } from './helpers.js';

const SEED = 7;
const RUNS = 10;

/** Runs the whole suite against the reference server with `variants` on; returns the scenarios that did not pass or skip. */
async function misjudged(variants: VariantName[]): Promise<{ id: string; status: string; reason?: string }[]> {
  return withReferenceServer({ variants }, async (server) => {
    const profile = loadVariantProfile(REFERENCE_PROFILE, variants);
    const run = await runAgainst(server, { profile, seed: SEED, runs: RUNS });
    expect(run.credentialsRefused).toBeUndefined();
    expect(run.summary.passed).toBeGreaterThan(0);
    return run.scenarios
      .filter((s) => s.status === 'failed' || s.status === 'errored')
      .map((s) => ({ id: s.id, status: s.status, ...(s.reason ? { reason: s.reason } : {}) }));
  });
}

describe('variant matrix: every open point chosen differently still passes', () => {
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

describe('the clean server against a variant profile is not the variant', () => {
  const server = useReferenceServer();

  // A variant whose profile the default server also satisfies could be a stub: at least one variant must change
  // behaviour the suite can see. (Each variant's own effect is tested beside its implementation.)
  it('replace-204: the default server answers 200 where the variant profile pins 204', async () => {
    const profile = loadVariantProfile(REFERENCE_PROFILE, ['replace-204']);
    const run = await runAgainst(server(), { profile, seed: SEED, runs: RUNS, filter: ['articles/put-replace'] });
    expect(run.scenarios.find((s) => s.id === 'articles/put-replace')?.status).toBe('failed');
  });
});

describe('a variant judged without its profile keys is misjudged (the keys are what make it pass)', () => {
  // Before articles.bounds, the harness drew prices with up to four fraction digits and titles of up to 40
  // graphemes (often beyond 64 code points) for every target: a correct server storing cents, or bounding titles,
  // failed the round-trip scenarios. Judged with a profile declaring wider bounds than it has, it still does.
  it.each(['price-two-decimals', 'title-bounded'] as const)(
    '%s judged with the reference profile (four fraction digits, 200-code-point titles) fails the round trip',
    async (variant) => {
      await withReferenceServer({ variants: [variant] }, async (server) => {
        const run = await runAgainst(server, {
          profile: loadVariantProfile(REFERENCE_PROFILE, []),
          seed: SEED,
          runs: 30,
          filter: ['articles/put-create-roundtrip'],
        });
        expect(run.scenarios.find((s) => s.id === 'articles/put-create-roundtrip')?.status).toBe('failed');
      });
    },
  );
});
