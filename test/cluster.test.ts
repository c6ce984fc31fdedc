/**
 * The reference cluster (issue 16): `conform serve --instances 3 --redis …` as real processes on a real redis-server
 * passes the whole suite through its balancer, the cluster scenarios included; each cluster fault is caught by the
 * scenarios aimed at it, and only by them; `conform diff` names the instance of a difference; SIGINT stops every
 * instance. Where redis-server is missing those tests are skipped with the install command; the rest (usage errors,
 * instances with their own memory failing the cluster scenarios, a single server listed as its own instances) runs
 * everywhere.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { main } from '../cli/src/main.js';
import { loadProfileSync } from '../harness/src/profile/load.js';
import type { ResolvedProfile } from '../harness/src/profile/schema.js';
import type { RunResult } from '../harness/src/runner/types.js';
import { CLUSTER_FAULTS } from '../reference-server/src/index.js';
import { CLUSTER_FAILS_UNDER, CLUSTER_MATRIX, CLUSTER_SCENARIOS } from './cluster/matrix.js';
import { alive, serveCluster, type ServedCluster } from './cluster/serve.js';
import { startAltServer } from './alt-server/server.js';
import { it } from './fixtures.js';
import { VARIANT_SCENARIOS } from './variant-scenarios.js';
import { REFERENCE_PROFILE, ROOT, byStatus, runAgainst } from './helpers.js';
import { redisMissing, startRedis, type RedisServer } from './redis/server.js';

const missing = redisMissing();

/**
 * Scenarios the reference profile leaves out on any server (test/fault-matrix.test.ts says why), and those about a
 * grant only a variant offers.
 */
const SKIPPED_ANYWHERE = [
  'auth/nonce-global',
  'auth/nonce-remembered-in-window',
  ...Object.keys(VARIANT_SCENARIOS),
].sort();

function runCluster(cluster: ServedCluster, options: { filter?: string[]; seed: number }): Promise<RunResult> {
  const profile = loadProfileSync(cluster.profileFile);
  return runAgainst(
    { url: cluster.url, httpsUrl: cluster.httpsUrl, certificate: cluster.certificate },
    { profile, ...options },
  );
}

function problems(run: RunResult): string {
  return JSON.stringify(
    run.scenarios.filter((x) => x.status === 'failed' || x.status === 'errored').map((x) => [x.id, x.reason]),
  );
}

