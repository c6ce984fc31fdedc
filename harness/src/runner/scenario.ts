/**
 * Runs one scenario of written steps as a fast-check property: N runs from a derived seed, shrinking a failure to a
 * minimal one. Also what every kind of scenario run shares: its options, its seed, the fields of its result (the
 * model scenarios of model/ import them from here; engine/run-scenario.ts dispatches on the kind).
 */
import { chargedLevel } from './verdict.js';
import fc from 'fast-check';
import { coverExamples, type DrawnGiven, GENERATORS } from '../generators/registry.js';
import type { ResolvedProfile } from '../profile/schema.js';
import type { Scenario, StepScenario } from '../suite/types.js';
import type { ExecDeps, IterationOutcome, RawExchange } from './exec-types.js';
import { executeOnce } from './execute.js';
import { redactExchange } from './transcript.js';
import type { ScenarioResult } from './types.js';
import { createBudget, DEFAULT_SCENARIO_TIMEOUT_MS, type Budget } from './budget.js';

/**
 * Arbitraries by profile, generator and options. Building one takes milliseconds (`fc.stringMatching` precomputes
 * its bias slices: ~15 ms for a slug and an article, the time of dozens of requests), and arbitraries are immutable
 * and deterministic given the seed, so one instance serves every run of every scenario that asks for it.
 */
const arbitraries = new WeakMap<ResolvedProfile, Map<string, Omit<DrawnGiven, 'name'>>>();

/** A `given:` entry's arbitrary and cases under `profile` (built once per profile, generator and options). */
export function drawnGiven(given: Scenario['given'][number], profile: ResolvedProfile): DrawnGiven {
  let byKey = arbitraries.get(profile);
  if (!byKey) arbitraries.set(profile, (byKey = new Map()));
  const key = `${given.gen}\0${JSON.stringify(given.options)}`;
  let drawn = byKey.get(key);
  if (!drawn) {
    const def = GENERATORS[given.gen] ?? GENERATORS['count']!;
    drawn = { arb: def.make(given.options, profile), cases: def.cases?.(given.options, profile) };
    byKey.set(key, drawn);
  }
  return { name: given.name, ...drawn };
}

