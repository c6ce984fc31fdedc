/**
 * Differential mode: the same seeded requests against two servers. The clean reference matches itself; a fault mode
 * shows up as the difference it causes, naming the field; an independent server that chooses differently wherever
 * the spec is open shows no difference on the article scenarios.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { createAuthenticator } from '../harness/src/auth/authenticator.js';
import { compareTranscripts } from '../harness/src/diff/compare.js';
import { EQUIVALENCES } from '../harness/src/diff/equivalences.js';
import { priceKey } from '../harness/src/diff/fields.js';
import { challengeSchemes } from '../harness/src/diff/observe.js';
import { runDiff, type DiffSideDeps } from '../harness/src/diff/run-diff.js';
import type { DiffResult, GroupedDifference } from '../harness/src/diff/types.js';
import { createHttpClient, type HttpClient } from '../harness/src/http/client.js';
import { loadProfileSync } from '../harness/src/profile/load.js';
import type { ResolvedProfile } from '../harness/src/profile/schema.js';
import type { RawExchange } from '../harness/src/runner/exec-types.js';
import { startServer } from '../reference-server/src/index.js';
import { startAltServer } from './alt-server/server.js';
import { runCli } from './cli-helpers.js';
import { it } from './fixtures.js';
import { bundledSuite, REFERENCE_PROFILE, ROOT, useReferenceServer } from './helpers.js';

const ALT_PROFILE = path.join(ROOT, 'test', 'alt-server', 'profile.yaml');

interface Listening {
  url: string;
  httpsUrl?: string;
  certificate?: string;
}

/** A side whose profile points at the server's own listeners, with a client that trusts its certificate. */
async function sideFor(server: Listening, profileFile: string): Promise<{ deps: DiffSideDeps; client: HttpClient }> {
  const loaded = loadProfileSync(profileFile);
  const profile: ResolvedProfile = { ...loaded, target: { ...loaded.target, http: server.url } };
  if (server.httpsUrl) profile.target.https = server.httpsUrl;
  else delete profile.target.https;
  const client = createHttpClient({ timeoutMs: 5000, ...(server.certificate ? { ca: server.certificate } : {}) });
  const bases = { primary: server.url, plain: server.url, ...(server.httpsUrl ? { tls: server.httpsUrl } : {}) };
  return { client, deps: { profile, bases, client, authenticator: createAuthenticator({ profile }) } };
}

async function diff(
  reference: Listening,
  target: Listening,
  o: { targetProfile?: string; filter?: string[]; seed?: number; runs?: number } = {},
): Promise<DiffResult> {
  const r = await sideFor(reference, REFERENCE_PROFILE);
  const t = await sideFor(target, o.targetProfile ?? REFERENCE_PROFILE);
  try {
    return await runDiff(await bundledSuite(), r.deps, t.deps, {
      seed: o.seed ?? 20261122,
      runs: o.runs ?? 20,
      filter: o.filter ?? [],
      version: 'test',
      embeddedReference: true,
    });
  } finally {
    await Promise.all([r.client.close(), t.client.close()]);
  }
}

const allDifferences = (r: DiffResult): GroupedDifference[] => r.scenarios.flatMap((s) => s.differences);
const explain = (r: DiffResult) =>
  JSON.stringify(
    r.scenarios.filter((s) => s.status === 'different').map((s) => [s.id, s.differences.slice(0, 5)]),
    null,
    1,
  );

/** The clean reference side of every comparison in this file. */
const referenceServer = useReferenceServer();

