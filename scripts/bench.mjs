#!/usr/bin/env node
// Benchmarks, measured in one run on this machine (shared and noisy: only ratios measured side by side count).
//
// 1. Harness overhead: the harness's request rate replaying `articles/put-create-roundtrip` (generation,
//    templating, signing, XML serialization and data comparison) against the reference server in its own process,
//    as a ratio to the same test written by hand with undici and fast-check (same arbitraries, same checks, same
//    strict XML reader; aim >= 0.9), and to plain undici sending pre-generated signed requests without checking
//    anything (the floor: what the checks themselves cost).
// 2. Server cost of authentication: the reference server's throughput for a GET signed with date and nonce, as a
//    ratio to the same GET unauthenticated, same server, same run (headers signed beforehand). Aim: >= 0.7.
// 3. Nonce store memory: heap after each 100,000 of one million distinct nonces at a 10 s window and 20,000
//    nonces a simulated second; it must stay flat once the window is full.
// 4. Durability: signed PUT throughput of the server with `--data` (every answer waits for its journal fsync) as
//    a ratio to the same server in memory, same run; and the durable server's heap after GC, in-process, after each
//    of several phases of sustained signed writes (window 10 s): it must stay flat once the nonce window is full.
//
// 5. Latency: the full default suite against the reference server behind an in-process delay proxy (20 ms round
//    trip), one scenario at a time vs the default concurrency: wall times, their ratio (aim: sequential >= 8 ×
//    default), the TCP connections opened, and what bounded the default run (scripts/lib/latency.mjs).
// 6. Per-request overhead: the four-request flow of scripts/lib/flow.yaml ×1000 on one keep-alive connection,
//    `conform run` against the same flow written by hand with undici and fast-check, each its own process: the
//    ratio in-run (aim >= 0.95) and wall, process start to exit (aim >= 0.85) (scripts/lib/flow.mjs).
//
// Run with `npm run bench` (node --expose-gc). BENCH_PARTS=1,5 runs some parts only; BENCH_ROUNDS, BENCH_RUNS tune
// part 1; BENCH_DELAY_MS (one way, default 10) and BENCH_LATENCY_RUNS tune part 5; BENCH_FLOW_RUNS and
// BENCH_FLOW_ROUNDS part 6.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { Client, Pool } from 'undici';
import { createAuthenticator } from '../dist/harness/src/auth/authenticator.js';
import { createHttpClient } from '../dist/harness/src/http/client.js';
import { loadProfileSync } from '../dist/harness/src/profile/load.js';
import { createRedactor } from '../dist/harness/src/runner/redact.js';
import { runScenario } from '../dist/harness/src/engine/run-scenario.js';
import { loadRulesSync, loadSuiteSync } from '../dist/harness/src/suite/load.js';
import { articleArb } from '../dist/harness/src/generators/article.js';
import { compareArticle, serializeArticle } from '../dist/harness/src/xml/article-xml.js';
import { GENERATORS } from '../dist/harness/src/generators/registry.js';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import { NonceStore, signRequest, startServer } from '../dist/reference-server/src/index.js';
import { startConformServe } from './lib/serve-process.mjs';
import { latencyBench } from './lib/latency.mjs';
import { flowBench } from './lib/flow.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
/** Part 1 rounds are short (600 requests each): more of them steady the median. */
const ROUNDS_1 = Number(process.env.BENCH_ROUNDS ?? 15);
const RUNS = Number(process.env.BENCH_RUNS ?? 300);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (x) => x.toFixed(0).padStart(6);
/** Which parts to run: BENCH_PARTS=1,5 (default: all). */
const PARTS = new Set((process.env.BENCH_PARTS ?? '1,2,3,4,5,6').split(',').map(Number));

/** The reference server in its own process, as a target is. */
async function startTarget() {
  const { url, child, stop } = await startConformServe({
    serveArgs: ['--port', '0', '--https-port', 'off', '--max-articles', '1000000', '--quiet'],
  });
  return { url, pid: child.pid, close: stop };
}

const server = await startTarget();
const profile = loadProfileSync(path.join(root, 'reference-server', 'profile.yaml'));
const authenticator = createAuthenticator({ profile });
const suite = loadSuiteSync([path.join(root, 'specs')], loadRulesSync(path.join(root, 'specs', 'rules.yaml')));
const scenario = suite.scenarios.find((s) => s.id === 'articles/put-create-roundtrip');
const bases = { primary: server.url, plain: server.url };

