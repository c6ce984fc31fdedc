/** Runs a suite against a target: selection, order, events, rule coverage; the session does the rest. No printing. */
import type { Authenticator } from '../auth/authenticator.js';
import type { HttpClient } from '../http/client.js';
import type { ResolvedProfile } from '../profile/schema.js';
import type { Level, Scenario, Suite } from '../suite/types.js';
import type { Bases } from '../runner/exec-types.js';
import type { RunEvent, RunResult, RunTls, ScenarioResult } from '../runner/types.js';
import { runAll } from '../runner/schedule.js';
import { criticalPath, relativeTiming, type RunTimeline, type Span } from '../runner/timeline.js';
import { notRunResult } from '../runner/scenario.js';
import { INTERRUPTED_REASON } from '../runner/verdict.js';
import { incompleteOf, ruleResults, schemeNotes, summarize } from './results.js';
import { openSession } from './session.js';
import { estimatedCost, waitsForClock } from './order.js';

export { ruleResults, summarize } from './results.js';
import { RUN_OPTION_SPEC } from '../runner/options.js';

export { profileRedactor } from './session.js';
export { scenarioUniq } from './learning.js';
export { waitsForClock } from './order.js';
export { exitCodeFor } from '../runner/verdict.js';

/** How {@link runSuite} runs: bases, seed, property runs, filter, concurrency, strictness, timeouts. */
export interface RunSuiteOptions {
  /** Where to send requests: the primary base URL, and the plain and TLS ones when known. */
  bases: Bases;
  /**
   * Aborted when the user interrupts the run (Ctrl-C): the scenarios not started are skipped as interrupted, the ones
   * running finish, what the run created is deleted, and the result is marked `interrupted`.
   */
  signal?: AbortSignal;
  seed: number;
  runs: number;
  filter: string[];
  /** Leave out scenarios matching one of these texts (as `filter` matches). */
  exclude?: string[];
  /** Only scenarios of these levels (all when absent or empty). */
  levels?: Level[];
  /** Fail the run when fewer than this percent of its MUST rules were checked (`--min-coverage`). */
  minCoverage?: number;
  /** Only these scenario ids (`--rerun-failed`). */
  only?: string[];
  strict: boolean;
  timeoutMs: number;
  /**
   * Limit of each scenario's own work, ms (`--scenario-timeout`, default 120 000): waits its steps declare and
   * parking until the run's end do not count (runner/budget.ts).
   */
  scenarioTimeoutMs?: number;
  /** Scenarios in flight at once (default {@link RUN_OPTION_SPEC}'s; 1: one after another, in catalogue order). */
  concurrency?: number;
  version: string;
  replayPath?: string;
  /** Run only this shard of the selection: scenario k (in suite order) belongs to shard (k mod total) + 1. */
  shard?: { index: number; total: number };
  /** Rebuilds the command line that replays one scenario (for reports). */
  replayCommand?: (scenario: ScenarioResult, seed: number) => string;
  /** Leave what the run created on the target (default: delete it at the end, where the target deletes). */
  keep?: boolean;
  /**
   * Leave what the reported run of each failed or errored scenario created (the articles its transcript names), so
   * its curl copies and replay script find them; the rest is deleted as usual (`--keep-failed`).
   */
  keepFailed?: boolean;
  /** false: run the scenarios even when the profile's credentials are refused (`--no-credential-check`). */
  credentialCheck?: boolean;
  /** How the client trusts TLS, recorded in the report for the curl commands it shows (default: not recorded). */
  tls?: RunTls;
}

/** What {@link runSuite} runs with: the HTTP client, the resolved profile, the authenticator, an optional event sink. */
export interface RunSuiteDeps {
  client: HttpClient;
  profile: ResolvedProfile;
  authenticator: Authenticator;
  onEvent?: (event: RunEvent) => void;
  now?: () => Date;
  /** The clock of scenario time limits, ms, monotonic (default `performance.now`): tests pass their own. */
  clock?: () => number;
  /** How `wait` steps wait (default a timer): tests pass one that moves their clock instead. */
  sleep?: (ms: number) => Promise<void>;
}

/** What else narrows a selection: texts to leave out (`--exclude`), levels to keep (`--level`). */
export interface SelectionExtras {
  exclude?: readonly string[];
  levels?: readonly Level[];
  /** Only these scenario ids, exactly (`--rerun-failed`); all when absent. */
  only?: readonly string[];
}

