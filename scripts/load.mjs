#!/usr/bin/env node
// Load test: holds the reference server, in its own process (`conform serve`), under concurrent mixed traffic for
// a set time and reports what it saw.
//
// The mix, per request, chosen at random by weight:
//   get-article    unauthenticated GET of an article seeded before the load          → 200
//   get-missing    unauthenticated GET of an article that never exists               → 404
//   put-article    PUT of an article, signed (date-and-nonce, body hash), creating a new id or replacing a seeded
//                  one                                                                → 201 or 200
//   post-article   POST /articles, signed (date-and-nonce, body hash)                 → 201
//   delete-article DELETE, signed, of the oldest article the load created (or of a missing one when none is
//                  left)                                                              → 204 (or 404)
//   get-records    GET /users/alice/financialrecords, signed (date-and-nonce, fresh nonce each time) → 200
//   options        OPTIONS of /articles or of a seeded article, no credentials        → 200
// Signing uses the harness's own authenticator (dist/harness/src/auth/authenticator.js) with the reference
// server's profile, so a 401 here means the server refused a correctly signed request: it counts as an error.
//
// Reported at the end (and a progress line every 5 s on stderr): requests, throughput, counts per kind and
// status, errors (5xx; unexpected statuses; connection errors, resets and timeouts, apart), latency p50/p90/p99/max
// per request (send to body fully read), and the server's resident memory (VmRSS of the child from /proc) at
// start, after the warm-up and at the end, with a reading every second after the warm-up for the trend, and its heap
// after each major GC (the server runs with --trace-gc), the measure that tells a leak from V8 sizing its heap.
//
// The server state stays bounded, so that memory growth after the warm-up means a leak, not stored data: deletes
// keep pace with creates, and the server keeps each nonce for `--window S` (default 10 s, so the nonce store is
// full — rate × window entries — by the end of the 10 s warm-up; with the server's default 600 s it would keep
// growing for ten minutes, by design). --data runs the server with `--data <temp dir>`: every answer then waits
// for its journal fsync (README "Keeping data across restarts").
//
// Exit code: 0 when clean; 1 when there was any 5xx, unexpected status or connection error (or the server died);
// 130 when a clean run was cut short by Ctrl-C.
//
//   npm run load                               30 s, 32 connections
//   LOAD_SECONDS=60 npm run load -- --connections 64
//   npm run load -- --seconds 10 --warmup 2 --json    also a JSON summary on stdout (human report on stderr)
//   npm run load -- --data                            the same, durable: the journal is fsynced before each answer
//   npm run load -- --instances 3 --redis redis://127.0.0.1:6379
//                                                     against the reference cluster: 3 instances sharing their state
//                                                     through that Redis, behind its round-robin balancer; memory is
//                                                     reported per process and for Redis, and the run's keys (under
//                                                     their own prefix) are removed at the end
//
// Needs dist/ (`npm run build`; `npm ci` runs it).
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';
import { startConformServe } from './lib/serve-process.mjs';
import { clusterFigures, instancePid, majorGc, processRssMiB, watchRedis } from './lib/cluster-load.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
if (!existsSync(path.join(root, 'dist', 'harness', 'src', 'auth', 'authenticator.js'))) {
  console.error('load: dist/ is missing; run `npm run build` first');
  process.exit(2);
}
const { createAuthenticator } = await import('../dist/harness/src/auth/authenticator.js');
const { loadProfileSync } = await import('../dist/harness/src/profile/load.js');
const { serializeArticle } = await import('../dist/harness/src/xml/article-xml.js');