export async function runStepScenario(
  scenario: StepScenario,
  deps: ExecDeps,
  options: ScenarioRunOptions,
): Promise<ScenarioResult> {
  const started = performance.now();
  const seed = scenarioSeed(options.seed, scenario.id);
  const numRuns = scenario.property ? (scenario.runs ?? options.runs) : 1;
  const givens = scenario.given.map((g) => drawnGiven(g, deps.profile));
  const arb = givens.length > 0 ? fc.record(Object.fromEntries(givens.map((g) => [g.name, g.arb]))) : fc.constant({});
  // Every case a generator declares is tried first (one invalid article of each defect...), then random values.
  const examples = coverExamples(givens, seed, numRuns);
  const limit = numRuns + (options.maxShrinkRuns ?? 200);

  let executions = 0;
  let requests = 0;
  let credentialRequests = 0;
  let lastFailure: Extract<IterationOutcome, { kind: 'fail' }> | undefined;
  let firstError: Extract<IterationOutcome, { kind: 'error' }> | undefined;
  let lastPass: IterationOutcome | undefined;

  const { deps: runDeps, budget } = budgeted({ ...deps, seed }, options);
  let cut: { runs: number; shrinking: boolean } | undefined;
  const property = fc.asyncProperty(arb, async (values) => {
    // After a transport error, or past either budget, every further run "passes": fast-check stops shrinking and
    // reports the best counterexample found so far, and no more requests go to a target that is misbehaving. A run
    // once started always ends (each request is bounded by --timeout): a slow target is judged, never cut off.
    if (firstError || executions >= limit) return true;
    if (executions > 0 && budget.exceeded()) {
      cut ??= { runs: executions, shrinking: lastFailure !== undefined };
      return true;
    }
    executions++;
    const outcome = await executeOnce(scenario, values as Record<string, unknown>, runDeps);
    requests += outcome.requests;
    credentialRequests += outcome.credentialRequests ?? 0;
    if (outcome.kind === 'pass') {
      lastPass = outcome;
      return true;
    }
    if (outcome.kind === 'error') firstError = outcome;
    else lastFailure = outcome;
    return false;
  });

  const details = await fc.check(property, {
    ...checkParameters(seed, numRuns, options.replayPath),
    examples: examples.map((e) => [e] as [Record<string, unknown>]),
  });
  const durationMs = Math.round(performance.now() - started);
  const redacted = (t: RawExchange[]) => t.map((x) => redactExchange(x, deps.redactor));
  const runs = details.failed ? Math.min(details.numRuns, executions) : executions;
  const note = cutNote(cut, runs, numRuns, budget);
  const base = {
    ...resultBase(scenario),
    requests,
    ...(credentialRequests > 0 ? { credentialRequests } : {}),
    // Property runs, not shrink attempts: a failure at run 3 that shrank for 200 more executions is 3 runs.
    runs,
    durationMs,
    ...(note ? { notes: [note] } : {}),
  };
  const counterexample =
    details.failed && details.counterexample && scenario.property
      ? {
          values: deps.redactor.value(toPlain(details.counterexample[0] as Record<string, unknown>)),
          seed,
          path: details.counterexamplePath ?? '',
          shrinks: details.numShrinks,
        }
      : undefined;

  if (lastFailure) {
    const f = lastFailure;
    return {
      ...base,
      // A failure charged to some of the scenario's rules counts at their strongest level.
      level: chargedLevel(scenario, f.rules),
      status: 'failed',
      reason: f.messages.join('; '),
      failure: {
        step: f.step,
        ...(f.stepName ? { stepName: f.stepName } : {}),
        messages: f.messages,
        ...(f.rules ? { rules: f.rules } : {}),
      },
      ...(counterexample ? { counterexample } : {}),
      transcript: redacted(f.transcript),
    };
  }
  if (firstError) {
    const precondition = firstError.precondition;
    return {
      ...base,
      status: 'errored',
      reason: firstError.message,
      ...(precondition ? { precondition } : {}),
      transcript: redacted(firstError.transcript),
      ...(counterexample ? { counterexample } : {}),
    };
  }
  if (details.failed) {
    // The property threw outside executeOnce: a harness bug, reported rather than hidden.
    return { ...base, status: 'errored', reason: internalError(details), transcript: [] };
  }
  if (requests === 0) {
    // Nothing was sent, so nothing was checked: skipped, and its rules do not count as passed (VERDICTS.md §2).
    return { ...base, status: 'skipped', reason: vacuousReason(lastPass), transcript: [] };
  }
  return { ...base, status: 'passed', transcript: redacted(lastPass?.transcript ?? []) };
}

function vacuousReason(pass: IterationOutcome | undefined): string {
  const empty = pass?.kind === 'pass' ? pass.emptyEach : undefined;
  return empty !== undefined
    ? `sent no request: the \`each\` list of step ${empty.step} was empty under this profile${eachSource(empty.each)}`
    : 'sent no request: every step was left out (its `when` was false) under this profile';
}