describe('conform diff against servers', () => {
  it('finds no difference between the clean reference server and itself (every scenario)', async ({
    startReference,
  }) => {
    const r = await diff(referenceServer(), await startReference());
    expect(r.summary.differences, explain(r)).toBe(0);
    expect(r.summary.same).toBeGreaterThan(30);
    expect(r.unreachable).toBeUndefined();
    const compared = r.scenarios.filter((s) => s.status === 'same');
    expect(compared.every((s) => s.outcomes.reference.fail === 0 && s.outcomes.target.fail === 0)).toBe(true);
    // A scenario needing a capability one profile lacks is skipped on both sides, and says so.
    expect(r.scenarios.find((s) => s.id === 'auth/nonce-global')).toMatchObject({
      status: 'skipped',
      reason: expect.stringContaining('auth.nonceScope: global'),
    });
    // A whole-suite run: bounded, with room for a loaded machine (no timing is asserted).
  }, 180_000);

  it('post-200: the status of the POST differs, 201 against 200', async ({ startReference }) => {
    const target = await startReference({ faults: ['post-200'] });
    const r = await diff(referenceServer(), target, { filter: ['articles/post-create'], runs: 5 });
    const s = r.scenarios.find((x) => x.id === 'articles/post-create')!;
    expect(s.status).toBe('different');
    expect(s.differences).toContainEqual(
      expect.objectContaining({
        step: 1,
        method: 'POST',
        path: '/articles',
        field: 'status',
        reference: 201,
        target: 200,
        runs: [1, 2, 3, 4, 5],
      }),
    );
    expect(s.outcomes.reference.pass).toBe(5);
    expect(s.outcomes.target.fail).toBe(5);
  });

  it('options-extra-method: Allow on the article lists PATCH on the target only', async ({ startReference }) => {
    const target = await startReference({ faults: ['options-extra-method'] });
    const r = await diff(referenceServer(), target, { filter: ['options/item-allow'], runs: 3 });
    const d = allDifferences(r).filter((x) => x.field === 'allow');
    expect(d, explain(r)).toHaveLength(1);
    expect(d[0]).toMatchObject({
      method: 'OPTIONS',
      reference: ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PUT'],
      target: ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'PUT'],
    });
  });

  it('options-extra-method: the extra PATCH the target lists is sent there only, and refused', async ({
    startReference,
  }) => {
    const target = await startReference({ faults: ['options-extra-method'] });
    const r = await diff(referenceServer(), target, { filter: ['options/allow-handled'], runs: 2 });
    expect(allDifferences(r)).toContainEqual(
      expect.objectContaining({
        field: 'exchange',
        method: 'PATCH',
        reference: 'not sent',
        target: 'sent, answered 405',
      }),
    );
  });

  it('price-float: the price read back differs (a price written without its fractional part)', async ({
    startReference,
  }) => {
    const target = await startReference({ faults: ['price-float'] });
    const r = await diff(referenceServer(), target, { filter: ['articles/put-create-roundtrip'] });
    const d = allDifferences(r).filter((x) => x.field === 'article.price');
    expect(d.length, explain(r)).toBeGreaterThan(0);
    for (const x of d) {
      expect(['PUT', 'GET']).toContain(x.method); // the reference answers PUT with the stored article too
      expect(String(x.reference)).toMatch(/^\d+\.0+$/);
      expect(String(x.target)).toMatch(/^\d+$/);
    }
    // Prices whose value and fractional form survive Number() (12.50 → 12.5) are not differences.
    expect(allDifferences(r).every((x) => x.field === 'article.price')).toBe(true);
  });

  it('finds no difference on the article scenarios between the reference and an independent server that chooses differently on every open point', async () => {
    const alt = await startAltServer();
    try {
      const r = await diff(referenceServer(), alt, { targetProfile: ALT_PROFILE, filter: ['articles/'] });
      expect(r.summary.differences, explain(r)).toBe(0);
      expect(r.summary.same).toBeGreaterThanOrEqual(8);
      // Each side passes under its own profile: the choices differ, the conformance does not.
      for (const s of r.scenarios.filter((x) => x.status === 'same'))
        expect([s.id, s.outcomes.target.fail, s.outcomes.reference.fail]).toEqual([s.id, 0, 0]);
      // The alias scenario needs articles.aliases, which the alt profile lacks: skipped on both sides.
      expect(r.scenarios.find((s) => s.id === 'articles/put-alias')).toMatchObject({
        status: 'skipped',
        reason: expect.stringContaining('target profile'),
      });
      // The open points were really met (and declared the same), not merely avoided.
      const ignored: Record<string, number> = {};
      for (const s of r.scenarios) for (const [k, n] of Object.entries(s.ignored)) ignored[k] = (ignored[k] ?? 0) + n;
      for (const rule of [
        'replace-status',
        'rejected-body',
        'delete-success',
        'write-response-body',
        'non-article-bodies',
        'content-type',
      ]) {
        expect(ignored[rule], rule).toBeGreaterThan(0);
      }
    } finally {
      await alt.close();
    }
  });
});

