/**
 * `conform/vitest` used for real: a few scenarios registered as vitest tests (they show in `npm test` under
 * `conform (vitest integration)`), run against the bundled reference server started in-process by the suite.
 * Then a child vitest runs test/fixtures/vitest/faults.fixture.ts (servers with faults switched on) with the JSON
 * reporter, to show failures, skips and warnings surfacing as vitest results, and the printed replay command
 * reproducing the failure.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect } from 'vitest';
import { defineConformSuite, scenarioTestName, type ConformTaskMeta } from '../harness/src/vitest/index.js';
import { it } from './fixtures.js';
import { ROOT, startReferenceServer } from './helpers.js';

const FILTER = ['articles/post-', 'auth/nonce-once'];

const suite = defineConformSuite({
  name: 'conform (vitest integration)',
  target: () => startReferenceServer(),
  filter: FILTER,
  runs: 5,
  seed: 7,
  timeoutMs: 5000,
  testTimeoutMs: 60_000,
});

describe('defineConformSuite registration', () => {
  it('selects the filtered scenarios, one test each, named <id> [<level>] <rules>', () => {
    const ids = suite.scenarios.map((s) => s.id);
    expect(ids).toContain('articles/post-create');
    expect(ids).toContain('auth/nonce-once');
    expect(ids.every((id) => FILTER.some((f) => id.includes(f)))).toBe(true);
    const create = suite.scenarios.find((s) => s.id === 'articles/post-create')!;
    expect(scenarioTestName(create)).toBe(`articles/post-create [MUST] ${create.rules.join(' ')}`);
    expect(suite.seed).toBe(7);
    expect(suite.runs).toBe(5);
  });
});

// Runs after the suite's own tests (files run their top-level blocks in order): every selected scenario ran and passed.
afterAll(() => {
  const ran = [...suite.results.values()];
  if (ran.length === 0) return; // everything filtered out by -t: nothing to check
  const bad = ran.filter((r) => r.status !== 'passed').map((r) => `${r.id}: ${r.status}: ${r.reason}`);
  expect(bad).toEqual([]);
});

/** The parts of vitest's JSON report these tests read. */
interface JsonReport {
  numFailedTests: number;
  numPassedTests: number;
  testResults: Array<{
    name: string;
    assertionResults: Array<{
      title: string;
      fullName: string;
      ancestorTitles: string[];
      status: string;
      failureMessages: string[];
      meta: { conform?: ConformTaskMeta };
    }>;
  }>;
}

const VITEST = path.join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');
const FIXTURE = path.join('test', 'fixtures', 'vitest', 'faults.fixture.ts');
const FIXTURE_CONFIG = path.join('test', 'fixtures', 'vitest', 'vitest.config.ts');

/**
 * Runs a child vitest on the fixture with the default and JSON reporters (the JSON one to a file in `dir`); bounded
 * by a timeout, its servers closed by the suites' afterAll.
 */
async function childVitest(
  dir: string,
  args: string[],
  extraEnv: Record<string, string> = {},
): Promise<{ code: number; report: JsonReport; output: string }> {
  const outputFile = path.join(dir, 'report.json');
  // The child must not inherit this worker's vitest state nor a CONFORM_* setting of whoever runs npm test.
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST') && !k.startsWith('CONFORM_')),
  );
  const { code, output } = await new Promise<{ code: number; output: string }>((resolve, reject) => {
    execFile(
      process.execPath,
      [
        VITEST,
        'run',
        '--config',
        FIXTURE_CONFIG,
        ...args,
        '--reporter=default',
        '--reporter=json',
        `--outputFile.json=${outputFile}`,
      ],
      {
        cwd: ROOT,
        env: { ...env, ...extraEnv, NO_COLOR: '1' },
        timeout: 120_000,
        killSignal: 'SIGKILL',
        maxBuffer: 16 * 1024 * 1024,
      },
      (err, stdout, stderr) => {
        if (err && typeof err.code !== 'number')
          reject(new Error(`child vitest did not finish: ${err.message}\n${stdout}${stderr}`));
        else resolve({ code: err ? (err.code as number) : 0, output: `${stdout}\n${stderr}` });
      },
    );
  });
  const report = JSON.parse(await readFile(outputFile, 'utf8')) as JsonReport;
  return { code, report, output };
}

type Assertion = JsonReport['testResults'][number]['assertionResults'][number];

function find(report: JsonReport, suite: string, id: string): Assertion {
  const all = report.testResults.flatMap((f) => f.assertionResults);
  const hit = all.find((a) => a.ancestorTitles[0] === suite && a.title.startsWith(`${id} [`));
  if (!hit) throw new Error(`no test for ${id} in suite ${suite}; tests: ${all.map((a) => a.fullName).join(' | ')}`);
  return hit;
}

