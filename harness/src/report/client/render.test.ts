import { describe, expect, it } from 'vitest';
import {
  clientVerdict,
  commandFailed,
  renderClientConsole,
  rulesVerdict,
  renderClientHtml,
  renderClientJunit,
  renderClientMarkdown,
} from './render.js';
import { ClientReportSchema, type ClientReport, type ClientRuleResult } from './schema.js';

function rule(id: string, level: ClientRuleResult['level'], status: ClientRuleResult['status']): ClientRuleResult {
  return {
    id,
    section: '5.2',
    level,
    text: `text of ${id} with | and <b>`,
    status,
    exercised: status === 'not exercised' ? 0 : 2,
    violations: status === 'failed' ? [{ request: 2, reason: 'nonce 7 reused', mistake: 'nonce-left-out' }] : [],
  };
}

function report(rules: ClientRuleResult[]): ClientReport {
  return ClientReportSchema.parse({
    schemaVersion: 1,
    kind: 'client',
    tool: { name: 'conform', version: '0.1.0' },
    command: ['node', 'client.mjs'],
    exit: { code: 0, signal: null, timedOut: false },
    server: { http: 'http://127.0.0.1:1', https: 'https://127.0.0.1:2' },
    startedAt: '2026-11-26T14:00:00.000Z',
    durationMs: 1234,
    summary: {
      total: rules.length,
      passed: rules.filter((r) => r.status === 'passed').length,
      failed: rules.filter((r) => r.status === 'failed').length,
      notExercised: rules.filter((r) => r.status === 'not exercised').length,
      requests: 2,
    },
    rules,
    requests: [1, 2].map((seq) => ({
      seq,
      method: 'GET',
      target: `/x?<script>${seq}`,
      transport: 'https',
      at: '2026-11-26T14:00:00.000Z',
      status: 401,
      headers: {},
      bodyBytes: 0,
    })),
  });
}

describe('client report verdict', () => {
  it('a failed MUST rule fails; a failed SHOULD only under strict; nothing exercised is not a pass', () => {
    expect(clientVerdict(report([rule('a', 'MUST', 'failed')]))).toBe('failed');
    expect(clientVerdict(report([rule('a', 'MUST', 'passed'), rule('b', 'SHOULD', 'failed')]))).toBe('passed');
    expect(clientVerdict(report([rule('a', 'MUST', 'passed'), rule('b', 'SHOULD', 'failed')]), true)).toBe('failed');
    expect(clientVerdict(report([rule('a', 'MUST', 'not exercised'), rule('b', 'SHOULD', 'passed')]))).toBe(
      'nothing checked',
    );
  });
});

describe('the client command in the verdict', () => {
  const passing = [rule('a', 'MUST', 'passed')];
  const ended = (exit: ClientReport['exit']) => ({ ...report(passing), exit });

  it('a command that exited non-zero, was killed or timed out fails the check, unless its exit is not checked', () => {
    expect(commandFailed(report(passing))).toBe(false);
    for (const exit of [
      { code: 7, signal: null, timedOut: false },
      { code: null, signal: 'SIGKILL', timedOut: false },
      { code: null, signal: 'SIGKILL', timedOut: true },
    ]) {
      expect(commandFailed(ended(exit)), JSON.stringify(exit)).toBe(true);
      expect(clientVerdict(ended(exit))).toBe('failed');
      expect(rulesVerdict(ended(exit))).toBe('passed');
      expect(commandFailed(ended({ ...exit, checked: false }))).toBe(false);
    }
    expect(commandFailed({ ...report(passing), exit: undefined })).toBe(false);
  });

  it('each reporter says how the command ended, as a line of its own', () => {
    const failed = ended({ code: 7, signal: null, timedOut: false, checked: true });
    expect(renderClientConsole(failed)).toMatch(
      /^✗ the client command exited 7: the check fails \(--ignore-client-exit judges the requests alone\)$/m,
    );
    expect(renderClientMarkdown(failed)).toMatch(/^# Client compliance: failed\n[^]*✗ the client command exited 7/);
    expect(renderClientJunit(failed)).toMatch(/<testcase name="client command"[^>]*>\s*<failure message="✗ the/);
    expect(renderClientHtml(failed)).toMatch(/<p class="command">✗ the client command exited 7/);
    const ignored = ended({ code: 7, signal: null, timedOut: false, checked: false });
    expect(renderClientConsole(ignored)).toMatch(/^· the client command exited 7: ignored \(--ignore-client-exit\)$/m);
    expect(renderClientConsole(ended({ code: 0, signal: null, timedOut: false, outputHeld: true }))).toMatch(
      /^✓ the client command exited 0 \(a process it left behind held its output open/m,
    );
  });

  it('a violation whose request is past --max-requests is listed with its own method and target', () => {
    const r = report([
      { ...rule('a', 'MUST', 'failed'), violations: [{ request: 9, reason: 'why', method: 'PUT', target: '/a/1' }] },
    ]);
    expect(renderClientConsole(r)).toMatch(/^ {6}#9 PUT \/a\/1: why$/m);
  });
});

describe('client reporters', () => {
  const r = report([
    rule('5.2-nonce-change', 'MUST', 'failed'),
    rule('b', 'MUST', 'passed'),
    rule('c', 'SHOULD', 'not exercised'),
  ]);

  it('console: a line per rule, the violation with its request under the failed one, the totals', () => {
    const out = renderClientConsole(r);
    expect(out).toMatch(
      /✗ MUST {3}5\.2-nonce-change {2}failed \(2 request\(s\)\)\n {6}#2 GET \/x\?<script>2 \(https, answered 401\): nonce 7 reused \[nonce-left-out\]/,
    );
    expect(out).toMatch(/✓ MUST {3}b {2}passed/);
    expect(out).toMatch(/· SHOULD c {2}not exercised\n/);
    expect(out).toMatch(/1 passed, 1 failed, 1 not exercised of 3 client rules: failed\n$/);
  });

  it('markdown escapes table cells and lists the failed rules with their requests', () => {
    const md = renderClientMarkdown(r);
    expect(md).toMatch(/^# Client compliance: failed\n/);
    expect(md).toContain('| 5.2-nonce-change | MUST | failed | 2 | text of 5.2-nonce-change with \\| and \\<b\\> |');
    expect(md).toContain('## 5.2-nonce-change (MUST) failed');
  });

  it('junit: a failure for the failed MUST rule, skipped for the not exercised one', () => {
    const xml = renderClientJunit(r);
    // Three rules and the client command, which exited 0.
    expect(xml).toMatch(/<testsuite name="conform check-client" tests="4" failures="1" errors="0" skipped="1"/);
    expect(xml).toMatch(/<testcase name="client command" classname="conform.check-client" time="1.234"\/>/);
    expect(xml).toMatch(
      /<testcase name="5\.2-nonce-change \(MUST, 5\.2\)"[^>]*>\s*<failure message="1 request\(s\) broke the rule">#2 GET \/x\?&lt;script&gt;2/,
    );
    expect(xml).toMatch(/<skipped message="no request exercised the rule"/);
  });

  it('html escapes everything it shows', () => {
    const html = renderClientHtml(r);
    expect(html).toMatch(/<title>conform check-client: failed<\/title>/);
    expect(html).not.toContain('<script>');
    expect(html).toContain('/x?&lt;script&gt;2');
    expect(html).toContain('with | and &lt;b&gt;');
  });
});
