/** Loads the rule catalogue and scenario files: YAML → validated, typed values, or every issue with file:line:col. */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { ConformError, InvalidFileError, type SourceIssue } from '../errors.js';
import { GENERATORS } from '../generators/registry.js';
import { MODEL_RULES } from '../model/articles.js';
import { isKnownCapability } from '../profile/capabilities.js';
import { RuleFileSchema, ScenarioFileSchema, type Level, type ScenarioData } from './schema.js';
import { checkScenarioTemplates } from './check-templates.js';
import type { RuleCatalogue, Scenario, Suite } from './types.js';
import { issueAt, validateSource } from './validate.js';
import { parseYamlSource, type YamlSource } from './yaml-source.js';

const LEVEL_RANK: Record<Level, number> = { MUST: 3, SHOULD: 2, MAY: 1 };

/**
 * Reads and parses one YAML file. Synchronous at its core: vitest registers tests while it collects a file, so
 * `conform/vitest` must load scenarios synchronously; the async forms below wrap these for everyone else.
 */
export function readSourceSync(file: string): YamlSource {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new ConformError('CONFORM_IO', `cannot read ${file}: ${(err as Error).message}`, { cause: err });
  }
  return parseYamlSource(displayPath(file), text);
}

export function displayPath(file: string): string {
  const rel = path.relative(process.cwd(), file);
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : file;
}

/** Loads and checks the requirement catalogue (`specs/rules.yaml`). */
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

/** One scenario file, and its path relative to the folder it was found in (its base name when named directly). */
export interface ScenarioFile {
  file: string;
  label: string;
}

/**
 * Expands files and folders into the scenario files under them, sorted per folder: `.yaml`/`.yml`, leaving out
 * `rules.yaml`, `*.profile.yaml`, `schema/`, `vectors/`, `node_modules/` and dot-folders.
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
        if (!['schema', 'vectors', 'node_modules'].includes(e.name) && !e.name.startsWith('.'))
          walk(root, full, depth + 1);
      } else if (/\.ya?ml$/.test(e.name) && e.name !== 'rules.yaml' && !e.name.endsWith('.profile.yaml')) {
        add(full, path.relative(root, full));
      }
    }
  };
  for (const p of paths) walk(p, p, 0);
  return out;
}

/** Validates one scenario file's text; returns scenarios and issues (both may be non-empty). */
export function checkScenarioSource(
  source: YamlSource,
  catalogue: RuleCatalogue,
): { scenarios: Scenario[]; issues: SourceIssue[] } {
  const result = validateSource(source, ScenarioFileSchema);
  if (!result.ok) return { scenarios: [], issues: result.issues };
  const issues: SourceIssue[] = [];
  const scenarios = result.value.scenarios.map((s, i) =>
    toScenario(source, s, i, result.value.tags ?? [], catalogue, issues),
  );
  return { scenarios, issues };
}

