import { describe, expect, it } from 'vitest';
import { chargedRules } from './step-checks.js';
import { ruleStatus } from './rules.js';

describe('a failure is charged to the rules of the checks that failed (VERDICTS §2)', () => {
  it('a step without rules charges the whole scenario (undefined)', () => {
    expect(chargedRules({}, new Set(['status']))).toBeUndefined();
  });

  it('a list charges all of it, whatever failed', () => {
    expect(chargedRules({ rules: ['a', 'b'] }, new Set(['location']))).toEqual(['a', 'b']);
  });

  it('a map charges the rules of the failed checks; a failed check it does not name charges every rule it names', () => {
    const step = { rules: { status: ['s'], location: ['l1', 'l2'] } };
    expect(chargedRules(step, new Set(['location']))).toEqual(['l1', 'l2']);
    expect(chargedRules(step, new Set(['status', 'location']))).toEqual(['s', 'l1', 'l2']);
    expect(chargedRules(step, new Set(['article']))).toEqual(['s', 'l1', 'l2']);
  });

  it('a rule a failure was not charged with is judged by the other scenarios only', () => {
    const failedElsewhere = { status: 'failed' as const, failure: { step: 1, messages: ['m'], rules: ['other'] } };
    const passed = { status: 'passed' as const };
    expect(ruleStatus([failedElsewhere, passed], 'this')).toBe('passed');
    expect(ruleStatus([failedElsewhere, passed], 'other')).toBe('failed');
    expect(ruleStatus([failedElsewhere], 'this')).toBe('errored');
    // Without step rules the failure counts against every rule of the scenario, as before.
    expect(ruleStatus([{ status: 'failed', failure: { step: 1, messages: ['m'] } }, passed], 'this')).toBe('failed');
  });
});