// ---- 1. harness overhead ---------------------------------------------------------------------------------
async function harnessRound(round) {
  const client = process.env.BENCH_CLIENT
    ? createHttpClient({}, new Client(server.url, { pipelining: 1 }))
    : createHttpClient({ connections: 1 });
  let n = 0;
  const deps = {
    client,
    bases,
    profile,
    redactor: createRedactor([]),
    authenticator,
    uniq: () => `h${round}-${n++}`,
    seed: round,
  };
  const t0 = performance.now();
  const r = await runScenario(scenario, deps, { runs: RUNS, seed: 1000 + round });
  const s = (performance.now() - t0) / 1000;
  await client.close();
  if (r.status !== 'passed') throw new Error(`harness round failed: ${r.reason}`);
  return r.requests / s;
}

async function rawRound(round) {
  const bodies = fc
    .sample(articleArb(['summary'], { optional: 'sometimes' }), { numRuns: RUNS, seed: round })
    .map(serializeArticle);
  const client = new Client(server.url, { pipelining: 1 });
  const t0 = performance.now();
  let requests = 0;
  for (let i = 0; i < RUNS; i++) {
    const p = `/articles/raw-${round}-${i}`;
    const signed = authenticator.apply(
      { method: 'PUT', url: server.url + p, headers: { 'content-type': 'application/xml' }, body: bodies[i] },
      'hmac-nonce',
      'alice',
    );
    const put = await client.request({ method: 'PUT', path: p, headers: signed.request.headers, body: bodies[i] });
    await put.body.arrayBuffer();
    if (put.statusCode !== 201) throw new Error(`raw PUT answered ${put.statusCode}`);
    const get = await client.request({ method: 'GET', path: p });
    await get.body.text();
    requests += 2;
  }
  const s = (performance.now() - t0) / 1000;
  await client.close();
  return requests / s;
}

/**
 * The same test written by hand with fast-check and undici alone: the scenario's own arbitraries (slug and article
 * from the generator registry), serialized, signed, sent; status and Location checked; the GET body read with the
 * harness's strict XML reader and compared. What is left between this and conform is the harness itself: scenario
 * templates, request building, the transcript, rule charging, redaction, its transport layer.
 */
async function rawCheckedRound(round) {
  const arb = fc.record({
    slug: GENERATORS.slug.make({}, profile),
    a: GENERATORS.article.make({ optional: 'sometimes' }, profile),
  });
  const client = new Client(server.url, { pipelining: 1 });
  let requests = 0;
  let n = 0;
  const t0 = performance.now();
  await fc.assert(
    fc.asyncProperty(arb, async ({ slug, a }) => {
      const p = `/articles/${slug}-r${round}-${n++}`;
      const body = serializeArticle(a);
      const signed = authenticator.apply(
        { method: 'PUT', url: server.url + p, headers: { 'content-type': profile.articles.mediaType }, body },
        'hmac-nonce',
        'alice',
      );
      const put = await client.request({ method: 'PUT', path: p, headers: signed.request.headers, body });
      await put.body.dump();
      const location = put.headers.location;
      if (put.statusCode !== 201 || typeof location !== 'string' || new URL(location, server.url).pathname !== p)
        return false;
      const get = await client.request({ method: 'GET', path: p });
      const text = await get.body.text();
      requests += 2;
      return get.statusCode === 200 && compareArticle(a, text, profile.articles.optionalFields).length === 0;
    }),
    { numRuns: RUNS, seed: 1000 + round },
  );
  const s = (performance.now() - t0) / 1000;
  await client.close();
  return requests / s;
}

if (PARTS.has(1)) {
  const kinds = { raw: rawRound, checked: rawCheckedRound, harness: harnessRound };
  const rates = { raw: [], checked: [], harness: [] };
  // Warm-up: the harness has more code for the JIT to settle than the hand-written loops.
  for (let i = 0; i < 5; i++) for (const k of Object.keys(kinds)) await kinds[k](-1 - i);
  for (let i = 0; i < ROUNDS_1; i++) {
    // Rotate the order each round, so no kind always runs first (or last) in a round.
    const order = Object.keys(kinds);
    for (let r = 0; r < i % order.length; r++) order.push(order.shift());
    for (const k of order) rates[k].push(await kinds[k](i));
  }
  const line = (label, xs) =>
    console.log(
      `   ${label.padEnd(31)} median ${fmt(median(xs))} req/s   rounds: ${xs.map((x) => x.toFixed(0)).join(' ')}`,
    );
  console.log(
    `1. harness overhead: articles/put-create-roundtrip, ${RUNS} property runs (${RUNS * 2} requests) per round, ${ROUNDS_1} rounds, one keep-alive connection`,
  );
  line('plain undici (transport only)', rates.raw);
  line('undici + fast-check, same checks', rates.checked);
  line('conform', rates.harness);
  // The machine is shared: a neighbour's load moves whole rounds. The three kinds of one round run back to back, so
  // the ratio is taken within each round and the median of those is printed.
  const ratio = (a, b) => median(rates[a].map((x, i) => x / rates[b][i])).toFixed(2);
  console.log(
    `   ratio conform / (undici + fast-check, same checks) = ${ratio('harness', 'checked')} (median of per-round ratios; aim >= 0.90, issue 14)`,
  );
  console.log(
    `   ratio conform / plain undici = ${ratio('harness', 'raw')} (the checks themselves included: generation, strict XML parse, comparison)`,
  );
}

