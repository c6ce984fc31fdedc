// Bench part 6: the four-request flow of scripts/lib/flow.yaml (PUT create, GET compared, PUT replace, DELETE),
// ×N on one keep-alive connection to the reference server in its own process, run two ways, each as its own process:
//   conform:  `conform run --specs scripts/lib/flow.yaml --runs N --concurrency 1` (the whole command);
//   undici:   this file with `--raw URL N`: the same flow written by hand with undici and fast-check (the same
//             arbitraries, signing, status checks, strict XML reading and comparison).
// Two ratios conform / undici, each the median of per-round ratios: in-run (the flow's own time: the scenario's
// durationMs against the hand-written loop's) and wall (process start to exit, both).
// Run alone with `node scripts/lib/flow.mjs` (after `npm run build`), or as part of `npm run bench`.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startConformServe } from './serve-process.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * The hand-written flow: N runs against `url` from `seed` (the one conform derives for the scenario, given by the
 * parent so this process loads nothing more of conform than the hand-written flow uses); prints the loop's own ms.
 */
async function rawFlow(url, n, seed) {
  const fc = (await import('fast-check')).default;
  const { Client } = await import('undici');
  const { createAuthenticator } = await import('../../dist/harness/src/auth/authenticator.js');
  const { loadProfileSync } = await import('../../dist/harness/src/profile/load.js');
  const { GENERATORS } = await import('../../dist/harness/src/generators/registry.js');
  const { compareArticle, serializeArticle } = await import('../../dist/harness/src/xml/article-xml.js');
  const profile = loadProfileSync(path.join(root, 'reference-server', 'profile.yaml'));
  const authenticator = createAuthenticator({ profile });
  const arb = fc.record({
    slug: GENERATORS.slug.make({}, profile),
    a: GENERATORS.article.make({ optional: 'sometimes' }, profile),
    b: GENERATORS.article.make({}, profile),
  });
  const client = new Client(url, { pipelining: 1 });
  const type = profile.articles.mediaType;
  const signed = (method, p, body) =>
    authenticator.apply(
      { method, url: url + p, headers: body === undefined ? {} : { 'content-type': type }, ...(body ? { body } : {}) },
      'hmac-nonce',
      'alice',
    ).request.headers;
  let k = 0;
  const t0 = performance.now();
  await fc.assert(
    fc.asyncProperty(arb, async ({ slug, a, b }) => {
      const p = `/articles/${slug}-raw${k++}`;
      const first = serializeArticle(a);
      const put = await client.request({ method: 'PUT', path: p, headers: signed('PUT', p, first), body: first });
      await put.body.dump();
      if (put.statusCode !== 201) return false;
      const get = await client.request({ method: 'GET', path: p });
      const text = await get.body.text();
      if (get.statusCode !== 200 || compareArticle(a, text, profile.articles.optionalFields).length > 0) return false;
      const second = serializeArticle(b);
      const replace = await client.request({ method: 'PUT', path: p, headers: signed('PUT', p, second), body: second });
      await replace.body.dump();
      if (replace.statusCode !== 200 && replace.statusCode !== 204) return false;
      const del = await client.request({ method: 'DELETE', path: p, headers: signed('DELETE', p) });
      await del.body.dump();
      return del.statusCode >= 200 && del.statusCode < 300;
    }),
    // Both sides draw the same values and send the same bytes.
    { numRuns: n, seed },
  );
  const ms = performance.now() - t0;
  await client.close();
  console.log(JSON.stringify({ ms }));
}

/** Runs `node args…` to its end: wall milliseconds and stdout. */
function timed(args) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'], cwd: root });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, out, ms: performance.now() - t0 }));
  });
}

export async function flowBench({
  runs = Number(process.env.BENCH_FLOW_RUNS ?? 1000),
  rounds = Number(process.env.BENCH_FLOW_ROUNDS ?? 9),
} = {}) {
  // The seed conform derives for the flow's scenario from `--seed 1`, for the hand-written side.
  const { scenarioSeed } = await import('../../dist/harness/src/runner/scenario.js');
  const seed = scenarioSeed(1, 'bench/four-request-flow');
  const dir = await mkdtemp(path.join(os.tmpdir(), 'conform-flow-'));
  const profileFile = path.join(dir, 'profile.yaml');
  const server = await startConformServe({
    serveArgs: ['--port', '0', '--https-port', 'off', '--quiet', '--profile-out', profileFile],
  });
  const conform = async () => {
    const r = await timed([
      ...['bin/conform.js', 'run', '--target', server.url, '--profile', profileFile],
      ...['--specs', path.join(root, 'scripts', 'lib', 'flow.yaml'), '--runs', String(runs), '--concurrency', '1'],
      ...['--seed', '1', '--reporter', 'json', '--report-dir', dir, '--quiet'],
    ]);
    const report = JSON.parse(await readFile(path.join(dir, 'report.json'), 'utf8'));
    const s = report.scenarios[0];
    if (r.code !== 0 || s.status !== 'passed') throw new Error(`conform run: exit ${r.code}, ${s.status} ${s.reason}`);
    return { wall: r.ms, inRun: s.durationMs };
  };
  const raw = async () => {
    const r = await timed([fileURLToPath(import.meta.url), '--raw', server.url, String(runs), String(seed)]);
    if (r.code !== 0) throw new Error(`raw flow: exit ${r.code}`);
    return { wall: r.ms, inRun: JSON.parse(r.out).ms };
  };
  try {
    await conform();
    await raw();
    const ratios = { inRun: [], wall: [] };
    const rows = [];
    for (let i = 0; i < rounds; i++) {
      // Alternate which goes first, so neither always meets the other's leftovers.
      let c, u;
      if (i % 2 === 0) ((c = await conform()), (u = await raw()));
      else ((u = await raw()), (c = await conform()));
      ratios.inRun.push(u.inRun / c.inRun);
      ratios.wall.push(u.wall / c.wall);
      rows.push(
        `${(c.inRun / 1000).toFixed(2)}/${(u.inRun / 1000).toFixed(2)} s (${(c.wall / 1000).toFixed(2)}/${(u.wall / 1000).toFixed(2)} s)`,
      );
    }
    const spread = (xs) => `${Math.min(...xs).toFixed(3)}–${Math.max(...xs).toFixed(3)}`;
    console.log(
      `6. the four-request flow (scripts/lib/flow.yaml) ×${runs} on one keep-alive connection, ${rounds} rounds, each side its own process`,
    );
    console.log(`   rounds, conform/undici in-run (wall): ${rows.join('; ')}`);
    console.log(
      `   ratio conform / undici, in-run = ${median(ratios.inRun).toFixed(3)} (spread ${spread(ratios.inRun)}; aim >= 0.95), wall = ${median(ratios.wall).toFixed(3)} (spread ${spread(ratios.wall)}; aim >= 0.85)`,
    );
    return { inRun: median(ratios.inRun), wall: median(ratios.wall) };
  } finally {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--raw') await rawFlow(process.argv[3], Number(process.argv[4]), Number(process.argv[5] ?? 1));
else if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await flowBench();
