/**
 * `auth.refusalStatus` reaches only what its words say — missing or wrong credentials (issue 33). A new user who writes
 * the statuses their service documents for that gets no failure where the service answers otherwise for other
 * reasons: the reference server refuses missing or wrong credentials with 401, another user's records with 403, and a
 * malformed OAuth 1 request (no nonce, an unsupported method) with 400 (RFC 5849 §3.2). Each profile below is one a
 * README could lead to; each passes whole.
 */
import { describe, expect } from 'vitest';
import { loadProfileSync } from '../harness/src/profile/load.js';
import { it } from './fixtures.js';
import { REFERENCE_PROFILE, runAgainst, useReferenceServer } from './helpers.js';

describe('auth.refusalStatus is about missing or wrong credentials only', () => {
  const server = useReferenceServer();

  it.each([[[400, 401]], [[401, 403]], [[401]]])('refusalStatus %j: nothing fails', async (statuses) => {
    const base = loadProfileSync(REFERENCE_PROFILE);
    const profile = { ...base, auth: { ...base.auth, refusalStatus: statuses } };
    const run = await runAgainst(server(), { profile, seed: 11, runs: 5 });
    expect(
      run.scenarios.filter((s) => s.status === 'failed' || s.status === 'errored').map((s) => [s.id, s.reason]),
    ).toEqual([]);
    // The owner-only scenarios ran (their 403s are authorization refusals, not the key's).
    for (const id of ['auth/records-owner-only', 'auth/records-owner-each-scheme'])
      expect(run.scenarios.find((s) => s.id === id)?.status).toBe('passed');
  });
});
