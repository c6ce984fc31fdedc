/**
 * The bundled YAML files (`specs/`), parsed at build time: `npm run build` writes `dist/yaml-cache.json`
 * (scripts/yaml-cache.mjs), and a run that reads a file whose text is byte for byte one of them takes its data and
 * its scenarios' positions from there instead of parsing it again. Parsing the bundled suite is about half a second
 * of every run's start (the YAML parser, cold), the time of hundreds of requests.
 *
 * Nothing but the text decides: an entry is found by the SHA-256 of the file's text, so an edited file, a file of
 * the user's own, or another version of the YAML parser (the cache names the one it was made with) is parsed as
 * always. A position the cache does not hold (an issue's, for an invalid file) is found by parsing then.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isDeepStrictEqual } from 'node:util';

/** What the cache holds for one text: its data (JSON) and the positions `locate` was asked for at build time. */
export interface YamlCacheEntry {
  value: string;
  /** `path` joined with NUL → [line, column]. */
  at: Record<string, [number, number]>;
}

export interface YamlCacheFile {
  format: number;
  /** The version of the `yaml` package the entries were parsed with. */
  yaml: string;
  entries: Record<string, YamlCacheEntry>;
}

/** Bumped when what an entry holds, or how a text is parsed (yaml-source.ts), changes. */
export const YAML_CACHE_FORMAT = 1;

/** Where the build puts the cache: `dist/yaml-cache.json`, beside the compiled `harness/`. */
export const YAML_CACHE_FILE = new URL('../../../yaml-cache.json', import.meta.url);

/** The installed `yaml` package's version. */
export function yamlVersion(): string {
  return (createRequire(import.meta.url)('yaml/package.json') as { version: string }).version;
}

/** The key of a text: its SHA-256. */
export function yamlCacheKey(text: string): string {
  return createHash('sha256').update(text).digest('base64url');
}

/** The key `locate(path)` is kept under. */
export function locationKey(path: ReadonlyArray<PropertyKey>): string {
  return path.map(String).join('\0');
}

let loaded: YamlCacheFile | null | undefined;
let from: URL | string = YAML_CACHE_FILE;

/** Reads the cache from `file` from now on (tests and tools; null: no cache at all). */
export function useYamlCacheFile(file: URL | string | null): void {
  from = file ?? '';
  loaded = file === null ? null : undefined;
}

/** The cache of this build, read once; null when there is none or it was made for another parser or format. */
function cacheFile(): YamlCacheFile | null {
  if (loaded !== undefined) return loaded;
  try {
    const c = JSON.parse(readFileSync(from, 'utf8')) as YamlCacheFile;
    loaded = c.format === YAML_CACHE_FORMAT && c.yaml === yamlVersion() && typeof c.entries === 'object' ? c : null;
  } catch {
    loaded = null;
  }
  return loaded;
}

/** The cached data of `text` (a fresh copy each time) and its kept positions, or undefined. */
export function cachedYaml(text: string): { value: unknown; at: YamlCacheEntry['at'] } | undefined {
  const entry = cacheFile()?.entries[yamlCacheKey(text)];
  return entry ? { value: JSON.parse(entry.value) as unknown, at: entry.at } : undefined;
}

/**
 * The entry the build keeps for a parsed file, or undefined when it must not be cached: a file with syntax issues, or
 * whose data JSON does not carry as it is. It keeps the positions a load asks for of a valid file: each scenario's.
 */
export function makeYamlCacheEntry(source: {
  value: unknown;
  syntaxIssues: readonly unknown[];
  locate(path: ReadonlyArray<PropertyKey>): { line: number; column: number };
}): YamlCacheEntry | undefined {
  if (source.syntaxIssues.length > 0) return undefined;
  const value = JSON.stringify(source.value);
  if (value === undefined || !isDeepStrictEqual(JSON.parse(value), source.value)) return undefined;
  const at: YamlCacheEntry['at'] = {};
  const scenarios = (source.value as { scenarios?: unknown } | null)?.scenarios;
  if (Array.isArray(scenarios))
    for (let i = 0; i < scenarios.length; i++) {
      const p = source.locate(['scenarios', i]);
      at[locationKey(['scenarios', i])] = [p.line, p.column];
    }
  return { value, at };
}
