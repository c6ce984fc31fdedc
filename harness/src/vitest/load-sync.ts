/**
 * Synchronous loading of the catalogue, scenario files and profiles, for test-collection time.
 *
 * Vitest registers tests while it *collects* a test file, so one `it` per scenario means the scenarios must be
 * known synchronously when `defineConformSuite` is called. These functions mirror the async loaders of
 * `spec/load.ts` and `profile/load.ts` (`readFileSync` instead of `readFile`) and reuse the same parse and
 * validate functions, so a file is accepted or rejected with exactly the same `file:line:col` messages.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConformError, InvalidFileError, type SourceIssue } from '../errors.js';
import { checkProfileSource } from '../profile/load.js';
import type { ResolvedProfile } from '../profile/schema.js';
import { checkScenarioSource, displayPath } from '../spec/load.js';
import { RuleFileSchema } from '../spec/schema.js';
import type { RuleCatalogue, Scenario, Suite } from '../spec/types.js';
import { issueAt, validateSource } from '../spec/validate.js';
import { parseYamlSource, type YamlSource } from '../spec/yaml-source.js';

/** The files that ship inside the `conform` package and serve as defaults. */
export interface BundledPaths {
  /** The package's own folder. */
  root: string;
  /** The scenario folder, `specs/`. */
  specs: string;
  /** The requirement catalogue, `specs/rules.yaml`. */
  rules: string;
  /** Known-answer vectors for the signer self-test, `specs/vectors/auth.yaml`. */
  vectors: string;
  /** The reference server's profile, `reference-server/profile.yaml`. */
  profile: string;
}

let bundled: BundledPaths | undefined;

/**
 * Locates the files bundled with the `conform` package, from sources (under vitest) as from `dist/` or
 * `node_modules/conform/dist/`: the nearest enclosing folder whose `package.json` is named `conform`.
 */
export function bundledPaths(): BundledPaths {
  if (bundled) return bundled;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 8; i++) {
    const pkg = path.join(dir, 'package.json');
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'conform') {
      bundled = {
        root: dir,
        specs: path.join(dir, 'specs'),
        rules: path.join(dir, 'specs', 'rules.yaml'),
        vectors: path.join(dir, 'specs', 'vectors', 'auth.yaml'),
        profile: path.join(dir, 'reference-server', 'profile.yaml'),
      };
      return bundled;
    }
    dir = path.dirname(dir);
  }
  throw new ConformError('CONFORM_INTERNAL', 'cannot find the conform package folder (its package.json) above ' + fileURLToPath(import.meta.url));
}

/** Reads and parses one YAML file synchronously (the sync twin of `readSource`). */
export function readSourceSync(file: string): YamlSource {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new ConformError('CONFORM_IO', `cannot read ${file}: ${(err as Error).message}`, { cause: err });
  }
  return parseYamlSource(displayPath(file), text);
}

/** Loads and checks the requirement catalogue synchronously (the sync twin of `loadRules`). */
export function loadRulesSync(file: string): RuleCatalogue {
  const source = readSourceSync(file);
  const result = validateSource(source, RuleFileSchema);
  if (!result.ok) throw new InvalidFileError(result.issues);
  const byId = new Map<string, (typeof result.value.rules)[number]>();
  const issues: SourceIssue[] = [];
  result.value.rules.forEach((rule, i) => {
    if (byId.has(rule.id)) issues.push(issueAt(source, ['rules', i, 'id'], `duplicate rule id "${rule.id}"`));
    byId.set(rule.id, rule);
  });
  if (issues.length > 0) throw new InvalidFileError(issues);
  return { file: source.file, rules: result.value.rules, byId };
}

/** One scenario file found under a root the caller named (the root is kept to label the file). */
export interface ScenarioFile {
  file: string;
  /** The file's path relative to the folder it was found in, or its base name when it was named directly. */
  label: string;
}

/**
 * Expands files and folders into scenario files, synchronously and in the same order as `findScenarioFiles`:
 * `.yaml`/`.yml`, sorted per folder, `rules.yaml`, `*.profile.yaml`, `schema/`, `vectors/` and dot-folders left out.
 */
export function findScenarioFilesSync(paths: readonly string[]): ScenarioFile[] {
  const out: ScenarioFile[] = [];
  const seen = new Set<string>();
  const add = (file: string, label: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    out.push({ file, label: label.split(path.sep).join('/') });
  };
  const walk = (root: string, p: string, depth: number): void => {
    let st;
    try {
      st = statSync(p);
    } catch {
      throw new ConformError('CONFORM_USAGE', `no such file or folder: ${p}`);
    }
    if (st.isFile()) {
      add(p, p === root ? path.basename(p) : path.relative(root, p));
      return;
    }
    if (depth > 16) return;
    const entries = readdirSync(p, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
    for (const e of entries) {
      const full = path.join(p, e.name);
      if (e.isDirectory()) {
        if (!['schema', 'vectors', 'node_modules'].includes(e.name) && !e.name.startsWith('.')) walk(root, full, depth + 1);
      } else if (/\.ya?ml$/.test(e.name) && e.name !== 'rules.yaml' && !e.name.endsWith('.profile.yaml')) {
        add(full, path.relative(root, full));
      }
    }
  };
  for (const p of paths) walk(p, p, 0);
  return out;
}

/** A suite loaded at collection time, with each scenario's file label (for grouping tests). */
export interface LoadedSuite extends Suite {
  /** Scenario id → label of the file it came from (see `ScenarioFile.label`). */
  fileLabels: ReadonlyMap<string, string>;
}

/** Loads every scenario under `paths` synchronously; throws InvalidFileError listing every problem in every file. */
export function loadSuiteSync(paths: readonly string[], catalogue: RuleCatalogue): LoadedSuite {
  const issues: SourceIssue[] = [];
  const scenarios: Scenario[] = [];
  const seen = new Map<string, Scenario>();
  const fileLabels = new Map<string, string>();
  for (const { file, label } of findScenarioFilesSync(paths)) {
    const source = readSourceSync(file);
    const r = checkScenarioSource(source, catalogue);
    issues.push(...r.issues);
    for (const [i, sc] of r.scenarios.entries()) {
      const prev = seen.get(sc.id);
      if (prev) issues.push(issueAt(source, ['scenarios', i, 'id'], `duplicate scenario id "${sc.id}" (also ${prev.file}:${prev.line})`));
      seen.set(sc.id, sc);
      scenarios.push(sc);
      fileLabels.set(sc.id, label);
    }
  }
  if (issues.length > 0) throw new InvalidFileError(issues);
  return { scenarios, catalogue, fileLabels };
}

/** Loads a profile file synchronously (the sync twin of `loadProfile`); throws InvalidFileError with file:line:col. */
export function loadProfileSync(file: string): ResolvedProfile {
  const { profile, issues } = checkProfileSource(readSourceSync(file));
  if (issues.length > 0 || !profile) throw new InvalidFileError(issues);
  return profile;
}
