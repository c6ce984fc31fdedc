import { describe, expect, it } from 'vitest';
import {
  clientVerdict,
  renderClientConsole,
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
    expect(xml).toMatch(/<testsuite name="conform check-client" tests="3" failures="1" errors="0" skipped="1"/);
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
