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

/** The two parts (docs/mutation.md): each config's `mutate` globs name its files. */
const PARTS = [
  { name: 'spec behaviour, judged by the conformance suite', config: 'stryker.config.json', dir: 'reports/mutation' },
  {
    name: 'hardening, options and store internals, judged by unit tests',
    config: 'stryker.unit.config.json',
    dir: 'reports/mutation-unit',
  },
];
const walk = (dir) =>
  readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(`${dir}/${e.name}`) : [`${dir}/${e.name}`],
  );
const all = walk('reference-server/src');
for (const part of PARTS) {
  const { mutate } = JSON.parse(readFileSync(path.join(root, part.config), 'utf8'));
  const include = mutate.filter((p) => !p.startsWith('!'));
  const exclude = mutate.filter((p) => p.startsWith('!')).map((p) => p.slice(1));
  part.files = new Set(
    all.filter((f) => include.some((p) => path.matchesGlob(f, p)) && !exclude.some((p) => path.matchesGlob(f, p))),
  );
}
// One draw over the files of both parts in one order, so a seed names the same windows however the parts are cut.
const files = all.filter((f) => PARTS.some((p) => p.files.has(f))).sort();

const draw = random(seed);
const windows = [];
for (const file of files) {
  const lines = readFileSync(path.join(root, file), 'utf8').split('\n').length;
  for (let from = 1; from <= lines; from += WINDOW) {
    if (draw() < fraction) windows.push(`${file}:${from}-${Math.max(from + 1, Math.min(lines, from + WINDOW - 1))}`);
  }
}
for (const part of PARTS) part.windows = windows.filter((w) => part.files.has(w.slice(0, w.lastIndexOf(':'))));
console.log(
  `${windows.length} windows of ${WINDOW} lines from ${files.length} files (fraction ${fraction}, seed ${seed}): ` +
    PARTS.map((p) => `${p.windows.length} in ${p.config}`).join(', '),
);
if (listOnly) {
  for (const part of PARTS) console.log(`# ${part.config} — ${part.name}\n${part.windows.join('\n')}`);
  process.exit(0);
}
// MUTATION_PARTS=1 or 2 runs one part only (e.g. to re-run the quicker unit part).
const only = process.env.MUTATION_PARTS?.split(',').map(Number);
let status = 0;
for (const [i, part] of PARTS.entries()) {
  if ((only && !only.includes(i + 1)) || part.windows.length === 0) continue;
  console.log(`\n== part ${i + 1}: ${part.name} (${part.config}, ${part.windows.length} windows)`);
  const env = { ...process.env, MUTATION_STREAM: path.join(part.dir, 'mutants.jsonl') };
  const args = ['stryker', 'run', part.config, '--mutate', part.windows.join(','), ...extra];
  const stryker = spawnSync('npx', args, { cwd: root, stdio: 'inherit', env });
  if (stryker.status !== 0) {
    status = stryker.status ?? 1;
    continue;
  }
  const summary = spawnSync(process.execPath, [path.join(root, 'scripts', 'mutation-summary.mjs')], {
    cwd: root,
    stdio: 'inherit',
    env: {
      ...env,
      MUTATION_DIR: part.dir,
      MUTATION_SAMPLE: `fraction ${fraction}, seed ${seed}, ${part.windows.length} windows of ${WINDOW} lines; part ${i + 1}: ${part.name}`,
    },
  });
  status ||= summary.status ?? 1;
}
process.exit(status);