/** Where an `each` list comes from, for a skip reason: the profile keys its template reads (" (from auth.schemes)"). */
export function eachSource(each: string): string {
  const keys = [...new Set([...each.matchAll(/\bprofile\.([A-Za-z0-9_.]+)/g)].map((m) => m[1]!))];
  return keys.length > 0 ? ` (it comes from the profile's ${keys.map((k) => `\`${k}\``).join(' and ')})` : '';
}

/** Longest string a report shows of a counterexample value whole (an oversized body's title runs to megabytes). */
const SHOWN_CHARACTERS = 2000;

/**
 * Plain JSON-able data for reports (fast-check values may carry prototypes), long strings cut to their start: the
 * seed and path replay the value itself.
 */
function toPlain(v: Record<string, unknown>): Record<string, unknown> {
  return JSON.parse(JSON.stringify(v), (_key, value: unknown) =>
    typeof value === 'string' && value.length > SHOWN_CHARACTERS
      ? `${value.slice(0, 200)}… (${value.length - 200} more characters)`
      : value,
  ) as Record<string, unknown>;
}

export interface ScenarioRunOptions {
  /** Property runs when the scenario does not fix its own. */
  runs: number;
  /** The run's seed; the scenario's seed is derived from it and the scenario id. */
  seed: number;
  /** fast-check path to replay one counterexample directly. */
  replayPath?: string;
  /** Extra executions allowed for shrinking, beyond `runs`. Default 200. */
  maxShrinkRuns?: number;
  /**
   * Time limit of the scenario's own work, ms (`--scenario-timeout`, default {@link DEFAULT_SCENARIO_TIMEOUT_MS}):
   * counted from its start, less the waits its steps declare and its parking until the run's end (see
   * runner/budget.ts). Once reached, no further property run starts and shrinking stops at the best counterexample
   * so far; the first run always completes.
   */
  timeBudgetMs?: number;
  /** The clock of the time limit, ms, monotonic (default `performance.now`): tests pass their own. */
  clock?: () => number;
}

/**
 * `deps` with the scenario's time limit: its waits (`idle`) and its parking (`atRunEnd`) stop the budget's clock.
 * Every kind of scenario runs through this.
 */
export function budgeted(
  deps: ExecDeps,
  options: Pick<ScenarioRunOptions, 'timeBudgetMs' | 'clock'>,
): { deps: ExecDeps; budget: Budget } {
  const budget = createBudget(options.timeBudgetMs ?? DEFAULT_SCENARIO_TIMEOUT_MS, options.clock);
  const { idle, atRunEnd } = deps;
  return {
    budget,
    deps: {
      ...deps,
      idle: (wait) => budget.pause(() => (idle ? idle(wait) : wait())),
      ...(atRunEnd ? { atRunEnd: () => budget.pause(atRunEnd) } : {}),
    },
  };
}

/** The note of a scenario its time limit stopped early ("12 of 50 property runs: …"), or undefined. */
export function cutNote(
  cut: { runs: number; shrinking: boolean } | undefined,
  runs: number,
  numRuns: number,
  budget: Budget,
): string | undefined {
  if (!cut) return undefined;
  const limit = `its time limit (${Math.round(budget.limitMs / 1000)} s of its own work, --scenario-timeout) was reached`;
  return cut.shrinking
    ? `shrinking stopped at the smallest counterexample found so far: ${limit}`
    : `stopped after ${runs} of ${numRuns} property runs: ${limit}`;
}

/** The reason of a property that failed with no outcome of the scenario's own: a bug of conform, said so. */
export function internalError(details: { errorInstance: unknown; numRuns: number }): string {
  return details.errorInstance !== null && details.errorInstance !== undefined
    ? `internal error: ${String(details.errorInstance)} (a bug in conform: please report it)`
    : `internal error: the property failed after ${details.numRuns} runs without a failure of the target or an error (a bug in conform: please report it)`;
}

/** FNV-1a over the id, mixed with the run seed: filtering scenarios never changes another's seed. */
export function scenarioSeed(runSeed: number, id: string): number {
  let h = 0x811c9dc5 ^ (runSeed >>> 0);
  for (let i = 0; i < id.length; i++) {
    h ^= id.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) & 0x7fffffff;
}

type Base = Pick<ScenarioResult, 'id' | 'title' | 'file' | 'line' | 'rules' | 'level' | 'tags'>;

export function resultBase(s: Scenario): Base {
  return { id: s.id, title: s.title, file: s.file, line: s.line, rules: s.rules, level: s.level, tags: s.tags };
}

/** The result of a scenario that sent nothing: skipped (a capability the profile lacks) or errored (unreachable). */
export function notRunResult(s: Scenario, status: 'skipped' | 'errored', reason: string): ScenarioResult {
  return { ...resultBase(s), status, reason, requests: 0, runs: 0, durationMs: 0, transcript: [] };
}

/**
 * fast-check's parameters for a scenario's property: its seed and runs, a replayed path. No time limit here:
 * fast-check's would count waits the scenario does not control, and abandon a run midway (its requests still going
 * out); {@link budgeted} is the limit.
 */
export function checkParameters(seed: number, numRuns: number, path: string | undefined) {
  return { seed, numRuns, ...(path ? { path } : {}) };
}
