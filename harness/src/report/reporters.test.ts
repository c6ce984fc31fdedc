/**
 * Snapshots of the text reporters for one fixed run that holds every kind of result: what CI viewers, pull requests
 * and terminals show. Volatile fields (timestamps, durations) are fixed in the run itself, so the snapshots are exact.
 */
import { describe, expect, it } from 'vitest';
import type { RunResult, ScenarioResult } from '../runner/types.js';
import { createConsoleReporter } from './console.js';
import { renderJunit } from './junit.js';
import { githubAnnotations, renderMarkdown } from './markdown.js';

const base = {
  file: 'specs/articles/post.yaml',
  line: 7,
  tags: [],
  requests: 2,
  runs: 1,
  durationMs: 12,
  transcript: [],
};

const SCENARIOS: ScenarioResult[] = [
  {
    ...base,
    id: 'articles/put-create',
    title: 'PUT creates',
    rules: ['4.1-put-create'],
    level: 'MUST',
    status: 'passed',
  },
  {
    ...base,
    id: 'articles/post-create',
    title: 'POST creates with 201 and Location',
    rules: ['4.2-post-201-location'],
    level: 'MUST',
    status: 'failed',
    runs: 50,
    requests: 51,
    reason: 'POST /articles: expected status 201, got 200',
    failure: {
      step: 1,
      stepName: 'create',
      messages: ['POST /articles: expected status 201, got 200'],
      rules: ['4.2-post-201-location'],
    },
    counterexample: {
      values: { a: { title: 'a', price: '0.0', currency: 'eur', fields: {} } },
      seed: 42,
      path: '0:0',
      shrinks: 3,
    },
    replay: 'conform run --filter articles/post-create --seed 1 --replay 0:0',
  },
  {
    ...base,
    id: 'methods/unlisted-rejected',
    title: 'An unlisted method is refused',
    rules: ['rfc9110-unknown-method'],
    level: 'SHOULD',
    status: 'failed',
    reason: 'PATCH /articles/x: expected status 405 or 501, got 200',
    failure: { step: 2, messages: ['PATCH /articles/x: expected status 405 or 501, got 200'] },
  },
  {
    ...base,
    id: 'options/item-allow',
    title: 'OPTIONS answers 200 with Allow',
    rules: ['4.3-options-200-allow'],
    level: 'MUST',
    status: 'errored',
    reason:
      'precondition failed: creating the article with POST (POST /articles): expected status 201, got 200; that behaviour is checked by articles/post-create',
    precondition: { step: 1, stepName: 'create', checkedBy: ['articles/post-create'] },
  },
  {
    ...base,
    id: 'auth/nonce-global',
    title: 'Nonces are global',
    rules: ['5.2-nonce-once'],
    level: 'MUST',
    status: 'skipped',
    reason: 'profile lacks auth.nonceScope: global',
    requests: 0,
  },
];

function runOf(strict: boolean): RunResult {
  const count = (s: string) => SCENARIOS.filter((x) => x.status === s).length;
  return {
    schemaVersion: 1,
    tool: { name: 'conform', version: '0.0.0-test' },
    target: 'http://127.0.0.1:8080',
    profile: 'reference-server/profile.yaml',
    seed: 1,
    runs: 50,
    startedAt: '2026-11-23T10:00:00.000Z',
    durationMs: 1234,
    summary: {
      total: SCENARIOS.length,
      passed: count('passed'),
      failed: count('failed'),
      errored: count('errored'),
      skipped: count('skipped'),
    },
    scenarios: SCENARIOS,
    rules: [
      {
        id: '4.1-put-create',
        section: '4.1',
        level: 'MUST',
        text: 'PUT may create.',
        status: 'passed',
        scenarios: ['articles/put-create'],
      },
      {
        id: '4.2-post-201-location',
        section: '4.2',
        level: 'MUST',
        text: 'POST answers 201 with Location.',
        status: 'failed',
        scenarios: ['articles/post-create'],
      },
      {
        id: '4.3-options-200-allow',
        section: '4.3',
        level: 'MUST',
        text: 'OPTIONS answers 200 with Allow.',
        status: 'errored',
        scenarios: ['options/item-allow'],
      },
      {
        id: '5.2-nonce-once',
        section: '5.2',
        level: 'MUST',
        text: 'A nonce is used once.',
        status: 'skipped',
        scenarios: ['auth/nonce-global'],
      },
      {
        id: 'rfc9110-unknown-method',
        section: 'RFC 9110',
        level: 'SHOULD',
        text: 'An unknown method is refused.',
        status: 'failed',
        scenarios: ['methods/unlisted-rejected'],
      },
    ],
    options: { filter: [], strict, timeoutMs: 10000 },
  };
}

function consoleText(run: RunResult): string {
  let out = '';
  const reporter = createConsoleReporter({ write: (t) => (out += t), color: false, strict: run.options.strict });
  reporter({ type: 'run-start', total: run.scenarios.length, target: run.target, seed: run.seed });
  run.scenarios.forEach((result, index) =>
    reporter({ type: 'scenario-end', index, total: run.scenarios.length, result }),
  );
  reporter({ type: 'run-end', result: run });
  return out;
}

