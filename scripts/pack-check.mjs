#!/usr/bin/env node
// The package as a team adopts it (issue 27): pack this repository (prepack cleans and builds), check what the tarball
// holds, install it into a new project with npm (its runtime dependencies come from the registry), run the installed
// `conform` against its embedded reference server, use the programmatic API, and `npm publish --dry-run`.
// Usage: npm run pack:check [-- --runs N]   (needs the npm registry; about a minute)
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const runs = process.argv.includes('--runs') ? process.argv[process.argv.indexOf('--runs') + 1] : '5';
const work = mkdtempSync(path.join(tmpdir(), 'conform-pack-'));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const problems = [];
const say = (line) => process.stdout.write(`${line}\n`);
const seconds = (t0) => ((performance.now() - t0) / 1000).toFixed(1);

try {
  let t0 = performance.now();
  const [packed] = JSON.parse(
    execFileSync(npm, ['pack', '--json', '--pack-destination', work], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    }),
  );
  const files = packed.files.map((f) => f.path);
  say(
    `packed ${packed.filename}: ${(packed.size / 1024).toFixed(0)} KiB, ${(packed.unpackedSize / 1024 / 1024).toFixed(1)} MiB unpacked, ${files.length} files (${seconds(t0)} s with the build)`,
  );
  // What the tarball holds, and that no install script runs, is checked by npm test (test/package.test.ts).

  const project = path.join(work, 'project');
  execFileSync('mkdir', ['-p', project]);
  writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'adopter', private: true, type: 'module' }));
  t0 = performance.now();
  const install = spawnSync(npm, ['install', '--no-audit', '--no-fund', path.join(work, packed.filename)], {
    cwd: project,
    encoding: 'utf8',
  });
  say(`npm install of the tarball in a new project: exit ${install.status} in ${seconds(t0)} s`);
  if (install.status !== 0) problems.push(`npm install failed: ${install.stderr.slice(-800)}`);
  if (/install script|lifecycle script/i.test(install.stdout + install.stderr))
    problems.push(`npm warned about scripts: ${(install.stdout + install.stderr).trim()}`);

  t0 = performance.now();
  const reports = path.join(work, 'reports');
  const run = spawnSync(
    npm,
    ['exec', '--', 'conform', 'run', '--embedded', '--runs', runs, '--seed', '1', '--quiet', '--report-dir', reports],
    { cwd: project, encoding: 'utf8' },
  );
  say(
    `npx conform run --embedded --runs ${runs} in the new project: exit ${run.status} in ${seconds(t0)} s; ${run.stdout.trim().split('\n').at(-1) ?? ''}`,
  );
  if (run.status !== 0)
    problems.push(
      `the installed conform did not pass against its embedded server:\n${run.stdout.slice(-1500)}${run.stderr.slice(-800)}`,
    );

  const api = spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `
    import { startReferenceServer } from '@conform-harness/conform/reference-server';
    import { loadProfileSync } from '@conform-harness/conform';
    const s = await startReferenceServer();
    const r = await fetch(s.url + '/', { method: 'OPTIONS' });
    await s.close();
    console.log(r.status, typeof loadProfileSync, s.profile.target.http === s.url);`,
    ],
    { cwd: project, encoding: 'utf8' },
  );
  say(`the API from the installed package: ${api.status === 0 ? api.stdout.trim() : api.stderr.trim().slice(-600)}`);
  if (api.status !== 0 || api.stdout.trim() !== '200 function true')
    problems.push('the programmatic API failed in the new project');

  const publish = spawnSync(npm, ['publish', '--dry-run', '--ignore-scripts'], { cwd: root, encoding: 'utf8' });
  say(`npm publish --dry-run: exit ${publish.status}`);
  if (publish.status !== 0) problems.push(`npm publish --dry-run failed: ${publish.stderr.slice(-800)}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
for (const p of problems) say(`PROBLEM: ${p}`);
say(problems.length ? `${problems.length} problem(s)` : 'the package installs and works');
process.exit(problems.length ? 1 : 0);
