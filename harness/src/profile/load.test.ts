import { describe, expect, it } from 'vitest';
import { parseYamlSource } from '../suite/yaml-source.js';
import { checkProfileSource, expandEnv } from './load.js';

const TEXT = [
  'target: { http: "${BASE}" }',
  'users:',
  '  - name: alice',
  '    password: "${ALICE_PASSWORD}"',
  '    secret: "pre-${ALICE_SECRET}-post"',
  '  - name: bob',
  '    password: "$${NOT_A_REFERENCE}"',
  '',
].join('\n');

describe('${NAME} in a profile', () => {
  it('reads each reference from the environment, keeps $${…} literal', () => {
    const env = { BASE: 'http://127.0.0.1:8080', ALICE_PASSWORD: 'wonder:land', ALICE_SECRET: 's3' };
    const { profile, issues } = checkProfileSource(parseYamlSource('p.yaml', TEXT), { env });
    expect(issues).toEqual([]);
    expect(profile?.target.http).toBe('http://127.0.0.1:8080');
    expect(profile?.users.map((u) => [u.name, u.password, u.secret])).toEqual([
      ['alice', 'wonder:land', 'pre-s3-post'],
      ['bob', '${NOT_A_REFERENCE}', undefined],
    ]);
  });

  it('an unset variable is an issue at its line and column, naming the variable', () => {
    const { issues } = expandEnv(parseYamlSource('p.yaml', TEXT), { BASE: 'http://x.test' });
    expect(issues.map((i) => `${i.line}:${i.column} ${i.message}`)).toEqual([
      expect.stringMatching(/^4:\d+ the environment variable ALICE_PASSWORD is not set/),
      expect.stringMatching(/^5:\d+ the environment variable ALICE_SECRET is not set/),
    ]);
  });

  it('env: false (conform lint) leaves every reference as written', () => {
    // A URL key must be a URL even unexpanded: lint reads references in secrets, which are any text.
    const secretsOnly = TEXT.replace('target: { http: "${BASE}" }', 'target: { http: "http://127.0.0.1:8080" }');
    const { profile, issues } = checkProfileSource(parseYamlSource('p.yaml', secretsOnly), { env: false });
    expect(issues).toEqual([]);
    expect(profile?.users[0]?.password).toBe('${ALICE_PASSWORD}');
  });
});

describe('a mistyped profile key', () => {
  it('is named at its line with the nearest key of its own object ("did you mean")', () => {
    const text = [
      'target: { htp: "http://x.test" }',
      'users:',
      '  - { name: a, pasword: x }',
      'articles: { replaceStatuses: [200] }',
      'auth:',
      '  oauth2: { tokenEndpoint: /t, clientId: a, clientSecret: b, ttll: 3 }',
      'protected: [{ path: /, ownrOnly: true }]',
      'nothingLikeIt: 1',
      '',
    ].join('\n');
    const { issues } = checkProfileSource(parseYamlSource('p.yaml', text), { env: false });
    expect(issues.map((i) => `${i.line} ${i.message}`).sort()).toEqual([
      '1 unknown key "htp" (did you mean "http"?)',
      '3 unknown key "pasword" (did you mean "password"?)',
      '4 unknown key "replaceStatuses" (did you mean "replaceStatus"?)',
      '6 unknown key "ttll" (did you mean "ttl"?)',
      '7 unknown key "ownrOnly" (did you mean "ownerOnly"?)',
      '8 unknown key "nothingLikeIt"',
    ]);
  });
});
