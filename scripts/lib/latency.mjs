// Bench part 5: the default suite against the reference server behind an in-process delay proxy (a round trip of
// 2 × BENCH_DELAY_MS, default 20 ms), one scenario at a time and at the default concurrency, measured in one run:
// wall times, their ratio (aim: sequential >= 8 × default), and where the default run's time went (its timeline).
// The reference server runs in its own process (`conform serve`) and the proxy on a worker thread, as a distant
// target and a network are: neither shares the harness's event loop. BENCH_LATENCY_SERVER=in-process and
// BENCH_LATENCY_PROXY=main put them back on the harness's thread (the layout of the figures before 2026-11-28, where
// the server's work, the proxy's timers and the harness's work queued behind each other).
// Run alone with `node scripts/lib/latency.mjs` (after `npm run build`), or as part of `npm run bench`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAuthenticator } from '../../dist/harness/src/auth/authenticator.js';
import { createHttpClient } from '../../dist/harness/src/http/client.js';
import { loadProfileSync } from '../../dist/harness/src/profile/load.js';
import { RUN_OPTION_SPEC } from '../../dist/harness/src/runner/options.js';
import { runSuite } from '../../dist/harness/src/engine/run-suite.js';
import { loadRulesSync, loadSuiteSync } from '../../dist/harness/src/suite/load.js';
import { EMBEDDED_TOKEN_TTL } from '../../dist/cli/src/embedded.js';
import { startServer } from '../../dist/reference-server/src/index.js';
import { timeLines } from '../../dist/harness/src/report/time.js';
import { startConformServe } from './serve-process.mjs';
import { startDelayProxy } from './delay-proxy.mjs';

export { startDelayProxy };

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Runs the default suite through the proxies at `concurrency`; returns wall time, verdict counts and connections. */
async function runThroughProxy(suite, concurrency, delayMs, runs) {
  const server = await startTarget();
  const thread = process.env.BENCH_LATENCY_PROXY === 'main' ? 'main' : 'worker';
  const plain = await startDelayProxy(Number(new URL(server.url).port), delayMs, { thread });
  const tls = await startDelayProxy(Number(new URL(server.httpsUrl).port), delayMs, { thread });
  const loaded = loadProfileSync(path.join(root, 'reference-server', 'profile.yaml'));
  const http = `http://127.0.0.1:${plain.port}`;
  const https = `https://127.0.0.1:${tls.port}`;
  const profile = {
    ...loaded,
    target: { ...loaded.target, http, https },
    auth: {
      ...loaded.auth,
      ...(loaded.auth.oauth2 ? { oauth2: { ...loaded.auth.oauth2, ttl: EMBEDDED_TOKEN_TTL } } : {}),
    },
  };
  const client = createHttpClient({ ca: server.certificate });
  const t0 = performance.now();
  try {
    const run = await runSuite(
      suite,
      {
        bases: { primary: http, plain: http, tls: https },
        seed: 5,
        runs,
        filter: [],
        strict: false,
        timeoutMs: 30_000,
        concurrency,
        version: 'bench',
      },
      { client, profile, authenticator: createAuthenticator({ profile }) },
    );
    const seconds = (performance.now() - t0) / 1000;
    const requests = run.scenarios.reduce((n, s) => n + s.requests, 0);
    return {
      seconds,
      summary: run.summary,
      requests,
      connections: (await plain.connections()) + (await tls.connections()),
      time: timeLines(run),
    };
  } finally {
    await client.close();
    await plain.close();
    await tls.close();
    await server.close();
  }
}

/** The reference server with tokens of EMBEDDED_TOKEN_TTL: its own process, or (BENCH_LATENCY_SERVER=in-process) this one. */
async function startTarget() {
  if (process.env.BENCH_LATENCY_SERVER === 'in-process') {
    return startServer({ port: 0, httpsPort: 0, tokenTtl: EMBEDDED_TOKEN_TTL });
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'conform-latency-'));
  const certFile = path.join(dir, 'cert.pem');
  let httpsUrl;
  const served = await startConformServe({
    serveArgs: [
      '--quiet',
      '--port',
      '0',
      '--https-port',
      '0',
      '--token-ttl',
      String(EMBEDDED_TOKEN_TTL),
      '--cert-out',
      certFile,
    ],
    onLine: (line) => {
      const m = /and (https:\/\/\S+)/.exec(line);
      if (m) httpsUrl = m[1];
    },
  });
  try {
    if (!httpsUrl) throw new Error(`conform serve printed no https URL`);
    const certificate = fs.readFileSync(certFile, 'utf8');
    return {
      url: served.url,
      httpsUrl,
      certificate,
      close: async () => {
        await served.stop();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (e) {
    await served.stop();
    fs.rmSync(dir, { recursive: true, force: true });
    throw e;
  }
}

export async function latencyBench({
  delayMs = Number(process.env.BENCH_DELAY_MS ?? 10),
  runs = Number(process.env.BENCH_LATENCY_RUNS ?? RUN_OPTION_SPEC.runs.default),
} = {}) {
  const suite = loadSuiteSync([path.join(root, 'specs')], loadRulesSync(path.join(root, 'specs', 'rules.yaml')));
  const concurrency = RUN_OPTION_SPEC.concurrency.default;
  const sequential = await runThroughProxy(suite, 1, delayMs, runs);
  const concurrent = await runThroughProxy(suite, concurrency, delayMs, runs);
  const line = (name, r) =>
    `   ${name.padEnd(16)} ${r.seconds.toFixed(1).padStart(6)} s wall   ${r.requests} requests   ${r.connections} TCP connections   ${r.summary.passed} passed, ${r.summary.failed} failed, ${r.summary.errored} errored, ${r.summary.skipped} skipped`;
  console.log(
    `5. latency: the default suite (${runs} property runs) against the reference server (${process.env.BENCH_LATENCY_SERVER === 'in-process' ? 'in this process' : 'its own process'}) behind a delay proxy, ${2 * delayMs} ms round trip`,
  );
  console.log(line('--concurrency 1', sequential));
  console.log(line(`--concurrency ${concurrency}`, concurrent));
  console.log(
    `   ratio sequential / concurrent = ${(sequential.seconds / concurrent.seconds).toFixed(2)} (aim >= 8; issue 38)`,
  );
  for (const line of concurrent.time) console.log(`   --concurrency ${concurrency}: ${line}`);
  if (
    sequential.summary.failed + sequential.summary.errored + concurrent.summary.failed + concurrent.summary.errored >
    0
  ) {
    throw new Error('latency bench: the clean reference server did not pass; the figures above are not comparable');
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await latencyBench();
}
