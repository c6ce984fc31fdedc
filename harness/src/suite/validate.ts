import type { z } from 'zod';
import { closest } from './closest.js';
import type { SourceIssue } from '../errors.js';
import type { YamlSource } from './yaml-source.js';

type ZodIssue = z.core.$ZodIssue;

/** Validates parsed YAML against a schema; every issue is located at file:line:col. */
export function validateSource<S extends z.ZodType>(
  source: YamlSource,
  schema: S,
): { ok: true; value: z.infer<S> } | { ok: false; issues: SourceIssue[] } {
  if (source.syntaxIssues.length > 0) return { ok: false, issues: source.syntaxIssues };
  const result = schema.safeParse(source.value);
  if (result.success) return { ok: true, value: result.data };
  const issues = result.error.issues.flatMap((i) => flatten(i, [])).map((i) => locateIssue(source, i.path, i, schema));
  return { ok: false, issues: dedupe(issues) };
}

/** Locates a message at a path of the source (used for checks beyond the schema, too). */
export function issueAt(
  source: YamlSource,
  path: ReadonlyArray<PropertyKey>,
  message: string,
  key?: string,
): SourceIssue {
  return { file: source.file, ...source.locate(path, key), path: path.map(String).join('.'), message };
}

function locateIssue(source: YamlSource, path: PropertyKey[], issue: ZodIssue, schema?: z.ZodType): SourceIssue {
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0] ?? '';
    const known = schema === undefined ? [] : keysAt(schema, path);
    const near = issue.keys.length === 1 ? closest(key, known) : undefined;
    return issueAt(
      source,
      path,
      `unknown key "${issue.keys.join('", "')}"${near ? ` (did you mean "${near}"?)` : ''}`,
      key,
    );
  }
  return issueAt(
    source,
    path,
    `${path.length ? `${path.map(String).join('.')}: ` : ''}${message(issue, has(source.value, path))}`,
  );
}

function has(value: unknown, path: readonly PropertyKey[]): boolean {
  let v = value;
  for (const seg of path) {
    if (v === null || typeof v !== 'object' || !Object.hasOwn(v, seg as string)) return false;
    v = (v as Record<string, unknown>)[seg as string];
  }
  return v !== undefined;
}

function message(issue: ZodIssue, present: boolean): string {
  if (issue.code === 'invalid_type')
    return present ? `expected ${issue.expected}` : `required (expected ${issue.expected})`;
  if (issue.code === 'invalid_value') return `expected one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
  return issue.message;
}

/** Unions: report the branch that got furthest instead of zod's bare "Invalid input". */
function flatten(issue: ZodIssue, prefix: PropertyKey[]): Array<ZodIssue & { path: PropertyKey[] }> {
  const path = [...prefix, ...issue.path];
  if (issue.code === 'invalid_union' && issue.errors.length > 0) {
    const branches = issue.errors.map((errs) => errs.flatMap((e) => flatten(e, path)));
    const depth = (errs: Array<{ path: PropertyKey[]; code: string }>) =>
      Math.max(...errs.map((e) => e.path.length + (e.code === 'invalid_type' ? 0 : 0.5)));
    const best = branches.reduce((a, b) => (depth(b) > depth(a) ? b : a));
    // When no branch got past the value's own type, say what the value may be.
    if (depth(best) <= path.length) {
      const kinds = [...new Set(branches.flat().map((e) => ('expected' in e ? String(e.expected) : 'value')))];
      return [
        {
          ...issue,
          code: 'custom',
          message: `expected ${kinds.join(' or ')}`,
          expected: kinds.join(' or '),
          path,
        } as unknown as ZodIssue & { path: PropertyKey[] },
      ];
    }
    return best;
  }
  return [{ ...issue, path }];
}

function dedupe(issues: SourceIssue[]): SourceIssue[] {
  const seen = new Set<string>();
  return issues.filter((i) => {
    const k = `${i.line}:${i.column}:${i.message}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** The keys an object schema at `path` of `schema` allows (through optional, default, array and union wrappers). */
export function keysAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  type Def = {
    type: string;
    innerType?: z.ZodType;
    element?: z.ZodType;
    options?: z.ZodType[];
    shape?: Record<string, z.ZodType>;
  };
  const defOf = (s: z.ZodType) => (s as unknown as { _zod: { def: Def } })._zod.def;
  const objects = (s: z.ZodType, depth = 0): Array<Record<string, z.ZodType>> => {
    if (depth > 8) return [];
    const d = defOf(s);
    if (d.shape) return [d.shape];
    if (d.innerType) return objects(d.innerType, depth + 1);
    if (d.options) return d.options.flatMap((o) => objects(o, depth + 1));
    return [];
  };
  let current: z.ZodType[] = [schema];
  for (const seg of path) {
    const next: z.ZodType[] = [];
    for (const s of current) {
      let d = defOf(s);
      let t: z.ZodType = s;
      for (let i = 0; i < 8 && d.innerType; i++) {
        t = d.innerType;
        d = defOf(t);
      }
      if (typeof seg === 'number' || /^\d+$/.test(String(seg))) {
        if (d.element) next.push(d.element);
        else if (d.options) next.push(...d.options.map((o) => defOf(o).element).filter((e): e is z.ZodType => !!e));
        continue;
      }
      for (const shape of objects(t)) if (shape[String(seg)]) next.push(shape[String(seg)]!);
    }
    current = next;
  }
  return [...new Set(current.flatMap((s) => objects(s).flatMap((shape) => Object.keys(shape))))];
}