/**
 * Scenarios whose id, a rule id or a tag contains one of the filter texts (all when the filter is empty), less those
 * matching one of the `exclude` texts the same way, of one of `levels` (all when none is given).
 */
export function selectScenarios(
  scenarios: readonly Scenario[],
  filter: readonly string[],
  { exclude = [], levels = [], only }: SelectionExtras = {},
): Scenario[] {
  const matches = (s: Scenario, f: string) =>
    s.id.includes(f) || s.rules.some((r) => r.includes(f)) || s.tags.some((t) => t.includes(f));
  return scenarios.filter(
    (s) =>
      (filter.length === 0 || filter.some((f) => matches(s, f))) &&
      !exclude.some((f) => matches(s, f)) &&
      (levels.length === 0 || levels.includes(s.level)) &&
      (only === undefined || only.includes(s.id)),
  );
}

/** The scenarios of one shard: a deterministic round-robin over the selection, so shards stay balanced by kind. */
export function shardOf<T>(list: readonly T[], shard: { index: number; total: number } | undefined): T[] {
  if (!shard) return [...list];
  return list.filter((_, k) => k % shard.total === shard.index - 1);
}

/** A base URL as reports show it: credentials written into the URL (`http://user:pass@host`) are removed. */
export function withoutUserinfo(url: string): string {
  try {
    const u = new URL(url);
    if (!u.username && !u.password) return url;
    u.username = '';
    u.password = '';
    return u.toString().replace(/\/$/, url.endsWith('/') ? '/' : '');
  } catch {
    return url;
  }
}

