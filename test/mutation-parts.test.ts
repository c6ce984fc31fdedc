/**
 * The two parts of `npm run mutation` (docs/mutation.md) cut the reference server's source cleanly: every source file
 * is mutated in exactly one part, except those left out on purpose (tests, re-exports, types, the named faults, the
 * server's own client-side signers).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers.js';

const LEFT_OUT = [
  'reference-server/src/**/*.test.ts',
  'reference-server/src/index.ts',
  'reference-server/src/types.ts',
  'reference-server/src/faults.ts',
  'reference-server/src/faults/**',
  'reference-server/src/auth/sign.ts',
  'reference-server/src/oauth1/sign.ts',
];

function mutated(config: string, files: string[]): Set<string> {
  const { mutate } = JSON.parse(readFileSync(path.join(ROOT, config), 'utf8')) as { mutate: string[] };
  const include = mutate.filter((p) => !p.startsWith('!'));
  const exclude = mutate.filter((p) => p.startsWith('!')).map((p) => p.slice(1));
  return new Set(
    files.filter((f) => include.some((p) => path.matchesGlob(f, p)) && !exclude.some((p) => path.matchesGlob(f, p))),
  );
}

describe('the mutation parts', () => {
  const files = (readdirSync(path.join(ROOT, 'reference-server', 'src'), { recursive: true }) as string[])
    .map((f) => `reference-server/src/${f.split(path.sep).join('/')}`)
    .filter((f) => f.endsWith('.ts'))
    .sort();
  const spec = mutated('stryker.config.json', files);
  const unit = mutated('stryker.unit.config.json', files);

  it('mutate every source file in exactly one part, but those left out on purpose', () => {
    expect(files.length).toBeGreaterThan(50);
    const inBoth = files.filter((f) => spec.has(f) && unit.has(f));
    const inNone = files.filter((f) => !spec.has(f) && !unit.has(f) && !LEFT_OUT.some((p) => path.matchesGlob(f, p)));
    expect(inBoth).toEqual([]);
    expect(inNone).toEqual([]);
  });

  it('leave the named faults and the tests out of both', () => {
    for (const f of files.filter((f) => f.includes('/faults/') || f.endsWith('.test.ts'))) {
      expect(spec.has(f) || unit.has(f), f).toBe(false);
    }
  });
});