// ---- 2. signed GET vs unauthenticated GET, server throughput ------------------------------------------------
if (PARTS.has(2)) {
  const ARTICLE = '/articles/bench-target';
  {
    const body = serializeArticle({ title: 'Bench', price: '1.50', currency: 'eur', fields: {} });
    const signed = authenticator.apply(
      { method: 'PUT', url: server.url + ARTICLE, headers: { 'content-type': 'application/xml' }, body },
      'hmac-nonce',
      'alice',
    );
    const c = new Client(server.url);
    const r = await c.request({ method: 'PUT', path: ARTICLE, headers: signed.request.headers, body });
    await r.body.text();
    await c.close();
  }
  const PER_ROUND = 4000;
  const CONCURRENCY = 16;
  /** CPU time the server process has used so far, µs (user + system, from /proc; NaN where there is no /proc). */
  function serverCpuMicros() {
    try {
      const fields = readFileSync(`/proc/${server.pid}/stat`, 'utf8').split(') ')[1].split(' ');
      return ((Number(fields[11]) + Number(fields[12])) / 100) * 1e6; // clock ticks of 1/100 s
    } catch {
      return Number.NaN;
    }
  }
  const cpuPerRequest = { unsigned: [], signed: [] };
  async function throughput(headersFor, cpuInto) {
    const cpuBefore = serverCpuMicros();
    const headers = Array.from({ length: PER_ROUND }, (_, i) => headersFor(i));
    const pool = new Pool(server.url, { connections: CONCURRENCY });
    let next = 0;
    let bad = 0;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < PER_ROUND) {
          const h = headers[next++];
          const res = await pool.request({ method: 'GET', path: ARTICLE, headers: h });
          await res.body.arrayBuffer();
          if (res.statusCode !== 200) bad++;
        }
      }),
    );
    const rate = PER_ROUND / ((performance.now() - t0) / 1000);
    cpuInto?.push((serverCpuMicros() - cpuBefore) / PER_ROUND);
    await pool.close();
    if (bad > 0) throw new Error(`${bad} requests failed`);
    return rate;
  }
  const signedHeaders = () =>
    authenticator.apply({ method: 'GET', url: server.url + ARTICLE, headers: {} }, 'hmac-nonce', 'alice').request
      .headers;
  const unsigned = [];
  const signed = [];
  await throughput(() => ({}));
  await throughput(signedHeaders);
  for (let i = 0; i < ROUNDS; i++) {
    if (i % 2 === 0) {
      unsigned.push(await throughput(() => ({}), cpuPerRequest.unsigned));
      signed.push(await throughput(signedHeaders, cpuPerRequest.signed));
    } else {
      signed.push(await throughput(signedHeaders, cpuPerRequest.signed));
      unsigned.push(await throughput(() => ({}), cpuPerRequest.unsigned));
    }
  }
  console.log(
    `2. server throughput, GET ${ARTICLE}, ${PER_ROUND} requests per round over ${CONCURRENCY} connections, ${ROUNDS} rounds`,
  );
  console.log(
    `   unauthenticated      median ${fmt(median(unsigned))} req/s   rounds: ${unsigned.map((x) => x.toFixed(0)).join(' ')}`,
  );
  console.log(
    `   signed, date+nonce   median ${fmt(median(signed))} req/s   rounds: ${signed.map((x) => x.toFixed(0)).join(' ')}`,
  );
  console.log(`   ratio signed / unauthenticated = ${(median(signed) / median(unsigned)).toFixed(2)} (aim >= 0.70)`);
  // Throughput also depends on the client sharing the two cores; the server's own CPU time per request does not.
  console.log(
    `   server CPU per request (median, /proc): unauthenticated ${median(cpuPerRequest.unsigned).toFixed(1)} µs, signed ${median(cpuPerRequest.signed).toFixed(1)} µs`,
  );
}
await server.close();

