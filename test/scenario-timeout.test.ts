/**
 * A scenario's time limit counts its own work (issue 38): a run whose other scenarios take far longer than the limit
 * — a slow target, `--concurrency 1`, many runs — never errors a scenario parked until the run's end, nor one whose
 * steps declare a wait longer than the limit (a 120 s token lifetime). An injected clock stands for the time: every
 * request to `/?slow` moves it 100 s, and a `wait` step moves it by its length, at once; nothing sleeps.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { createAuthenticator } from '../harness/src/auth/authenticator.js';
import { runSuite } from '../harness/src/engine/run-suite.js';
import { createHttpClient, type HttpClient } from '../harness/src/http/client.js';
import { loadProfileSync } from '../harness/src/profile/load.js';
import { loadRulesSync, loadSuiteSync } from '../harness/src/suite/load.js';
import type { Suite } from '../harness/src/suite/types.js';
import { it } from './fixtures.js';
import { bundledSuite, REFERENCE_PROFILE, ROOT } from './helpers.js';

const SCENARIOS = [
  'version: 1',
  'scenarios:',
  '  - id: x/parked',
  '    title: Asks at the start and again once every other scenario has finished',
  '    rules: [4.3-options-200-allow]',
  '    steps:',
  '      - request: { method: OPTIONS, path: / }',
  '        expect: { status: 200 }',
  '      - atRunEnd: true',
  '        request: { method: OPTIONS, path: / }',
  '        expect: { status: 200 }',
  '  - id: x/declared-wait',
  '    title: Waits 200 s in every run, longer than its limit',
  '    rules: [4.3-allow-format]',
  '    given: { n: count }',
  '    runs: 3',
  '    steps:',
  '      - request: { method: OPTIONS, path: / }',
  '        expect: { status: 200 }',
  '      - wait: "200"',
  '        request: { method: OPTIONS, path: / }',
  '        expect: { status: 200 }',
  '  - id: x/slow-neighbour',
  '    title: Each run takes 100 s of its own, alone (so the clock it moves is its time only)',
  '    rules: [4.3-allow-format]',
  '    exclusive: true',
  '    given: { n: count }',
  '    runs: 4',
  '    steps:',
  '      - request: { method: OPTIONS, path: "/?slow" }',
  '        expect: { status: 200 }',
].join('\n');

/** `client` with every request to `/?slow` (of any session) moving `clock` by 100 s. */
function slowing(client: HttpClient, clock: { t: number }): HttpClient {
  return {
    send: (request, options) => {
      if (request.url.endsWith('/?slow')) clock.t += 100_000;
      return client.send(request, options);
    },
    session: () => slowing(client.session(), clock),
    close: () => client.close(),
  };
}

describe('the scenario time limit counts the scenario’s own work', () => {
  for (const concurrency of [1, 8]) {
    it(`at --concurrency ${concurrency}, parked and declared waits longer than the limit do not count`, async ({
      tempDir,
      startReference,
    }) => {
      writeFileSync(path.join(tempDir, 'timing.yaml'), SCENARIOS + '\n');
      const own = loadSuiteSync([tempDir], loadRulesSync(path.join(ROOT, 'specs', 'rules.yaml')));
      const nonce = bundledSuite().scenarios.find((s) => s.id === 'auth/nonce-remembered-for-the-run')!;
      const suite: Suite = { ...own, scenarios: [...own.scenarios, nonce] };
      const server = await startReference();
      const loaded = loadProfileSync(REFERENCE_PROFILE);
      const profile = { ...loaded, target: { ...loaded.target, http: server.url } };
      delete profile.target.https;
      const clock = { t: 0 };
      const client = createHttpClient({ timeoutMs: 5000 });
      try {
        const run = await runSuite(
          suite,
          {
            bases: { primary: server.url, plain: server.url },
            seed: 3,
            runs: 5,
            filter: [],
            strict: false,
            timeoutMs: 5000,
            scenarioTimeoutMs: 120_000,
            concurrency,
            version: 'test',
          },
          {
            client: slowing(client, clock),
            profile,
            authenticator: createAuthenticator({ profile }),
            clock: () => clock.t,
            sleep: async (ms) => {
              clock.t += ms;
            },
          },
        );
        const byId = new Map(run.scenarios.map((s) => [s.id, s]));
        // The other scenarios took 800 s of the clock while these two waited for the run's end.
        expect(clock.t).toBe(2 * 100_000 + 3 * 200_000);
        for (const id of ['x/parked', 'auth/nonce-remembered-for-the-run']) {
          const s = byId.get(id)!;
          expect(s.status, `${id}: ${s.reason}`).toBe('passed');
          expect(s.requests, id).toBeGreaterThanOrEqual(2);
          expect(s.notes, id).toBeUndefined();
        }
        // 600 s of declared waits, and every run done.
        const waited = byId.get('x/declared-wait')!;
        expect(waited.status, waited.reason).toBe('passed');
        expect(waited.runs).toBe(3);
        expect(waited.notes).toBeUndefined();
        // The limit still bounds a scenario's own work: 100 s a run, so no third run starts after 200 s.
        const slow = byId.get('x/slow-neighbour')!;
        expect(slow.status, slow.reason).toBe('passed');
        expect(slow.runs).toBe(2);
        expect(slow.notes).toEqual([
          'stopped after 2 of 4 property runs: its time limit (120 s of its own work, --scenario-timeout) was reached',
        ]);
        expect(run.summary.errored).toBe(0);
        expect(run.options.scenarioTimeoutMs).toBe(120_000);
      } finally {
        await client.close();
      }
    });
  }
});
