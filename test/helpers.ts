/** Test helpers: run the harness in-process against a URL, with the bundled suite and a profile. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAuthenticator } from '../harness/src/auth/authenticator.js';
import { createHttpClient } from '../harness/src/http/client.js';
import { loadProfileSync } from '../harness/src/profile/load.js';
import type { ResolvedProfile } from '../harness/src/profile/schema.js';
import { runSuite } from '../harness/src/engine/run-suite.js';
import { RUN_OPTION_SPEC } from '../harness/src/runner/options.js';
import type { RunResult } from '../harness/src/runner/types.js';
import { loadRulesSync, loadSuiteSync } from '../harness/src/suite/load.js';
import type { Suite } from '../harness/src/suite/types.js';
import { startServer, type RunningServer, type ServerOptions } from '../reference-server/src/index.js';
import { afterAll, beforeAll } from 'vitest';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const REFERENCE_PROFILE = path.join(ROOT, 'reference-server', 'profile.yaml');

let suiteCache: Suite | undefined;
export function bundledSuite(): Suite {
  suiteCache ??= loadSuiteSync([path.join(ROOT, 'specs')], loadRulesSync(path.join(ROOT, 'specs', 'rules.yaml')));
  return suiteCache;
}

export interface RunAgainstOptions {
  profile?: string | ResolvedProfile;
  filter?: string[];
  seed?: number;
  runs?: number;
  timeoutMs?: number;
  suite?: Suite;
  replayPath?: string;
  /** Scenarios in flight (default: the run default, as `conform run`). */
  concurrency?: number;
  /** Leave what the run created on the target. */
  keep?: boolean;
  /** false: run the scenarios even when the profile's credentials are refused (`--no-credential-check`). */
  credentialCheck?: boolean;
}

/** A target: one URL, or a server with a plain and a TLS listener (and the certificate to trust). */
export type Target = string | { url: string; httpsUrl?: string; certificate?: string };

export async function runAgainst(target: Target, options: RunAgainstOptions = {}): Promise<RunResult> {
  const loaded =
    typeof options.profile === 'object' ? options.profile : loadProfileSync(options.profile ?? REFERENCE_PROFILE);
  const t = typeof target === 'string' ? { url: target } : target;
  const profile: ResolvedProfile = {
    ...loaded,
    target: { ...loaded.target, http: t.url, ...(t.httpsUrl ? { https: t.httpsUrl } : {}) },
  };
  if (!t.httpsUrl) delete profile.target.https;
  const client = createHttpClient({
    timeoutMs: options.timeoutMs ?? 5000,
    ...(t.certificate ? { ca: t.certificate } : {}),
  });
  const bases = { primary: t.url, plain: t.url, ...(t.httpsUrl ? { tls: t.httpsUrl } : {}) };
  try {
    return await runSuite(
      options.suite ?? bundledSuite(),
      {
        bases,
        seed: options.seed ?? 1,
        runs: options.runs ?? 50,
        filter: options.filter ?? [],
        strict: false,
        timeoutMs: options.timeoutMs ?? 5000,
        concurrency: options.concurrency ?? RUN_OPTION_SPEC.concurrency.default,
        version: 'test',
        ...(options.replayPath ? { replayPath: options.replayPath } : {}),
        ...(options.keep ? { keep: true } : {}),
        ...(options.credentialCheck === false ? { credentialCheck: false } : {}),
      },
      { client, profile, authenticator: createAuthenticator({ profile }) },
    );
  } finally {
    await client.close();
  }
}

/** Scenario ids by status, for readable assertions. */
export function byStatus(run: RunResult): Record<string, string[]> {
  const out: Record<string, string[]> = { passed: [], failed: [], errored: [], skipped: [] };
  for (const s of run.scenarios) out[s.status]!.push(s.id);
  return out;
}

/** Options of a reference server in the tests: anything but its ports (both listeners run, on free ports). */
export type ReferenceOptions = Omit<ServerOptions, 'port' | 'httpsPort'>;

/** Starts a reference server on 127.0.0.1 with a plain and a TLS listener on free ports; the caller closes it. */
export function startReferenceServer(options: ReferenceOptions = {}): Promise<RunningServer> {
  return startServer({ ...options, port: 0, httpsPort: 0 });
}

/** Runs `f` against a fresh reference server and closes it, whatever `f` does. In a test, the `startReference` fixture (fixtures.ts) does the same. */
export async function withReferenceServer<T>(
  options: ReferenceOptions,
  f: (s: RunningServer) => Promise<T>,
): Promise<T> {
  const server = await startReferenceServer(options);
  try {
    return await f(server);
  } finally {
    await server.close();
  }
}

/** One reference server for the enclosing `describe` (started before its tests, closed after); call the getter inside tests. */
export function useReferenceServer(options: ReferenceOptions = {}): () => RunningServer {
  let server: RunningServer | undefined;
  beforeAll(async () => {
    server = await startReferenceServer(options);
  });
  afterAll(() => server?.close());
  return () => {
    if (!server)
      throw new Error('the reference server is not started yet: call the getter inside a test or a later hook');
    return server;
  };
}
