/**
 * Levels and vacuous passes (issue 11, classes 9 and 10): each rule quotes the words its level rests on, the
 * corrected levels hold, client and deployment rules never raise a scenario's level, and a scenario that sent no
 * request is skipped (its rules do not count as passed).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { loadRulesSync, loadSuiteSync } from '../harness/src/suite/load.js';
import { it } from './fixtures.js';
import { bundledSuite, ROOT, runAgainst } from './helpers.js';

// CONFORM_SPEC_MD points at it from a git worktree that does not sit beside ../shared.
const SPEC = process.env['CONFORM_SPEC_MD'] ?? path.resolve(ROOT, '..', 'shared', 'SPEC.md');
const catalogue = () => loadRulesSync(path.join(ROOT, 'specs', 'rules.yaml'));

describe('rule catalogue: levels rest on quoted words', () => {
  it('every rule quotes words', async () => {
    for (const r of (await catalogue()).rules) expect(r.quote.trim(), r.id).not.toBe('');
  });

  // SPEC.md lives beside the repository (../shared), not in it: the check runs where it is present.
  it.skipIf(!existsSync(SPEC))('the quote of every SPEC-section rule occurs in ../shared/SPEC.md', async () => {
    const spec = readFileSync(SPEC, 'utf8');
    const missing = (await catalogue()).rules
      .filter((r) => r.source === undefined && !spec.includes(r.quote))
      .map((r) => r.id);
    expect(missing).toEqual([]);
  });

  it('a rule from a standard names it and quotes its keyword when it has one', async () => {
    for (const r of (await catalogue()).rules.filter((x) => x.source !== undefined)) {
      expect(r.source, r.id).toMatch(/^(RFC \d+|XML 1\.0) §/);
      // Two rules rest on a sender's MUST NOT and the security exception of RFC 9110 §2.2, not on a SHOULD of their own words.
      if (r.level === 'SHOULD' && !['rfc7303-no-entity-expansion', 'rfc9110-credential-field-once'].includes(r.id))
        expect(r.quote, r.id).toMatch(/SHOULD/);
      if (r.level === 'MAY') expect(r.quote, r.id).toMatch(/MAY/);
    }
  });

  it('SPEC rules at MAY quote "may" or "can", and MUST rules never rest on them alone', async () => {
    for (const r of (await catalogue()).rules.filter((x) => x.source === undefined && x.level === 'MAY')) {
      expect(r.quote, r.id).toMatch(/\b(may|can|not shown|also used|illustration|necessarily)\b/);
    }
  });

  it('the corrected levels', async () => {
    const byId = (await catalogue()).byId;
    const level = (id: string) => byId.get(id)?.level;
    const subject = (id: string) => byId.get(id)?.subject ?? 'server';
    // The spec fixes the Date shape clients send, not that every other shape is refused.
    expect(level('5.2-nonce-date-required')).toBe('MAY');
    // "must be protected with SSL/TLS and must not be used over plain HTTP" binds the deployment and the clients.
    for (const id of ['5-tls-only', '5.1-basic-tls-only', '5.3-tls-only', '5.2-clock-sync'])
      expect(subject(id), id).toBe('deployment');
    expect(subject('5.2-nonce-change')).toBe('client');
    // A server refusing Basic over plain HTTP: RFC 7617 §4 "SHOULD NOT be used … to protect sensitive … information".
    expect(level('rfc7617-basic-not-plain')).toBe('SHOULD');
    expect(level('5.4-scheme-refused-plain')).toBe('MAY');
    // §5.3's "not shown" details at their RFC levels.
    expect(level('rfc6749-token-endpoint-tls')).toBe('MUST');
    expect(level('rfc6749-token-validated')).toBe('MUST');
    expect(level('rfc6750-invalid-token-error')).toBe('SHOULD');
    expect(level('rfc7009-revoked-unusable')).toBe('SHOULD');
    expect(level('rfc5849-stale-timestamp')).toBe('MAY');
    expect(level('rfc5849-nonce-once')).toBe('MUST');
    expect(level('rfc5849-verifier-once')).toBe('MUST');
  });

  it('scenario levels: client and deployment rules never raise them', async () => {
    const suite = await bundledSuite();
    const level = (id: string) => suite.scenarios.find((s) => s.id === id)?.level;
    expect(level('auth/date-missing-rejected')).toBe('MAY');
    expect(level('auth/date-malformed-rejected')).toBe('MAY');
    expect(level('auth/date-inside-window')).toBe('MAY');
    expect(level('auth/basic-refused-over-http')).toBe('SHOULD');
    expect(level('auth/oauth1-over-http-refused')).toBe('MAY');
    expect(level('auth/oauth1-stale-timestamp')).toBe('MAY');
    expect(level('auth/oauth2-revoked-rejected')).toBe('SHOULD');
    expect(level('auth/hmac-accepted')).toBe('MUST');
    // No scenario leans on the catch-all §5.3 rule for an RFC detail any more: only those that obtain a token and
    // use it (§5.3 rule 1's own words), on one server or across the instances of a cluster.
    const tokenRule = suite.scenarios
      .filter((s) => s.rules.includes('5.3-temporary-token'))
      .map((s) => s.id)
      .sort();
    expect(tokenRule).toEqual([
      'auth/oauth1-three-legged',
      'auth/oauth2-code-exchanged-once',
      'auth/oauth2-token-used',
      'cluster/oauth1-credentials-any-instance',
      'cluster/oauth2-token-any-instance',
    ]);
  });

  it('a scenario listing only client or deployment rules is refused', async ({ tempDir }) => {
    writeFileSync(
      path.join(tempDir, 'only-client.yaml'),
      'version: 1\nscenarios:\n  - id: x/only-client\n    title: t\n    rules: [5.2-clock-sync]\n    steps:\n      - request: { method: GET, path: / }\n',
    );
    const rules = await catalogue();
    expect(() => loadSuiteSync([tempDir], rules)).toThrow(/subject is the server/);
  });
});

describe('a scenario that sent no request is skipped, not passed', () => {
  it('is skipped with a reason naming the step, and its rules are not passed', async ({ tempDir, startReference }) => {
    writeFileSync(
      path.join(tempDir, 'vacuous.yaml'),
      [
        'version: 1',
        'scenarios:',
        '  - id: x/empty-each',
        '    title: An each over a list that is empty under this profile',
        '    rules: [4.3-options-200-allow]',
        '    steps:',
        '      - name: every listed thing',
        '        each: "{{ 0 | range }}"',
        '        request: { method: OPTIONS, path: / }',
        '        expect: { status: 200 }',
        '  - id: x/empty-each-property',
        '    title: The same, as a property run',
        '    rules: [4.3-allow-format]',
        '    given: { n: { gen: count, options: { min: 0, max: 0 } } }',
        '    steps:',
        '      - each: "{{ n | range }}"',
        '        request: { method: OPTIONS, path: / }',
        '        expect: { status: 200 }',
        '  - id: x/empty-each-from-profile',
        '    title: An each over the profile, empty under it',
        '    rules: [4.3-options-200-allow]',
        '    steps:',
        '      - name: each signed scheme',
        `        each: "{{ profile.auth.schemes | only: 'no-such-scheme' }}"`,
        '        request: { method: OPTIONS, path: / }',
        '        expect: { status: 200 }',
        '  - id: x/sends',
        '    title: A scenario that sends',
        '    rules: [4.3-allow-format]',
        '    steps:',
        '      - request: { method: OPTIONS, path: "{{ profile.articles.collection }}" }',
        '        expect: { status: 200 }',
      ].join('\n') + '\n',
    );
    const suite = loadSuiteSync([tempDir], await catalogue());
    const server = await startReference();
    const run = await runAgainst(server.url, { suite, runs: 5 });
    const s = Object.fromEntries(run.scenarios.map((x) => [x.id, x]));
    expect(s['x/empty-each']?.status).toBe('skipped');
    expect(s['x/empty-each']?.reason).toMatch(
      /sent no request: the `each` list of step 'every listed thing' was empty under this profile/,
    );
    // Where the list comes from: the profile key a user would change.
    expect(s['x/empty-each-from-profile']?.reason).toMatch(
      /the `each` list of step 'each signed scheme' was empty under this profile \(it comes from the profile's `auth\.schemes`\)/,
    );
    expect(s['x/empty-each']?.reason).not.toMatch(/comes from/);
    expect(s['x/empty-each-property']?.status).toBe('skipped');
    expect(s['x/empty-each-property']?.reason).toMatch(/sent no request: the `each` list of step 1 was empty/);
    expect(s['x/sends']?.status).toBe('passed');
    const rules = Object.fromEntries(run.rules.map((r) => [r.id, r.status]));
    expect(rules['4.3-options-200-allow']).toBe('skipped');
    // A rule is passed when some scenario covering it did check it.
    expect(rules['4.3-allow-format']).toBe('passed');
  });
});
