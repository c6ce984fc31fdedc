import { InvalidFileError } from '../errors.js';
import { readSourceSync } from '../suite/load.js';
import { issueAt, validateSource } from '../suite/validate.js';
import type { YamlSource } from '../suite/yaml-source.js';
import { ProfileSchema, resolveProfile, type ResolvedProfile } from './schema.js';
import type { SourceIssue } from '../errors.js';

/** How a profile's `${NAME}` references are read. */
export interface ProfileEnv {
  /** Where `${NAME}` is looked up (default `process.env`); `false` leaves every reference as written (`conform lint`). */
  env?: Readonly<Record<string, string | undefined>> | false;
}

const ENV_REFERENCE = /\$(\$)?\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * Replaces each `${NAME}` in the profile's strings by the environment variable NAME, so that passwords and secrets
 * stay out of the file and the repository (`$${NAME}` is a literal `${NAME}`). An unset variable is a located issue.
 */
export function expandEnv(
  source: YamlSource,
  env: Readonly<Record<string, string | undefined>>,
): { source: YamlSource; issues: SourceIssue[] } {
  const issues: SourceIssue[] = [];
  const walk = (v: unknown, at: Array<string | number>): unknown => {
    if (typeof v === 'string')
      return v.replace(ENV_REFERENCE, (whole, escaped: string | undefined, name: string) => {
        if (escaped) return whole.slice(1);
        const value = env[name];
        if (value === undefined)
          issues.push(
            issueAt(
              source,
              at,
              `the environment variable ${name} is not set (the profile refers to it as \${${name}})`,
            ),
          );
        return value ?? '';
      });
    if (Array.isArray(v)) return v.map((x, i) => walk(x, [...at, i]));
    if (v !== null && typeof v === 'object')
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, [...at, k])]));
    return v;
  };
  return { source: { ...source, value: walk(source.value, []) }, issues };
}

/** Validates a parsed profile; unknown keys and bad values are located issues. */
export function checkProfileSource(
  raw: YamlSource,
  { env = process.env }: ProfileEnv = {},
): { profile?: ResolvedProfile; issues: SourceIssue[] } {
  const expanded = env === false ? { source: raw, issues: [] } : expandEnv(raw, env);
  if (expanded.issues.length > 0) return { issues: expanded.issues };
  const source = expanded.source;
  const r = validateSource(source, ProfileSchema);
  if (!r.ok) return { issues: r.issues };
  const issues: SourceIssue[] = [];
  const names = new Set<string>();
  (r.value.users ?? []).forEach((u, i) => {
    if (names.has(u.name))
      issues.push({
        file: source.file,
        ...source.locate(['users', i, 'name']),
        path: `users.${i}.name`,
        message: `duplicate user "${u.name}"`,
      });
    names.add(u.name);
  });
  return { profile: resolveProfile(r.value, source.file), issues };
}

/** Loads a profile file (`${NAME}` read from the environment); throws InvalidFileError with file:line:col for each problem. */
export function loadProfileSync(file: string, options: ProfileEnv = {}): ResolvedProfile {
  const { profile, issues } = checkProfileSource(readSourceSync(file), options);
  if (issues.length > 0 || !profile) throw new InvalidFileError(issues);
  return profile;
}