// ---- options ------------------------------------------------------------------------------------------------
const { values: opts } = parseArgs({
  options: {
    seconds: { type: 'string' },
    connections: { type: 'string', default: '32' },
    warmup: { type: 'string', default: '10' },
    window: { type: 'string', default: '10' },
    data: { type: 'boolean', default: false },
    instances: { type: 'string' },
    redis: { type: 'string' },
    seed: { type: 'string', default: '200' },
    json: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});
if (opts.help) {
  console.log(
    'Usage: npm run load -- [--seconds N (or LOAD_SECONDS, default 30)] [--connections N (32)] [--warmup S (10)] [--window S (10)] [--seed N articles (200)] [--data] [--instances N --redis URL] [--json]',
  );
  process.exit(0);
}
const positive = (name, text) => {
  const n = Number(text);
  if (!Number.isFinite(n) || n <= 0) {
    console.error(`load: --${name} must be a positive number, got "${text}"`);
    process.exit(2);
  }
  return n;
};
const SECONDS = positive('seconds', opts.seconds ?? process.env.LOAD_SECONDS ?? '30');
const CONNECTIONS = Math.floor(positive('connections', opts.connections));
const WARMUP = Math.min(positive('warmup', opts.warmup), SECONDS / 2);
const SEEDED = Math.floor(positive('seed', opts.seed));
/** The server's signed-request window, seconds: how long it keeps each nonce (600 is its default). */
const WINDOW = Math.floor(positive('window', opts.window));
/** With --instances and --redis: the reference cluster, its Redis, and the key prefix of this run (removed at the end). */
const INSTANCES = opts.instances === undefined ? 1 : Math.floor(positive('instances', opts.instances));
const REDIS = opts.redis;
if ((INSTANCES > 1 || REDIS !== undefined) && (REDIS === undefined || opts.data)) {
  console.error('load: --instances needs --redis URL (and neither goes with --data)');
  process.exit(2);
}
const REDIS_PREFIX = `load-${process.pid}-${Date.now().toString(36)}`;
/** With --data: the server's data directory, removed at the end. */
const DATA_DIR = opts.data ? mkdtempSync(path.join(os.tmpdir(), 'conform-load-')) : undefined;
const PROGRESS_MS = 5_000;
const REQUEST_TIMEOUT_MS = 10_000;
// With --json the JSON summary alone goes to stdout; the human report goes to stderr.
const say = opts.json ? (s) => process.stderr.write(`${s}\n`) : (s) => process.stdout.write(`${s}\n`);

/** Weights of the mix, and the statuses each kind may answer. */
const KINDS = {
  'get-article': { weight: 30, expected: [200] },
  'get-missing': { weight: 10, expected: [404] },
  'put-article': { weight: 20, expected: [200, 201] },
  'post-article': { weight: 10, expected: [201] },
  'delete-article': { weight: 20, expected: [204, 404] },
  'get-records': { weight: 20, expected: [200] },
  options: { weight: 10, expected: [200] },
};
const KIND_NAMES = Object.keys(KINDS);
const TOTAL_WEIGHT = KIND_NAMES.reduce((s, k) => s + KINDS[k].weight, 0);
function pickKind() {
  let r = Math.random() * TOTAL_WEIGHT;
  for (const k of KIND_NAMES) if ((r -= KINDS[k].weight) < 0) return k;
  return KIND_NAMES[0];
}

// ---- the server in its own process ----------------------------------------------------------------------------
let child;
let childExit; // set when the server exits by itself
/**
 * The server's heap after each of its major GCs, [performance.now(), MiB], from its `--trace-gc` lines: unlike RSS
 * (which V8 grows with the allocation rate and rarely gives back), a heap that keeps rising across major GCs after
 * the warm-up is a leak.
 */
const majorGcs = [];
/** The pids of a cluster's instances (their parent, the balancer, is `child`). */
const instancePids = [];
let stopTarget = async () => {};
/** `conform serve` as a separate process, like any target, with --trace-gc so that its major GCs can be read. */
async function startTarget() {
  const cluster =
    REDIS === undefined
      ? []
      : [
          '--redis',
          REDIS,
          '--redis-prefix',
          REDIS_PREFIX,
          ...(INSTANCES > 1 ? ['--instances', String(INSTANCES)] : []),
        ];
  const serveArgs = [
    '--port',
    '0',
    '--https-port',
    'off',
    '--quiet',
    '--max-articles',
    '1000000',
    '--window',
    String(WINDOW),
    ...(DATA_DIR ? ['--data', DATA_DIR] : []),
    ...cluster,
  ];
  const onLine = (line) => {
    const gc = majorGc(line);
    if (gc) majorGcs.push([performance.now(), gc.heapMiB, gc.pid]);
    const instance = instancePid(line);
    if (instance) instancePids.push(instance.pid);
  };
  const started = await startConformServe({ serveArgs, nodeArgs: ['--trace-gc'], onLine });
  child = started.child;
  stopTarget = started.stop;
  child.on('exit', (code, signal) => {
    childExit = { code, signal };
  });
  return started.url;
}
// Last resort when this process ends in any other way (an exception, process.exit): never leave the server behind.
process.on('exit', () => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

/** Resident set size of the server, MiB: of its process, plus each instance's for a cluster. */
function serverRssMiB() {
  return [child.pid, ...instancePids].reduce((sum, pid) => sum + processRssMiB(pid), 0);
}
/** Each process's RSS, MiB, by name: `server` (or `balancer`), `instance k`. */
function rssByProcess() {
  return Object.fromEntries([
    [instancePids.length > 0 ? 'balancer' : 'server', processRssMiB(child.pid)],
    ...instancePids.map((pid, k) => [`instance ${k + 1}`, processRssMiB(pid)]),
  ]);
}

// ---- statistics ----------------------------------------------------------------------------------------------
const stats = {
  requests: 0,
  perKind: Object.fromEntries(
    KIND_NAMES.map((k) => [k, { count: 0, statuses: {}, unexpected: 0, serverErrors: 0, connectionErrors: 0 }]),
  ),
  statuses: {},
  serverErrors: 0, // 5xx
  unexpected: 0, // any other status not expected for the kind (e.g. 401 on a signed request, 404 on a seeded article)
  connection: { reset: 0, timeout: 0, refused: 0, other: 0 },
  samples: [], // the first few errors, for the report
  latencies: [], // ms, every completed request (an HTTP answer, whatever its status)
  latencyByKind: Object.fromEntries(KIND_NAMES.map((k) => [k, []])),
  created: 0, // articles the server said it created (201)
  deleted: 0, // articles the server said it deleted (204)
  nonces: 0, // date-and-nonce requests sent (each consumes one nonce on the server)
};
const SAMPLE_LIMIT = 10;
function sample(entry) {
  if (stats.samples.length < SAMPLE_LIMIT) stats.samples.push(entry);
}
/** Connection-level failures by kind: resets (other side closed), timeouts, refused, anything else. */
function classifyConnectionError(err) {
  const code = err?.code ?? err?.cause?.code ?? '';
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE') return 'reset';
  if (/TIMEOUT/i.test(code) || code === 'ETIMEDOUT') return 'timeout';
  if (code === 'ECONNREFUSED') return 'refused';
  return 'other';
}
function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}
function latencySummary(values) {
  const sorted = Float64Array.from(values).sort();
  return {
    count: sorted.length,
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p99: percentile(sorted, 99),
    max: sorted.length ? sorted[sorted.length - 1] : NaN,
  };
}
const totalConnectionErrors = () => Object.values(stats.connection).reduce((a, b) => a + b, 0);

// ---- requests ------------------------------------------------------------------------------------------------
const url = await startTarget();
/** With --redis: Redis's memory and the run's keys, watched on a connection of our own. */
const redisWatch = REDIS === undefined ? undefined : await watchRedis(REDIS, REDIS_PREFIX);
const redisSamples = [];
let redisWarm;
let redisEnd;
const profile = loadProfileSync(path.join(root, 'reference-server', 'profile.yaml'));
const authenticator = createAuthenticator({ profile });
const USERS = profile.users.map((u) => u.name); // alice, bob, carol
const RECORDS = '/users/alice/financialrecords';
const runId = `${Date.now().toString(36)}`;
const seededPath = (i) => `/articles/load-${runId}-seed-${i}`;
let counter = 0;
/** Articles the load created (PUT 201, POST Location), oldest first: what delete-article removes. */
const createdPaths = [];
let createdHead = 0;

/** A small article; the summary varies in length (0–2 KiB) so body sizes vary. */
function articleBody() {
  const n = counter++;
  const summary = 'x'.repeat(Math.floor(Math.random() * 2048));
  return serializeArticle({
    title: `Load article ${n} <&>`,
    price: `${n % 1000}.${String(n % 100).padStart(2, '0')}`,
    currency: 'eur',
    fields: { summary },
  });
}
/** Headers of the date-and-nonce form (fresh nonce), with the body hash for PUT/POST. */
function signed(method, p, user, body, headers = {}) {
  const r = authenticator.apply(
    { method, url: url + p, headers, ...(body !== undefined ? { body } : {}) },
    'hmac-nonce',
    user,
  );
  if (!r.ok) throw new Error(`cannot sign: ${r.reason}`);
  stats.nonces++;
  return r.request.headers;
}
/** The request a kind sends: method, path, headers, body. */
function build(kind) {
  switch (kind) {
    case 'get-article':
      return { method: 'GET', path: seededPath(Math.floor(Math.random() * SEEDED)), headers: {} };
    case 'get-missing':
      return { method: 'GET', path: `/articles/load-${runId}-missing-${counter++}`, headers: {} };
    case 'put-article': {
      // Half replace a seeded article (200), half create a new one (201); the seeded ones keep existing.
      const p =
        Math.random() < 0.5
          ? seededPath(Math.floor(Math.random() * SEEDED))
          : `/articles/load-${runId}-put-${counter++}`;
      const body = articleBody();
      return {
        method: 'PUT',
        path: p,
        headers: signed('PUT', p, USERS[counter % USERS.length], body, { 'content-type': 'application/xml' }),
        body,
      };
    }
    case 'post-article': {
      const body = articleBody();
      return {
        method: 'POST',
        path: '/articles',
        headers: signed('POST', '/articles', USERS[counter % USERS.length], body, {
          'content-type': 'application/xml',
        }),
        body,
      };
    }
    case 'delete-article': {
      const p =
        createdHead < createdPaths.length
          ? createdPaths[createdHead++]
          : `/articles/load-${runId}-missing-${counter++}`;
      if (createdHead > 4096) (createdPaths.splice(0, createdHead), (createdHead = 0));
      return { method: 'DELETE', path: p, headers: signed('DELETE', p, 'alice') };
    }
    case 'get-records':
      return { method: 'GET', path: RECORDS, headers: signed('GET', RECORDS, 'alice') };
    case 'options':
      return {
        method: 'OPTIONS',
        path: Math.random() < 0.5 ? '/articles' : seededPath(Math.floor(Math.random() * SEEDED)),
        headers: {},
      };
    default:
      throw new Error(`unknown kind ${kind}`);
  }
}

const pool = new Pool(url, {
  connections: CONNECTIONS,
  pipelining: 1,
  headersTimeout: REQUEST_TIMEOUT_MS,
  bodyTimeout: REQUEST_TIMEOUT_MS,
  connect: { timeout: REQUEST_TIMEOUT_MS },
});

/** Sends one request of a kind and records the outcome. */
async function one(kind) {
  const req = build(kind);
  const t0 = performance.now();
  let status;
  let res;
  let text = '';
  try {
    res = await pool.request({
      method: req.method,
      path: req.path,
      headers: req.headers,
      ...(req.body !== undefined ? { body: req.body } : {}),
    });
    status = res.statusCode;
    // The body is always read in full (the latency covers it); kept only when it explains an unexpected answer.
    text = await res.body.text();
  } catch (err) {
    const cls = classifyConnectionError(err);
    stats.connection[cls]++;
    stats.perKind[kind].connectionErrors++;
    sample({ kind, method: req.method, path: req.path, error: `${cls}: ${err?.code ?? ''} ${err?.message ?? err}` });
    return;
  }
  const ms = performance.now() - t0;
  stats.requests++;
  stats.latencies.push(ms);
  stats.latencyByKind[kind].push(ms);
  const k = stats.perKind[kind];
  k.count++;
  k.statuses[status] = (k.statuses[status] ?? 0) + 1;
  stats.statuses[status] = (stats.statuses[status] ?? 0) + 1;
  if (status === 201) {
    stats.created++;
    createdPaths.push(req.method === 'POST' ? String(res.headers.location) : req.path);
  }
  if (status === 204 && req.method === 'DELETE') stats.deleted++;
  if (status >= 500) {
    stats.serverErrors++;
    k.serverErrors++;
    sample({ kind, method: req.method, path: req.path, status, body: text.slice(0, 300) });
  } else if (!KINDS[kind].expected.includes(status)) {
    stats.unexpected++;
    k.unexpected++;
    sample({ kind, method: req.method, path: req.path, status, body: text.slice(0, 300) });
  }
}

// ---- run -----------------------------------------------------------------------------------------------------
let stopping = false;
let interrupted = false;
process.on('SIGINT', () => {
  if (stopping) {
    // Second Ctrl-C: give up at once (the 'exit' handler kills the server).
    process.exit(130);
  }
  interrupted = true;
  stopping = true;
  process.stderr.write('load: interrupted, finishing in-flight requests (Ctrl-C again to quit at once)\n');
});
process.on('SIGTERM', () => {
  interrupted = true;
  stopping = true;
});

let exitCode = 0;
try {
  const rssStart = serverRssMiB();
  const processesStart = rssByProcess();
  const store = DATA_DIR
    ? `, journal in ${DATA_DIR}`
    : REDIS
      ? `, ${INSTANCES} instance${INSTANCES > 1 ? `s (pids ${instancePids.join(', ')}) behind a balancer` : ''} sharing their state through Redis (keys {${REDIS_PREFIX}}:…)`
      : ', memory only';
  say(
    `load: server ${url} (pid ${child.pid}), ${CONNECTIONS} connections, ${SECONDS} s (warm-up ${WARMUP} s), seeding ${SEEDED} articles, nonces kept ${WINDOW} s${store}`,
  );

  // Seed the articles the GETs read; every one must be created, or the figures below would mean nothing.
  for (let i = 0; i < SEEDED; i += CONNECTIONS) {
    await Promise.all(
      Array.from({ length: Math.min(CONNECTIONS, SEEDED - i) }, async (_, j) => {
        const p = seededPath(i + j);
        const body = articleBody();
        const res = await pool.request({
          method: 'PUT',
          path: p,
          headers: signed('PUT', p, 'alice', body, { 'content-type': 'application/xml' }),
          body,
        });
        const text = await res.body.text();
        if (res.statusCode !== 201)
          throw new Error(`seeding PUT ${p} answered ${res.statusCode}: ${text.slice(0, 300)}`);
      }),
    );
  }
  // Check each signed kind once before the load: a signing mistake should stop the run, not fill it with 401s.
  for (const kind of ['put-article', 'post-article', 'get-records'].filter((k) => KINDS[k].weight > 0)) {
    const req = build(kind);
    const res = await pool.request({
      method: req.method,
      path: req.path,
      headers: req.headers,
      ...(req.body !== undefined ? { body: req.body } : {}),
    });
    const text = await res.body.text();
    if (!KINDS[kind].expected.includes(res.statusCode))
      throw new Error(`signed ${kind} (${req.method} ${req.path}) answered ${res.statusCode}: ${text.slice(0, 300)}`);
  }

  const t0 = performance.now();
  const deadline = t0 + SECONDS * 1000;
  let rssWarm = NaN;
  let warmRequests = 0;
  let warmAt = NaN;
  let processesWarm = {};
  const warmTimer = setTimeout(() => {
    rssWarm = serverRssMiB();
    processesWarm = rssByProcess();
    warmRequests = stats.requests;
    warmAt = performance.now();
    redisWatch?.sample().then(
      (r) => (redisWarm = r),
      () => {},
    );
  }, WARMUP * 1000);
  // RSS once a second after the warm-up: V8's heap grows and shrinks in a sawtooth, so one reading at the end can
  // land on a peak or a trough. The mean of the first and the last third of these readings shows the trend.
  const rssSamples = [];
  const rssTimer = setInterval(() => {
    if (Number.isNaN(warmAt)) return;
    rssSamples.push(serverRssMiB());
    redisWatch?.sample().then(
      (r) => redisSamples.push(r),
      () => {},
    );
  }, 1_000);
  let lastRequests = 0;
  let lastAt = t0;
  const progress = setInterval(() => {
    const now = performance.now();
    const rate = (stats.requests - lastRequests) / ((now - lastAt) / 1000);
    lastRequests = stats.requests;
    lastAt = now;
    const errors = stats.serverErrors + stats.unexpected + totalConnectionErrors();
    process.stderr.write(
      `load: ${((now - t0) / 1000).toFixed(0).padStart(4)} s  ${String(stats.requests).padStart(8)} requests  ${rate.toFixed(0).padStart(6)} req/s  errors ${errors}  server RSS ${serverRssMiB().toFixed(1)} MiB\n`,
    );
  }, PROGRESS_MS);

  // N workers, one request at a time each, over a pool of N connections.
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (!stopping && performance.now() < deadline && childExit === undefined) await one(pickKind());
    }),
  );
  const elapsed = (performance.now() - t0) / 1000;
  clearTimeout(warmTimer);
  clearInterval(progress);
  clearInterval(rssTimer);
  await pool.close();
  const rssEnd = serverRssMiB();
  const processesEnd = rssByProcess();
  redisEnd = await redisWatch?.sample().catch(() => undefined);
  if (Number.isNaN(warmAt)) {
    // The run ended before the warm-up did (interrupted): compare with the start instead.
    rssWarm = rssStart;
    warmRequests = 0;
    warmAt = t0;
  }
  const steadyRate = (stats.requests - warmRequests) / ((t0 + elapsed * 1000 - warmAt) / 1000);

  // ---- report ----
  const lat = latencySummary(stats.latencies);
  const ms = (x) => `${x.toFixed(2)} ms`;
  const mib = (x) => `${x.toFixed(1)} MiB`;
  const connErrors = totalConnectionErrors();
  say('');
  say(`load: ${elapsed.toFixed(1)} s, ${CONNECTIONS} connections${interrupted ? ' (interrupted)' : ''}`);
  say(
    `  requests      ${stats.requests} answered, ${(stats.requests / elapsed).toFixed(0)} req/s overall, ${steadyRate.toFixed(0)} req/s after the warm-up`,
  );
  say(`  latency       p50 ${ms(lat.p50)}  p90 ${ms(lat.p90)}  p99 ${ms(lat.p99)}  max ${ms(lat.max)}`);
  say(
    `  statuses      ${Object.entries(stats.statuses)
      .map(([s, n]) => `${s}: ${n}`)
      .join('  ')}`,
  );
  say('  per kind       count   statuses                      p50        p99        unexpected  5xx  conn');
  for (const k of KIND_NAMES.filter((name) => KINDS[name].weight > 0)) {
    const s = stats.perKind[k];
    const l = latencySummary(stats.latencyByKind[k]);
    const statuses = Object.entries(s.statuses)
      .map(([st, n]) => `${st}:${n}`)
      .join(' ');
    say(
      `    ${k.padEnd(14)} ${String(s.count).padStart(7)}   ${statuses.padEnd(28)}  ${ms(l.p50).padStart(9)}  ${ms(l.p99).padStart(9)}  ${String(s.unexpected).padStart(10)}  ${String(s.serverErrors).padStart(3)}  ${String(s.connectionErrors).padStart(4)}`,
    );
  }
  say(
    `  errors        5xx ${stats.serverErrors}, unexpected statuses ${stats.unexpected}, connection errors ${connErrors} (resets ${stats.connection.reset}, timeouts ${stats.connection.timeout}, refused ${stats.connection.refused}, other ${stats.connection.other})`,
  );
  for (const e of stats.samples) say(`    ${JSON.stringify(e)}`);
  say(
    `  server RSS    start ${mib(rssStart)}, after warm-up ${mib(rssWarm)}, end ${mib(rssEnd)}; end − warm-up ${rssEnd - rssWarm >= 0 ? '+' : ''}${mib(rssEnd - rssWarm)} (${(((rssEnd - rssWarm) / rssWarm) * 100).toFixed(0)} %)`,
  );
  say(
    `  server holds  ${SEEDED + stats.created - stats.deleted} articles (${SEEDED} seeded + ${stats.created} created − ${stats.deleted} deleted); ${stats.nonces} nonces consumed, each kept ${WINDOW} s`,
  );
  if (DATA_DIR)
    say(
      `  journal       ${mib(statSync(path.join(DATA_DIR, 'journal.log')).size / 1024 / 1024)} on disk at the end (compacted as it grows)`,
    );
  const third = Math.floor(rssSamples.length / 3);
  const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const rssTrend =
    third > 0
      ? {
          min: Math.min(...rssSamples),
          max: Math.max(...rssSamples),
          firstThird: mean(rssSamples.slice(0, third)),
          lastThird: mean(rssSamples.slice(-third)),
        }
      : undefined;
  if (rssTrend)
    say(
      `  RSS trend     after the warm-up, sampled every 1 s: min ${mib(rssTrend.min)}, max ${mib(rssTrend.max)}; mean of the first third ${mib(rssTrend.firstThird)}, of the last third ${mib(rssTrend.lastThird)}`,
    );
  const heapAfterWarmup = majorGcs.filter(([at]) => at >= warmAt).map(([, mb]) => mb);
  const heapTrend =
    heapAfterWarmup.length > 0
      ? {
          majorGcs: heapAfterWarmup.length,
          first: heapAfterWarmup[0],
          last: heapAfterWarmup[heapAfterWarmup.length - 1],
          min: Math.min(...heapAfterWarmup),
          max: Math.max(...heapAfterWarmup),
        }
      : undefined;
  say(
    heapTrend
      ? `  server heap   after each major GC since the warm-up (${heapTrend.majorGcs}): first ${mib(heapTrend.first)}, last ${mib(heapTrend.last)}, min ${mib(heapTrend.min)}, max ${mib(heapTrend.max)}`
      : '  server heap   no major GC after the warm-up (run longer to see the heap trend)',
  );
  const cluster = REDIS
    ? clusterFigures({
        instances: INSTANCES,
        rss: { start: processesStart, warm: processesWarm, end: processesEnd },
        warmAt,
        majorGcs,
        instancePids,
        serverPid: child.pid,
        redis: { warm: redisWarm, end: redisEnd, samples: redisSamples },
      })
    : { lines: [], json: undefined };
  for (const line of cluster.lines) say(line);
  if (childExit !== undefined)
    say(`  SERVER EXITED during the load: code ${childExit.code}, signal ${childExit.signal}`);

  const failed = stats.serverErrors > 0 || stats.unexpected > 0 || connErrors > 0 || childExit !== undefined;
  exitCode = failed ? 1 : interrupted ? 130 : 0;
  say(failed ? 'load: FAILED (see errors above)' : 'load: ok — no 5xx, no unexpected status, no connection error');
  if (opts.json) {
    const round = (x) => Math.round(x * 1000) / 1000;
    const summary = {
      seconds: round(elapsed),
      connections: CONNECTIONS,
      windowSeconds: WINDOW,
      durable: DATA_DIR !== undefined,
      interrupted,
      requests: stats.requests,
      throughput: { overall: round(stats.requests / elapsed), afterWarmup: round(steadyRate) },
      latencyMs: { p50: round(lat.p50), p90: round(lat.p90), p99: round(lat.p99), max: round(lat.max) },
      statuses: stats.statuses,
      kinds: Object.fromEntries(
        KIND_NAMES.map((k) => {
          const l = latencySummary(stats.latencyByKind[k]);
          return [k, { ...stats.perKind[k], latencyMs: { p50: round(l.p50), p99: round(l.p99), max: round(l.max) } }];
        }),
      ),
      errors: {
        serverErrors: stats.serverErrors,
        unexpected: stats.unexpected,
        connection: stats.connection,
        samples: stats.samples,
      },
      serverRssMiB: {
        start: round(rssStart),
        afterWarmup: round(rssWarm),
        end: round(rssEnd),
        growthAfterWarmup: round(rssEnd - rssWarm),
        ...(rssTrend ? { trend: Object.fromEntries(Object.entries(rssTrend).map(([k, v]) => [k, round(v)])) } : {}),
      },
      serverHeapAfterMajorGcMiB: heapTrend ?? null,
      ...(REDIS ? { cluster: cluster.json } : {}),
      articlesHeld: SEEDED + stats.created - stats.deleted,
      noncesConsumed: stats.nonces,
      serverExited: childExit ?? null,
      ok: !failed,
    };
    process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
  }
} catch (err) {
  console.error(`load: ${err?.stack ?? err}`);
  exitCode = 1;
} finally {
  await pool.close().catch(() => {});
  await stopTarget();
  if (DATA_DIR) rmSync(DATA_DIR, { recursive: true, force: true });
  if (redisWatch) {
    await redisWatch
      .cleanup()
      .catch((err) =>
        console.error(`load: could not remove the run's Redis keys {${REDIS_PREFIX}}:*: ${err?.message ?? err}`),
      );
    await redisWatch.close();
  }
}
