/**
 * How a scenario result counts: the one rule every consumer uses — the exit code, the console, JUnit, HTML and
 * Markdown. A failed or errored scenario counts against the run when its level is MUST, or when the run is strict;
 * otherwise it is a warning. A result listed in the baseline never counts.
 */
import type { Level } from '../suite/types.js';
import { coverageText, mustCoverage, type MustCoverage } from './coverage.js';
import type { RunResult, ScenarioResult, ScenarioStatus } from './types.js';

export type ScenarioVerdict = 'pass' | 'fail' | 'warn' | 'error' | 'skip' | 'baselined';

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
export const FAILS_RUN: Readonly<Record<ScenarioVerdict, boolean>> = {
  pass: false,
  fail: true,
  warn: false,
  error: true,
  skip: false,
  baselined: false,
};

/** What people read for each verdict, in every reporter. */
export const VERDICT_LABEL: Readonly<Record<ScenarioVerdict, string>> = {
  pass: 'passed',
  fail: 'failed',
  warn: 'warning',
  error: 'errored',
  skip: 'skipped',
  baselined: 'baselined',
};

export function scenarioVerdict(result: Classifiable, policy: VerdictPolicy): ScenarioVerdict {
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
export function chargedLevel(
  scenario: { level: Level; ruleLevels?: Readonly<Record<string, Level>> },
  charged: readonly string[] | undefined,
): Level {
  const levels = (charged ?? []).map((r) => scenario.ruleLevels?.[r]).filter((l): l is Level => l !== undefined);
  return levels.length > 0 ? LEVELS.find((l) => levels.includes(l))! : scenario.level;
}

/** True when the result fails the run under `policy`. */
export function failsRun(result: Classifiable, policy: VerdictPolicy): boolean {
  return FAILS_RUN[scenarioVerdict(result, policy)];
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

/** A run's verdict, as every reporter shows it and `conform run` exits with it. */
export type RunVerdict =
  'PASS' | 'FAIL' | 'INCOMPLETE' | 'UNREACHABLE' | 'CREDENTIALS REFUSED' | 'INCONCLUSIVE' | 'INTERRUPTED';

/** The verdict of a run, the exit code `conform run` gives it, and why. */
export interface RunVerdictInfo {
  verdict: RunVerdict;
  /** 130 for an interrupted run (128 + SIGINT, as shells report it). */
  exitCode: 0 | 1 | 2 | 3 | 6 | 130;
  why: string;
  /** How much of the MUST the run checked, and why the rest was not. */
  coverage: MustCoverage;
  /** The coverage in words ("58 of 61 MUST rules checked; 3 not checked: …"). */
  coverageText: string;
}

/** The reason of every scenario of a run stopped by refused credentials (engine/session.ts). */
export const CREDENTIALS_REFUSED_REASON = "not run: the profile's credentials were refused (see credentialsRefused)";

/** The reason of a scenario not run because the run was interrupted (engine/run-suite.ts uses the same words). */
export const INTERRUPTED_REASON = 'not run: the run was interrupted (Ctrl-C)';

const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;

/**
 * Exit code per CONTRACT.md from the results alone: 3 when the target was never reachable, 1 when a MUST scenario
 * failed or errored (or, with `strict`, any scenario), 0 otherwise. {@link runVerdict} adds the inconclusive runs.
 */
export function exitCodeFor(run: RunResult, strict: boolean): 0 | 1 | 3 {
  if (run.unreachable) return 3;
  return run.scenarios.some((s) => failsRun(s, { strict })) ? 1 : 0;
}

/**
 * The run's verdict — the one rule the exit code, the console, HTML and Markdown share (CONTRACT.md): UNREACHABLE (3)
 * when the target was never reached; INCONCLUSIVE (2) when nothing was checked (no scenario, all skipped, or no MUST
 * scenario ran); FAIL (1) when a MUST scenario failed or errored (with `--strict`, any scenario); PASS (0) otherwise.
 */
export function runVerdict(run: RunResult): RunVerdictInfo {
  const coverage = mustCoverage(run);
  return { ...verdictOnly(run, coverage), coverage, coverageText: coverageText(coverage) };
}

function verdictOnly(run: RunResult, coverage: MustCoverage): Omit<RunVerdictInfo, 'coverage' | 'coverageText'> {
  const s = run.summary;
  const verdicts = run.scenarios.map((x) => scenarioVerdict(x, run.options));
  const count = (...of: ScenarioVerdict[]) => verdicts.filter((v) => of.includes(v)).length;
  const baselined = count('baselined');
  const known = baselined ? `; ${baselined} known (baselined) failure${baselined === 1 ? '' : 's'} not counted` : '';
  const nothingChecked = s.total === 0 || s.total === s.skipped;
  const noMust = !run.unreachable && !run.scenarios.some((x) => x.level === 'MUST' && x.status !== 'skipped');
  if (run.interrupted) {
    const notRun = run.scenarios.filter((x) => x.status === 'skipped' && x.reason === INTERRUPTED_REASON).length;
    return {
      verdict: 'INTERRUPTED',
      exitCode: 130,
      why: `interrupted (Ctrl-C): ${plural(notRun, 'scenario')} not run; the report is partial`,
    };
  }
  if (run.unreachable) {
    return {
      verdict: 'UNREACHABLE',
      exitCode: nothingChecked ? 2 : exitCodeFor(run, run.options.strict),
      why: `target unreachable: ${run.unreachable}`,
    };
  }
  if (run.credentialsRefused && run.credentialsRefused.length > 0) {
    return {
      verdict: 'CREDENTIALS REFUSED',
      exitCode: 2,
      why: `the target refused credentials the profile gives, so nothing was run: ${run.credentialsRefused.join(' · ')}`,
    };
  }
  if (nothingChecked) {
    return {
      verdict: 'INCONCLUSIVE',
      exitCode: 2,
      why: s.total === 0 ? 'no scenario was selected' : 'every selected scenario was skipped; nothing was checked',
    };
  }
  if (noMust)
    return {
      verdict: 'INCONCLUSIVE',
      exitCode: 2,
      why: 'the selection covers no MUST rule; a run that checks nothing mandatory is not a pass',
    };
  const code = exitCodeFor(run, run.options.strict);
  if (code === 1) {
    const what = run.options.strict ? 'scenario' : 'MUST scenario';
    return {
      verdict: 'FAIL',
      exitCode: 1,
      why: `${plural(count('fail', 'error'), what)} failed or errored${run.options.strict ? ' (--strict)' : ''}${known}`,
    };
  }
  const min = run.options.minCoverage;
  if (min !== undefined && coverage.percent < min)
    return {
      verdict: 'FAIL',
      exitCode: 1,
      why: `${coverage.percent}% of the MUST rules were checked, below --min-coverage ${min}%`,
    };
  const warnings = count('warn');
  if (run.incomplete && run.incomplete.length > 0)
    return {
      verdict: 'INCOMPLETE',
      exitCode: 6,
      why: `every MUST scenario that ran passed, but what the profile describes was not all checked: ${run.incomplete.join(' · ')}`,
    };
  return {
    verdict: 'PASS',
    exitCode: code,
    why: `every MUST scenario that ran passed${warnings ? `; ${plural(warnings, 'SHOULD/MAY warning')}` : ''}${known}`,
  };
}
