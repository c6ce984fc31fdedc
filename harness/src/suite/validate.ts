import type { z } from 'zod';
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
  const issues = result.error.issues.flatMap((i) => flatten(i, [])).map((i) => locateIssue(source, i.path, i));
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

function locateIssue(source: YamlSource, path: PropertyKey[], issue: ZodIssue): SourceIssue {
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0] ?? '';
    return issueAt(source, path, `unknown key "${issue.keys.join('", "')}"`, key);
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
