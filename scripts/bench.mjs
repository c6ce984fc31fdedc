#!/usr/bin/env node
// Benchmarks, measured in one run on this machine (shared and noisy, so only ratios measured side by side count).
//
// 1. Harness overhead: the harness's request rate replaying `articles/put-create-roundtrip` (PUT + GET with
//    generation, templating, XML serialization and data comparison) against the reference server, as a ratio to
//    plain undici sending the same kind of requests on one keep-alive connection. Rounds alternate A/B and the
//    ratio of medians is printed. Aim: >= 0.7.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { Client } from 'undici';
import { createHttpClient } from '../dist/harness/src/http/client.js';
import { NO_AUTH } from '../dist/harness/src/auth/types.js';
import { loadProfile } from '../dist/harness/src/profile/load.js';
import { createRedactor } from '../dist/harness/src/runner/redact.js';
import { runScenario } from '../dist/harness/src/runner/scenario.js';
import { loadRules, loadSuite } from '../dist/harness/src/spec/load.js';
import { articleArb } from '../dist/harness/src/generators/article.js';
import { serializeArticle } from '../dist/harness/src/xml/article-xml.js';
import { spawn } from 'node:child_process';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const RUNS = Number(process.env.BENCH_RUNS ?? 300); // property runs per round = 2 requests each

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** The reference server in its own process, as a target is: `conform serve --port 0`, URL read from its stdout. */
async function startTarget() {
  const child = spawn(process.execPath, [path.join(root, 'bin', 'conform.js'), 'serve', '--port', '0', '--max-articles', '1000000', '--quiet'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.on('exit', (code) => reject(new Error(`conform serve exited with ${code}`)));
  });
  return { url, close: () => new Promise((resolve) => { child.once('exit', resolve); child.kill('SIGTERM'); }) };
}
const server = await startTarget();
const profile = await loadProfile(path.join(root, 'reference-server', 'profile.yaml'));
const suite = await loadSuite([path.join(root, 'specs')], await loadRules(path.join(root, 'specs', 'rules.yaml')));
const scenario = suite.scenarios.find((s) => s.id === 'articles/put-create-roundtrip');

async function harnessRound(round) {
  const client = createHttpClient({ connections: 1 });
  let n = 0;
  const deps = { client, baseUrl: server.url, profile, redactor: createRedactor([]), authenticator: NO_AUTH, uniq: () => `h${round}-${n++}`, seed: round };
  const t0 = performance.now();
  const r = await runScenario(scenario, deps, { runs: RUNS, seed: 1000 + round });
  const s = (performance.now() - t0) / 1000;
  await client.close();
  if (r.status !== 'passed') throw new Error(`harness round failed: ${r.reason}`);
  return r.requests / s;
}

async function rawRound(round) {
  const bodies = fc.sample(articleArb(['summary'], { optional: 'sometimes' }), { numRuns: RUNS, seed: round }).map(serializeArticle);
  const client = new Client(server.url, { connections: 1, pipelining: 1 });
  const t0 = performance.now();
  let requests = 0;
  for (let i = 0; i < RUNS; i++) {
    const p = `/articles/raw-${round}-${i}`;
    const put = await client.request({ method: 'PUT', path: p, headers: { 'content-type': 'application/xml' }, body: bodies[i] });
    await put.body.arrayBuffer();
    const get = await client.request({ method: 'GET', path: p });
    await get.body.text();
    requests += 2;
  }
  const s = (performance.now() - t0) / 1000;
  await client.close();
  return requests / s;
}

// Warm up both paths (JIT, connection setup) before measuring.
for (let i = 0; i < 3; i++) {
  await harnessRound(-1 - i);
  await rawRound(-1 - i);
}
const harness = [];
const raw = [];
for (let i = 0; i < ROUNDS; i++) {
  if (i % 2 === 0) {
    raw.push(await rawRound(i));
    harness.push(await harnessRound(i));
  } else {
    harness.push(await harnessRound(i));
    raw.push(await rawRound(i));
  }
}
await server.close();

const fmt = (x) => x.toFixed(0).padStart(6);
console.log(`harness overhead: articles/put-create-roundtrip, ${RUNS} property runs (${RUNS * 2} requests) per round, ${ROUNDS} rounds, one keep-alive connection`);
console.log(`  plain undici   median ${fmt(median(raw))} req/s   rounds: ${raw.map((x) => x.toFixed(0)).join(' ')}`);
console.log(`  conform        median ${fmt(median(harness))} req/s   rounds: ${harness.map((x) => x.toFixed(0)).join(' ')}`);
console.log(`  ratio conform / undici = ${(median(harness) / median(raw)).toFixed(2)} (aim >= 0.70)`);
