/**
 * The harness checks the spec, not the reference server's habits: a second, independent server that fills every
 * open point differently (204 on replace, no /article alias, absolute Locations, text/plain errors, 422 for bad
 * XML, 501 for PATCH, reordered and re-encoded XML, normalized prices) passes with its own profile.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAltServer } from './alt-server/server.js';
import { ROOT, byStatus, runAgainst } from './helpers.js';

describe('a server that makes different choices', () => {
  let server: { url: string; close(): Promise<void> };
  beforeAll(async () => {
    server = await startAltServer();
  });
  afterAll(() => server.close());

  it.each([5, 77])('passes every scenario its profile allows (seed %i)', async (seed) => {
    const run = await runAgainst(server.url, { profile: path.join(ROOT, 'test', 'alt-server', 'profile.yaml'), seed });
    const s = byStatus(run);
    expect(s['failed'], JSON.stringify(run.scenarios.filter((x) => x.status === 'failed').map((x) => [x.id, x.reason]))).toEqual([]);
    expect(s['errored']).toEqual([]);
    expect(s['skipped']).toEqual(['articles/put-alias']);
    expect(run.scenarios.find((x) => x.id === 'articles/put-alias')?.reason).toMatch(/profile lacks articles\.aliases/);
  });
});
