/** runAgainst with the extras the hostile-target tests need: an event hook, a response cap, and the wall time. */
import { createAuthenticator } from '../../harness/src/auth/authenticator.js';
import { createHttpClient } from '../../harness/src/http/client.js';
import { loadProfileSync } from '../../harness/src/profile/load.js';
import type { ResolvedProfile } from '../../harness/src/profile/schema.js';
import { runSuite } from '../../harness/src/engine/run-suite.js';
import type { RunEvent, RunResult } from '../../harness/src/runner/types.js';
import { bundledSuite, REFERENCE_PROFILE } from '../helpers.js';

export interface HostileRunOptions {
  filter: string[];
  runs?: number;
  timeoutMs: number;
  /** Plain base, and a TLS base when given. */
  httpsUrl?: string;
  maxResponseBytes?: number;
  onEvent?: (event: RunEvent) => void;
  /** Scenarios in flight (default: the run default). */
  concurrency?: number;
}

export async function runTimed(url: string, options: HostileRunOptions): Promise<{ run: RunResult; wallMs: number }> {
  const loaded = loadProfileSync(REFERENCE_PROFILE);
  const profile: ResolvedProfile = {
    ...loaded,
    target: { ...loaded.target, http: url, ...(options.httpsUrl ? { https: options.httpsUrl } : {}) },
  };
  if (!options.httpsUrl) delete profile.target.https;
  const client = createHttpClient({
    timeoutMs: options.timeoutMs,
    ...(options.maxResponseBytes ? { maxResponseBytes: options.maxResponseBytes } : {}),
  });
  const bases = { primary: url, plain: url, ...(options.httpsUrl ? { tls: options.httpsUrl } : {}) };
  const suite = await bundledSuite();
  const started = performance.now();
  try {
    const run = await runSuite(
      suite,
      {
        bases,
        seed: 1,
        runs: options.runs ?? 2,
        filter: options.filter,
        strict: false,
        timeoutMs: options.timeoutMs,
        version: 'test',
        ...(options.concurrency ? { concurrency: options.concurrency } : {}),
      },
      {
        client,
        profile,
        authenticator: createAuthenticator({ profile }),
        ...(options.onEvent ? { onEvent: options.onEvent } : {}),
      },
    );
    return { run, wallMs: performance.now() - started };
  } finally {
    await client.close();
  }
}
