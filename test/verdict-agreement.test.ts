/**
 * The exit code, JUnit, HTML, Markdown, GitHub annotations, the console and the vitest integration all count a
 * result the same way (runner/verdict.ts). Before the one rule existed, `--strict` made a failed SHOULD scenario fail
 * the exit code and JUnit while the console, HTML and Markdown still showed a warning.
 */
import { describe, expect, it } from 'vitest';
import { createConsoleReporter } from '../harness/src/report/console.js';
import { renderHtml } from '../harness/src/report/html.js';
import { renderJunit } from '../harness/src/report/junit.js';
import { githubAnnotations, renderMarkdown } from '../harness/src/report/markdown.js';
import { exitCodeFor } from '../harness/src/engine/run-suite.js';
import type { RunResult, ScenarioResult, ScenarioStatus } from '../harness/src/runner/types.js';
import { scenarioVerdict, failsRun, runVerdict } from '../harness/src/runner/verdict.js';
import type { Level } from '../harness/src/suite/types.js';

function result(id: string, status: ScenarioStatus, level: Level, baselined: boolean): ScenarioResult {
  const base = {
    id,
    title: id,
    file: 'specs/x.yaml',
    line: 1,
    rules: [`r-${id}`],
    level,
    tags: [],
    requests: 1,
    runs: 1,
    durationMs: 1,
    transcript: [],
  };
  const reason = `${status} because`;
  switch (status) {
    case 'passed':
      return { ...base, status };
    case 'skipped':
      return { ...base, status, reason };
    case 'failed':
      return { ...base, status, reason, failure: { step: 1, messages: [reason] }, ...(baselined ? { baselined } : {}) };
    case 'errored':
      return { ...base, status, reason, ...(baselined ? { baselined } : {}) };
  }
}

function runOf(subject: ScenarioResult, strict: boolean): RunResult {
  // A passing MUST scenario beside the subject, so that the run is never inconclusive.
  const scenarios = [result('anchor', 'passed', 'MUST', false), subject];
  const count = (s: ScenarioStatus) => scenarios.filter((x) => x.status === s).length;
  return {
    schemaVersion: 1,
    tool: { name: 'conform', version: 'test' },
    target: 'http://127.0.0.1:1',
    profile: 'p.yaml',
    seed: 1,
    runs: 1,
    startedAt: '2026-11-23T00:00:00.000Z',
    durationMs: 1,
    summary: {
      total: 2,
      passed: count('passed'),
      failed: count('failed'),
      errored: count('errored'),
      skipped: count('skipped'),
    },
    scenarios,
    rules: scenarios.map((s) => ({
      id: s.rules[0]!,
      section: '4.1',
      level: s.level,
      text: 't',
      status: s.status === 'failed' ? 'failed' : s.status,
      scenarios: [s.id],
    })),
    options: { filter: [], strict, timeoutMs: 1 },
  };
}

const rows = (['failed', 'errored', 'passed', 'skipped'] as const).flatMap((status) =>
  (['MUST', 'SHOULD', 'MAY'] as const).flatMap((level) =>
    [false, true].flatMap((strict) => [false, true].map((baselined) => ({ status, level, strict, baselined }))),
  ),
);

describe('every reporter agrees with the exit code', () => {
  it.each(rows)('$status $level strict=$strict baselined=$baselined', ({ status, level, strict, baselined }) => {
    if (baselined && (status === 'passed' || status === 'skipped')) return; // only failures are ever baselined
    const subject = result('subject', status, level, baselined);
    const run = runOf(subject, strict);
    const verdict = scenarioVerdict(subject, { strict });
    const fails = failsRun(subject, { strict });

    expect(exitCodeFor(run, strict)).toBe(fails ? 1 : 0);

    const junit = renderJunit(run);
    const testsuites = /<testsuites [^>]*failures="(\d+)" errors="(\d+)"/.exec(junit);
    expect(Number(testsuites?.[1]) + Number(testsuites?.[2])).toBe(fails ? 1 : 0);
    expect(/<testcase name="subject[^>]*>\s*<system-out>WARNING/.test(junit)).toBe(verdict === 'warn');

    expect(runVerdict(run)).toMatchObject({ verdict: fails ? 'FAIL' : 'PASS', exitCode: fails ? 1 : 0 });
    const md = renderMarkdown(run);
    expect(md).toContain(`## conform: ${fails ? '❌ FAIL' : '✅ PASS'} — `);
    expect(/^\| warning/m.test(md)).toBe(verdict === 'warn');

    const annotations = githubAnnotations(run);
    expect(annotations.startsWith('::error')).toBe(fails);
    expect(annotations.startsWith('::warning')).toBe(verdict === 'warn');

    const html = renderHtml(run);
    expect(html).toContain(`data-verdict="${fails ? 'FAIL' : 'PASS'}" data-exit-code="${fails ? 1 : 0}"`);
    expect(html).toContain(
      `data-id="subject" data-status="${status}" data-level="${level}" data-group="${verdict}" data-verdict="${verdict}"`,
    );

    let printed = '';
    const reporter = createConsoleReporter({ write: (t) => (printed += t), color: false, strict });
    reporter({ type: 'scenario-end', index: 1, total: 2, result: subject });
    expect(printed.includes('⚠')).toBe(verdict === 'warn');
  });
});
