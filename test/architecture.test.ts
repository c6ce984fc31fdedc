/**
 * The judge shares no code with what it judges: harness/ and reference-server/ never import each other. Their unit
 * tests may use one module of test/, the temporary-directory fixture, which imports nothing of the project.
 */
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
  return [...text.matchAll(/(?:import|export)[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g)].map(
    (m) => m[1] ?? m[2] ?? '',
  );
}

/** The one module of test/ that unit tests beside the sources may import. */
const SHARED_TEST_FIXTURE = path.join('test', 'temp-dir.js');

describe('one-way dependencies', () => {
  const cases: Array<[string, string[]]> = [
    ['harness', ['reference-server', 'cli', 'test']],
    ['reference-server', ['harness', 'cli', 'test']],
  ];
  for (const [from, forbidden] of cases) {
    it(`${from}/ imports nothing from ${forbidden.join(', ')} (its tests: only ${SHARED_TEST_FIXTURE} of test/)`, async () => {
      const offenders: string[] = [];
      const dirs = from === 'reference-server' ? ['src', 'testkit'] : ['src'];
      for (const file of (await Promise.all(dirs.map((d) => sources(path.join(ROOT, from, d))))).flat()) {
        for (const spec of await importsOf(file)) {
          if (!spec.startsWith('.')) continue;
          const target = path.relative(ROOT, path.resolve(path.dirname(file), spec));
          if (file.endsWith('.test.ts') && target === SHARED_TEST_FIXTURE) continue;
          if (forbidden.some((f) => target === f || target.startsWith(`${f}${path.sep}`)))
            offenders.push(`${path.relative(ROOT, file)} → ${spec}`);
        }
      }
      expect(offenders).toEqual([]);
    });
  }

  it(`${SHARED_TEST_FIXTURE} imports only node and vitest`, async () => {
    const specs = await importsOf(path.join(ROOT, SHARED_TEST_FIXTURE.replace(/\.js$/, '.ts')));
    expect(specs.length).toBeGreaterThan(0);
    expect(specs.filter((s) => !s.startsWith('node:') && s !== 'vitest')).toEqual([]);
  });
});

/** Resolves a relative import of `file` to the source file it names (`./x.js` → `./x.ts`), or undefined. */
function resolveImport(file: string, spec: string, known: ReadonlySet<string>): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  const target = path.resolve(path.dirname(file), spec).replace(/\.js$/, '.ts');
  return known.has(target) ? target : undefined;
}

/** Every import cycle among `files` (type imports included: a cycle of types is still a tangle), each once. */
async function importCycles(files: string[]): Promise<string[][]> {
  const known = new Set(files);
  const edges = new Map<string, string[]>();
  for (const f of files)
    edges.set(
      f,
      (await importsOf(f)).map((s) => resolveImport(f, s, known)).filter((t): t is string => t !== undefined),
    );
  const cycles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (f: string): void => {
    state.set(f, 'open');
    stack.push(f);
    for (const t of edges.get(f) ?? []) {
      if (state.get(t) === 'open') cycles.push(stack.slice(stack.indexOf(t)).map((x) => path.relative(ROOT, x)));
      else if (!state.has(t)) visit(t);
    }
    stack.pop();
    state.set(f, 'done');
  };
  for (const f of files) if (!state.has(f)) visit(f);
  return cycles;
}

describe('no import cycles', () => {
  it.each(['harness', 'reference-server', 'cli'])('%s/src has none', async (dir) => {
    const files = (await sources(path.join(ROOT, dir, 'src'))).filter(
      (f) => f.endsWith('.ts') && !f.endsWith('.test.ts'),
    );
    expect(await importCycles(files)).toEqual([]);
  });

  it('the finder finds one', async () => {
    // A self-check on two files of this repository that import each other only through the test's own fixture.
    const a = path.join(ROOT, 'test', 'fixtures', 'cycle-a.ts');
    const b = path.join(ROOT, 'test', 'fixtures', 'cycle-b.ts');
    expect(await importCycles([a, b])).toHaveLength(1);
  });
});

/** Lines of a source file a reader can hold in mind: the product's modules (not tests, not scripts) stay under this. */
const MAX_LINES = 300;

describe('shape', () => {
  it.each(['harness', 'reference-server', 'cli'])(`no module of %s/src is over ${MAX_LINES} lines`, async (dir) => {
    const long: string[] = [];
    for (const f of await sources(path.join(ROOT, dir, 'src'))) {
      if (f.endsWith('.test.ts')) continue;
      const lines = (await readFile(f, 'utf8')).split('\n').length - 1;
      if (lines > MAX_LINES) long.push(`${path.relative(ROOT, f)}: ${lines}`);
    }
    expect(long).toEqual([]);
  });

  it('the runner imports nothing of the model (the model builds on the runner; engine/ dispatches to either)', async () => {
    const crossing: string[] = [];
    for (const f of await sources(path.join(ROOT, 'harness', 'src', 'runner'))) {
      for (const spec of await importsOf(f))
        if (spec.includes('../model/') || spec.includes('../engine/'))
          crossing.push(`${path.relative(ROOT, f)} → ${spec}`);
    }
    expect(crossing).toEqual([]);
  });

  it('the test kits of the reference server live outside src/ (they do not ship in dist/)', async () => {
    const kits = (await sources(path.join(ROOT, 'reference-server', 'src'))).filter((f) =>
      /testkit/i.test(path.basename(f)),
    );
    expect(kits).toEqual([]);
  });
});
