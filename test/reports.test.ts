/**
 * Reporters and CI features through the command line: every format written from one run, report.json valid against
 * its schema, JUnit valid against the common JUnit schema (libxml2's validator, in-process as WebAssembly through
 * xmllint-wasm), Markdown and GitHub annotations, sharding and merging, baselines.
 */
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { validateXML } from 'xmllint-wasm';
import { ReportSchema } from '../harness/src/report/schema.js';
import type { RunResult } from '../harness/src/runner/types.js';
import { runCli } from './cli-helpers.js';
import { test } from './fixtures.js';
import { ROOT } from './helpers.js';

/** The working directory of every run in this file. */
let dir: string;
test.beforeAll(({ fileTempDir }) => {
  dir = fileTempDir;
});

const FILTER = [
  '--filter',
  'articles/post-',
  '--filter',
  'articles/put-create',
  '--filter',
  'methods/',
  '--filter',
  'auth/nonce-once',
];
const read = async (p: string) => readFile(path.join(dir, p), 'utf8');
const report = async (p: string) => JSON.parse(await read(p)) as RunResult;

describe('a run writes every format', () => {
  let summaryFile: string;
  let result: Awaited<ReturnType<typeof runCli>>;
  beforeAll(async () => {
    summaryFile = path.join(dir, 'step-summary.md');
    await writeFile(summaryFile, '# earlier step\n');
    result = await runCli(
      dir,
      [
        'run',
        '--embedded',
        '--fault',
        'post-200',
        '--fault',
        'unlisted-method-200',
        ...FILTER,
        '--runs',
        '5',
        '--seed',
        '11',
        '--report-dir',
        'all',
      ],
      { GITHUB_STEP_SUMMARY: summaryFile, GITHUB_ACTIONS: 'true' },
    );
  });

  it('exits 1 (a MUST failure) and writes report.json, junit.xml, summary.md and report.html', () => {
    expect(result.code, result.err).toBe(1);
    for (const f of ['report.json', 'junit.xml', 'summary.md', 'report.html'])
      expect(existsSync(path.join(dir, 'all', f)), f).toBe(true);
  });

  it('report.json matches the versioned schema and the contract fields', async () => {
    const r = await report('all/report.json');
    expect(ReportSchema.safeParse(r).success).toBe(true);
    expect(r.schemaVersion).toBe(1);
    const committed = JSON.parse(
      await readFile(path.join(ROOT, 'specs', 'schema', 'report.v1.schema.json'), 'utf8'),
    ) as { title: string };
    expect(committed.title).toMatch(/schemaVersion 1/);
    expect(r.scenarios.find((s) => s.id === 'articles/post-create')?.status).toBe('failed');
    expect(r.scenarios.find((s) => s.id === 'methods/unlisted-rejected')).toMatchObject({
      status: 'failed',
      level: 'SHOULD',
    });
  });

  it('junit.xml validates against the common JUnit schema and carries reason, seed, counterexample and replay', async () => {
    const xml = await read('all/junit.xml');
    const xsd = await readFile(path.join(ROOT, 'test', 'fixtures', 'junit-10.xsd'), 'utf8');
    const checked = await validateXML({
      xml: { fileName: 'junit.xml', contents: xml },
      schema: { fileName: 'junit-10.xsd', contents: xsd },
    });
    expect(checked.errors.map((e) => e.rawMessage)).toEqual([]);
    expect(checked.valid).toBe(true);
    // The validator does reject what the schema forbids (an attribute it does not declare).
    const broken = await validateXML({
      xml: { fileName: 'junit.xml', contents: xml.replace('<testcase ', '<testcase bogus="1" ') },
      schema: { fileName: 'junit-10.xsd', contents: xsd },
    });
    expect(broken.valid).toBe(false);
    expect(broken.errors[0]?.message).toMatch(/attribute 'bogus'/);
    expect(xml).toMatch(/<testcase name="articles\/post-create \[MUST 4\.2-post-201-location [^"]*§[^"]*"/);
    expect(xml).toMatch(
      /<failure message="[^"]*expected status 201, got 200[^"]*" type="MUST">[\s\S]*seed: 11[\s\S]*counterexample \(seed \d+, path [\d:]+[\s\S]*replay: conform run --filter articles\/post-create --seed 11/,
    );
    // A SHOULD failure is a warning, not a failure, unless --strict.
    expect(xml).toMatch(/<testcase name="methods\/unlisted-rejected[^>]*>\s*<system-out>WARNING \(SHOULD\)/);
  });

  it('summary.md shows the verdict, the matrix and failures first; GitHub gets the summary and annotations', async () => {
    const md = await read('all/summary.md');
    expect(md).toMatch(/^## conform: ❌ FAIL/);
    expect(md).toMatch(/^\| §4\.2 \| [^|]*✗/m);
    expect(md.indexOf('articles/post-create')).toBeLessThan(md.indexOf('methods/unlisted-rejected'));
    expect(await readFile(summaryFile, 'utf8')).toBe(`# earlier step\n${md}`);
    expect(result.out).toMatch(
      /^::error file=specs\/articles\/post\.yaml,line=\d+,title=articles\/post-create \(4\.2-post-201-location[^:]*::POST \/articles: expected status 201, got 200/m,
    );
    expect(result.out).toMatch(
      /^::warning file=specs\/options\/options\.yaml,line=\d+,title=methods\/unlisted-rejected/m,
    );
  });
});

describe('sharding', () => {
  it('shards 1/3 + 2/3 + 3/3 merged equal the unsharded run (same scenarios, same verdicts)', async () => {
    const common = ['run', '--embedded', '--fault', 'put-merge', '--runs', '5', '--seed', '7', '--reporter', 'json'];
    const whole = await runCli(dir, [...common, '--report-dir', 'whole']);
    expect(whole.code, whole.err).toBe(1);
    for (const i of [1, 2, 3])
      expect(
        (await runCli(dir, [...common, '--shard', `${i}/3`, '--report-dir', `shard${i}`])).code,
      ).toBeLessThanOrEqual(1);
    const parts = await Promise.all([1, 2, 3].map((i) => report(`shard${i}/report.json`)));
    expect(parts.map((p) => p.shard)).toEqual([
      { index: 1, total: 3 },
      { index: 2, total: 3 },
      { index: 3, total: 3 },
    ]);
    const merged = await runCli(dir, [
      'merge',
      'shard1/report.json',
      'shard2/report.json',
      'shard3/report.json',
      '--report-dir',
      'merged',
    ]);
    expect(merged.code).toBe(1);
    const a = await report('whole/report.json');
    const b = await report('merged/report.json');
    const verdicts = (r: RunResult) => r.scenarios.map((s) => [s.id, s.status]);
    expect(verdicts(b)).toEqual(verdicts(a));
    expect(b.rules.map((r) => [r.id, r.status, r.scenarios])).toEqual(
      a.rules.map((r) => [r.id, r.status, r.scenarios]),
    );
    expect(b.summary).toEqual(a.summary);
    expect(existsSync(path.join(dir, 'merged', 'junit.xml'))).toBe(true);
    // A whole-suite run: bounded, with room for a loaded machine (no timing is asserted).
  }, 180_000);

  it('refuses to merge reports of different runs, and bad --shard values', async () => {
    await runCli(dir, [
      'run',
      '--embedded',
      '--filter',
      'articles/post-create',
      '--runs',
      '2',
      '--seed',
      '1',
      '--reporter',
      'json',
      '--report-dir',
      'm1',
    ]);
    await runCli(dir, [
      'run',
      '--embedded',
      '--filter',
      'articles/post-create',
      '--runs',
      '2',
      '--seed',
      '2',
      '--reporter',
      'json',
      '--report-dir',
      'm2',
    ]);
    const r = await runCli(dir, ['merge', 'm1/report.json', 'm2/report.json']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/seed 2 differs/);
    expect((await runCli(dir, ['run', '--shard', '4/3'])).code).toBe(2);
  });
});

describe('baselines', () => {
  it('listed failures do not fail the run; a listed scenario that passes is reported; unknown ids are located', async () => {
    await writeFile(
      path.join(dir, 'baseline.yaml'),
      'expectedFailures:\n  - id: articles/post-create\n    reason: known\n  - articles/put-create\n',
    );
    const r = await runCli(dir, [
      'run',
      '--embedded',
      '--fault',
      'post-200',
      '--filter',
      'articles/post-create',
      '--filter',
      'articles/put-create',
      '--runs',
      '3',
      '--baseline',
      'baseline.yaml',
      '--report-dir',
      'b1',
      '--reporter',
      'console,json',
    ]);
    expect(r.code, r.out + r.err).toBe(0);
    expect(r.out).toMatch(/now passing, remove from the baseline: articles\/put-create/);
    const rep = await report('b1/report.json');
    expect(rep.scenarios.find((s) => s.id === 'articles/post-create')).toMatchObject({
      status: 'failed',
      baselined: true,
    });
    expect(rep.baseline).toMatchObject({ stillFailing: ['articles/post-create'], nowPassing: ['articles/put-create'] });

    await writeFile(path.join(dir, 'bad-baseline.yaml'), '- articles/post-create\n- no/such-scenario\n');
    const bad = await runCli(dir, ['run', '--embedded', '--baseline', 'bad-baseline.yaml']);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/bad-baseline\.yaml:2:3: no scenario has the id "no\/such-scenario"/);

    const w = await runCli(dir, [
      'run',
      '--embedded',
      '--fault',
      'post-200',
      '--filter',
      'articles/post-create',
      '--runs',
      '2',
      '--write-baseline',
      'written.yaml',
      '--report-dir',
      'b2',
      '--reporter',
      'json',
    ]);
    expect(w.code).toBe(1);
    const again = await runCli(dir, [
      'run',
      '--embedded',
      '--fault',
      'post-200',
      '--filter',
      'articles/post-create',
      '--runs',
      '2',
      '--baseline',
      'written.yaml',
      '--report-dir',
      'b3',
      '--reporter',
      'json',
    ]);
    expect(again.code).toBe(0);
  });
});
