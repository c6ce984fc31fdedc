/**
 * What every property run of a scenario finds the same — the scope's constants, what every check of an answer is
 * told — derived once, not for every run (a ×1000 scenario built them a thousand times).
 */
import { recordsPathOf } from '../profile/schema.js';
import { STANDARD_METHODS, chooseScheme } from './credentials.js';
import type { ExecDeps } from './exec-types.js';
import type { CheckContext } from './expect.js';
import { instanceNumbers } from './instances.js';
import { originsOf } from './step-checks.js';

export interface RunConstants {
  /** The scope every run starts from: copied by each run, never changed. */
  scope: Readonly<Record<string, unknown>>;
  /** What every check context of the scenario's answers holds besides the request's URLs and the scope. */
  checks: Readonly<Omit<CheckContext, 'requestUrl' | 'baseUrl' | 'render'>>;
}

/** The scopes by profile and base URLs: scenarios of one run share theirs. */
const constantScopes = new WeakMap<ExecDeps['profile'], Map<string, Readonly<Record<string, unknown>>>>();

function constantScope(deps: ExecDeps): Readonly<Record<string, unknown>> {
  const { profile, bases } = deps;
  let byBase = constantScopes.get(profile);
  if (!byBase) constantScopes.set(profile, (byBase = new Map()));
  const key = `${bases.primary} ${bases.tls ?? ''}`;
  let scope = byBase.get(key);
  if (!scope) {
    scope = {
      profile,
      target: bases.primary,
      methods: STANDARD_METHODS,
      users: profile.users.map((u) => u.name),
      recordsPath: recordsPathOf(profile),
      protectedPaths: profile.protected.map((r) => r.path),
      // The profile keys the file gives (`{{ declared | has: 'protected' }}`): what it describes, not defaults.
      declared: Object.fromEntries([...profile.declared].map((k) => [k, true])),
      // A scheme the plain listener cannot carry (TLS-only) is still the best one when a TLS base URL is known.
      bestScheme:
        chooseScheme(profile, bases.primary.startsWith('https:')) ??
        (bases.tls ? chooseScheme(profile, true) : undefined),
      instances: instanceNumbers(deps),
    };
    byBase.set(key, scope);
  }
  return scope;
}

/** By the deps a scenario's runs share (runner/scenario.ts makes them once per scenario). */
const byDeps = new WeakMap<ExecDeps, RunConstants & { profile: ExecDeps['profile']; bases: ExecDeps['bases'] }>();

/** The constants of the runs made with `deps` (made again should its profile or base URLs be another's). */
export function runConstants(deps: ExecDeps): RunConstants {
  const known = byDeps.get(deps);
  if (known && known.profile === deps.profile && known.bases === deps.bases) return known;
  const { profile } = deps;
  const checks: RunConstants['checks'] = {
    origins: originsOf(deps),
    optionalFields: profile.articles.optionalFields,
    textNormalization: profile.articles.textNormalization,
    ...(profile.auth.refusalStatus ? { refusalStatus: profile.auth.refusalStatus } : {}),
  };
  const made = { scope: constantScope(deps), checks, profile, bases: deps.bases };
  byDeps.set(deps, made);
  return made;
}
