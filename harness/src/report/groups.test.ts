import { describe, expect, it } from 'vitest';
import type { ScenarioResult } from '../runner/types.js';
import { failureGroups, pathShape } from './groups.js';

const failed = (id: string, method: string, url: string, status?: number): ScenarioResult =>
  ({
    id,
    status: 'failed',
    level: 'MUST',
    failure: { step: 1, messages: ['x'], rules: [] },
    transcript: [
      {
        step: 1,
        request: { method, url, headers: {} },
        ...(status === undefined
          ? { error: { code: 'TIMEOUT', message: 't' } }
          : { response: { status, headers: {}, durationMs: 1 } }),
      },
    ],
  }) as unknown as ScenarioResult;

describe('failures grouped by their first failing request', () => {
  it('groups one cause once, ids in a path as {id}, the largest group first; a lone failure is no group', () => {
    const scenarios = [
      failed('a', 'POST', 'http://t/articles', 405),
      failed('b', 'POST', 'http://t/articles', 405),
      failed('c', 'PUT', 'http://t/articles/probe-3f9a1c2b', undefined),
      failed('d', 'PUT', 'http://t/articles/probe-88aa77bb', undefined),
      failed('e', 'POST', 'http://t/articles', 405),
      failed('f', 'GET', 'http://t/', 500),
    ];
    expect(failureGroups({ scenarios })).toEqual([
      { request: 'POST /articles → 405', ids: ['a', 'b', 'e'] },
      { request: 'PUT /articles/{id} → no answer (TIMEOUT)', ids: ['c', 'd'] },
    ]);
  });

  it('keeps the words of a path and hides generated ids', () => {
    expect(pathShape('http://t/users/alice/financialrecords?x=1')).toBe('/users/alice/financialrecords');
    expect(pathShape('http://t/articles/550e8400-e29b-41d4-a716-446655440000')).toBe('/articles/{id}');
  });
});
