/** The judge shares no code with what it judges: harness/ and reference-server/ never import each other. */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers.js';

async function sources(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile() && /\.(ts|mts|js)$/.test(e.name)) out.push(path.join(e.parentPath, e.name));
  }
  return out;
}

async function importsOf(file: string): Promise<string[]> {
  const text = await readFile(file, 'utf8');
  return [...text.matchAll(/(?:import|export)[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1] ?? m[2] ?? '');
}

describe('one-way dependencies', () => {
  const cases: Array<[string, string[]]> = [
    ['harness', ['reference-server', 'cli', 'test']],
    ['reference-server', ['harness', 'cli', 'test']],
  ];
  for (const [from, forbidden] of cases) {
    it(`${from}/ imports nothing from ${forbidden.join(', ')}`, async () => {
      const offenders: string[] = [];
      for (const file of await sources(path.join(ROOT, from, 'src'))) {
        for (const spec of await importsOf(file)) {
          if (!spec.startsWith('.')) continue;
          const target = path.relative(ROOT, path.resolve(path.dirname(file), spec));
          if (forbidden.some((f) => target === f || target.startsWith(`${f}${path.sep}`))) offenders.push(`${path.relative(ROOT, file)} → ${spec}`);
        }
      }
      expect(offenders).toEqual([]);
    });
  }
});