/** Splits a POSIX shell command line (words, single-quoted parts, backslash escapes); enough for replay commands. */
function shellWords(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let started = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (ch === "'") {
      const end = line.indexOf("'", i + 1);
      word += line.slice(i + 1, end);
      i = end;
      started = true;
    } else if (ch === '\\') {
      word += line[++i] ?? '';
      started = true;
    } else if (ch === ' ') {
      if (started) words.push(word);
      word = '';
      started = false;
    } else {
      word += ch;
      started = true;
    }
  }
  if (started) words.push(word);
  return words;
}

describe('a failing scenario surfaces in vitest (child vitest, JSON reporter)', () => {
  let firstRun: Awaited<ReturnType<typeof childVitest>> | undefined;

  it('MUST failure fails its test with the reason, counterexample and replay; others pass or skip with a reason', async ({
    tempDir,
  }) => {
    firstRun = await childVitest(tempDir, [FIXTURE]);
    const { code, report } = firstRun;
    expect(code).toBe(1);

    const create = find(report, 'post-200', 'articles/post-create');
    expect(create.status).toBe('failed');
    const message = create.failureMessages.join('\n');
    expect(message).toContain('articles/post-create [MUST] failed: POST /articles: expected status 201, got 200');
    expect(message).toMatch(/counterexample +\{"a":\{/);
    expect(message).toMatch(/seed +11 \(scenario seed \d+, fast-check path "[\d:]+"\)/);
    expect(message).toContain(`replay         CONFORM_REPLAY=articles/post-create=`);
    expect(message).toContain(`npx vitest run ${FIXTURE} -t 'articles/post-create \\['`);
    expect(create.meta.conform).toMatchObject({
      id: 'articles/post-create',
      level: 'MUST',
      status: 'failed',
      seed: 11,
      reason: 'POST /articles: expected status 201, got 200',
    });

    for (const id of ['articles/put-create', 'articles/put-create-roundtrip']) {
      const passed = find(report, 'post-200', id);
      expect(passed.status, id).toBe('passed');
      expect(passed.meta.conform?.status).toBe('passed');
    }

    // The started server has no TLS listener: the scenario that needs one is skipped, naming the profile key.
    const basic = find(report, 'post-200', 'auth/basic-accepted');
    expect(basic.status).toBe('skipped');
    expect(basic.meta.conform).toMatchObject({ status: 'skipped', reason: 'profile lacks target.https' });

    // A SHOULD failure is a passing test with a warning, unless strict.
    const lenient = find(report, 'expand-entities', 'articles/no-entity-expansion');
    expect(lenient.status).toBe('passed');
    expect(lenient.meta.conform).toMatchObject({ level: 'SHOULD', status: 'failed', warning: true });
    expect(firstRun.output).toContain('⚠ conform: SHOULD scenario failed (a warning; strict: true makes it fail)');
    const strict = find(report, 'expand-entities (strict)', 'articles/no-entity-expansion');
    expect(strict.status).toBe('failed');
    expect(strict.failureMessages.join('\n')).toContain('articles/no-entity-expansion [SHOULD] failed:');

    expect(report.numFailedTests).toBe(2);
  }, 150_000);

  it('the printed replay command reruns just that scenario and reproduces the counterexample', async ({ tempDir }) => {
    if (!firstRun) throw new Error('needs the previous test');
    const create = find(firstRun.report, 'post-200', 'articles/post-create');
    const line = create.failureMessages
      .join('\n')
      .split('\n')
      .find((l) => l.trimStart().startsWith('replay '));
    const words = shellWords(line!.trim().replace(/^replay\s+/, ''));
    const env = Object.fromEntries(
      words.filter((w) => /^[A-Z_]+=/.test(w)).map((w) => [w.slice(0, w.indexOf('=')), w.slice(w.indexOf('=') + 1)]),
    );
    const command = words.filter((w) => !/^[A-Z_]+=/.test(w));
    expect(command.slice(0, 3)).toEqual(['npx', 'vitest', 'run']);
    expect(Object.keys(env)).toEqual(['CONFORM_REPLAY']);

    const { code, report } = await childVitest(tempDir, command.slice(3), env);
    expect(code).toBe(1);
    const all = report.testResults.flatMap((f) => f.assertionResults);
    expect(all.filter((a) => a.status !== 'skipped').map((a) => a.title.split(' ')[0])).toEqual([
      'articles/post-create',
    ]);
    const again = find(report, 'post-200', 'articles/post-create');
    expect(again.status).toBe('failed');
    expect(again.meta.conform?.reason).toBe(create.meta.conform?.reason);
    expect(again.meta.conform?.counterexamplePath).toBe(create.meta.conform?.counterexamplePath);
    expect(again.failureMessages.join('\n')).toContain(
      `counterexample ${create.failureMessages.join('\n').match(/counterexample (\{.*\}) \(/)![1]}`,
    );
  }, 150_000);
});
