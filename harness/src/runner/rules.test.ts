import { describe, expect, it } from 'vitest';
import { ruleReason, ruleStatus } from './rules.js';
import type { ScenarioResult } from './types.js';

type C = Pick<ScenarioResult, 'id' | 'status' | 'reason' | 'precondition' | 'failure'>;
const verdict = (covering: C[], rule = 'r1') => {
  const status = ruleStatus(covering, rule);
  return { status, reason: ruleReason(covering, status) };
};

describe('a rule status carries its reason', () => {
  it('uncovered, passed, failed, skipped', () => {
    expect(verdict([])).toEqual({ status: 'uncovered', reason: 'no selected scenario checks it' });
    expect(verdict([{ id: 'a', status: 'passed' }])).toEqual({ status: 'passed', reason: 'checked by a' });
    expect(
      verdict([
        { id: 'a', status: 'passed' },
        { id: 'b', status: 'failed', reason: 'x' },
      ]),
    ).toEqual({
      status: 'failed',
      reason: 'the target broke it in b',
    });
    expect(verdict([{ id: 'a', status: 'skipped', reason: 'profile lacks target.https' }])).toEqual({
      status: 'skipped',
      reason: 'every scenario checking it was skipped (a): profile lacks target.https',
    });
  });

  it('errored: judged and could not be, or never reached (a setup failed) — never a bare "errored"', () => {
    expect(verdict([{ id: 'a', status: 'errored', reason: 'timeout' }])).toEqual({
      status: 'errored',
      reason: 'it could not be judged in a: timeout',
    });
    const stopped = verdict([
      {
        id: 'b',
        status: 'errored',
        reason: 'precondition',
        precondition: { step: 1, checkedBy: ['c'], what: 'an article' },
      } as C,
    ]);
    expect(stopped.status).toBe('errored');
    expect(stopped.reason).toMatch(/^no scenario reached it: b stopped before/);
    const charged = verdict([{ id: 'd', status: 'failed', reason: 'x', failure: { rules: ['r2'] } } as C], 'r1');
    expect(charged).toEqual({
      status: 'errored',
      reason: expect.stringMatching(/^no scenario reached it: d stopped before/),
    });
  });
});