describe.skipIf(missing !== undefined)(
  `the reference cluster on redis-server${missing ? ` (skipped: ${missing})` : ''}`,
  () => {
    let redis: RedisServer;
    beforeAll(async () => {
      redis = await startRedis();
    });
    afterAll(async () => {
      await redis?.close();
    });

    describe('clean', () => {
      let cluster: ServedCluster;
      beforeAll(async () => {
        cluster = await serveCluster(['--instances', '3', '--redis', redis.url, '--redis-prefix', 'clean']);
      });
      afterAll(() => cluster?.stop());

      it('prints each instance with its pid and ports, and lists them in --profile-out', () => {
        expect(cluster.instances.map((i) => i.instance)).toEqual([1, 2, 3]);
        expect(new Set(cluster.instances.flatMap((i) => [i.url, i.httpsUrl])).size).toBe(6);
        expect(cluster.output).toMatch(
          /3 instances sharing articles, nonces and OAuth credentials through redis:\/\/127\.0\.0\.1:\d+ \(keys \{clean\}:…\)/,
        );
        const profile = loadProfileSync(cluster.profileFile);
        expect(profile.target.instances).toEqual(cluster.instances.map((i) => ({ http: i.url, https: i.httpsUrl })));
      });

      it('passes the whole suite through its balancer, the cluster scenarios included', async () => {
        const run = await runCluster(cluster, { seed: 161616 });
        const s = byStatus(run);
        expect(s['failed'], problems(run)).toEqual([]);
        expect(s['errored'], problems(run)).toEqual([]);
        expect([...(s['skipped'] ?? [])].sort()).toEqual(SKIPPED_ANYWHERE);
        for (const id of CLUSTER_SCENARIOS) expect(s['passed']).toContain(id);
      }, 180_000);

      it('names the instance of every request sent to one, in report.json', async () => {
        const run = await runCluster(cluster, { filter: ['cluster/nonce-replay-other-instances'], seed: 3 });
        const transcript = run.scenarios[0]!.transcript;
        expect(transcript.length).toBe(3);
        expect(transcript.map((x) => x.instance).sort()).toEqual([1, 2, 3]);
        const host = new URL(cluster.url).host;
        for (const x of transcript)
          expect(new URL(x.request.url).host).toBe(new URL(cluster.instances[x.instance! - 1]!.url).host);
        // Every copy carried the balanced target's Host: the bytes of the replay are those of the first use.
        expect(new Set(transcript.map((x) => x.request.headers['host']))).toEqual(new Set([host]));
      });
    });

    describe.each(CLUSTER_FAULTS)('fault %s', (fault) => {
      let cluster: ServedCluster;
      beforeAll(async () => {
        cluster = await serveCluster([
          '--instances',
          '3',
          '--redis',
          redis.url,
          '--redis-prefix',
          `fault-${fault}`,
          '--fault',
          fault,
        ]);
      });
      afterAll(() => cluster?.stop());

      it.each([1, 20261124])('is caught by the scenarios aimed at it, and only by them (seed %i)', async (seed) => {
        const run = await runCluster(cluster, { filter: ['cluster/'], seed });
        const targets = CLUSTER_MATRIX[fault];
        for (const id of targets) {
          const r = run.scenarios.find((x) => x.id === id);
          expect(r?.status, `${id} under ${fault}: ${r?.reason ?? ''}`).toBe('failed');
          expect(r?.status === 'failed' ? (r.failure.rules ?? r.rules) : []).toContain(CLUSTER_FAILS_UNDER[id]);
        }
        expect(byStatus(run)['failed']?.sort(), problems(run)).toEqual([...targets].sort());
      });
    });

    it('conform diff against a cluster with a fault names the instance of each difference', async ({ tempDir }) => {
      const cluster = await serveCluster([
        '--instances',
        '2',
        '--redis',
        redis.url,
        '--redis-prefix',
        'diff',
        '--fault',
        'nonce-per-instance',
      ]);
      try {
        let out = '';
        const io = {
          stdout: { write: (t: string) => (out += t) },
          stderr: { write: (t: string) => (out += t) },
          env: {},
          cwd: ROOT,
        };
        const certFile = path.join(tempDir, 'ca.pem');
        await import('node:fs/promises').then((fs) => fs.writeFile(certFile, cluster.certificate));
        const code = await main(
          [
            'diff',
            '--target',
            cluster.url,
            '--profile',
            cluster.profileFile,
            '--ca',
            certFile,
            '--filter',
            'cluster/nonce-replay-other-instances',
            '--runs',
            '3',
            '--report-dir',
            tempDir,
          ],
          io,
        );
        expect(code, out).toBe(1);
        expect(out).toMatch(/GET \/users\/alice\/financialrecords on instance [12]: status: reference 401, target 200/);
      } finally {
        await cluster.stop();
      }
    });

    it('stops every instance on SIGINT', async () => {
      const cluster = await serveCluster(['--instances', '2', '--redis', redis.url, '--redis-prefix', 'sigint']);
      await cluster.stop('SIGINT');
      expect(cluster.instances.filter((i) => alive(i.pid))).toEqual([]);
    });
  },
);

