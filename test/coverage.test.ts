/**
 * A verdict an auditor can trust (issue 26): the console, HTML and Markdown say how much of the MUST was checked and
 * why the rest was not, and `--min-coverage` fails a run that checked too little — here, a profile without OAuth.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { main } from '../cli/src/main.js';
import { it } from './fixtures.js';
import { ROOT } from './helpers.js';

const NO_OAUTH = `
target: { insecure: true }
users:
  - { name: alice, password: "wonder:land", secret: alice-secret-1 }
  - { name: bob, password: builder, secret: bob-secret-2 }
`;

async function run(argv: string[]) {
  let out = '';
  const code = await main(argv, {
    stdout: { write: (t: string) => (out += t) },
    stderr: { write: (t: string) => (out += t) },
    env: {},
    cwd: ROOT,
  });
  return { code, out };
}

describe('MUST coverage beside the verdict', () => {
  it('is printed, written in HTML and Markdown, and --min-coverage fails a run below it', async ({
    startReference,
    tempDir,
  }) => {
    const server = await startReference();
    const profile = path.join(tempDir, 'no-oauth.yaml');
    await writeFile(profile, NO_OAUTH);
    const base = ['run', '--target', server.url, '--target', server.httpsUrl!, '--profile', profile, '--insecure'];
    const args = [...base, '--runs', '2', '--filter', 'auth/', '--reporter', 'console,json,html,markdown'];
    const pass = await run([...args, '--report-dir', path.join(tempDir, 'a')]);
    expect(pass.code, pass.out).toBe(0);
    const line = /PASS — (\d+) of (\d+) MUST rules checked; (\d+) not checked: ([^\n]*)/.exec(pass.out);
    expect(line, pass.out).not.toBeNull();
    const [checked, total, missing] = [Number(line![1]), Number(line![2]), Number(line![3])];
    expect(checked + missing).toBe(total);
    expect(missing).toBeGreaterThan(0);
    expect(line![4]).toMatch(/profile lacks auth\.schemes: \[oauth[12]\]/);
    const html = await readFile(path.join(tempDir, 'a', 'report.html'), 'utf8');
    expect(html).toContain(`${checked} of ${total} MUST rules checked`);
    const md = await readFile(path.join(tempDir, 'a', 'summary.md'), 'utf8');
    expect(md).toContain(`${checked} of ${total} MUST rules checked`);

    const percent = Math.floor((checked * 100) / total);
    const below = await run([...args, '--report-dir', path.join(tempDir, 'b'), '--min-coverage', String(percent + 1)]);
    expect(below.code, below.out).toBe(1);
    expect(below.out).toContain(`FAIL — ${checked} of ${total}`);
    const report = JSON.parse(await readFile(path.join(tempDir, 'b', 'report.json'), 'utf8'));
    expect(report.options.minCoverage).toBe(percent + 1);
    const at = await run([...args, '--report-dir', path.join(tempDir, 'c'), '--min-coverage', `${percent}%`]);
    expect(at.code, at.out).toBe(0);
    expect((await run([...args, '--min-coverage', '101'])).code).toBe(2);
  }, 120_000);

  it('one cause is shown once: the failures that share their first failing request are grouped under it', async ({
    tempDir,
  }) => {
    const args = ['run', '--embedded', '--fault', 'post-200', '--filter', 'articles/post', '--runs', '3'];
    const res = await run([...args, '--report-dir', tempDir, '--reporter', 'console,html,markdown']);
    expect(res.code).toBe(1);
    const line = /(\d+) scenarios failed or errored at the same request, POST \/articles → 200: ([^\n]*)/.exec(res.out);
    expect(line, res.out).not.toBeNull();
    expect(Number(line![1])).toBeGreaterThanOrEqual(4);
    expect(line![2]).toContain('articles/post-create');
    expect(await readFile(path.join(tempDir, 'summary.md'), 'utf8')).toContain('- `POST /articles → 200` — ');
    expect(await readFile(path.join(tempDir, 'report.html'), 'utf8')).toMatch(
      /data-testid="shared-causes".*POST \/articles → 200/s,
    );
  }, 60_000);
});