function toScenario(
  source: YamlSource,
  s: ScenarioData,
  index: number,
  fileTags: string[],
  catalogue: RuleCatalogue,
  issues: SourceIssue[],
): Scenario {
  const at = (p: PropertyKey[], message: string) => issues.push(issueAt(source, ['scenarios', index, ...p], message));
  let level: Level | undefined = s.level;
  let serverRules = 0;
  s.rules.forEach((id, r) => {
    const rule = catalogue.byId.get(id);
    if (!rule) return at(['rules', r], `unknown rule "${id}" (not in ${catalogue.file})`);
    if (rule.retired) at(['rules', r], `rule "${id}" is retired`);
    // A client or deployment rule is listed for the record; it never raises the level of a check on a server.
    if (rule.subject !== undefined && rule.subject !== 'server') return;
    serverRules++;
    if (!s.level && (!level || LEVEL_RANK[rule.level] > LEVEL_RANK[level])) level = rule.level;
  });
  if (serverRules === 0 && s.rules.every((id) => catalogue.byId.has(id))) {
    at(
      ['rules'],
      'a scenario checks a server: list at least one rule whose subject is the server (client and deployment rules do not set its level)',
    );
  }
  (s.requires ?? []).forEach((cap, r) => {
    if (!isKnownCapability(cap)) at(['requires', r], `unknown capability "${cap}"`);
  });
  if ((s.steps === undefined) === (s.model === undefined))
    at(s.model ? ['model'] : [], 'a scenario has either steps or a model');
  if (s.model) {
    const missing = MODEL_RULES.filter((id) => !s.rules.includes(id));
    if (missing.length > 0)
      at(['rules'], `a model scenario lists every rule its commands can fail: add ${missing.join(', ')}`);
  }
  if (s.model && s.given !== undefined) at(['given'], 'a model scenario draws its own values: no given');
  (s.steps ?? []).forEach((step, i) => {
    const r = step.rules;
    if (r === undefined) return;
    const lists: [PropertyKey[], string[]][] = Array.isArray(r)
      ? [[[], r]]
      : Object.entries(r).map(([check, ids]) => [[check], ids ?? []]);
    for (const [where, ids] of lists) {
      ids.forEach((id, k) => {
        if (!s.rules.includes(id))
          at(
            ['steps', i, 'rules', ...where, k],
            `step rule "${id}" is not one of the scenario's rules (${s.rules.join(', ')})`,
          );
      });
    }
  });
  const given: Scenario['given'] = [];
  for (const [name, g] of Object.entries(s.given ?? {})) {
    const gen = typeof g === 'string' ? g : g.gen;
    const options = typeof g === 'string' ? {} : (g.options ?? {});
    const def = GENERATORS[gen];
    if (!def) {
      at(['given', name], `unknown generator "${gen}" (known: ${Object.keys(GENERATORS).join(', ')})`);
      continue;
    }
    const parsed = def.options.safeParse(options);
    if (!parsed.success)
      at(
        ['given', name, 'options'],
        `bad options for generator "${gen}": ${parsed.error.issues.map((x) => x.message).join('; ')}`,
      );
    given.push({ name, gen, options });
  }
  for (const issue of checkScenarioTemplates(s)) at(issue.path, issue.message);
  const start = source.locate(['scenarios', index]);
  const common = {
    id: s.id,
    title: s.title,
    ...(s.description !== undefined ? { description: s.description } : {}),
    file: source.file,
    line: start.line,
    rules: s.rules,
    level: level ?? 'MUST',
    tags: [...fileTags, ...(s.tags ?? [])],
    requires: s.requires ?? [],
    given,
    ...(s.runs !== undefined ? { runs: s.runs } : {}),
    property: given.length > 0 || s.model !== undefined,
    exclusive: s.exclusive ?? false,
    ruleLevels: Object.fromEntries(
      s.rules.flatMap((id) => (catalogue.byId.has(id) ? [[id, catalogue.byId.get(id)!.level]] : [])),
    ),
  };
  // The kinds are exclusive (checked above): a model, or written steps.
  if (s.model) return { ...common, kind: 'model', model: s.model };
  return {
    ...common,
    kind: 'steps',
    let: Object.entries(s.let ?? {}).map(([name, template]) => ({ name, template })),
    steps: s.steps ?? [],
  };
}

/** A loaded suite, with each scenario's file label (for grouping, e.g. in `conform/vitest`). */
export interface LoadedSuite extends Suite {
  /** Scenario id → label of the file it came from (see `ScenarioFile.label`). */
  fileLabels: ReadonlyMap<string, string>;
}

/** Loads every scenario under `paths`; throws InvalidFileError listing every problem in every file. */
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
      if (prev)
        issues.push(
          issueAt(source, ['scenarios', i, 'id'], `duplicate scenario id "${sc.id}" (also ${prev.file}:${prev.line})`),
        );
      seen.set(sc.id, sc);
      scenarios.push(sc);
      fileLabels.set(sc.id, label);
    }
  }
  if (issues.length > 0) throw new InvalidFileError(issues);
  return { scenarios, catalogue, fileLabels };
}
