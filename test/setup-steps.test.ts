/**
 * A broken precondition is charged to the scenario that checks it (issue 11, class 2; VERDICTS.md §2): a setup step
 * that fails leaves its scenario errored with "precondition failed: …; that behaviour is checked by …", never
 * failed, and its rules are not failed by it. Where the profile offers PUT at a client-chosen URL, creating the
 * article an OPTIONS, DELETE or auth check looks at does not depend on POST at all.
 */
import { describe, expect, it } from 'vitest';
import { loadProfileSync } from '../harness/src/profile/load.js';
import { type FaultName } from '../reference-server/src/index.js';
import { bundledSuite, REFERENCE_PROFILE, runAgainst, useReferenceServer } from './helpers.js';

/** Scenarios that only create their article (or only prepare) with POST. */
const CREATE_ONLY = [
  'options/item-allow',
  'options/allow-handled',
  'methods/405-carries-allow',
  'methods/unlisted-rejected',
  'articles/delete-removes',
  'auth/options-allow-depends-on-auth',
];

describe.each<FaultName>(['post-200', 'post-no-location'])('under %s', (fault) => {
  const server = useReferenceServer({ faults: [fault] });

  it('with PUT available, the scenarios that only create an article pass; articles/post-create still fails', async () => {
    const run = await runAgainst(server(), { filter: [...CREATE_ONLY, 'articles/post-create'], seed: 5, runs: 3 });
    for (const id of CREATE_ONLY) expect(run.scenarios.find((s) => s.id === id)?.status, id).toBe('passed');
    expect(run.scenarios.find((s) => s.id === 'articles/post-create')?.status).toBe('failed');
  });

  it('without PUT, they are errored with the precondition and name articles/post-create; their rules are not failed', async () => {
    const loaded = loadProfileSync(REFERENCE_PROFILE);
    const profile = { ...loaded, articles: { ...loaded.articles, clientChosenPut: false } };
    const run = await runAgainst(server(), {
      profile,
      filter: [...CREATE_ONLY, 'articles/post-create', 'articles/post-location-accepts-put'],
      seed: 5,
      runs: 3,
    });
    for (const id of [...CREATE_ONLY, 'articles/post-location-accepts-put']) {
      const r = run.scenarios.find((s) => s.id === id)!;
      expect(r.status, id).toBe('errored');
      expect(r.reason).toMatch(
        /^precondition failed: creating the article with POST \(POST \/articles\): (expected status 201, got 200|Location header is missing); that behaviour is checked by articles\/post-create$/,
      );
      expect(r.precondition?.checkedBy).toEqual(['articles/post-create']);
    }
    expect(run.scenarios.find((s) => s.id === 'articles/post-create')?.status).toBe('failed');
    const optionsRule = run.rules.find((r) => r.id === '4.3-options-200-allow')!;
    expect(optionsRule.status).not.toBe('failed');
  });
});

it('every setup step names scenarios that exist', async () => {
  const suite = await bundledSuite();
  const ids = new Set(suite.scenarios.map((s) => s.id));
  const named = suite.scenarios.flatMap((s) =>
    (s.kind === 'steps' ? s.steps : []).flatMap((st) =>
      typeof st.setup === 'object' ? [st.setup.checkedBy ?? []].flat() : [],
    ),
  );
  expect(named.length).toBeGreaterThan(10);
  expect(named.filter((id) => !ids.has(id))).toEqual([]);
});
