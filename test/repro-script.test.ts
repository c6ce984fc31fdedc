/**
 * Issue 35, item 5: a failed scenario's replay script (REPORT-DIR/repro/<id>.sh), run with bash against the faulty
 * server that caused the failure, shows the same failure — each request signed afresh by `conform sign` — for one
 * fault per scheme family (hmac-nonce, the simple hmac form, Basic), and a create → replace → read back; against a
 * correct server it says the failure is gone. `--keep-failed` leaves what the failed scenario's run created.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect } from 'vitest';
import type { RunResult } from '../harness/src/runner/types.js';
import type { FaultName, RunningServer } from '../reference-server/src/index.js';
import { runCli } from './cli-helpers.js';
import { test } from './fixtures.js';
import { REFERENCE_PROFILE, ROOT } from './helpers.js';

/** The reference profile's secrets, as `conform init` names their variables. */
const SECRETS = {
  CONFORM_ALICE_SECRET: 'alice-secret-1',
  CONFORM_ALICE_PASSWORD: 'wonder:land',
  CONFORM_BOB_SECRET: 'bob-secret-2',
  CONFORM_BOB_PASSWORD: 'builder',
};

/** Runs a script with bash alone (and conform for signing), bounded; its exit code and what it printed. */
function bash(script: string, env: Record<string, string>): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(
      'bash',
      [script],
      {
        timeout: 60_000,
        env: {
          PATH: process.env['PATH'] ?? '/usr/bin:/bin',
          LANG: 'C.UTF-8',
          CONFORM: `${process.execPath} ${path.join(ROOT, 'bin', 'conform.js')}`,
          ...env,
        },
      },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
        resolve({ code, out: `${stdout}${stderr}` });
      },
    );
  });
}

interface Case {
  family: string;
  /** The scheme `conform sign` signs the script's requests with. */
  scheme: string;
  fault: FaultName;
  scenario: string;
  /** What the replayed failing request answers, as the script prints it. */
  shows: RegExp;
}

const CASES: Case[] = [
  {
    family: 'hmac-nonce',
    scheme: 'hmac-nonce',
    fault: 'body-hash-prefix',
    scenario: 'articles/put-create',
    shows: /PUT \S+ → 401, as in the run/,
  },
  {
    family: 'hmac (simple form)',
    scheme: 'hmac',
    fault: 'digest-base64url',
    scenario: 'auth/hmac-accepted',
    shows: /GET \S+ → 401, as in the run/,
  },
  {
    family: 'Basic',
    scheme: 'basic',
    fault: 'basic-last-colon',
    scenario: 'auth/basic-accepted',
    shows: /GET \S+ → 401, as in the run/,
  },
  {
    family: 'hmac-nonce, create → replace → read back',
    scheme: 'hmac-nonce',
    fault: 'put-merge',
    scenario: 'articles/put-replace',
    shows: /\(read\) GET \S+ → 200, as in the run[\s\S]*<summary>/,
  },
];

/** `conform run` against `server`, only `scenario`, keeping what it fails with; the report. */
async function runAgainst(dir: string, server: RunningServer, scenario: string): Promise<RunResult> {
  const r = await runCli(ROOT, [
    'run',
    '--target',
    server.url,
    '--target',
    server.httpsUrl!,
    '--profile',
    REFERENCE_PROFILE,
    '--filter',
    scenario,
    '--runs',
    '3',
    '--seed',
    '35',
    '--no-credential-check',
    '--keep-failed',
    '--reporter',
    'console',
    '--report-dir',
    dir,
  ]);
  expect(r.code, r.out + r.err).toBe(1);
  expect(r.out).toContain(`its steps as a script, each request signed afresh (bash and curl): `);
  return JSON.parse(await readFile(path.join(dir, 'report.json'), 'utf8')) as RunResult;
}

describe('a failed scenario as a script of its steps (issue 35, item 5)', () => {
  for (const c of CASES)
    test(`${c.family}: ${c.fault} fails ${c.scenario}, and its script shows the same failure`, async ({
      tempDir,
      startReference,
    }) => {
      const faulty = await startReference({ faults: [c.fault] });
      const report = await runAgainst(tempDir, faulty, c.scenario);
      const result = report.scenarios.find((s) => s.id === c.scenario);
      expect(result?.status).toBe('failed');
      const script = path.join(tempDir, 'repro', `${c.scenario}.sh`);
      const text = await readFile(script, 'utf8');
      for (const secret of Object.values(SECRETS)) expect(text).not.toContain(secret);
      expect(text).toMatch(new RegExp(`^sign ${c.scheme} alice `, 'm'));

      const again = await bash(script, SECRETS);
      expect(again.out).toMatch(c.shows);
      expect(again.out).toContain(`the run failed at this request: ${result!.failure!.messages[0]!.slice(0, 40)}`);
      expect(again.out).toContain('REPRODUCED');
      expect([again.code, again.out]).toEqual([1, expect.not.stringContaining('NOT REPRODUCED')]);
      // Twice: each run of the script signs afresh (a new nonce and Date) and makes its articles fresh.
      expect((await bash(script, SECRETS)).code).toBe(1);

      // The same script against a correct server: the failure is not there.
      const clean = await startReference();
      const fixed = await bash(script, { ...SECRETS, CONFORM_HTTP_URL: clean.url, CONFORM_HTTPS_URL: clean.httpsUrl! });
      expect([fixed.code, fixed.out]).toEqual([0, expect.stringContaining('NOT REPRODUCED')]);

      // Without its secret the script says which variable to set, and replays nothing.
      const bare = await bash(script, {});
      expect(bare.code).toBe(2);
      expect(bare.out).toMatch(/set CONFORM_ALICE_(SECRET|PASSWORD)/);
    });

  test('--keep-failed leaves what the failed scenario created, for the curl copies', async ({
    tempDir,
    startReference,
  }) => {
    const faulty = await startReference({ faults: ['put-merge'] });
    const report = await runAgainst(tempDir, faulty, 'articles/put-replace');
    const kept = report.keptFailed?.['articles/put-replace'];
    expect(kept).toHaveLength(1);
    expect(report.leftovers).toEqual(kept);
    expect(report.cleanup?.deleted).toBe((report.cleanup?.created ?? 0) - 1);
    const read = await fetch(`${faulty.url}${kept![0]}`);
    expect(read.status).toBe(200);
    expect(await read.text()).toContain('<summary>');
  });
});
