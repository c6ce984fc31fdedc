// The four-request flow of scripts/lib/flow.yaml with no network and no server: conform's own cost per run.
// conform: runSuite over createHttpClient with an in-memory undici dispatcher (so its transport layer, the ledger
//          and everything above run as in a real run); by hand: the flow of flow.mjs --raw, same generators, signing,
//          strict XML reading and comparison, over the same in-memory store. Both in this process, alternately,
//          after one warm-up round each; the median of ROUNDS rounds of RUNS runs. Deterministic enough to compare
//          two builds where the loopback bench (part 6) drowns a few microseconds in the noise of a shared machine.
// Run with `node scripts/lib/flow-memory.mjs` after `npm run build` (FLOW_RUNS, FLOW_ROUNDS to change the defaults).
// `--cold`: each side ×1000 in a fresh process instead, FLOW_ROUNDS pairs alternated (default 9), so what warming up
// costs counts as it does in `conform run` (V8 optimizes a function only once enough of it has run): the median of
// each side and of the per-pair ratios.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const dist = (p) => import(path.join(root, 'dist', 'harness', 'src', p));
const { loadRulesSync, loadSuiteSync } = await dist('suite/load.js');
const { loadProfileSync } = await dist('profile/load.js');
const { runSuite } = await dist('engine/run-suite.js');
const { createHttpClient } = await dist('http/client.js');
const { createAuthenticator } = await dist('auth/authenticator.js');
const { GENERATORS } = await dist('generators/registry.js');
const { compareArticle, serializeArticle } = await dist('xml/article-xml.js');
const { scenarioSeed } = await dist('runner/scenario.js');

const RUNS = Number(process.env.FLOW_RUNS ?? 2000);
const ROUNDS = Number(process.env.FLOW_ROUNDS ?? 5);
const BASE = 'http://127.0.0.1:9';
const profile = loadProfileSync(path.join(root, 'reference-server', 'profile.yaml'));
const suite = loadSuiteSync(
  [path.join(root, 'scripts', 'lib', 'flow.yaml')],
  loadRulesSync(path.join(root, 'specs', 'rules.yaml')),
);

/** The articles stored, by path: PUT creates (201) or replaces (204), GET reads, DELETE removes. */
const store = new Map();
function answer(method, p, body) {
  if (method === 'PUT') {
    const had = store.has(p);
    store.set(p, body);
    return had ? { status: 204, headers: {}, body: '' } : { status: 201, headers: { location: p }, body };
  }
  if (method === 'GET')
    return store.has(p)
      ? { status: 200, headers: { 'content-type': 'application/xml' }, body: store.get(p) }
      : { status: 404, headers: {}, body: '' };
  if (method === 'DELETE') return { status: store.delete(p) ? 204 : 404, headers: {}, body: '' };
  return { status: 405, headers: {}, body: '' };
}

/** An undici Dispatcher answering from the store, a microtask later. */
const dispatcher = {
  dispatch(options, handler) {
    const controller = {
      aborted: false,
      abort() {
        this.aborted = true;
      },
      pause() {},
      resume() {},
    };
    handler.onRequestStart?.(controller, {});
    const body = options.body == null ? undefined : String(options.body);
    queueMicrotask(() => {
      const a = answer(options.method, options.path, body);
      handler.onResponseStart(
        controller,
        a.status,
        { ...a.headers, 'content-length': String(Buffer.byteLength(a.body)) },
        '',
      );
      if (a.body) handler.onResponseData(controller, Buffer.from(a.body));
      handler.onResponseEnd(controller, {});
    });
    return true;
  },
  close: async () => {},
  destroy: async () => {},
};

async function conform() {
  const options = { bases: { primary: BASE }, seed: 1, runs: RUNS, filter: [], strict: false, timeoutMs: 10_000 };
  const run = await runSuite(
    suite,
    { ...options, concurrency: 1, version: 'bench', credentialCheck: false, keep: true },
    { client: createHttpClient({}, dispatcher), profile, authenticator: createAuthenticator({ profile }) },
  );
  const s = run.scenarios[0];
  if (s.status !== 'passed') throw new Error(`conform: ${s.status} ${s.reason}`);
  return s.durationMs;
}

