/**
 * The profile of a reference server running with variants: the profile file's data with each variant's patch applied
 * (reference-server/src/variants.ts), validated like any profile file.
 */
import { stringify } from 'yaml';
import { InvalidFileError } from '../../harness/src/errors.js';
import { checkProfileSource, loadProfileSync, type ProfileEnv } from '../../harness/src/profile/load.js';
import type { ResolvedProfile } from '../../harness/src/profile/schema.js';
import { readSourceSync } from '../../harness/src/suite/load.js';
import { parseYamlSource } from '../../harness/src/suite/yaml-source.js';
import {
  applyProfilePatch,
  variantProfile,
  type ProfilePatch,
  type VariantName,
} from '../../reference-server/src/variants.js';

/**
 * The profile YAML text of `file` with the patches of `variants` applied, then `extra` (for example the listening
 * URLs); the file's comments are not kept.
 */
export function variantProfileText(file: string, variants: readonly VariantName[], extra: ProfilePatch = {}): string {
  return stringify(applyProfilePatch(variantProfile(readSourceSync(file).value, variants), extra));
}

/** A profile given as text (`--profile -`), validated like a file; throws InvalidFileError as loadProfileSync does. */
export function profileFromText(name: string, text: string, options: ProfileEnv = {}): ResolvedProfile {
  const { profile, issues } = checkProfileSource(parseYamlSource(name, text), options);
  if (issues.length > 0 || !profile) throw new InvalidFileError(issues);
  return profile;
}

/** `file` as a resolved profile, with the patches of `variants` applied; throws InvalidFileError as loadProfileSync does. */
export function loadVariantProfile(
  file: string,
  variants: readonly VariantName[],
  options: ProfileEnv = {},
): ResolvedProfile {
  if (variants.length === 0) return loadProfileSync(file, options);
  const { profile, issues } = checkProfileSource(
    parseYamlSource(`${file} (variants: ${variants.join(', ')})`, variantProfileText(file, variants)),
    options,
  );
  if (issues.length > 0 || !profile) throw new InvalidFileError(issues);
  return profile;
}
