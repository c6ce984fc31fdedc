/**
 * How a scenario result counts: the one rule every consumer uses — the exit code, the console, JUnit, HTML and
 * Markdown. A failed or errored scenario counts against the run when its level is MUST, or when the run is strict;
 * otherwise it is a warning. A result listed in the baseline never counts.
 */
import type { Level } from '../spec/types.js';
import type { ScenarioResult, ScenarioStatus } from './types.js';

export type Verdict = 'pass' | 'fail' | 'warn' | 'error' | 'skip' | 'baselined';

/** The fields of a result the verdict depends on. */
export interface Classifiable {
  status: ScenarioStatus;
  level: Level;
  baselined?: boolean;
}

export interface VerdictPolicy {
  /** `--strict`: SHOULD and MAY failures (and errors) count against the run too. */
  strict: boolean;
}

/** Verdicts that fail the run (exit code 1). */
export const FAILS_RUN: Readonly<Record<Verdict, boolean>> = { pass: false, fail: true, warn: false, error: true, skip: false, baselined: false };

/** What people read for each verdict, in every reporter. */
export const VERDICT_LABEL: Readonly<Record<Verdict, string>> = {
  pass: 'passed',
  fail: 'failed',
  warn: 'warning',
  error: 'errored',
  skip: 'skipped',
  baselined: 'baselined',
};

export function classify(result: Classifiable, policy: VerdictPolicy): Verdict {
  switch (result.status) {
    case 'passed':
      return 'pass';
    case 'skipped':
      return 'skip';
    case 'failed':
    case 'errored': {
      if (result.baselined) return 'baselined';
      if (result.level !== 'MUST' && !policy.strict) return 'warn';
      return result.status === 'failed' ? 'fail' : 'error';
    }
    default: {
      const never: never = result.status;
      throw new Error(`unknown status ${String(never)}`);
    }
  }
}

const LEVELS: readonly Level[] = ['MUST', 'SHOULD', 'MAY'];

/**
 * The level a failure counts at: the strongest level among the rules it was charged to (a scenario checking rules
 * of several levels fails at the level of what broke), or the scenario's own when none was named.
 */
export function chargedLevel(scenario: { level: Level; ruleLevels?: Readonly<Record<string, Level>> }, charged: readonly string[] | undefined): Level {
  const levels = (charged ?? []).map((r) => scenario.ruleLevels?.[r]).filter((l): l is Level => l !== undefined);
  return levels.length > 0 ? LEVELS.find((l) => levels.includes(l))! : scenario.level;
}

/** True when the result fails the run under `policy`. */
export function failsRun(result: Classifiable, policy: VerdictPolicy): boolean {
  return FAILS_RUN[classify(result, policy)];
}

/** What to print for a result: a failure's messages, an error's or a skip's reason, nothing for a pass. */
export function reasonsOf(r: ScenarioResult): string[] {
  switch (r.status) {
    case 'failed':
      return r.failure.messages;
    case 'errored':
    case 'skipped':
      return [r.reason];
    case 'passed':
      return [];
    default: {
      const never: never = r;
      throw new Error(`unknown status ${JSON.stringify(never)}`);
    }
  }
}