async function byHand() {
  const authenticator = createAuthenticator({ profile });
  const arb = fc.record({
    slug: GENERATORS.slug.make({}, profile),
    a: GENERATORS.article.make({ optional: 'sometimes' }, profile),
    b: GENERATORS.article.make({}, profile),
  });
  const type = profile.articles.mediaType;
  const signed = (method, p, body) =>
    authenticator.apply(
      { method, url: BASE + p, headers: body === undefined ? {} : { 'content-type': type }, ...(body ? { body } : {}) },
      'hmac-nonce',
      'alice',
    ).request.headers;
  const send = (method, p, headers, body) => Promise.resolve().then(() => answer(method, p, body));
  let k = 0;
  const t0 = performance.now();
  await fc.assert(
    fc.asyncProperty(arb, async ({ slug, a, b }) => {
      const p = `/articles/${slug}-raw${k++}`;
      const first = serializeArticle(a);
      if ((await send('PUT', p, signed('PUT', p, first), first)).status !== 201) return false;
      const got = await send('GET', p, {});
      if (got.status !== 200 || compareArticle(a, got.body, profile.articles.optionalFields).length > 0) return false;
      const second = serializeArticle(b);
      const replaced = await send('PUT', p, signed('PUT', p, second), second);
      if (replaced.status !== 200 && replaced.status !== 204) return false;
      const deleted = await send('DELETE', p, signed('DELETE', p));
      return deleted.status >= 200 && deleted.status < 300;
    }),
    // The seed conform derives for the scenario from seed 1: both sides draw the same values.
    { numRuns: RUNS, seed: scenarioSeed(1, 'bench/four-request-flow') },
  );
  return performance.now() - t0;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const us = (ms, runs) => ((ms / runs) * 1000).toFixed(1);
if (process.argv[2] === '--one') {
  // One side, once, in this fresh process (for --cold).
  console.log(JSON.stringify({ ms: process.argv[3] === 'conform' ? await conform() : await byHand() }));
} else if (process.argv[2] === '--cold') {
  const runs = process.env.FLOW_RUNS ?? '1000';
  const pairs = Number(process.env.FLOW_ROUNDS ?? 9);
  const one = (side) => {
    const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--one', side], {
      env: { ...process.env, FLOW_RUNS: runs },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    if (r.status !== 0) throw new Error(`flow-memory --one ${side}: exit ${r.status}`);
    return JSON.parse(r.stdout).ms;
  };
  const c = [];
  const h = [];
  const ratios = [];
  for (let i = 0; i < pairs; i++) {
    // Alternate which goes first, so neither always meets the other's leftovers.
    const [a, b] = i % 2 === 0 ? [one('conform'), one('hand')] : [one('hand'), one('conform')].reverse();
    c.push(a);
    h.push(b);
    ratios.push(b / a);
  }
  console.log(
    `flow in memory, cold (a fresh process each, ${runs} runs), median of ${pairs} pairs: conform ${us(median(c), Number(runs))} µs a run, ` +
      `by hand ${us(median(h), Number(runs))} µs, ratio by hand / conform = ${median(ratios).toFixed(3)}`,
  );
} else {
  await conform();
  await byHand();
  const c = [];
  const h = [];
  for (let i = 0; i < ROUNDS; i++) {
    c.push(await conform());
    h.push(await byHand());
  }
  console.log(
    `flow in memory, ${RUNS} runs, median of ${ROUNDS}: conform ${us(median(c), RUNS)} µs a run, by hand ${us(median(h), RUNS)} µs, ` +
      `ratio by hand / conform = ${(median(h) / median(c)).toFixed(3)}`,
  );
}
