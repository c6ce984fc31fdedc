/**
 * The test of `npm run mutation` (docs/mutation.md): the whole bundled suite, in-process, against the in-process
 * reference server. A mutant of the server is killed when any scenario fails or errors. Not matched by the
 * `npm test` glob (`*.test.ts`), and needs no `dist/`.
 */
import { expect, it } from 'vitest';
import { createAuthenticator } from '../harness/src/auth/authenticator.js';
import { createHttpClient } from '../harness/src/http/client.js';
import { loadProfileSync } from '../harness/src/profile/load.js';
import type { ResolvedProfile } from '../harness/src/profile/schema.js';
import { runSuite } from '../harness/src/engine/run-suite.js';
import type { RunEvent } from '../harness/src/runner/types.js';
import type { Scenario } from '../harness/src/suite/types.js';
import { startServer, type RunningServer } from '../reference-server/src/index.js';
import { bundledSuite, REFERENCE_PROFILE } from '../test/helpers.js';

/** A short token lifetime on both sides, so auth/oauth2-expired-rejected waits 2.5 s, not 6.5 s. */
const TOKEN_TTL = 1;
/**
 * Few property runs with a fixed seed: the same requests in every mutant's run. `MUTATION_RUNS=50` (the default of
 * `conform run`) re-tests survivors whose defect a generator draws only sometimes (docs/mutation.md).
 */
const RUNS = Number(process.env['MUTATION_RUNS'] ?? 5);
const SEED = 20260512;
/** Per request; a mutant that hangs the server errors the run well before Stryker's own timeout. */
const REQUEST_TIMEOUT_MS = 3000;
/** Scenarios that wait on a clock: run beside the rest, so the wait overlaps the rest of the suite. */
const SLOW = new Set(['auth/oauth2-expired-rejected']);

class ScenarioFailed extends Error {}

async function profileFor(server: RunningServer): Promise<ResolvedProfile> {
  const loaded = loadProfileSync(REFERENCE_PROFILE);
  const oauth2 = loaded.auth.oauth2 ? { oauth2: { ...loaded.auth.oauth2, ttl: TOKEN_TTL } } : {};
  return {
    ...loaded,
    auth: { ...loaded.auth, ...oauth2 },
    target: { ...loaded.target, http: server.url, ...(server.httpsUrl ? { https: server.httpsUrl } : {}) },
  };
}

/** The first failure decides: stop there rather than run the rest of the suite. */
function stopAtFailure(event: RunEvent): void {
  if (event.type !== 'scenario-end') return;
  const r = event.result;
  if (r.status === 'failed' || r.status === 'errored')
    throw new ScenarioFailed(`${r.id}: ${r.status} ${r.reason ?? ''}`);
}

it('passes every scenario of the bundled suite', async () => {
  const suite = await bundledSuite();
  // Started inside the test, not in a hook, so the coverage of the server's code is counted per test.
  const server = await startServer({ port: 0, httpsPort: 0, tokenTtl: TOKEN_TTL });
  const client = createHttpClient({
    timeoutMs: REQUEST_TIMEOUT_MS,
    ...(server.certificate ? { ca: server.certificate } : {}),
  });
  try {
    const profile = await profileFor(server);
    const bases = { primary: server.url, plain: server.url, ...(server.httpsUrl ? { tls: server.httpsUrl } : {}) };
    const deps = { client, profile, authenticator: createAuthenticator({ profile }), onEvent: stopAtFailure };
    const part = (scenarios: Scenario[]) =>
      runSuite(
        { ...suite, scenarios },
        {
          bases,
          seed: SEED,
          runs: RUNS,
          filter: [],
          strict: false,
          timeoutMs: REQUEST_TIMEOUT_MS,
          version: 'mutation',
        },
        deps,
      );
    const runs = await Promise.all([
      part(suite.scenarios.filter((s) => !SLOW.has(s.id))),
      part(suite.scenarios.filter((s) => SLOW.has(s.id))),
    ]);
    const passed = runs.reduce((n, r) => n + r.summary.passed, 0);
    expect(passed).toBeGreaterThan(0);
  } finally {
    await client.close();
    await server.close();
  }
});
