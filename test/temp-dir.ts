/**
 * Temporary directories as vitest fixtures: created empty under the system's temporary folder when a test (or, for
 * `fileTempDir`, a hook of the file) names one, and removed with everything in it when its scope ends, passed or
 * failed. Fixtures are torn down after the `afterEach` hooks, so a server closed there is gone before its directory.
 *
 * A leaf: it imports node and vitest only, so the unit tests beside harness/ and reference-server/ sources may use it
 * without sharing any code of either (test/architecture.test.ts holds it to that).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test as base } from 'vitest';

async function tempDirFor(onCleanup: (cleanup: () => Promise<void>) => void): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'conform-test-'));
  onCleanup(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** `test` with `tempDir` (a fresh directory for each test that names it) and `fileTempDir` (one for the whole file). */
export const test = base
  .extend('tempDir', async ({}, { onCleanup }) => tempDirFor(onCleanup))
  // For work done once in `test.beforeAll` whose output several tests read.
  .extend('fileTempDir', { scope: 'file' }, async ({}, { onCleanup }) => tempDirFor(onCleanup));

export const it = test;
