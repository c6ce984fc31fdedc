#!/usr/bin/env node
// Part of `npm run build`: parses the bundled YAML files (specs/**.yaml) once and writes dist/yaml-cache.json, which
// a run takes their data and scenario positions from when a file's text is unchanged (harness/src/suite/yaml-cache.ts).
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'dist', 'yaml-cache.json');
rmSync(out, { force: true });
const { makeYamlCacheEntry, yamlCacheKey, yamlVersion, YAML_CACHE_FORMAT } =
  await import('../dist/harness/src/suite/yaml-cache.js');
const { parseYamlFresh } = await import('../dist/harness/src/suite/yaml-source.js');

const files = readdirSync(path.join(root, 'specs'), { recursive: true })
  .filter((f) => /\.ya?ml$/.test(f))
  .sort();
const entries = {};
for (const f of files) {
  const text = readFileSync(path.join(root, 'specs', f), 'utf8');
  const entry = makeYamlCacheEntry(parseYamlFresh(f, text));
  if (entry) entries[yamlCacheKey(text)] = entry;
}
writeFileSync(out, JSON.stringify({ format: YAML_CACHE_FORMAT, yaml: yamlVersion(), entries }));