describe('conform diff command', () => {
  /** `conform diff ARGV` in-process, in `dir`. */
  const run = (dir: string, argv: string[]) => runCli(dir, ['diff', ...argv]);

  it('exits 1 and names the difference; diff.json holds it as data', async ({ tempDir: dir, startReference }) => {
    const target = await startReference({ faults: ['post-200'] });
    const r = await run(dir, [
      '--target',
      target.url,
      '--target',
      target.httpsUrl!,
      '--insecure',
      '--filter',
      'articles/post-create',
      '--runs',
      '3',
      '--seed',
      '5',
      '--report-dir',
      'out',
    ]);
    expect(r.code, r.err).toBe(1);
    expect(r.out).toContain('DIFFERENT  articles/post-create');
    expect(r.out).toContain('step 1 "create" POST /articles: status: reference 201, target 200 (3 of 3 runs)');
    const json = JSON.parse(await readFile(path.join(dir, 'out', 'diff.json'), 'utf8')) as DiffResult;
    expect(json).toMatchObject({
      seed: 5,
      runs: 3,
      reference: { embedded: true },
      summary: { different: 1, differences: 1 },
    });
    expect(JSON.stringify(json)).not.toMatch(/alice-secret-1|wonder:land|bob-secret-2/);
  });

  it('exits 0 with no differences, and prints the JSON with --json', async ({ tempDir, startReference }) => {
    const target = await startReference();
    const r = await run(tempDir, [
      '--target',
      target.url,
      '--target',
      target.httpsUrl!,
      '--insecure',
      '--filter',
      'articles/put-replace',
      '--runs',
      '3',
      '--report-dir',
      'clean',
      '--json',
    ]);
    expect(r.code, r.err).toBe(0);
    expect((JSON.parse(r.out) as DiffResult).summary).toMatchObject({ scenarios: 1, same: 1, differences: 0 });
  });

  it('exits 3 when the target cannot be reached, 2 on usage errors', async ({ tempDir }) => {
    const gone = await startServer({ port: 0 });
    const url = gone.url;
    await gone.close();
    expect((await run(tempDir, ['--target', url, '--filter', 'articles/post-create', '--report-dir', 'x'])).code).toBe(
      3,
    );
    expect((await run(tempDir, ['--filter', 'articles/'])).code).toBe(2);
    expect((await run(tempDir, ['--target', 'ftp://x'])).code).toBe(2);
    expect((await run(tempDir, ['--target', url, '--filter', 'no-such-scenario'])).code).toBe(2);
  });
});

describe('comparison units', () => {
  it('reads challenge scheme names, not their parameters', () => {
    expect(challengeSchemes('hmac realm="conform", Basic realm="conform", charset="UTF-8"')).toEqual(['basic', 'hmac']);
    expect(challengeSchemes('HMAC realm="a, b", charset=UTF-8')).toEqual(['hmac']);
    expect(challengeSchemes(undefined)).toEqual([]);
  });

  it('compares prices by value and by the presence of a fractional part', () => {
    expect(priceKey('12.50')).toBe(priceKey('12.5'));
    expect(priceKey('007.0')).toBe(priceKey('7.00'));
    expect(priceKey('7.0')).not.toBe(priceKey('7'));
    expect(priceKey('7.01')).not.toBe(priceKey('7.1'));
  });

  it('every equivalence rule has an id, a field and a reason', () => {
    const ids = EQUIVALENCES.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const e of EQUIVALENCES) expect(e.why.length).toBeGreaterThan(20);
  });

  it('a side that stopped early is a difference; statuses, Allow and Location follow the table', async () => {
    const profile = loadProfileSync(REFERENCE_PROFILE);
    const side = { profile, bases: { primary: 'http://a.test', plain: 'http://a.test' } };
    const other = {
      profile: { ...profile, articles: { ...profile.articles, replaceStatus: [204] } },
      bases: { primary: 'http://b.test', plain: 'http://b.test' },
    };
    const x = (
      step: number,
      method: string,
      url: string,
      status: number,
      headers: Record<string, string> = {},
    ): RawExchange => ({
      step,
      request: { method, url, headers: {} },
      response: { status, headers, body: new Uint8Array(), durationMs: 1 },
    });
    const ref = [
      x(1, 'PUT', 'http://a.test/articles/s-1', 201, { location: '/articles/s-1' }),
      x(2, 'PUT', 'http://a.test/articles/s-1', 200),
      x(3, 'OPTIONS', 'http://a.test/articles', 200, { allow: 'POST, OPTIONS' }),
      x(4, 'GET', 'http://a.test/articles/s-1', 200),
    ];
    const tgt = [
      x(1, 'PUT', 'http://b.test/articles/s-2', 201, { location: 'http://b.test/articles/s-2' }),
      x(2, 'PUT', 'http://b.test/articles/s-2', 204),
      x(3, 'OPTIONS', 'http://b.test/articles', 200, { allow: 'GET,HEAD,OPTIONS,POST' }),
    ];
    const c = compareTranscripts(ref, tgt, { scenario: { steps: [] }, reference: side, target: other });
    expect(c.differences).toEqual([
      expect.objectContaining({ step: 4, field: 'exchange', reference: 'sent, answered 200', target: 'not sent' }),
    ]);
    expect(c.ignored).toMatchObject({ 'replace-status': 1, 'allow-open-methods': 1 });

    // The target's run failed at step 1 (201 expected, 200 got): what it never sent is one difference, not one per request.
    const stopped = compareTranscripts(ref, [x(1, 'PUT', 'http://b.test/articles/s-2', 200)], {
      scenario: { steps: [] },
      reference: side,
      target: other,
      outcomes: { reference: { kind: 'pass' }, target: { kind: 'fail', step: 1 } },
    });
    expect(stopped.differences.map((d) => [d.step, d.field, d.reference, d.target])).toEqual([
      [1, 'status', 201, 200],
      [1, 'location', 'item (/articles/s-1)', 'absent'],
      [2, 'exchange', 'sent 3 requests (steps 2–4), the first answered 200', 'not sent: its run failed at step 1'],
    ]);
  });
});
