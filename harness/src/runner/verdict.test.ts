import { describe, expect, it } from 'vitest';
import type { Level } from '../suite/types.js';
import type { ScenarioStatus } from './types.js';
import { scenarioVerdict, failsRun, type ScenarioVerdict } from './verdict.js';

const STATUSES: ScenarioStatus[] = ['passed', 'failed', 'errored', 'skipped'];
const LEVELS: Level[] = ['MUST', 'SHOULD', 'MAY'];

/** The whole table, written out: status × level × strict × baselined → verdict. */
function expected(status: ScenarioStatus, level: Level, strict: boolean, baselined: boolean): ScenarioVerdict {
  if (status === 'passed') return 'pass';
  if (status === 'skipped') return 'skip';
  if (baselined) return 'baselined';
  if (level === 'MUST' || strict) return status === 'failed' ? 'fail' : 'error';
  return 'warn';
}

describe('scenarioVerdict: one verdict rule', () => {
  const rows = STATUSES.flatMap((status) =>
    LEVELS.flatMap((level) =>
      [false, true].flatMap((strict) => [false, true].map((baselined) => ({ status, level, strict, baselined }))),
    ),
  );

  it('has 48 rows', () => expect(rows).toHaveLength(48));

  it.each(rows)('$status $level strict=$strict baselined=$baselined', ({ status, level, strict, baselined }) => {
    const v = scenarioVerdict({ status, level, baselined }, { strict });
    expect(v).toBe(expected(status, level, strict, baselined));
    expect(failsRun({ status, level, baselined }, { strict })).toBe(v === 'fail' || v === 'error');
  });
});
