/**
 * `conform check-client` judges clients of each OAuth 2 grant (issue 34): a correct client of the client credentials,
 * password and authorization code + PKCE grants passes every rule it exercises; a client making one mistake of a
 * grant — a code exchanged twice, the password over plain HTTP, its secret in the authorization request, a replaced
 * refresh token sent again, a plain PKCE challenge, a code exchanged without its verifier — is named under its rule.
 */
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { ClientReportSchema, type ClientReport } from '../harness/src/report/client/schema.js';
import { runCli, type CliResult } from './cli-helpers.js';
import { it } from './fixtures.js';
import { ROOT } from './helpers.js';

const CLIENT = path.join(ROOT, 'test', 'clients', 'oauth2-grants.mjs');
const ENV = { PATH: process.env['PATH'] ?? '/usr/bin:/bin' };
const SECRETS = ['rep-secret', 'wonder:land'];
const VARIANT: Record<string, string[]> = {
  password: ['--variant', 'oauth2-password-only'],
  code: ['--variant', 'oauth2-code-pkce-only'],
  'client-credentials': [],
};

async function check(dir: string, grant: string, mode: string): Promise<CliResult & { report: ClientReport }> {
  const argv = ['check-client', '--report-dir', 'out', ...(VARIANT[grant] ?? []), '--', process.execPath, CLIENT, mode];
  const result = await runCli(dir, argv, ENV);
  const report = ClientReportSchema.parse(
    JSON.parse(await readFile(path.join(dir, 'out', 'client-report.json'), 'utf8')),
  );
  return { ...result, report };
}

const withStatus = (report: ClientReport, status: string) =>
  report.rules.filter((r) => r.status === status).map((r) => r.id);

/** No secret of the profile, nor the client's issued credentials, in any report or printed line. */
async function expectNoSecret(dir: string, printed: string): Promise<void> {
  const texts = [printed];
  for (const f of await readdir(path.join(dir, 'out'))) texts.push(await readFile(path.join(dir, 'out', f), 'utf8'));
  const all = texts.join('\n');
  expect(all).not.toMatch(/(client_secret|access_token|refresh_token|code)=(?!\[redacted\])/);
  for (const s of SECRETS)
    for (const form of [s, encodeURIComponent(s), Buffer.from(s).toString('base64')]) expect(all).not.toContain(form);
}

describe('conform check-client: the OAuth 2 grants', () => {
  for (const [grant, mode, exercised] of [
    [
      'client-credentials',
      'client-credentials',
      ['5-client-tls-only', 'rfc6749-client-credentials-not-in-uri', 'rfc6749-client-one-auth-method'],
    ],
    ['password', 'password', ['5-client-tls-only', 'rfc6749-client-password-tls', 'rfc6749-client-refresh-replaced']],
    [
      'code',
      'code',
      [
        'rfc6749-client-secret-not-in-authorization-request',
        'rfc7636-client-s256',
        'rfc6749-client-code-once',
        'rfc7636-client-verifier-sent',
        'rfc6749-client-refresh-replaced',
      ],
    ],
  ] as const) {
    it(`a correct client of the ${grant} grant passes every rule it exercises (exit 0)`, async ({ tempDir }) => {
      const r = await check(tempDir, grant, mode);
      expect(r.out).not.toMatch(/ 40\d/);
      expect(withStatus(r.report, 'failed')).toEqual([]);
      expect(withStatus(r.report, 'passed')).toEqual(
        expect.arrayContaining([...exercised, 'rfc6750-client-bearer-header']),
      );
      expect(r.code).toBe(0);
      await expectNoSecret(tempDir, r.out + r.err);
    });
  }

  for (const [grant, mode, failed, request] of [
    ['code', 'code-twice', ['rfc6749-client-code-once'], /^POST \/oauth2\/token$/],
    // The password in the clear breaks §5's own rule too: OAuth never over plain HTTP.
    ['password', 'password-http', ['5-client-tls-only', 'rfc6749-client-password-tls'], /^POST \/oauth2\/token$/],
    [
      'code',
      'secret-in-authorize',
      ['rfc6749-client-secret-not-in-authorization-request'],
      /^GET \/oauth2\/authorize\?.*client_secret=\[redacted\]/,
    ],
    ['password', 'refresh-reused', ['rfc6749-client-refresh-replaced'], /^POST \/oauth2\/token$/],
    ['code', 'pkce-plain', ['rfc7636-client-s256'], /^GET \/oauth2\/authorize\?.*code_challenge_method=plain/],
    ['code', 'no-verifier', ['rfc7636-client-verifier-sent'], /^POST \/oauth2\/token$/],
  ] as const) {
    it(`${mode}: named under ${failed.join(' and ')}, and no other rule (exit 1)`, async ({ tempDir }) => {
      const r = await check(tempDir, grant, mode);
      expect(r.code).toBe(1);
      expect(withStatus(r.report, 'failed')).toEqual(failed);
      const rule = r.report.rules.find((x) => x.id === failed.at(-1));
      expect(rule?.violations).toHaveLength(1);
      const [violation] = rule?.violations ?? [];
      expect(`${violation?.method} ${violation?.target}`).toMatch(request);
      await expectNoSecret(tempDir, r.out + r.err);
    });
  }

  it('the client reads where the authorization endpoint is and its redirect URI; --help names them', async ({
    tempDir,
  }) => {
    const help = await runCli(tempDir, ['check-client', '--help']);
    expect(help.out).toMatch(/CONFORM_OAUTH2_AUTHORIZE_URL/);
    expect(help.out).toMatch(/CONFORM_OAUTH2_REDIRECT_URI/);
    const r = await check(tempDir, 'code', 'code');
    expect(r.out).toMatch(/^oauth2 code: 302 200 200 200 200$/m);
  });
});