describe.each([false, true])('reporters (strict: %s)', (strict) => {
  const run = runOf(strict);
  it('JUnit', () => expect(renderJunit(run)).toMatchSnapshot());
  it('Markdown', () => expect(renderMarkdown(run)).toMatchSnapshot());
  it('GitHub annotations', () => expect(githubAnnotations(run)).toMatchSnapshot());
  it('GitHub annotations in a workspace: the file relative to it, none for a file outside it', () => {
    const inside = githubAnnotations(run, '/home/runner/work/svc/svc');
    expect(inside).toBe(githubAnnotations(run));
    const shifted = {
      ...run,
      scenarios: run.scenarios.map((x) => ({ ...x, file: `/home/runner/work/svc/svc/${x.file}` })),
    };
    expect(githubAnnotations(shifted, '/home/runner/work/svc/svc')).toBe(githubAnnotations(run));
    const outside = githubAnnotations(shifted, '/home/runner/work/other');
    expect(outside).not.toContain('file=');
    expect(outside.split('\n').filter(Boolean)).toHaveLength(githubAnnotations(run).split('\n').filter(Boolean).length);
  });
  it('console', () => expect(consoleText(run)).toMatchSnapshot());
});

describe('console on a terminal (live)', () => {
  it('redraws one status line of what runs, and erases it before each block, which come whole in catalogue order', () => {
    const run = runOf(false);
    const [first, second] = run.scenarios as [ScenarioResult, ScenarioResult];
    let out = '';
    const reporter = createConsoleReporter({ write: (t) => (out += t), color: false, live: true });
    const total = 2;
    reporter({ type: 'run-start', total, target: run.target, seed: run.seed });
    reporter({ type: 'scenario-start', index: 0, total, scenario: { id: first.id } as never, running: 1 });
    reporter({ type: 'scenario-start', index: 1, total, scenario: { id: second.id } as never, running: 2 });
    // The second finishes first: progress moves on, but its block waits for the first.
    reporter({ type: 'scenario-settled', index: 1, total, result: second, done: 1 });
    expect(out).not.toContain('✗ articles/post-create');
    reporter({ type: 'scenario-settled', index: 0, total, result: first, done: 2 });
    reporter({ type: 'scenario-end', index: 0, total, result: first });
    reporter({ type: 'scenario-end', index: 1, total, result: second });
    expect(out).toContain('[0/2] running articles/put-create, articles/post-create');
    expect(out).toContain('[1/2] running articles/put-create');
    // Every block starts on a clean line: the status line is erased first.
    expect(out).toContain('\r\u001b[K[1/2] ✓ articles/put-create');
    expect(out.indexOf('✓ articles/put-create')).toBeLessThan(out.indexOf('✗ articles/post-create'));
    // Nothing is redrawn once nothing runs.
    expect(out.endsWith('\n')).toBe(true);
  });

  it('writes no status line when not live', () => {
    const run = runOf(false);
    let out = '';
    const reporter = createConsoleReporter({ write: (t) => (out += t), color: false });
    reporter({ type: 'scenario-start', index: 0, total: 1, scenario: { id: 'x' } as never, running: 1 });
    reporter({ type: 'scenario-settled', index: 0, total: 1, result: run.scenarios[0]!, done: 1 });
    expect(out).toBe('');
  });
});

describe('where the time went', () => {
  const timed: RunResult = {
    ...runOf(false),
    durationMs: 31_200,
    timeline: {
      setup: { startMs: 0, endMs: 800 },
      scenarios: { startMs: 800, endMs: 26_700 },
      cleanup: { startMs: 26_700, endMs: 31_200 },
      concurrency: 8,
      criticalPath: [
        { id: 'auth/oauth2-expired-rejected', startMs: 800, endMs: 4_300, waitedMs: 3_500 },
        { id: 'articles/post-create', startMs: 4_300, endMs: 6_400 },
        { id: 'options/allow-handled', startMs: 6_400, endMs: 18_700 },
        { id: 'methods/unlisted-rejected', startMs: 18_700, endMs: 26_700 },
      ],
    },
  };
  const lines = [
    'Time: 31.2 s wall — setup 0.8 s, scenarios 25.9 s (up to 8 at once), cleanup 4.5 s',
    'Bounded by: options/allow-handled 12.3 s · methods/unlisted-rejected 8.0 s · auth/oauth2-expired-rejected 3.5 s (3.5 s waiting for the clock) (the critical path: report.html draws the timeline)',
  ];

  it("the console's last lines name the phases and the three scenarios that bounded the wall time", () => {
    expect(consoleText(timed).trimEnd().split('\n').slice(-2)).toEqual(lines);
  });

  it('summary.md ends with them too', () => {
    // Two spaces end a line of Markdown: the two lines stay two lines.
    expect(renderMarkdown(timed).trimEnd().split('\n').slice(-2)).toEqual([`${lines[0]}  `, lines[1]]);
  });

  it('a run without a timeline (a merged report) has no such lines', () => {
    expect(consoleText(runOf(false))).not.toContain('Bounded by');
  });
});
