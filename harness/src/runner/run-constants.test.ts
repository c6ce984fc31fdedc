import { describe, expect, it } from 'vitest';
import { loadProfileSync } from '../profile/load.js';
import { bundledPaths } from '../paths.js';
import type { ExecDeps } from './exec-types.js';
import { runConstants } from './run-constants.js';

const profile = loadProfileSync(bundledPaths().profile);
const depsOf = (primary: string, p = profile) =>
  ({ profile: p, bases: { primary, plain: primary } }) as unknown as ExecDeps;

describe('the constants of a scenario’s runs', () => {
  it('are derived once for the runs of one scenario, from its profile and base URL', () => {
    const deps = depsOf('http://127.0.0.1:8080');
    const first = runConstants(deps);
    expect(runConstants(deps)).toBe(first);
    expect(first.scope['target']).toBe('http://127.0.0.1:8080');
    expect(first.checks.origins?.own).toContain('http://127.0.0.1:8080');
    expect(first.checks.optionalFields).toBe(profile.articles.optionalFields);
    expect('refusalStatus' in first.checks).toBe(profile.auth.refusalStatus !== undefined);
  });

  it('are derived again when the deps carry another base URL or profile', () => {
    const deps = depsOf('http://127.0.0.1:8080') as { bases: ExecDeps['bases']; profile: ExecDeps['profile'] };
    const first = runConstants(deps as ExecDeps);
    deps.bases = { primary: 'http://127.0.0.1:9090', plain: 'http://127.0.0.1:9090' };
    const moved = runConstants(deps as ExecDeps);
    expect(moved).not.toBe(first);
    expect(moved.scope['target']).toBe('http://127.0.0.1:9090');
    expect(moved.checks.origins?.own).not.toContain('http://127.0.0.1:8080');
    const refusing = { ...profile, auth: { ...profile.auth, refusalStatus: [401, 403] } };
    deps.profile = refusing;
    expect(runConstants(deps as ExecDeps).checks.refusalStatus).toEqual([401, 403]);
  });
});
