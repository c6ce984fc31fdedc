/**
 * The published package (issue 27): what `npm pack` would put in the tarball, and what a consumer's npm would run.
 * `npm run pack:check` goes further (installs the tarball in a new project and runs it; it needs the registry).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './helpers.js';

interface Manifest {
  name: string;
  bin: Record<string, string>;
  scripts: Record<string, string>;
  exports: Record<string, string | { types: string; default: string }>;
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
}
const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as Manifest;
// dist/ is there: the e2e project's global setup builds it when missing or stale.
const files = (
  JSON.parse(
    execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }),
  ) as Array<{ files: Array<{ path: string }> }>
)[0]!.files.map((f) => f.path);

describe('the package', () => {
  it('has a scoped name that installs the conform command, and no script a consumer would run', () => {
    expect(manifest.name).toMatch(/^@[a-z0-9-]+\/conform$/);
    expect(Object.keys(manifest.bin)).toEqual(['conform']);
    expect(
      ['preinstall', 'install', 'postinstall', 'prepare'].filter((s) => manifest.scripts[s] !== undefined),
    ).toEqual([]);
    expect(manifest.scripts['prepack']).toContain('build');
  });

  it('ships the build, the specs, the docs and examples, the licence and the changelog — no tests, test kits or TypeScript sources', () => {
    for (const needed of [
      'LICENSE',
      'CHANGELOG.md',
      'README.md',
      'bin/conform.js',
      'docs/rules.md',
      'docs/spec.md',
      'docs/profile-keys.md',
      'specs/rules.yaml',
      'reference-server/profile.yaml',
    ])
      expect(files).toContain(needed);
    const code = files.filter((f) => !f.startsWith('examples/'));
    expect(
      code.filter((f) => /\.test\.|testkit|(^|\/)test\//.test(f) || (f.endsWith('.ts') && !f.endsWith('.d.ts'))),
    ).toEqual([]);
    expect(files).toContain('examples/vitest/conform.test.ts');
  });

  it('every export and the bin point at a file in the tarball', () => {
    const targets = Object.entries(manifest.exports).flatMap(([key, t]) =>
      key.includes('*') ? [] : typeof t === 'string' ? [t] : [t.types, t.default],
    );
    const missing = [...targets, ...Object.values(manifest.bin)]
      .map((t) => t.replace(/^\.\//, ''))
      .filter((t) => !files.includes(t));
    expect(missing).toEqual([]);
    expect(
      files.filter((f) => f.startsWith('specs/schema/') && f.endsWith('.schema.json')).length,
    ).toBeGreaterThanOrEqual(4);
  });

  it('ioredis is optional: a peer only serve --redis loads', () => {
    expect(manifest.dependencies['ioredis']).toBeUndefined();
    expect(manifest.peerDependencies['ioredis']).toBeDefined();
    expect(manifest.peerDependenciesMeta['ioredis']?.optional).toBe(true);
  });

  it('every relative link of a shipped Markdown file resolves inside the tarball', () => {
    const broken: string[] = [];
    for (const md of files.filter((f) => f.endsWith('.md'))) {
      const text = readFileSync(path.join(ROOT, md), 'utf8');
      for (const m of text.matchAll(/\]\(([^)\s#]+)(?:#[^)]*)?\)/g)) {
        const link = m[1]!;
        if (/^[a-z]+:/i.test(link)) continue;
        const target = path.posix.normalize(path.posix.join(path.posix.dirname(md), link)).replace(/\/$/, '');
        if (!files.includes(target) && !files.some((f) => f.startsWith(`${target}/`))) broken.push(`${md} → ${link}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
