/**
 * The harness checks the spec, not the reference server's habits: a second, independent server that fills every
 * open point differently (204 on replace, no /article alias, absolute Locations, text/plain errors, 422 for bad
 * XML, 501 for PATCH, reordered and re-encoded XML, normalized prices; for authentication: only signed requests,
 * in an X-Authentication header, no body hash, a 300 s window, one global nonce store, 404 for another user's
 * records, JSON records, text/plain challenges) passes with its own profile.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { main } from '../cli/src/main.js';
import { startAltServer } from './alt-server/server.js';
import { it } from './fixtures.js';
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
    expect(
      s['failed'],
      JSON.stringify(run.scenarios.filter((x) => x.status === 'failed').map((x) => [x.id, x.reason])),
    ).toEqual([]);
    expect(s['errored']).toEqual([]);
    // No alias, no Basic, no body hash, nonces scoped globally, no OAuth, one instance: those scenarios are skipped,
    // each with its reason, and the run still passes.
    const notOffered = (id: string) =>
      id === 'articles/put-alias' ||
      id.startsWith('auth/basic-') ||
      id.startsWith('auth/body-') ||
      id === 'auth/nonce-per-user' ||
      id.startsWith('auth/oauth') ||
      id === 'auth/records-owner-oauth1' ||
      id === 'auth/nonce-remembered-in-window' ||
      id.startsWith('cluster/');
    expect(s['skipped']).toEqual(run.scenarios.filter((x) => notOffered(x.id)).map((x) => x.id));
    expect(s['passed']?.filter((id) => id.startsWith('auth/')).length).toBeGreaterThan(15);
    expect(run.scenarios.find((x) => x.id === 'articles/put-alias')?.reason).toMatch(/profile lacks articles\.aliases/);
    for (const x of run.scenarios.filter((y) => y.status === 'skipped')) expect(x.reason).toMatch(/^profile lacks /);
  });

  it('conform run --target URL --profile FILE passes it from the command line', async ({ tempDir: reportDir }) => {
    let out = '';
    const code = await main(
      [
        'run',
        '--target',
        server.url,
        '--profile',
        path.join(ROOT, 'test', 'alt-server', 'profile.yaml'),
        '--runs',
        '10',
        '--report-dir',
        reportDir,
      ],
      {
        stdout: { write: (t: string) => (out += t) },
        stderr: { write: (t: string) => (out += t) },
        env: {},
        cwd: ROOT,
      },
    );
    expect(code, out).toBe(0);
    expect(out).toMatch(/Scenarios: \d+ passed, 0 failed, 0 errored, \d+ skipped/);
  });
});
