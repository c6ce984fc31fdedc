/**
 * An absolute Location on another origin — the public URL of a proxy in front of the target (issue 11, class 6):
 * accepted by default (read through the base URL by its path), accepted with `target.origins` naming that origin,
 * refused when `target.origins` lists other origins only; wrong paths and shapes are still caught.
 */
import { describe, expect, it } from 'vitest';
import { loadProfileSync } from '../harness/src/profile/load.js';
import { type FaultName, type RunningServer } from '../reference-server/src/index.js';
import { REFERENCE_PROFILE, runAgainst, useReferenceServer, withReferenceServer } from './helpers.js';

const POST_SCENARIOS = [
  'articles/post-create',
  'articles/post-location-serves',
  'articles/post-twice-both-served',
  'articles/post-location-accepts-put',
  'articles/put-create',
  'articles/put-create-roundtrip',
];

const withServer = <T>(faults: FaultName[], f: (s: RunningServer) => Promise<T>): Promise<T> =>
  withReferenceServer({ variants: ['location-other-origin'], faults }, f);

describe('Location on https://public.example (location-other-origin)', () => {
  const server = useReferenceServer({ variants: ['location-other-origin'] });

  const statuses = async (origins?: string[]) => {
    const loaded = loadProfileSync(REFERENCE_PROFILE);
    const profile = { ...loaded, target: { ...loaded.target, ...(origins ? { origins } : {}) } };
    const run = await runAgainst(server(), { profile, filter: POST_SCENARIOS, seed: 9, runs: 3 });
    return Object.fromEntries(run.scenarios.map((s) => [s.id, `${s.status}${s.reason ? `: ${s.reason}` : ''}`]));
  };

  it('passes with the default profile (no target.origins): the path is read through the base URL', async () => {
    const got = await statuses();
    for (const id of POST_SCENARIOS) expect(got[id], id).toBe('passed');
  });

  it('passes with target.origins naming the public origin', async () => {
    const got = await statuses(['https://public.example']);
    for (const id of POST_SCENARIOS) expect(got[id], id).toBe('passed');
  });

  it('fails when target.origins lists other origins only', async () => {
    const got = await statuses(['https://elsewhere.example']);
    expect(got['articles/post-create']).toMatch(/^failed: .*points outside the target/);
  });
});

describe.each<[FaultName, string]>([
  ['post-location-nowhere', 'articles/post-location-serves'],
  ['post-location-shape', 'articles/post-create'],
])('with the Location on the public origin, %s is still caught', (fault, id) => {
  it(id, async () => {
    await withServer([fault], async (server) => {
      const run = await runAgainst(server, { filter: [id], seed: 9, runs: 5 });
      expect(run.scenarios.find((s) => s.id === id)?.status).toBe('failed');
    });
  });
});
