/**
 * Ctrl-C (issue 26): the scenarios not started are skipped as interrupted, the running ones finish, what the run
 * created is deleted, and a partial report marked interrupted is written; exit 130.
 */
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { main } from '../cli/src/main.js';
import { it } from './fixtures.js';
import { ROOT } from './helpers.js';

describe('an interrupted run', () => {
  it('writes a partial report marked interrupted, deletes what it created, exits 130', async ({ tempDir }) => {
    const controller = new AbortController();
    let out = '';
    const code = await main(
      [
        'run',
        '--embedded',
        '--filter',
        'articles/',
        '--concurrency',
        '1',
        '--runs',
        '2',
        '--report-dir',
        tempDir,
        '--reporter',
        'console,json,markdown',
      ],
      {
        // The interrupt comes as the first scenario's result is printed.
        stdout: {
          write: (t: string) => {
            out += t;
            if (/\[\s*1\/\d+\]/.test(t)) controller.abort();
          },
        },
        stderr: { write: (t: string) => (out += t) },
        env: {},
        cwd: ROOT,
        signal: controller.signal,
      },
    );
    expect(code, out).toBe(130);
    const report = JSON.parse(await readFile(path.join(tempDir, 'report.json'), 'utf8'));
    expect(report.interrupted).toBe(true);
    const notRun = report.scenarios.filter(
      (s: { status: string; reason?: string }) => s.status === 'skipped' && /interrupted/.test(s.reason ?? ''),
    );
    const ran = report.scenarios.filter((s: { requests: number }) => s.requests > 0);
    expect(notRun.length).toBeGreaterThan(5);
    expect(ran.length).toBeGreaterThan(0);
    expect(notRun.length + ran.length).toBeLessThanOrEqual(report.scenarios.length);
    // What the scenarios that ran created was deleted.
    expect(report.leftovers ?? []).toEqual([]);
    expect(out).toMatch(/INTERRUPTED — /);
    expect(out).toMatch(/\d+ scenarios not run: the run was interrupted\n/);
    expect(out).not.toMatch(/skipped: not run: the run was interrupted/);
    expect(out).toMatch(/interrupted \(Ctrl-C\): \d+ scenarios not run; the report is partial/);
    expect(await readFile(path.join(tempDir, 'summary.md'), 'utf8')).toMatch(/⚠️ INTERRUPTED/);
  }, 60_000);

  it('the real Ctrl-C: SIGINT to `conform run` gives the same partial report and exit 130', async ({ tempDir }) => {
    const child = spawn(
      process.execPath,
      [
        path.join(ROOT, 'bin', 'conform.js'),
        'run',
        '--embedded',
        '--filter',
        'articles/',
        '--concurrency',
        '1',
        '--runs',
        '2',
        '--report-dir',
        tempDir,
        '--no-color',
      ],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let sent = false;
    child.stdout.on('data', (b: Buffer) => {
      out += b.toString();
      if (!sent && /\[\s*1\/\d+\]/.test(out)) {
        sent = true;
        child.kill('SIGINT');
      }
    });
    child.stderr.on('data', (b: Buffer) => (out += b.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 50_000);
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    clearTimeout(timer);
    expect(code, out).toBe(130);
    expect(out).toMatch(/interrupted — finishing the running scenarios/);
    const report = JSON.parse(await readFile(path.join(tempDir, 'report.json'), 'utf8'));
    expect(report.interrupted).toBe(true);
    expect(report.leftovers ?? []).toEqual([]);
  }, 60_000);
});