// ---- 3. nonce store memory -------------------------------------------------------------------------------
if (PARTS.has(3)) {
  const gc = globalThis.gc ?? (() => {});
  const WINDOW_MS = 10_000;
  const RATE = 20_000; // nonces per simulated second
  const store = new NonceStore(10_000_000);
  const heap = () => {
    gc();
    gc();
    return process.memoryUsage().heapUsed / 1024 / 1024;
  };
  const before = heap();
  const rows = [];
  for (let i = 0; i < 1_000_000; i++) {
    const now = Math.floor((i / RATE) * 1000);
    const outcome = store.checkAndStore(
      i % 2 ? 'alice' : 'bob',
      String(1_000_000_000_000_000 + i),
      now + WINDOW_MS,
      now,
    );
    if (outcome.kind !== 'stored') throw new Error(`nonce ${i}: ${outcome.kind}`);
    if ((i + 1) % 100_000 === 0) rows.push([i + 1, store.size(), heap()]);
  }
  console.log(
    `3. nonce store: 1,000,000 distinct nonces, window ${WINDOW_MS / 1000} s, ${RATE} nonces per simulated second (window holds ${(RATE * WINDOW_MS) / 1000})${globalThis.gc ? '' : ' — run with --expose-gc for exact heap figures'}`,
  );
  console.log(`   heap before: ${before.toFixed(1)} MiB`);
  for (const [n, size, mb] of rows)
    console.log(
      `   after ${String(n).padStart(9)} nonces: ${String(size).padStart(7)} stored, heap ${mb.toFixed(1)} MiB`,
    );
  const steady = rows.slice(2).map((r) => r[2]);
  console.log(
    `   heap spread once the window is full: ${(Math.max(...steady) - Math.min(...steady)).toFixed(1)} MiB (flat means a few MiB at most)`,
  );
}

// ---- 4. durability: --data vs memory, and heap under sustained durable writes -----------------------------------
if (PARTS.has(4)) {
  const gc = globalThis.gc ?? (() => {});
  const dir = await mkdtemp(path.join(os.tmpdir(), 'conform-bench-'));
  const memory = await startServer({ port: 0, window: 10 });
  const durable = await startServer({ port: 0, window: 10, dataDir: dir });
  const body = serializeArticle({
    title: 'Bench',
    price: '1.50',
    currency: 'eur',
    fields: { summary: 'x'.repeat(500) },
  });
  let nonce = 1e15;
  // Signed PUTs over 16 connections, replacing 300 articles in turn; returns requests per second.
  async function puts(server, count) {
    const pool = new Pool(server.url, { connections: 16 });
    let next = 0;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next < count) {
          const target = `/articles/b${next++ % 300}`;
          const headers = signRequest({
            method: 'PUT',
            target,
            user: 'alice',
            secret: 'alice-secret-1',
            body,
            nonce: String(nonce++),
            date: new Date(),
          });
          const res = await pool.request({
            method: 'PUT',
            path: target,
            headers: { ...headers, 'content-type': 'application/xml' },
            body,
          });
          await res.body.dump();
          if (res.statusCode !== 200 && res.statusCode !== 201) throw new Error(`PUT ${target}: ${res.statusCode}`);
        }
      }),
    );
    const rate = count / ((performance.now() - t0) / 1000);
    await pool.close();
    return rate;
  }
  const inMemory = [];
  const onDisk = [];
  await puts(memory, 2000);
  await puts(durable, 2000);
  for (let i = 0; i < ROUNDS; i++) {
    if (i % 2 === 0) (inMemory.push(await puts(memory, 3000)), onDisk.push(await puts(durable, 3000)));
    else (onDisk.push(await puts(durable, 3000)), inMemory.push(await puts(memory, 3000)));
  }
  await memory.close();
  console.log(
    `4. durability: signed PUT (500-byte summary) over 16 connections, 3000 per round, ${ROUNDS} rounds, in-process servers`,
  );
  console.log(
    `   memory only          median ${fmt(median(inMemory))} req/s   rounds: ${inMemory.map((x) => x.toFixed(0)).join(' ')}`,
  );
  console.log(
    `   --data (fsync)       median ${fmt(median(onDisk))} req/s   rounds: ${onDisk.map((x) => x.toFixed(0)).join(' ')}`,
  );
  console.log(`   ratio --data / memory = ${(median(onDisk) / median(inMemory)).toFixed(2)}`);
  const heaps = [];
  for (let phase = 0; phase < 6; phase++) {
    const started = performance.now();
    while (performance.now() - started < 4000) await puts(durable, 2000);
    gc();
    gc();
    heaps.push([durable.nonceCount(), process.memoryUsage().heapUsed / 1024 / 1024]);
  }
  console.log(
    `   heap after GC, each phase of 4 s of durable signed PUTs: ${heaps.map(([n, mb]) => `${mb.toFixed(1)} MiB (${n} nonces)`).join(', ')}`,
  );
  const later = heaps.slice(2).map((h) => h[1]);
  console.log(
    `   heap spread after the first two phases: ${(Math.max(...later) - Math.min(...later)).toFixed(1)} MiB (flat means a few MiB at most)`,
  );
  await durable.close();
  await rm(dir, { recursive: true, force: true });
}

// ---- 5. latency: the default suite behind a delay proxy, sequential vs concurrent ------------------------------
if (PARTS.has(5)) await latencyBench();

// ---- 6. per-request overhead: the four-request flow, conform against undici by hand ---------------------------
if (PARTS.has(6)) await flowBench();
