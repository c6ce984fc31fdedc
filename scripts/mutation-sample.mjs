#!/usr/bin/env node
// A sampled `npm run mutation` (docs/mutation.md), for when the full run (hours on a shared 2-core machine) does not
// fit: the files of stryker.config.json's `mutate` cut into windows of WINDOW lines, a pseudo-random FRACTION of the
// windows drawn with SEED (the same seed gives the same sample), and Stryker run on those windows only (a mutation
// range per window: `file:from-to`). Stryker mutates what lies wholly inside a window, so a mutant spanning more than
// one window (a multi-line block) is never drawn: the sample leans to one-line mutants. The summary is the usual one
// (scripts/mutation-summary.mjs), with the sample named in its first lines.
//
// Usage: node scripts/mutation-sample.mjs [FRACTION=0.2] [SEED=1] [-- extra stryker arguments]
//        node scripts/mutation-sample.mjs --list [FRACTION] [SEED]     (print the windows, run nothing)
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const WINDOW = 12;
const argv = process.argv.slice(2);
const dashes = argv.indexOf('--');
const own = dashes === -1 ? argv : argv.slice(0, dashes);
const extra = dashes === -1 ? [] : argv.slice(dashes + 1);
const listOnly = own[0] === '--list';
const [fractionArg = '0.2', seedArg = '1'] = listOnly ? own.slice(1) : own;
const fraction = Number(fractionArg);
const seed = Number(seedArg);
if (!(fraction > 0 && fraction <= 1) || !Number.isInteger(seed)) {
  console.error('usage: node scripts/mutation-sample.mjs [FRACTION in (0,1]] [SEED integer] [-- stryker args]');
  process.exit(2);
}

/** mulberry32: a small, well-known seeded generator, so a sample is reproducible from its seed. */
function random(s) {
  let a = s >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const config = JSON.parse(readFileSync(path.join(root, 'stryker.config.json'), 'utf8'));
const include = config.mutate.filter((p) => !p.startsWith('!'));
const exclude = config.mutate.filter((p) => p.startsWith('!')).map((p) => p.slice(1));
const walk = (dir) =>
  readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(`${dir}/${e.name}`) : [`${dir}/${e.name}`],
  );
const files = walk('reference-server/src')
  .filter((f) => include.some((p) => path.matchesGlob(f, p)) && !exclude.some((p) => path.matchesGlob(f, p)))
  .sort();

const draw = random(seed);
const windows = [];
for (const file of files) {
  const lines = readFileSync(path.join(root, file), 'utf8').split('\n').length;
  for (let from = 1; from <= lines; from += WINDOW) {
    if (draw() < fraction) windows.push(`${file}:${from}-${Math.max(from + 1, Math.min(lines, from + WINDOW - 1))}`);
  }
}
console.log(
  `${windows.length} windows of ${WINDOW} lines from ${files.length} files (fraction ${fraction}, seed ${seed})`,
);
if (listOnly) {
  console.log(windows.join('\n'));
  process.exit(0);
}
const stryker = spawnSync('npx', ['stryker', 'run', '--mutate', windows.join(','), ...extra], {
  cwd: root,
  stdio: 'inherit',
});
if (stryker.status !== 0) process.exit(stryker.status ?? 1);
const summary = spawnSync(process.execPath, [path.join(root, 'scripts', 'mutation-summary.mjs')], {
  cwd: root,
  stdio: 'inherit',
  env: {
    ...process.env,
    MUTATION_SAMPLE: `fraction ${fraction}, seed ${seed}, ${windows.length} windows of ${WINDOW} lines`,
  },
});
process.exit(summary.status ?? 1);
