/**
 * Every fault mode of the reference server is caught by the scenario aimed at it, and every scenario is aimed at by
 * at least one fault (a check that cannot fail is worthless). The clean server passes everything.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAULT_NAMES, startServer, type FaultName, type RunningServer } from '../reference-server/src/index.js';
import { bundledSuite, byStatus, runAgainst } from './helpers.js';

/** Fault → the scenarios that must fail under it (others may fail too). */
export const FAULT_MATRIX: Record<FaultName, string[]> = {
  'post-200': ['articles/post-create'],
  'post-no-location': ['articles/post-create', 'articles/post-location-serves'],
  'post-location-nowhere': ['articles/post-location-serves'],
  'post-location-shape': ['articles/post-create'],
  'post-same-id': ['articles/post-twice', 'articles/post-twice-both-served'],
  'put-create-200': ['articles/put-create'],
  'put-create-no-location': ['articles/put-create'],
  'put-merge': ['articles/put-replace'],
  'put-not-idempotent': ['articles/put-idempotent'],
  'put-generated-405': ['articles/post-location-accepts-put'],
  'title-unescaped': ['articles/put-create-roundtrip'],
  'price-float': ['articles/put-create-roundtrip'],
  'currency-uppercase': ['articles/put-create-roundtrip'],
  'options-extra-method': ['options/allow-handled', 'options/collection-allow-handled'],
  'options-no-allow': ['options/item-allow', 'options/collection-allow'],
  'options-204': ['options/item-allow', 'options/collection-allow'],
  'method-405-no-allow': ['methods/405-carries-allow'],
  'unlisted-method-200': ['methods/unlisted-rejected'],
  'expand-entities': ['articles/no-entity-expansion'],
  'alias-separate': ['articles/put-alias'],
  'delete-noop': ['articles/delete-removes'],
};

const SEEDS = [1, 20261122];

describe('clean reference server', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ port: 0 });
  });
  afterAll(() => server.close());

  it('passes every scenario of the bundled suite', async () => {
    const run = await runAgainst(server.url, { seed: 424242 });
    const s = byStatus(run);
    expect(s['failed'], JSON.stringify(run.scenarios.filter((x) => x.status !== 'passed').map((x) => [x.id, x.reason]))).toEqual([]);
    expect(s['errored']).toEqual([]);
    expect(s['skipped']).toEqual([]);
    expect(run.summary.passed).toBeGreaterThan(0);
  });
});

describe('fault matrix', () => {
  it('names every fault the server has, and every scenario of the suite', async () => {
    expect(Object.keys(FAULT_MATRIX).sort()).toEqual([...FAULT_NAMES].sort());
    const suite = await bundledSuite();
    const aimed = new Set(Object.values(FAULT_MATRIX).flat());
    const unaimed = suite.scenarios.map((s) => s.id).filter((id) => !aimed.has(id));
    expect(unaimed, 'scenarios no fault mode shows failing').toEqual([]);
    for (const id of aimed) expect(suite.scenarios.some((s) => s.id === id), `matrix names unknown scenario ${id}`).toBe(true);
  });

  for (const fault of FAULT_NAMES) {
    it.each(SEEDS)(`${fault} is caught (seed %i)`, async (seed) => {
      const server = await startServer({ port: 0, faults: [fault] });
      try {
        const targets = FAULT_MATRIX[fault];
        const run = await runAgainst(server.url, { filter: targets, seed });
        for (const id of targets) {
          const r = run.scenarios.find((x) => x.id === id);
          expect(r?.status, `${id} under ${fault}: ${r?.reason ?? ''}`).toBe('failed');
        }
      } finally {
        await server.close();
      }
    });
  }
});