describe('conform serve --instances: usage', () => {
  const serve = async (args: string[]) => {
    let err = '';
    const io = {
      stdout: { write: () => true },
      stderr: { write: (t: string) => (err += t) },
      env: {},
      cwd: ROOT,
      untilSignal: () => Promise.resolve(),
    };
    return { code: await main(['serve', '--port', '0', '--https-port', '0', ...args], io), err };
  };

  it('refuses instances without Redis, naming the defect and the faults that would show it', async () => {
    const r = await serve(['--instances', '3']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(
      /--instances 3 needs --redis URL: .*accept one signed request once per instance.*--fault nonce-per-instance,tokens-per-instance,articles-per-instance/,
    );
  });

  it('refuses a cluster fault without a cluster, --data with --redis, and a URL that is not redis://', async () => {
    expect((await serve(['--fault', 'nonce-per-instance'])).err).toMatch(/needs a cluster: add --instances N/);
    expect((await serve(['--redis', 'redis://127.0.0.1:1', '--data', 'x'])).err).toMatch(
      /--data cannot be combined with --redis/,
    );
    expect((await serve(['--instances', '2', '--redis', 'http://x'])).err).toMatch(
      /--redis expects a redis:\/\/ or rediss:\/\/ URL/,
    );
  });

  it('says why when Redis cannot be reached, without its password', async () => {
    const r = await serve(['--redis', 'redis://user:hunter2@127.0.0.1:1']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/cannot reach Redis at redis:\/\/\*\*\*@127\.0\.0\.1:1/);
    expect(r.err).not.toContain('hunter2');
  });
});

describe('the broken design on purpose: instances with their own memory (no Redis)', () => {
  it('fails every cluster scenario but the OAuth 1 nonce one, which reports its broken precondition', async () => {
    const cluster = await serveCluster([
      '--instances',
      '2',
      '--fault',
      'nonce-per-instance,tokens-per-instance,articles-per-instance',
    ]);
    try {
      expect(cluster.output).toMatch(/2 instances each keeping its own state/);
      const run = await runCluster(cluster, { filter: ['cluster/'], seed: 9 });
      const s = byStatus(run);
      expect(s['failed']?.sort(), problems(run)).toEqual(
        CLUSTER_SCENARIOS.filter((id) => id !== 'cluster/oauth1-nonce-other-instances').sort(),
      );
      expect(run.scenarios.find((x) => x.id === 'cluster/oauth1-nonce-other-instances')).toMatchObject({
        status: 'errored',
        precondition: { checkedBy: ['cluster/oauth1-credentials-any-instance'] },
      });
    } finally {
      await cluster.stop();
    }
  });
});

describe('one server listed as its own instances is a correct cluster of itself', () => {
  const asInstances = (profile: ResolvedProfile, url: string, httpsUrl?: string): ResolvedProfile => {
    const own = { http: url, ...(httpsUrl ? { https: httpsUrl } : {}) };
    return { ...profile, target: { ...profile.target, instances: [own, { ...own }, { ...own }] } };
  };

  it('the reference server passes every cluster scenario', async ({ startReference }) => {
    const server = await startReference();
    const run = await runAgainst(server, {
      filter: ['cluster/'],
      profile: asInstances(loadProfileSync(REFERENCE_PROFILE), server.url, server.httpsUrl),
    });
    expect(byStatus(run)['passed']?.sort(), problems(run)).toEqual([...CLUSTER_SCENARIOS].sort());
  });

  it('so does an independent server with other choices (global nonces, no OAuth)', async () => {
    const server = await startAltServer();
    try {
      const profile = loadProfileSync(path.join(ROOT, 'test', 'alt-server', 'profile.yaml'));
      const run = await runAgainst(server.url, { filter: ['cluster/'], profile: asInstances(profile, server.url) });
      const s = byStatus(run);
      expect(s['failed'], problems(run)).toEqual([]);
      expect(s['errored'], problems(run)).toEqual([]);
      expect(s['passed']).toEqual(
        expect.arrayContaining([
          'cluster/nonce-replay-other-instances',
          'cluster/nonce-concurrent-instances',
          'cluster/article-across-instances',
        ]),
      );
    } finally {
      await server.close();
    }
  });
});
