/**
 * No link leaves the repository, and none is broken: every relative link of every Markdown file (but
 * node_modules/, dist/, reports/) and every docs/ link in the generated JSON Schemas resolves to a file of the
 * repository; a `#fragment` into a Markdown file names one of its headings (GitHub's anchors). Links to other sites
 * (http, https, mailto) are not checked.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { markdownAnchors } from '../cli/src/docs/slug.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'reports', '.git']);

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (e.isDirectory())
      return SKIPPED_DIRS.has(e.name) || e.name.startsWith('.stryker-tmp') ? [] : markdownFiles(path.join(dir, e.name));
    return e.name.endsWith('.md') ? [path.join(dir, e.name)] : [];
  });
}

/** The link targets of a Markdown text, with their lines: inline links and images, and reference definitions; never inside code. */
function markdownLinks(text: string): Array<{ target: string; line: number }> {
  const links: Array<{ target: string; line: number }> = [];
  let fence: string | undefined;
  text.split('\n').forEach((raw, i) => {
    const f = /^ {0,3}(`{3,}|~{3,})/.exec(raw);
    if (f) {
      const marker = f[1] ?? '';
      if (fence === undefined) fence = marker;
      else if (marker[0] === fence[0] && marker.length >= fence.length) fence = undefined;
      return;
    }
    if (fence !== undefined) return;
    const line = raw.replace(/(`+)(?:(?!\1)[\s\S])*?\1/g, '');
    for (const m of line.matchAll(/\]\(\s*(<[^>]*>|[^)\s]+)(?:\s+"[^"]*")?\s*\)/g))
      links.push({ target: (m[1] ?? '').replace(/^<|>$/g, ''), line: i + 1 });
    const def = /^ {0,3}\[[^\]]+\]:\s*(\S+)/.exec(line);
    if (def) links.push({ target: def[1] ?? '', line: i + 1 });
  });
  return links;
}

const anchorCache = new Map<string, Set<string>>();
function anchorsOf(file: string): Set<string> {
  let anchors = anchorCache.get(file);
  if (!anchors) anchorCache.set(file, (anchors = markdownAnchors(readFileSync(file, 'utf8'))));
  return anchors;
}

/** Why a link from `from` (a file) to `target` does not resolve, or undefined when it does. */
function brokenLink(from: string, target: string, base = path.dirname(from)): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target))
    return /^(https?|mailto):/i.test(target) ? undefined : `unexpected scheme in ${target}`;
  const [rawPath = '', fragment] = target.split('#', 2);
  const file = rawPath === '' ? from : path.resolve(base, decodeURIComponent(rawPath));
  const rel = path.relative(ROOT, file);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return `${target} leaves the repository`;
  if (!existsSync(file)) return `${target}: no such file`;
  if (
    fragment !== undefined &&
    fragment !== '' &&
    file.endsWith('.md') &&
    !anchorsOf(file).has(decodeURIComponent(fragment))
  )
    return `${target}: no heading with the anchor #${fragment} in ${rel}`;
  return undefined;
}

describe('links', () => {
  const files = markdownFiles(ROOT);

  it('finds the Markdown files', () => {
    const rel = files.map((f) => path.relative(ROOT, f));
    expect(rel).toContain('README.md');
    expect(rel).toContain(path.join('docs', 'README.md'));
  });

  for (const file of files) {
    it(`every relative link of ${path.relative(ROOT, file)} resolves`, () => {
      const broken = markdownLinks(readFileSync(file, 'utf8')).flatMap(({ target, line }) => {
        const why = brokenLink(file, target);
        return why === undefined ? [] : [`${path.relative(ROOT, file)}:${line}: ${why}`];
      });
      expect(broken).toEqual([]);
    });
  }

  it('every docs/ link in specs/schema/*.json resolves (from the repository root)', () => {
    const dir = path.join(ROOT, 'specs', 'schema');
    const broken: string[] = [];
    let count = 0;
    for (const name of readdirSync(dir).filter((n) => n.endsWith('.json'))) {
      const text = readFileSync(path.join(dir, name), 'utf8');
      for (const m of text.matchAll(/(?<![\w/.-])(?:\.\.\/)*docs\/[\w./-]*[\w](?:#[\w-]+)?/g)) {
        count++;
        const why = brokenLink(path.join(dir, name), m[0], ROOT);
        if (why !== undefined) broken.push(`specs/schema/${name}: ${why}`);
      }
    }
    expect(count).toBeGreaterThan(0);
    expect([...new Set(broken)]).toEqual([]);
  });

  it('the checker itself: finds links outside code, resolves anchors, refuses what leaves the repository', () => {
    expect(
      markdownLinks('see [a](x.md#y) and `[b](no.md)`\n```\n[c](no.md)\n```\n[d]: ref.md\n![i](<img one.png> "t")').map(
        (l) => l.target,
      ),
    ).toEqual(['x.md#y', 'ref.md', 'img one.png']);
    const readme = path.join(ROOT, 'README.md');
    expect(brokenLink(readme, 'docs/spec.md')).toBeUndefined();
    expect(brokenLink(readme, 'https://example.com/x')).toBeUndefined();
    expect(brokenLink(readme, '../shared/SPEC.md')).toMatch(/leaves the repository/);
    expect(brokenLink(readme, 'docs/nothing.md')).toMatch(/no such file/);
    expect(brokenLink(readme, 'docs/spec.md#no-such-heading')).toMatch(/no heading/);
    expect(brokenLink(readme, 'docs/spec.md#41-put-on-a-known-resource-url')).toBeUndefined();
  });
});
