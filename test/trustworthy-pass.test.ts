/**
 * A PASS you can trust (issue 35, VERDICTS.md §3): a user's mistake never ends green. A mistyped password stops the
 * run before any scenario (exit 2) with one message naming the user, the scheme and the target's answer — whether
 * the profile declares the schemes or leaves them to be learned; a scheme the target does not offer is learned only on
 * evidence; and what the profile describes but the run could not exercise makes it INCOMPLETE (exit 6), not PASS.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { it } from './fixtures.js';
import { runCli } from './cli-helpers.js';
import { useReferenceServer } from './helpers.js';

describe('a PASS means what the profile describes was checked', () => {
  const server = useReferenceServer();

  const profile = async (dir: string, body: string) => {
    const s = server();
    const file = path.join(dir, 'profile.yaml');
    await writeFile(file, `target: { http: ${s.url}, https: ${s.httpsUrl}, insecure: true }\n${body}`);
    return file;
  };
  const run = (dir: string, file: string, ...args: string[]) =>
    runCli(dir, ['run', '--profile', file, '--runs', '2', '--seed', '3', '--report-dir', dir, ...args]);

  for (const schemes of ['', 'auth: { schemes: [basic, hmac-nonce, hmac] }\n'])
    it(`a mistyped password stops the run with exit 2 and one message (auth.schemes ${schemes ? 'declared' : 'silent'})`, async ({
      tempDir,
    }) => {
      const file = await profile(
        tempDir,
        `${schemes}users:\n  - { name: alice, password: "wonder:lnad", secret: alice-secret-1 }\n  - { name: bob, password: builder, secret: bob-secret-2 }\n`,
      );
      const r = await run(tempDir, file);
      expect(r.code, r.out + r.err).toBe(2);
      const text = r.out + r.err;
      expect(text).toMatch(/CREDENTIALS REFUSED/);
      expect(text).toMatch(
        /alice's Basic credentials were refused: GET \/users\/alice\/financialrecords → 401 \("[^"]*wrong password"\); check the password of alice \(users\[0\]\.password/,
      );
      expect(text).toMatch(/leave basic out of auth\.schemes/);
      expect(text).not.toMatch(/wonder:lnad/);
      // Nothing was judged: no scenario failed on a user's typo.
      expect(text).not.toMatch(/✗/);
      expect(text).toMatch(/0 passed, 0 failed, 0 errored/);
    });

  it('--no-credential-check runs the scenarios anyway: the refusals show as failures', async ({ tempDir }) => {
    const file = await profile(
      tempDir,
      'auth: { schemes: [basic] }\nusers:\n  - { name: alice, password: "wonder:lnad" }\n  - { name: bob, password: builder }\n',
    );
    const r = await run(tempDir, file, '--no-credential-check', '--filter', 'auth/basic-accepted');
    expect(r.code, r.out + r.err).toBe(1);
    expect(r.out + r.err).toMatch(/✗ auth\/basic-accepted/);
  });

  it('OAuth 1 given without the owner credentials it needs is INCOMPLETE (exit 6), never PASS', async ({ tempDir }) => {
    const file = await profile(
      tempDir,
      [
        'users:',
        '  - { name: alice, secret: alice-secret-1 }',
        '  - { name: bob, secret: bob-secret-2 }',
        'auth:',
        '  schemes: [hmac-nonce, hmac, oauth1]',
        '  oauth1:',
        '    consumerKey: conform-consumer',
        '    consumerSecret: consumer-secret-1',
        '    temporaryEndpoint: /oauth1/request_token',
        '    authorizeEndpoint: /oauth1/authorize',
        '    tokenEndpoint: /oauth1/access_token',
        '    user: carol',
        '',
      ].join('\n'),
    );
    const r = await run(tempDir, file, '--filter', 'auth/oauth1-three-legged', '--filter', 'auth/hmac-accepted');
    expect(r.code, r.out + r.err).toBe(6);
    expect(r.out + r.err).toMatch(/INCOMPLETE/);
    expect(r.out + r.err).toMatch(/Not exercised: auth\.oauth1\.owner: the profile gives oauth1 credentials, but the/);
  });

  it('a clean run of the whole reference profile is a PASS, and says nothing is left unexercised', async ({
    tempDir,
  }) => {
    const r = await runCli(tempDir, ['run', '--embedded', '--runs', '2', '--seed', '3', '--report-dir', tempDir]);
    expect(r.code, r.out + r.err).toBe(0);
    expect(r.out + r.err).toMatch(/^PASS — /m);
    expect(r.out + r.err).not.toMatch(/Not exercised/);
  });
});
