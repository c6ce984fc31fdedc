/**
 * Issue 33, item 5: OAuth 1 protocol parameters go in a form body only on requests whose content is form-encoded
 * (RFC 5849 §3.5.2) — never in the body of a GET (RFC 9110 §9.3.1). A correct server that refuses GET content
 * (variant get-content-refused) passes; a server that leaves the query's other parameters unsigned when the protocol
 * parameters travel in the query (fault oauth1-query-placement-others-unsigned) is caught, and the shrunk
 * counterexample shows that defect: the protocol parameters in the query, beside another query parameter.
 */
import { describe, expect, it } from 'vitest';
import { createAuthenticator } from '../harness/src/auth/authenticator.js';
import { loadProfileSync } from '../harness/src/profile/load.js';
import { REFERENCE_PROFILE, runAgainst, withReferenceServer } from './helpers.js';

const ID = 'auth/oauth1-parameters-fuzzed';

describe('OAuth 1 form placement', () => {
  const auth = createAuthenticator({ profile: loadProfileSync(REFERENCE_PROFILE) });
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  const placed = (method: string, body?: string, headers: Record<string, string> = {}) =>
    auth.apply(
      { method, url: 'https://h.example/r?a=1', headers, ...(body === undefined ? {} : { body }) },
      'oauth1',
      'alice',
      {
        token: 't',
        tokenSecret: 's',
        placement: 'form',
      },
    );

  it('is refused for a GET, a HEAD, a DELETE, and a request whose content is not a form', () => {
    for (const method of ['GET', 'HEAD', 'DELETE']) expect(placed(method).ok).toBe(false);
    expect(placed('PUT', '<article/>', { 'content-type': 'application/xml' }).ok).toBe(false);
  });

  it('puts the parameters in the form body of a POST (a new one, or the one it carries)', () => {
    const empty = placed('POST');
    const carried = placed('POST', 'x=1', form);
    expect(empty.ok && empty.request.body).toMatch(/^oauth_consumer_key=/);
    expect(carried.ok && carried.request.body).toMatch(/^x=1&oauth_consumer_key=/);
  });
});

describe(`${ID} and where the protocol parameters travel`, () => {
  it('passes against a server that refuses GET content (get-content-refused), with the reference placements', async () => {
    await withReferenceServer({ variants: ['get-content-refused'] }, async (server) => {
      const run = await runAgainst(server, { filter: [ID], seed: 7, runs: 30 });
      const r = run.scenarios.find((s) => s.id === ID);
      expect(r?.status, r?.reason).toBe('passed');
    });
  });

  it('shows the query-placement defect as its counterexample', async () => {
    await withReferenceServer({ faults: ['oauth1-query-placement-others-unsigned'] }, async (server) => {
      const run = await runAgainst(server, { filter: [ID], seed: 7 });
      const r = run.scenarios.find((s) => s.id === ID);
      expect(r?.status, r?.reason).toBe('failed');
      const values = r?.counterexample?.values ?? {};
      expect([values['placement'], values['postPlacement']]).toContain('query');
    });
  });
});
