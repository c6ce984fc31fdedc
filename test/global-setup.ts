/**
 * Some tests run `conform` as a real process (a `kill -9` cannot be had in-process): they need `dist/`, which
 * is built here once when it is missing (a fresh clone: `npm ci` builds nothing, `prepack` and `npm start` do) or
 * when a source file is newer than the build (while developing), with the YAML cache `npm run build` makes.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SOURCES = ['harness/src', 'reference-server/src', 'cli/src'];
const BUILT = path.join(root, 'dist', 'cli', 'src', 'main.js');

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(full));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts'))
      newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}

function builtAt(): number {
  try {
    return statSync(BUILT).mtimeMs;
  } catch {
    return 0;
  }
}

export default function setup(): void {
  const newest = Math.max(...SOURCES.map((dir) => newestSource(path.join(root, dir))));
  if (builtAt() >= newest) return;
  execFileSync(
    process.execPath,
    [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', path.join(root, 'tsconfig.build.json')],
    { cwd: root, stdio: 'inherit' },
  );
  // What `npm run build` does after compiling: the bundled YAML parsed into dist/yaml-cache.json, so the processes the
  // tests start read the suite as a built package does (and never a cache older than the parser it was made for).
  execFileSync(process.execPath, [path.join(root, 'scripts', 'yaml-cache.mjs')], { cwd: root, stdio: 'inherit' });
}
