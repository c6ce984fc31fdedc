import { InvalidFileError } from '../errors.js';
import { readSourceSync } from '../suite/load.js';
import { validateSource } from '../suite/validate.js';
import type { YamlSource } from '../suite/yaml-source.js';
import { ProfileSchema, resolveProfile, type ResolvedProfile } from './schema.js';
import type { SourceIssue } from '../errors.js';

/** Validates a parsed profile; unknown keys and bad values are located issues. */
export function checkProfileSource(source: YamlSource): { profile?: ResolvedProfile; issues: SourceIssue[] } {
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

/** Loads a profile file; throws InvalidFileError with file:line:col for each problem. */
export function loadProfileSync(file: string): ResolvedProfile {
  const { profile, issues } = checkProfileSource(readSourceSync(file));
  if (issues.length > 0 || !profile) throw new InvalidFileError(issues);
  return profile;
}