/** Runs the scenarios of `suite` against a target (one session: probe, learning, scenarios, cleanup) and returns the whole run; `conform run` writes it as `report.json`. */
export async function runSuite(suite: Suite, options: RunSuiteOptions, deps: RunSuiteDeps): Promise<RunResult> {
  const now = deps.now ?? (() => new Date());
  const clock = deps.clock ?? (() => performance.now());
  const startedAt = now();
  const t0 = clock();
  const since = (t: number) => Math.round(t - t0);
  const emit = deps.onEvent ?? (() => {});
  const selected = shardOf(selectScenarios(suite.scenarios, options.filter, options), options.shard);
  const baseUrl = options.bases.primary;
  emit({ type: 'run-start', total: selected.length, target: baseUrl, seed: options.seed });
  const session = await openSession(deps, {
    bases: options.bases,
    seed: options.seed,
    requires: new Set(selected.flatMap((s) => s.requires)),
    prepare: selected,
    ...(options.credentialCheck === false ? { credentialCheck: false } : {}),
    // A failed or errored scenario's articles wait for the end of the run, where what its reported run made is kept.
    ...(options.keepFailed && !options.keep ? { keepFailed: true } : {}),
  });
  if (session.learning && session.learning.learned.length > 0) {
    emit({
      type: 'learned',
      learned: session.learning.learned.map((l) => ({ ...l, how: session.redactor.text(l.how) })),
    });
  }
  if (session.credentialsRefused)
    emit({ type: 'stopped', why: session.credentialsRefused.map((r) => `credentials refused: ${r}`) });
  else if (session.unreachable) emit({ type: 'stopped', why: [`target unreachable: ${session.unreachable}`] });
  const runOptions = {
    runs: options.runs,
    seed: options.seed,
    ...(options.replayPath ? { replayPath: options.replayPath } : {}),
    ...(options.scenarioTimeoutMs !== undefined ? { timeBudgetMs: options.scenarioTimeoutMs } : {}),
    ...(deps.clock ? { clock: deps.clock } : {}),
  };
  const setupEnd = clock();
  const concurrency = session.unreachable ? 1 : (options.concurrency ?? RUN_OPTION_SPEC.concurrency.default);
  const results = await runAll(selected, {
    // A target that did not answer the probe is tried one scenario at a time, as before: the first answer it gives
    // lets the rest run; none at all, and each is reported unreachable without sending anything.
    concurrency,
    exclusive: (s) => s.exclusive,
    priority: (s) => waitsForClock(s, session.profile),
    cost: (s) => estimatedCost(s, options.runs, session.profile),
    first: (s) => s.kind === 'steps' && s.steps.some((step) => step.atRunEnd === true),
    run: async (scenario, index, _lane, idle, atRunEnd, borrowLane) => {
      if (options.signal?.aborted) return notRunResult(scenario, 'skipped', INTERRUPTED_REASON);
      const result = await session.run(scenario, index, runOptions, {
        idle,
        atRunEnd,
        borrowLane,
        ...(deps.sleep ? { sleep: deps.sleep } : {}),
      });
      if ((result.status === 'failed' || result.status === 'errored') && options.replayCommand)
        result.replay = options.replayCommand(result, options.seed);
      return result;
    },
    onStart: (index, running) =>
      emit({ type: 'scenario-start', index, total: selected.length, scenario: selected[index]!, running }),
    onSettled: (index, result, done) => emit({ type: 'scenario-settled', index, total: selected.length, result, done }),
    onOrdered: (index, result) => emit({ type: 'scenario-end', index, total: selected.length, result }),
    clock,
    stamp: (result, timing) => ({ ...result, timing: relativeTiming(timing, t0) }),
    // What ended scenarios made is deleted in lanes no scenario wants: the cleanup overlaps the last scenarios.
    ...(options.keep ? {} : { spare: () => session.nextDeletion() }),
  });
  let cleanupStart: number | undefined;
  const report = await session.finish({
    ...(options.keep ? { keep: true } : {}),
    ...(options.keepFailed ? { keepFailed: true } : {}),
    concurrency,
    onCleanup: (articles) => {
      cleanupStart = clock();
      emit({ type: 'cleanup-start', articles });
    },
  });
  const end = clock();
  const timeline = timelineOf(results, { startMs: 0, endMs: since(setupEnd) }, concurrency, {
    ...(cleanupStart !== undefined ? { cleanup: { startMs: since(cleanupStart), endMs: since(end) } } : {}),
  });
  const run: RunResult = {
    schemaVersion: 1,
    tool: { name: 'conform', version: options.version },
    target: session.redactor.text(withoutUserinfo(baseUrl)),
    profile: deps.profile.file,
    seed: options.seed,
    runs: options.runs,
    startedAt: startedAt.toISOString(),
    durationMs: since(end),
    summary: summarize(results),
    scenarios: results,
    rules: ruleResults(suite, results),
    ...(session.unreachable && !session.reached ? { unreachable: session.unreachable } : {}),
    ...(session.credentialsRefused ? { credentialsRefused: session.credentialsRefused } : {}),
    ...incompleteOf(selected, results, deps.profile, session.profile, schemeNotes(session.learning?.learned), (t) =>
      session.redactor.text(t),
    ),
    ...(options.signal?.aborted ? { interrupted: true } : {}),
    ...report,
    options: {
      filter: options.filter,
      ...(options.exclude?.length ? { exclude: options.exclude } : {}),
      ...(options.levels?.length ? { levels: options.levels } : {}),
      strict: options.strict,
      timeoutMs: options.timeoutMs,
      ...(options.scenarioTimeoutMs !== undefined ? { scenarioTimeoutMs: options.scenarioTimeoutMs } : {}),
      ...(options.minCoverage !== undefined ? { minCoverage: options.minCoverage } : {}),
      ...(options.only ? { only: options.only } : {}),
      ...(options.credentialCheck === false ? { credentialCheck: false } : {}),
      ...(options.tls && (options.tls.insecure || options.tls.ca !== undefined) ? { tls: options.tls } : {}),
    },
    ...(options.shard ? { shard: options.shard } : {}),
    timeline,
  };
  emit({ type: 'run-end', result: run });
  return run;
}

/** The run as a timeline: its phases, and the chain of scenarios that bounded it. */
function timelineOf(
  results: readonly ScenarioResult[],
  setup: Span,
  concurrency: number,
  extra: { cleanup?: Span },
): RunTimeline {
  const timed = results.flatMap((r) => (r.timing ? [{ id: r.id, timing: r.timing }] : []));
  const scenarios =
    timed.length > 0
      ? {
          startMs: Math.min(...timed.map((t) => t.timing.startMs)),
          endMs: Math.max(...timed.map((t) => t.timing.endMs)),
        }
      : { startMs: setup.endMs, endMs: setup.endMs };
  return { setup, scenarios, ...extra, concurrency, criticalPath: criticalPath(timed) };
}
