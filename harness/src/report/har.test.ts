/** renderHar: entries for exchanges without an answer, truncated bodies and learning requests. */
import { describe, expect, it } from 'vitest';
import type { RunResult } from '../runner/types.js';
import { renderHar } from './har.js';

const run: RunResult = {
  schemaVersion: 1,
  tool: { name: 'conform', version: '1.2.3' },
  target: 'http://127.0.0.1:8080',
  profile: 'p.yaml',
  seed: 1,
  runs: 1,
  startedAt: '2026-11-26T10:00:00.000Z',
  durationMs: 10,
  summary: { total: 1, passed: 0, failed: 0, errored: 1, skipped: 0 },
  learning: [
    {
      step: 1,
      stepName: 'OPTIONS on the collection',
      request: { method: 'OPTIONS', url: 'http://127.0.0.1:8080/articles', headers: {} },
      response: { status: 204, headers: { allow: 'GET, POST' }, body: '', durationMs: 2 },
    },
  ],
  scenarios: [
    {
      id: 'articles/big',
      title: 'Big',
      file: 'specs/a.yaml',
      line: 1,
      rules: [],
      level: 'MUST',
      tags: [],
      requests: 2,
      runs: 1,
      durationMs: 5,
      status: 'errored',
      reason: 'timeout',
      transcript: [
        {
          step: 1,
          request: {
            method: 'PUT',
            url: 'http://127.0.0.1:8080/articles/x?a=1&access_token=[redacted]',
            headers: { 'content-type': 'application/xml' },
            body: `${'x'.repeat(10)}… (9000 bytes)`,
          },
          response: { status: 302, headers: { location: '/articles/y' }, body: 'é', durationMs: 7 },
        },
        {
          step: 2,
          request: { method: 'GET', url: 'http://127.0.0.1:8080/articles/y', headers: {} },
          error: { code: 'TIMEOUT', message: 'no answer in 1000 ms' },
        },
      ],
    },
  ],
  rules: [],
  options: { filter: [], strict: false, timeoutMs: 1000 },
};

describe('renderHar', () => {
  const log = (JSON.parse(renderHar(run)) as { log: { entries: Array<Record<string, any>>; creator: unknown } }).log;

  it('puts the learning first, then the transcripts, each entry naming where it comes from', () => {
    expect(log.creator).toEqual({ name: 'conform', version: '1.2.3' });
    expect(log.entries.map((e) => e['comment'])).toEqual([
      'learning, step 1 (OPTIONS on the collection)',
      'scenario articles/big, step 1',
      'scenario articles/big, step 2',
    ]);
    expect(log.entries[0]!['_conform']).toEqual({
      step: 1,
      purpose: 'learning',
      stepName: 'OPTIONS on the collection',
    });
    expect(log.entries.every((e) => e['startedDateTime'] === run.startedAt)).toBe(true);
  });

  it('keeps sizes in bytes, the recorded length of a truncated body, the query and the redirect', () => {
    const [, put] = log.entries;
    expect(put!['request'].bodySize).toBe(9000);
    expect(put!['request'].postData).toEqual({ mimeType: 'application/xml', text: `${'x'.repeat(10)}… (9000 bytes)` });
    expect(put!['request'].queryString).toEqual([
      { name: 'a', value: '1' },
      { name: 'access_token', value: '[redacted]' },
    ]);
    expect(put!['response']).toMatchObject({ status: 302, statusText: 'Found', redirectURL: '/articles/y' });
    expect(put!['response'].content).toEqual({ size: 2, mimeType: '', text: 'é' });
    expect(put!['time']).toBe(7);
    expect(put!['timings']).toEqual({ send: 0, wait: 7, receive: 0 });
  });

  it('writes an exchange without an answer as status 0 with the error', () => {
    const failed = log.entries[2]!;
    expect(failed['response']).toMatchObject({ status: 0, statusText: '', _error: 'TIMEOUT: no answer in 1000 ms' });
    expect(failed['_conform']).toMatchObject({
      scenario: 'articles/big',
      status: 'errored',
      error: { code: 'TIMEOUT' },
    });
    expect(failed['request'].postData).toBeUndefined();
  });
});
