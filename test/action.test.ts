/**
 * The Action (action.yml): every input is used, every output is written, and its two scripts run as GitHub would run
 * them — the package resolution, and the suite against the embedded reference server with this repository's
 * `bin/conform.js` standing in for the installed package — writing the outputs GitHub reads.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { parse } from 'yaml';
import { ROOT } from './helpers.js';
import { it } from './temp-dir.js';

interface Step {
  id?: string;
  name?: string;
  run?: string;
  env?: Record<string, string>;
  uses?: string;
}
interface Action {
  inputs: Record<string, { default?: string }>;
  outputs: Record<string, { value: string }>;
  runs: { steps: Step[] };
}

const action = parse(readFileSync(path.join(ROOT, 'action.yml'), 'utf8')) as Action;
const step = (id: string): Step => {
  const s = action.runs.steps.find((x) => x.id === id);
  if (!s?.run) throw new Error(`no step ${id} with a script`);
  return s;
};
/** GitHub's `key=value` lines of a $GITHUB_OUTPUT file. */
const outputsOf = (file: string) =>
  Object.fromEntries(
    readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
/** A step's env with the `${{ inputs.x }}` expressions resolved from `inputs` (else the input's default). */
function envOf(s: Step, inputs: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(s.env ?? {}).map(([k, v]) => [
      k,
      v.replace(
        /\$\{\{ inputs\.([a-z-]+) \}\}/g,
        (_, name: string) => inputs[name] ?? action.inputs[name]?.default ?? '',
      ),
    ]),
  );
}

describe('the Action', () => {
  it('uses every input it declares and writes every output it declares', () => {
    const text = readFileSync(path.join(ROOT, 'action.yml'), 'utf8');
    const unused = Object.keys(action.inputs).filter(
      (name) => !text.includes(`inputs.${name} }}`) && !text.includes(`inputs.${name} !=`),
    );
    expect(unused).toEqual([]);
    const script = step('run').run!;
    for (const [name, { value }] of Object.entries(action.outputs)) {
      expect(value).toBe(`\${{ steps.run.outputs.${name} }}`);
      expect(
        script.includes(`${name}=`) ||
          script.includes(`${name}: `) ||
          script.includes(`, ${name}`) ||
          script.includes(`{ ${name}`),
      ).toBe(true);
    }
  });

  it('resolves the package to its own version by default, and a tarball to an absolute path', ({ tempDir }) => {
    const out = path.join(tempDir, 'out');
    const run = (pkg: string) => {
      writeFileSync(out, '');
      execFileSync('bash', ['-euo', 'pipefail', '-c', step('spec').run!], {
        cwd: tempDir,
        env: {
          ...process.env,
          GITHUB_OUTPUT: out,
          GITHUB_ACTION_PATH: ROOT,
          RUNNER_TEMP: tempDir,
          RUNNER_OS: 'Linux',
          ...envOf(step('spec'), { package: pkg }),
        },
      });
      return outputsOf(out);
    };
    const version = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    expect(run('')).toMatchObject({
      spec: `@conform-harness/conform@${version}`,
      dir: path.join(tempDir, 'conform-action'),
    });
    writeFileSync(path.join(tempDir, 'c.tgz'), 'not really a tarball');
    const packed = run('c.tgz');
    expect(packed['spec']).toBe(path.join(tempDir, 'c.tgz'));
    expect(packed['key']).toMatch(/^conform-Linux-node\d+-[0-9a-f]{16}$/);
  });

  it('runs the suite and writes the verdict, exit code and counts; a missing target is a usage error', ({
    tempDir,
  }) => {
    const out = path.join(tempDir, 'out');
    writeFileSync(out, '');
    const reports = path.join(tempDir, 'reports');
    const inputs = {
      embedded: 'true',
      filter: 'articles/post-create,articles/put-create',
      runs: '3',
      seed: '7',
      'report-dir': reports,
      reporter: 'json',
    };
    const env = {
      ...process.env,
      ...envOf(step('run'), inputs),
      GITHUB_OUTPUT: out,
      CONFORM_BIN: path.join(ROOT, 'bin', 'conform.js'),
    };
    const done = spawnSync('bash', ['-eo', 'pipefail', '-c', step('run').run!], {
      cwd: tempDir,
      env,
      encoding: 'utf8',
    });
    expect(done.status, done.stderr).toBe(0);
    expect(outputsOf(out)).toEqual({
      report: path.join(reports, 'report.json'),
      'exit-code': '0',
      verdict: 'PASS',
      passed: expect.stringMatching(/^[1-9]\d*$/),
      failed: '0',
      errored: '0',
      skipped: expect.stringMatching(/^\d+$/),
    });

    writeFileSync(out, '');
    const missing = spawnSync('bash', ['-eo', 'pipefail', '-c', step('run').run!], {
      cwd: tempDir,
      env: { ...env, INPUT_EMBEDDED: 'false', INPUT_TARGET: '' },
      encoding: 'utf8',
    });
    expect(missing.status).toBe(2);
    expect(missing.stdout).toContain('::error title=conform::the target input is required');
  });
});
