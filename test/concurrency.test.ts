/**
 * Nonce atomicity through real sockets (docs/auth.md: "of N identical requests arriving together exactly one is
 * accepted"): 100 identical date-and-nonce requests, signed once by the harness's own authenticator, sent at once
 * over 100 separate connections. The correct server accepts exactly one; under the `nonce-race` fault (check and
 * store split by a macrotask) several get through, which shows the check can fail.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Pool } from 'undici';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createAuthenticator, type Authenticator } from '../harness/src/auth/authenticator.js';
import { loadProfileSync } from '../harness/src/profile/load.js';
import { serializeArticle } from '../harness/src/xml/article-xml.js';
import { startServer, type RunningServer, type ServerOptions } from '../reference-server/src/index.js';
import { REFERENCE_PROFILE } from './helpers.js';

const N = 100;
const RECORDS = '/users/alice/financialrecords';
/** Bounds every request, so a hung server fails the test instead of hanging it. */
const TIMEOUT_MS = 10_000;

let authenticator: Authenticator;
const cleanups: Array<() => Promise<void>> = [];

beforeAll(async () => {
  authenticator = createAuthenticator({ profile: loadProfileSync(REFERENCE_PROFILE) });
});

afterEach(async () => {
  // Newest first (a pool before its server); every one runs even if another fails.
  const failures: unknown[] = [];
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch((e: unknown) => failures.push(e));
  if (failures.length > 0) throw failures[0];
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'conform-concurrency-'));
  cleanups.unshift(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

async function start(options: ServerOptions = {}): Promise<RunningServer> {
  const server = await startServer({ host: '127.0.0.1', port: 0, ...options });
  cleanups.push(() => server.close());
  return server;
}

/** A pool of N connections to the server, every one already open (so the burst is not spread by connecting). */
async function connectedPool(server: RunningServer): Promise<Pool> {
  const pool = new Pool(server.url, { connections: N, pipelining: 1, headersTimeout: TIMEOUT_MS, bodyTimeout: TIMEOUT_MS, connect: { timeout: TIMEOUT_MS } });
  cleanups.push(() => pool.close());
  // N concurrent OPTIONS (no credentials, no nonce) make the pool open its N connections.
  const warm = await Promise.all(Array.from({ length: N }, () => pool.request({ method: 'OPTIONS', path: '/articles' }).then(async (r) => (await r.body.dump(), r.statusCode))));
  expect(warm.every((s) => s === 200)).toBe(true);
  expect(pool.stats.connected).toBe(N);
  return pool;
}

interface Answer {
  status: number;
  body: string;
}

/** Sends the same request N times at once (one per connection) and reads every answer. */
async function burst(pool: Pool, request: { method: 'GET' | 'PUT'; path: string; headers: Record<string, string>; body?: string }): Promise<Answer[]> {
  const answers = await Promise.all(Array.from({ length: N }, async () => {
    const res = await pool.request({ ...request });
    return { status: res.statusCode, body: await res.body.text() };
  }));
  // Nothing was queued behind another request: the pool still has its N connections and no new one.
  expect(pool.stats.connected).toBe(N);
  return answers;
}

/** Headers of the date-and-nonce form (one fresh nonce), with the body hash for a PUT, as the harness signs. */
function sign(server: RunningServer, method: 'GET' | 'PUT' | 'DELETE', path: string, body?: string): Record<string, string> {
  const headers: Record<string, string> = body === undefined ? {} : { 'content-type': 'application/xml' };
  const signed = authenticator.apply({ method, url: server.url + path, headers, ...(body === undefined ? {} : { body }) }, 'hmac-nonce', 'alice');
  if (!signed.ok) throw new Error(signed.reason);
  expect(signed.request.headers['authentication']).toMatch(/^hmac alice:\d+:[A-Za-z0-9+/]+=*$/);
  return signed.request.headers;
}

const count = (answers: Answer[], pred: (s: number) => boolean) => answers.filter((a) => pred(a.status)).length;
const accepted = (s: number) => s >= 200 && s < 300;

/** Every refusal is the replay refusal: a 401 whose problem detail names the nonce (not a bad signature). */
function expectReplayRefusals(answers: Answer[]): void {
  for (const a of answers.filter((x) => x.status === 401)) expect((JSON.parse(a.body) as { detail: string }).detail).toMatch(/nonce/i);
}

describe('100 identical signed requests at once, 100 connections', () => {
  it('GET of protected records: exactly one 200, 99 × 401', async () => {
    const server = await start();
    const pool = await connectedPool(server);
    const answers = await burst(pool, { method: 'GET', path: RECORDS, headers: sign(server, 'GET', RECORDS) });
    expect(count(answers, accepted)).toBe(1);
    expect(count(answers, (s) => s === 200)).toBe(1);
    expect(count(answers, (s) => s === 401)).toBe(N - 1);
    expectReplayRefusals(answers);
    expect(server.nonceCount()).toBe(1);
  });

  it.each(['memory only', 'with --data (each answer waits for its journal fsync)'])('PUT of an article with body hash, %s: exactly one 201, 99 × 401, and the article is stored once', async (mode) => {
    const server = await start(mode === 'memory only' ? {} : { dataDir: await tempDir() });
    const pool = await connectedPool(server);
    const target = '/articles/concurrent-put';
    const body = serializeArticle({ title: 'Once & only once', price: '12.50', currency: 'eur', fields: { summary: 'x'.repeat(500) } });
    const answers = await burst(pool, { method: 'PUT', path: target, headers: sign(server, 'PUT', target, body), body });
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
    const del = await pool.request({ method: 'DELETE', path: target, headers: sign(server, 'DELETE', target) });
    await del.body.dump();
    expect(del.statusCode).toBe(204);
    const gone = await pool.request({ method: 'GET', path: target });
    await gone.body.dump();
    expect(gone.statusCode).toBe(404);
  });

  it('under the nonce-race fault (check and store split by a macrotask) more than one is accepted', async () => {
    const server = await start({ faults: ['nonce-race'] });
    const pool = await connectedPool(server);
    const answers = await burst(pool, { method: 'GET', path: RECORDS, headers: sign(server, 'GET', RECORDS) });
    expect(count(answers, accepted)).toBeGreaterThan(1);
    expect(count(answers, (s) => s === 200 || s === 401)).toBe(N);
  });
});
