/**
 * Nonce atomicity through real sockets (docs/auth.md: "of N identical requests arriving together exactly one is
 * accepted"): 100 identical date-and-nonce requests, signed once by the harness's own authenticator, sent at once
 * over 100 separate connections. The correct server accepts exactly one; under the `nonce-race` fault (check and
 * store split by a macrotask) several get through, which shows the check can fail.
 */
import { Pool } from 'undici';
import { afterEach, describe, expect } from 'vitest';
import { serializeArticle } from '../harness/src/xml/article-xml.js';
import type { RunningServer } from '../reference-server/src/index.js';
import { it, signedHeaders } from './fixtures.js';

const N = 100;
const RECORDS = '/users/alice/financialrecords';
/** Bounds every request, so a hung server fails the test instead of hanging it. */
const TIMEOUT_MS = 10_000;

const cleanups: Array<() => Promise<void>> = [];

// The pools (the servers and the data directory are fixtures, gone after these hooks); every one closes even if
// another fails.
afterEach(async () => {
  const failures: unknown[] = [];
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch((e: unknown) => failures.push(e));
  if (failures.length > 0) throw failures[0];
});

/** A pool of N connections to the server, every one already open (so the burst is not spread by connecting). */
async function connectedPool(server: RunningServer): Promise<Pool> {
  const pool = new Pool(server.url, {
    connections: N,
    pipelining: 1,
    headersTimeout: TIMEOUT_MS,
    bodyTimeout: TIMEOUT_MS,
    connect: { timeout: TIMEOUT_MS },
  });
  cleanups.push(() => pool.close());
  // N concurrent OPTIONS (no credentials, no nonce) make the pool open its N connections.
  const warm = await Promise.all(
    Array.from({ length: N }, () =>
      pool.request({ method: 'OPTIONS', path: '/articles' }).then(async (r) => (await r.body.dump(), r.statusCode)),
    ),
  );
  expect(warm.every((s) => s === 200)).toBe(true);
  expect(pool.stats.connected).toBe(N);
  return pool;
}

interface Answer {
  status: number;
  body: string;
}

/** Sends the same request N times at once (one per connection) and reads every answer. */
async function burst(
  pool: Pool,
  request: { method: 'GET' | 'PUT'; path: string; headers: Record<string, string>; body?: string },
): Promise<Answer[]> {
  const answers = await Promise.all(
    Array.from({ length: N }, async () => {
      const res = await pool.request({ ...request });
      return { status: res.statusCode, body: await res.body.text() };
    }),
  );
  // Nothing was queued behind another request: the pool still has its N connections and no new one.
  expect(pool.stats.connected).toBe(N);
  return answers;
}

/** Headers of the date-and-nonce form (one fresh nonce), with the body hash for a PUT, as the harness signs. */
function sign(method: 'GET' | 'PUT' | 'DELETE', path: string, body?: string): Record<string, string> {
  const headers = signedHeaders({ method, target: path, ...(body === undefined ? {} : { body }) });
  expect(headers['authentication']).toMatch(/^hmac alice:\d+:[A-Za-z0-9+/]+=*$/);
  return headers;
}

const count = (answers: Answer[], pred: (s: number) => boolean) => answers.filter((a) => pred(a.status)).length;
const accepted = (s: number) => s >= 200 && s < 300;

/** Every refusal is the replay refusal: a 401 whose problem detail names the nonce (not a bad signature). */
function expectReplayRefusals(answers: Answer[]): void {
  for (const a of answers.filter((x) => x.status === 401))
    expect((JSON.parse(a.body) as { detail: string }).detail).toMatch(/nonce/i);
}

describe('100 identical signed requests at once, 100 connections', () => {
  it('GET of protected records: exactly one 200, 99 × 401', async ({ startReference }) => {
    const server = await startReference();
    const pool = await connectedPool(server);
    const answers = await burst(pool, { method: 'GET', path: RECORDS, headers: sign('GET', RECORDS) });
    expect(count(answers, accepted)).toBe(1);
    expect(count(answers, (s) => s === 200)).toBe(1);
    expect(count(answers, (s) => s === 401)).toBe(N - 1);
    expectReplayRefusals(answers);
    expect(server.nonceCount()).toBe(1);
  });

  it.for(['memory only', 'with --data (each answer waits for its journal fsync)'])(
    'PUT of an article with body hash, %s: exactly one 201, 99 × 401, and the article is stored once',
    async (mode, { tempDir, startReference }) => {
      const server = await startReference(mode === 'memory only' ? {} : { dataDir: tempDir });
      const pool = await connectedPool(server);
      const target = '/articles/concurrent-put';
      const body = serializeArticle({
        title: 'Once & only once',
        price: '12.50',
        currency: 'eur',
        fields: { summary: 'x'.repeat(500) },
      });
      const answers = await burst(pool, { method: 'PUT', path: target, headers: sign('PUT', target, body), body });
      expect(count(answers, accepted)).toBe(1);
      expect(count(answers, (s) => s === 201)).toBe(1);
      expect(count(answers, (s) => s === 401)).toBe(N - 1);
      expectReplayRefusals(answers);
      expect(server.nonceCount()).toBe(1);

      const read = await pool.request({ method: 'GET', path: target });
      const stored = await read.body.text();
      expect(read.statusCode).toBe(200);
      expect(stored).toContain('<title>Once &amp; only once</title>');
      expect(stored).toContain(`<summary>${'x'.repeat(500)}</summary>`);
      // One entry under that key: a signed DELETE removes it, and then there is none left.
      const del = await pool.request({ method: 'DELETE', path: target, headers: sign('DELETE', target) });
      await del.body.dump();
      expect(del.statusCode).toBe(204);
      const gone = await pool.request({ method: 'GET', path: target });
      await gone.body.dump();
      expect(gone.statusCode).toBe(404);
    },
  );

  it('under the nonce-race fault (check and store split by a macrotask) more than one is accepted', async ({
    startReference,
  }) => {
    const server = await startReference({ faults: ['nonce-race'] });
    const pool = await connectedPool(server);
    const answers = await burst(pool, { method: 'GET', path: RECORDS, headers: sign('GET', RECORDS) });
    expect(count(answers, accepted)).toBeGreaterThan(1);
    expect(count(answers, (s) => s === 200 || s === 401)).toBe(N);
  });
});
