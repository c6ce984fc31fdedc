/**
 * The build's cache of the bundled YAML (yaml-cache.ts): a suite loaded from it is the suite parsed from the files —
 * the same data, the same scenario lines — and a text that is not byte for byte a cached one is parsed as always.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { loadRulesSync, loadSuiteSync } from './load.js';
import { makeYamlCacheEntry, useYamlCacheFile, yamlCacheKey, yamlVersion, YAML_CACHE_FORMAT } from './yaml-cache.js';
import { parseYamlFresh, parseYamlSource } from './yaml-source.js';

const specs = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'specs');
const dir = mkdtempSync(path.join(os.tmpdir(), 'conform-yaml-cache-'));
const cacheFile = path.join(dir, 'yaml-cache.json');

afterAll(() => {
  useYamlCacheFile(null);
  rmSync(dir, { recursive: true, force: true });
});

/** The cache `npm run build` writes (scripts/yaml-cache.mjs), for the bundled files. */
function writeCache(extra: Record<string, unknown> = {}): number {
  const entries: Record<string, unknown> = {};
  for (const f of readdirSync(specs, { recursive: true }) as string[]) {
    if (!/\.ya?ml$/.test(f)) continue;
    const text = readFileSync(path.join(specs, f), 'utf8');
    const entry = makeYamlCacheEntry(parseYamlFresh(f, text));
    if (entry) entries[yamlCacheKey(text)] = entry;
  }
  writeFileSync(cacheFile, JSON.stringify({ format: YAML_CACHE_FORMAT, yaml: yamlVersion(), entries, ...extra }));
  return Object.keys(entries).length;
}

const load = () => {
  const rules = loadRulesSync(path.join(specs, 'rules.yaml'));
  return { rules: rules.rules, scenarios: loadSuiteSync([specs], rules).scenarios };
};

describe('the YAML cache', () => {
  it('gives the suite parsing gives: every scenario, field and line', () => {
    useYamlCacheFile(null);
    const parsed = load();
    expect(writeCache()).toBeGreaterThan(20);
    useYamlCacheFile(cacheFile);
    const cached = load();
    expect(cached.scenarios.length).toBeGreaterThan(100);
    expect(cached).toEqual(parsed);
  });

  it('serves a cached text, with fresh data each time, and parses any other text', () => {
    writeCache();
    useYamlCacheFile(cacheFile);
    const text = readFileSync(path.join(specs, 'rules.yaml'), 'utf8');
    const a = parseYamlSource('rules.yaml', text);
    const b = parseYamlSource('rules.yaml', text);
    expect(a.value).toEqual(parseYamlFresh('rules.yaml', text).value);
    expect(a.value).not.toBe(b.value);
    // Asked for a position it does not keep, it parses the file then: the same answer as a fresh parse.
    expect(a.locate(['rules', 3, 'id'])).toEqual(parseYamlFresh('rules.yaml', text).locate(['rules', 3, 'id']));
    expect(a.doc.errors).toEqual([]);
    const edited = parseYamlSource('rules.yaml', text.replace('rules:', 'rules: # edited'));
    expect(edited.doc).toBeDefined();
    expect(edited.value).toEqual(a.value);
    const broken = parseYamlSource('rules.yaml', `${text}\n  - : [`);
    expect(broken.syntaxIssues.length).toBeGreaterThan(0);
  });

  it('is not used when it was made with another YAML parser version or format', () => {
    writeCache({ yaml: '0.0.0-other' });
    useYamlCacheFile(cacheFile);
    const text = readFileSync(path.join(specs, 'rules.yaml'), 'utf8');
    // Unused: the source has its document at once (a cached one parses it only when asked).
    const source = parseYamlSource('rules.yaml', text);
    expect(Object.getOwnPropertyDescriptor(source, 'doc')?.get).toBeUndefined();
    writeCache();
    useYamlCacheFile(cacheFile);
    expect(Object.getOwnPropertyDescriptor(parseYamlSource('rules.yaml', text), 'doc')?.get).toBeDefined();
  });
});
