import { describe, expect, it } from 'vitest';
import { coverageText, mustCoverage } from './coverage.js';
import type { RuleResult, ScenarioResult } from './types.js';

const rule = (id: string, status: RuleResult['status'], extra: Partial<RuleResult> = {}): RuleResult => ({
  id,
  section: '5',
  level: 'MUST',
  text: id,
  status,
  scenarios: [],
  ...extra,
});
const skipped = (id: string, reason: string) => ({ id, status: 'skipped', reason }) as unknown as ScenarioResult;

describe('MUST coverage', () => {
  it('counts the selected MUST server rules a scenario judged, and groups the others by why', () => {
    const rules: RuleResult[] = [
      rule('a', 'passed'),
      rule('b', 'failed'),
      rule('c', 'skipped', { scenarios: ['s1'] }),
      rule('d', 'skipped', { scenarios: ['s2'] }),
      rule('e', 'skipped', { scenarios: ['s3'] }),
      rule('f', 'uncovered'),
      rule('g', 'errored'),
      rule('h', 'skipped', { level: 'SHOULD' }),
      rule('i', 'uncovered', { subject: 'client' }),
      rule('j', 'uncovered', { selected: false }),
    ];
    const scenarios = [
      skipped('s1', 'profile lacks auth.oauth1'),
      skipped('s2', 'profile lacks auth.oauth1'),
      skipped('s3', 'profile lacks auth.window (the seconds of clock difference)'),
    ];
    const c = mustCoverage({ rules, scenarios });
    expect(c).toMatchObject({ total: 7, checked: 2, percent: 28 });
    expect(c.notChecked[0]).toEqual({ why: 'profile lacks auth.oauth1', rules: ['c', 'd'] });
    expect(coverageText(c)).toBe(
      '2 of 7 MUST rules checked; 5 not checked: profile lacks auth.oauth1 (2), profile lacks auth.window (1), no scenario checks it (1), 1 other reasons',
    );
  });

  it('everything checked: the count alone; nothing asked: 100 percent', () => {
    expect(coverageText(mustCoverage({ rules: [rule('a', 'passed')], scenarios: [] }))).toBe(
      '1 of 1 MUST rule checked',
    );
    expect(mustCoverage({ rules: [], scenarios: [] }).percent).toBe(100);
  });
});
