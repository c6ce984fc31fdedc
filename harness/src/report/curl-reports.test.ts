/** The curl commands the console (under a failure) and the HTML report (every exchange) show. */
import { describe, expect, it } from 'vitest';
import type { Exchange, RunResult, ScenarioResult } from '../runner/types.js';
import { createConsoleReporter } from './console.js';
import { failingExchange } from './curl.js';
import { renderHtml } from './html.js';

const exchange = (step: number, path: string, over: Partial<Exchange> = {}): Exchange => ({
  step,
  request: {
    method: 'PUT',
    url: `https://127.0.0.1:8443${path}`,
    headers: { 'content-type': 'application/xml', authentication: 'hmac [redacted]' },
    body: "<article><title>Tom's $5</title></article>",
  },
  response: { status: 200, headers: {}, body: '', durationMs: 3 },
  ...over,
});

const base = {
  id: 'articles/put-create',
  title: 'PUT creates',
  file: 'specs/articles.yaml',
  line: 3,
  rules: ['4.1-put-create'],
  level: 'MUST' as const,
  tags: [],
  requests: 3,
  runs: 1,
  durationMs: 9,
};

const failed: ScenarioResult = {
  ...base,
  status: 'failed',
  reason: 'PUT /articles/b: expected 201, got 200',
  failure: { step: 2, messages: ['PUT /articles/b: expected 201, got 200'] },
  transcript: [
    exchange(1, '/articles/a'),
    exchange(2, '/oauth/token', { purpose: 'credentials' }),
    exchange(2, '/articles/b'),
    exchange(3, '/articles/c'),
  ],
};

const run: RunResult = {
  schemaVersion: 1,
  tool: { name: 'conform', version: '0.0.0-test' },
  target: 'https://127.0.0.1:8443',
  profile: 'p.yaml',
  seed: 1,
  runs: 1,
  startedAt: '2026-11-26T10:00:00.000Z',
  durationMs: 10,
  summary: { total: 1, passed: 0, failed: 1, errored: 0, skipped: 0 },
  scenarios: [failed],
  rules: [],
  options: { filter: [], strict: false, timeoutMs: 1000, tls: { insecure: true, ca: 'ca.pem' } },
};

describe('curl in the reports', () => {
  it('picks the last request of the failing step, not a credentials request', () => {
    expect(failingExchange(failed)?.request.url).toBe('https://127.0.0.1:8443/articles/b');
    expect(
      failingExchange({
        ...base,
        status: 'errored',
        reason: 'x',
        transcript: [exchange(1, '/a', { error: { code: 'E', message: 'reset' } }), exchange(2, '/b')],
      })?.request.url,
    ).toBe('https://127.0.0.1:8443/a');
    expect(failingExchange({ ...base, status: 'passed', transcript: failed.transcript })).toBeUndefined();
  });

  it('prints the failing request as curl on the console, with -k and --cacert as the run had them', () => {
    let out = '';
    const report = createConsoleReporter({
      write: (s) => (out += s),
      color: false,
      tls: { insecure: true, ca: 'ca.pem' },
    });
    report({ type: 'scenario-end', index: 0, total: 1, result: failed });
    const block = out.slice(out.indexOf('as curl:'));
    expect(block).toContain('curl -sS -i -X PUT \\\n          -k \\\n          --cacert ca.pem \\');
    expect(block).toContain('-H \'authentication: \'"$CONFORM_AUTHENTICATION"');
    expect(block).toContain("--data-binary '<article><title>Tom'\\''s $5</title></article>'");
    expect(block).toContain('https://127.0.0.1:8443/articles/b\n');
    expect(block).not.toContain('/articles/c');
    expect(block).not.toContain('[redacted]');
  });

  it('gives every exchange of the HTML transcripts a curl command in a Copy box', () => {
    const html = renderHtml(run);
    const commands = [...html.matchAll(/<code data-testid="curl">([^<]*)<\/code>/g)].map((m) => m[1] ?? '');
    expect(commands).toHaveLength(failed.transcript.length);
    expect(commands[2]).toContain('https://127.0.0.1:8443/articles/b');
    for (const c of commands) {
      expect(c).toContain('-k \\\n  --cacert ca.pem');
      expect(c).toContain('&quot;$CONFORM_AUTHENTICATION&quot;');
      expect(c).toContain('Tom&#39;\\&#39;&#39;s $5');
    }
  });
});
