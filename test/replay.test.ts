/** A failure's recorded seed and path reproduce exactly its shrunk counterexample, in one run. */
import { describe, expect, it } from 'vitest';
import { runAgainst, useReferenceServer } from './helpers.js';

describe('replaying a counterexample', () => {
  const reference = useReferenceServer({ faults: ['put-merge'] });

  it('--seed with --replay PATH gives the same minimal counterexample straight away', async () => {
    const first = await runAgainst(reference().url, { filter: ['articles/put-replace'], seed: 99 });
    const failed = first.scenarios.find((s) => s.id === 'articles/put-replace');
    expect(failed?.status).toBe('failed');
    const ce = failed?.counterexample;
    expect(ce?.path).toMatch(/^\d+(:\d+)*$/);

    const replay = await runAgainst(reference().url, {
      filter: ['articles/put-replace'],
      seed: 99,
      replayPath: ce!.path,
    });
    const again = replay.scenarios.find((s) => s.id === 'articles/put-replace');
    expect(again?.status).toBe('failed');
    expect(again?.counterexample?.values).toEqual(ce?.values);
    expect(again?.runs).toBe(1);
    // Straight away: the first run searched and shrank (more executions, more requests); the replay ran once.
    expect(again?.requests).toBeLessThan(failed!.requests);
    expect(again?.failure?.messages.map((m) => m.replace(/\/articles\/\S+:/, '/articles/ID:'))).toEqual(
      failed?.failure?.messages.map((m) => m.replace(/\/articles\/\S+:/, '/articles/ID:')),
    );
  });

  it('the same seed without a path reproduces the same run', async () => {
    const a = await runAgainst(reference().url, { filter: ['articles/put-replace'], seed: 5 });
    const b = await runAgainst(reference().url, { filter: ['articles/put-replace'], seed: 5 });
    expect(b.scenarios[0]?.counterexample).toEqual(a.scenarios[0]?.counterexample);
  });
});
