#!/usr/bin/env node
// Detection sweep: every reference-server fault mode against the scenarios aimed at it (test/fault-matrix.test.ts),
// with the default number of property runs (50), on SEEDS different seeds. Prints, per fault, on how many seeds
// every aimed scenario failed. Usage: node scripts/fault-sweep.mjs [SEEDS=20] [FIRST_SEED=1]
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAuthenticator } from '../dist/harness/src/auth/authenticator.js';
import { createHttpClient } from '../dist/harness/src/http/client.js';
import { loadProfileSync } from '../dist/harness/src/profile/load.js';
import { runSuite } from '../dist/harness/src/engine/run-suite.js';
import { loadRulesSync, loadSuiteSync } from '../dist/harness/src/suite/load.js';
import { loadVariantProfile } from '../dist/cli/src/variant-profile.js';
import {
  FAULT_VARIANTS,
  SCENARIO_FAULT_NAMES as FAULT_NAMES,
  startServer,
} from '../dist/reference-server/src/index.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SEEDS = Number(process.argv[2] ?? 20);
const FIRST = Number(process.argv[3] ?? 1);
// The matrix lives in the test; read it from there so the two never disagree.
const testText = await readFile(path.join(root, 'test', 'fault-matrix.test.ts'), 'utf8');
const matrix = Object.fromEntries(
  [...testText.matchAll(/^\s+'([a-z0-9-]+)': \[([^\]]*)\],$/gm)].map((m) => [
    m[1],
    [...m[2].matchAll(/'([^']+)'/g)].map((x) => x[1]),
  ]),
);
const suite = loadSuiteSync([path.join(root, 'specs')], loadRulesSync(path.join(root, 'specs', 'rules.yaml')));
const base = loadProfileSync(path.join(root, 'reference-server', 'profile.yaml'));
// Opt-in scenarios (they wait) run with a profile that opts in, as test/fault-matrix.test.ts OPT_IN does.
const OPT_IN = { 'auth/nonce-remembered-in-window': (p) => ({ ...p, auth: { ...p.auth, nonceMemoryWait: 3 } }) };
// SWEEP_FAULTS=a,b restricts the sweep to those faults.
const only = process.env.SWEEP_FAULTS ? new Set(process.env.SWEEP_FAULTS.split(',').map((s) => s.trim())) : undefined;
const swept = FAULT_NAMES.filter((f) => !only || only.has(f));
let missed = 0;
for (const fault of swept) {
  const targets = matrix[fault];
  if (!targets) throw new Error(`fault ${fault} is not in the matrix`);
  // A fault of something the default server does not offer runs with the variants that offer it (FAULT_VARIANTS).
  const variants = FAULT_VARIANTS[fault] ?? [];
  const server = await startServer({ port: 0, httpsPort: 0, faults: [fault], variants });
  const judged =
    variants.length > 0 ? loadVariantProfile(path.join(root, 'reference-server', 'profile.yaml'), variants) : base;
  const optedIn = targets.reduce((p, id) => OPT_IN[id]?.(p) ?? p, judged);
  const profile = { ...optedIn, target: { ...base.target, http: server.url, https: server.httpsUrl } };
  const client = createHttpClient({ ca: server.certificate });
  const misses = [];
  for (let seed = FIRST; seed < FIRST + SEEDS; seed++) {
    const run = await runSuite(
      suite,
      {
        bases: { primary: server.url, plain: server.url, tls: server.httpsUrl },
        seed,
        runs: 50,
        filter: targets,
        strict: false,
        timeoutMs: 5000,
        version: 'sweep',
        // Detection by the scenarios themselves: a fault that refuses valid credentials would stop the run before them.
        credentialCheck: false,
      },
      { client, profile, authenticator: createAuthenticator({ profile }) },
    );
    const notFailed = targets.filter((id) => run.scenarios.find((s) => s.id === id)?.status !== 'failed');
    if (notFailed.length) misses.push(`${seed} (${notFailed.join(', ')})`);
  }
  await client.close();
  await server.close();
  missed += misses.length;
  console.log(
    `${fault.padEnd(26)} detected on ${SEEDS - misses.length}/${SEEDS} seeds${misses.length ? `; missed: ${misses.join('; ')}` : ''}`,
  );
}
console.log(
  `\n${swept.length} faults × ${SEEDS} seeds (${FIRST}..${FIRST + SEEDS - 1}), 50 runs each: ${missed} misses`,
);
process.exitCode = missed ? 1 : 0;
