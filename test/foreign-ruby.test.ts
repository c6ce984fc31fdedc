/**
 * A service nobody on the team wrote (issue 33): test/foreign/ruby, written in Ruby with Debian's OAuth libraries
 * (ruby-oauth, ruby-rack-oauth2) by a helper who read docs/spec.md and nothing of this repository. Its README states
 * its choices; its author, not conform's, decides its behaviour. A correct service must pass: with the profile a new
 * user writes from its README (test/foreign/ruby/profile.yaml), and with the draft `conform init` writes unedited —
 * 0 failed, 0 errored. Skipped, with the install command, where ruby and its libraries are missing (`.ci/run`
 * installs them).
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { main } from '../cli/src/main.js';
import { checkProfileSource, loadProfileSync } from '../harness/src/profile/load.js';
import { parseYamlSource } from '../harness/src/suite/yaml-source.js';
import type { RunResult } from '../harness/src/runner/types.js';
import { it } from './fixtures.js';
import { FOREIGN_CONFIG, rubyMissing, startForeignRuby, type ForeignServer } from './foreign/ruby/launch.js';
import { ROOT, runAgainst } from './helpers.js';

const missing = rubyMissing();
const SEED = 7;
const RUNS = 10;

const [alice, bob] = FOREIGN_CONFIG.users;
const client = FOREIGN_CONFIG.oauth2_clients[0]!;
const consumer = FOREIGN_CONFIG.oauth1_consumers[0]!;
/** What a user exports for `conform init` (its README §3 names them in its configuration). */
const CREDENTIALS = {
  CONFORM_ALICE_PASSWORD: alice!.password,
  CONFORM_ALICE_SECRET: alice!.hmac_secret,
  CONFORM_BOB_PASSWORD: bob!.password,
  CONFORM_BOB_SECRET: bob!.hmac_secret,
  CONFORM_OAUTH2_CLIENT_ID: client.client_id,
  CONFORM_OAUTH2_CLIENT_SECRET: client.client_secret,
  CONFORM_OAUTH1_CONSUMER_KEY: consumer.key,
  CONFORM_OAUTH1_CONSUMER_SECRET: consumer.secret,
};

const notPassing = (run: RunResult) =>
  run.scenarios
    .filter((s) => s.status === 'failed' || s.status === 'errored')
    .map((s) => ({ id: s.id, status: s.status, reason: s.reason }));

describe.skipIf(missing !== undefined)(
  `a foreign service: Ruby, ruby-oauth, ruby-rack-oauth2${missing ? ` (${missing})` : ''}`,
  () => {
    let server: ForeignServer;
    beforeAll(async () => {
      server = await startForeignRuby();
    }, 60_000);
    afterAll(() => server?.close());

    const target = () => ({ url: server.url, httpsUrl: server.httpsUrl, certificate: server.certificate });

    it('passes with the profile a new user writes from its README', async () => {
      const profile = loadProfileSync(path.join(ROOT, 'test', 'foreign', 'ruby', 'profile.yaml'));
      const run = await runAgainst(target(), { profile, seed: SEED, runs: RUNS, timeoutMs: 10_000 });
      expect(notPassing(run), server.log().slice(-2000)).toEqual([]);
      expect(run.summary.passed).toBeGreaterThan(80);
    });

    it('passes with a minimal profile: where it is, its users, its OAuth endpoints and clients', async () => {
      const minimal = {
        target: { http: server.url, https: server.httpsUrl },
        users: [
          { name: 'alice', password: alice!.password, secret: alice!.hmac_secret },
          { name: 'bob', password: bob!.password, secret: bob!.hmac_secret },
        ],
        auth: {
          oauth2: { tokenEndpoint: '/oauth2/token', clientId: client.client_id, clientSecret: client.client_secret },
          oauth1: {
            temporaryEndpoint: '/oauth1/request_token',
            authorizeEndpoint: '/oauth1/authorize',
            tokenEndpoint: '/oauth1/access_token',
            consumerKey: consumer.key,
            consumerSecret: consumer.secret,
          },
        },
      };
      const { profile, issues } = checkProfileSource(parseYamlSource('minimal.yaml', JSON.stringify(minimal)));
      expect(issues).toEqual([]);
      const run = await runAgainst(target(), { profile: profile!, seed: SEED, runs: RUNS, timeoutMs: 10_000 });
      expect(run.credentialsRefused).toBeUndefined();
      expect(notPassing(run), server.log().slice(-2000)).toEqual([]);
      expect(run.summary.passed).toBeGreaterThan(80);
    });

    it('passes with the draft conform init writes, unedited', async ({ tempDir }) => {
      const ca = path.join(tempDir, 'ca.pem');
      await writeFile(ca, server.certificate);
      const file = path.join(tempDir, 'draft.yaml');
      let out = '';
      const code = await main(
        [
          'init',
          '--target',
          server.url,
          '--target',
          server.httpsUrl,
          '--ca',
          ca,
          '--user',
          'alice',
          '--user',
          'bob',
          '--oauth2',
          '/oauth2/token',
          '--oauth1',
          '/oauth1/request_token,/oauth1/authorize,/oauth1/access_token',
          '--out',
          file,
        ],
        {
          stdout: { write: (t: string) => (out += t) },
          stderr: { write: (t: string) => (out += t) },
          env: CREDENTIALS,
          cwd: tempDir,
        },
      );
      expect(code, out).toBe(0);
      const text = await readFile(file, 'utf8');
      for (const secret of Object.values(CREDENTIALS)) expect(text).not.toContain(secret);
      // Its PUT refuses the probe's optional <summary> (README §6.1: unknown elements → 400); the replace status is
      // learned from a plain replace (issue 35), and every flag given is in the header.
      expect(text).toMatch(/^ {2}replaceStatus: \[ ?200 ?\]/m);
      const header = /^# Drafted by `conform init (.*)`/m.exec(text)?.[1] ?? '';
      for (const flag of ['--oauth2 /oauth2/token', '--oauth1 /oauth1/request_token', '--ca ', '--user bob'])
        expect(header).toContain(flag);
      const run = await runAgainst(target(), {
        profile: loadProfileSync(file, { env: CREDENTIALS }),
        seed: SEED,
        runs: RUNS,
        timeoutMs: 10_000,
      });
      expect(notPassing(run), server.log().slice(-2000)).toEqual([]);
      expect(run.summary.passed).toBeGreaterThan(80);
    });
  },
);
