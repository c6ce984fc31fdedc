/**
 * Differential mode: replays the same seeded requests against a reference and a target, scenario by scenario, and
 * collects where their answers differ in ways the spec pins. No printing, no process access; the caller builds the
 * clients and reads the result.
 */
import type { Authenticator } from '../auth/authenticator.js';
import type { HttpClient } from '../http/client.js';
import type { ExecDeps, IterationOutcome } from '../runner/exec-types.js';
import { executeOnce } from '../runner/execute.js';
import type { Redactor } from '../runner/redact.js';
import { selectScenarios, waitsForClock } from '../engine/run-suite.js';
import { openSession, type Session } from '../engine/session.js';
import { RUN_OPTION_SPEC } from '../runner/options.js';
import { runAll } from '../runner/schedule.js';
import { scenarioSeed } from '../runner/scenario.js';
import type { Scenario, Suite } from '../suite/types.js';
import { compareTranscripts } from './compare.js';
import { EQUIVALENCES } from './equivalences.js';
import type {
  DiffEvent,
  DiffResult,
  Difference,
  GroupedDifference,
  OutcomeCounts,
  ScenarioDiff,
  Side,
  SideContext,
} from './types.js';
import { drawValues } from './values.js';

/** One side of a diff: what it is (profile, bases) and how to reach it. */
export interface DiffSideDeps extends SideContext {
  client: HttpClient;
  authenticator: Authenticator;
}

export interface RunDiffOptions {
  seed: number;
  /** Value sets per property scenario. */
  runs: number;
  filter: string[];
  version: string;
  /** True when the reference is the bundled server started in-process (recorded in the result). */
  embeddedReference: boolean;
  onEvent?: (event: DiffEvent) => void;
  now?: () => Date;
  /** Most exchanges kept per execution for comparison. Default 10 000. */
  maxTranscript?: number;
  /** Scenarios in flight at once (default: the run default; 1 — one after another). */
  concurrency?: number;
}

/**
 * A redactor that applies both sides' redactors (each knows its own profile's secrets, and learns the tokens its
 * side meets during the run: they are the instances the executions use).
 */
function bothRedactors(a: Redactor, b: Redactor): Redactor {
  return {
    add: (secret) => {
      a.add(secret);
      b.add(secret);
    },
    text: (s) => b.text(a.text(s)),
    headers: (h) => b.headers(a.headers(h)),
    value: (v) => b.value(a.value(v)),
  };
}

function emptyCounts(): OutcomeCounts {
  return { pass: 0, fail: 0, error: 0 };
}

function count(c: OutcomeCounts, o: IterationOutcome): void {
  c[o.kind]++;
  if (c.firstProblem === undefined && o.kind !== 'pass') {
    c.firstProblem = `step ${o.step}${o.stepName ? ` "${o.stepName}"` : ''}: ${o.kind === 'fail' ? o.messages.join('; ') : o.message}`;
  }
}

/** Groups equal differences of several runs (same step, exchange, method, field and values). */
export function groupDifferences(perRun: ReadonlyArray<readonly Difference[]>): GroupedDifference[] {
  const groups = new Map<string, GroupedDifference>();
  perRun.forEach((diffs, i) => {
    for (const d of diffs) {
      const key = JSON.stringify([d.step, d.exchange, d.method, d.instance, d.field, d.reference, d.target]);
      const g = groups.get(key);
      if (g) {
        if (!g.runs.includes(i + 1)) g.runs.push(i + 1);
      } else groups.set(key, { ...d, runs: [i + 1] });
    }
  });
  return [...groups.values()].sort((a, b) => a.step - b.step || a.exchange - b.exchange || a.runs[0]! - b.runs[0]!);
}

function skipReason(scenario: Scenario, reference: Session, target: Session): string | undefined {
  if (scenario.kind === 'model')
    return 'a model scenario has no steps to compare: run it against each target with conform run';
  // Each side's session decides as `conform run` does (capabilities, the out-of-band listener's reachability).
  const r = reference.skipReason(scenario);
  const t = target.skipReason(scenario);
  const reasons = [r ? `reference profile: ${r}` : undefined, t ? `target profile: ${t}` : undefined].filter(
    (x) => x !== undefined,
  );
  if (reasons.length > 0) return reasons.join('; ');
  // Both sides get the same generated values, sized by the reference's declared limit: a body over one side's limit
  // may be under the other's, and each side is free to take what it declares it takes (§8 "not shown").
  const limits = [reference.profile.articles.maxBodyBytes, target.profile.articles.maxBodyBytes];
  if (scenario.requires.includes('articles.maxBodyBytes') && limits[0] !== limits[1]) {
    return `the sides declare different body limits (articles.maxBodyBytes ${limits[0]} and ${limits[1]}): the same body is not over both`;
  }
  return undefined;
}

interface Context {
  reference: DiffSideDeps;
  target: DiffSideDeps;
  /** Each side's session (runner/session.ts), as `conform run` opens one. */
  sessions: { reference: Session; target: Session };
  redactor: Redactor;
  options: RunDiffOptions;
}

async function diffScenario(
  scenario: Scenario,
  index: number,
  c: Context,
  idle: ExecDeps['idle'],
): Promise<ScenarioDiff> {
  const extras = idle ? { idle } : {};
  const reference = c.sessions.reference.scenarioDeps(index, extras);
  const target = c.sessions.target.scenarioDeps(index, extras);
  try {
    return await diffScenarioWith(scenario, c, reference.deps, target.deps);
  } finally {
    await Promise.all([reference.close(), target.close()]);
  }
}

async function diffScenarioWith(
  scenario: Scenario,
  c: Context,
  execReference: ExecDeps,
  execTarget: ExecDeps,
): Promise<ScenarioDiff> {
  const started = performance.now();
  const base = { id: scenario.id, title: scenario.title, file: scenario.file };
  const outcomes = { reference: emptyCounts(), target: emptyCounts() };
  const skipped = skipReason(scenario, c.sessions.reference, c.sessions.target);
  if (skipped || scenario.kind !== 'steps') {
    return {
      ...base,
      status: 'skipped',
      reason: skipped ?? 'not a scenario of steps',
      runs: 0,
      requests: { reference: 0, target: 0 },
      outcomes,
      differences: [],
      ignored: {},
      durationMs: 0,
    };
  }
  const seed = scenarioSeed(c.options.seed, scenario.id);
  const valueSets = drawValues(scenario, c.options.seed, c.options.runs, c.reference.profile, c.target.profile);
  const requests = { reference: 0, target: 0 };
  const perRun: Difference[][] = [];
  const ignored: Record<string, number> = {};
  for (const values of valueSets) {
    const r = await executeOnce(scenario, values, { ...execReference, seed });
    const t = await executeOnce(scenario, values, { ...execTarget, seed });
    requests.reference += r.requests;
    requests.target += t.requests;
    count(outcomes.reference, r);
    count(outcomes.target, t);
    const cmp = compareTranscripts(r.transcript, t.transcript, {
      scenario,
      reference: c.reference,
      target: c.target,
      outcomes: { reference: r, target: t },
    });
    perRun.push(cmp.differences);
    for (const [id, n] of Object.entries(cmp.ignored)) ignored[id] = (ignored[id] ?? 0) + n;
  }
  const differences = groupDifferences(perRun);
  const values: Record<string, Record<string, unknown>> = {};
  perRun.forEach((d, i) => {
    if (d.length > 0 && scenario.given.length > 0)
      values[String(i + 1)] = JSON.parse(JSON.stringify(valueSets[i])) as Record<string, unknown>;
  });
  const result: ScenarioDiff = {
    ...base,
    status: differences.length > 0 ? 'different' : 'same',
    runs: valueSets.length,
    requests,
    outcomes,
    differences,
    ...(Object.keys(values).length > 0 ? { values } : {}),
    ignored,
    durationMs: Math.round(performance.now() - started),
  };
  return c.redactor.value(result);
}

/** One side's session: its probe, what it learns, its credentials, its cleanup — as `conform run` has them. */
function sideSession(side: DiffSideDeps, options: RunDiffOptions): Promise<Session> {
  return openSession(side, {
    bases: side.bases,
    seed: options.seed,
    maxTranscript: options.maxTranscript ?? 10_000,
    ...(options.now ? { now: options.now } : {}),
  });
}

/**
 * Runs the selected scenarios of `suite` against both sides with the same values and compares every exchange.
 * A side that cannot be reached at all ends the diff before any scenario runs (`unreachable`).
 */
export async function runDiff(
  suite: Suite,
  reference: DiffSideDeps,
  target: DiffSideDeps,
  options: RunDiffOptions,
): Promise<DiffResult> {
  const now = options.now ?? (() => new Date());
  const startedAt = now();
  const t0 = performance.now();
  const selected = selectScenarios(suite.scenarios, options.filter);
  const sessions = { target: await sideSession(target, options), reference: await sideSession(reference, options) };
  const redactor = bothRedactors(sessions.reference.redactor, sessions.target.redactor);
  const c: Context = { reference, target, sessions, redactor, options };
  const scenarios: ScenarioDiff[] = [];
  let unreachable: { side: Side; message: string } | undefined;
  if (sessions.target.unreachable) unreachable = { side: 'target', message: sessions.target.unreachable };
  else if (sessions.reference.unreachable) unreachable = { side: 'reference', message: sessions.reference.unreachable };
  if (!unreachable) {
    const results = await runAll(selected, {
      concurrency: options.concurrency ?? RUN_OPTION_SPEC.concurrency.default,
      exclusive: (s) => s.exclusive,
      priority: waitsForClock,
      run: (scenario, index, _lane, idle) => diffScenario(scenario, index, c, idle),
      onStart: (index) =>
        options.onEvent?.({ type: 'scenario-start', index, total: selected.length, id: selected[index]!.id }),
      onOrdered: (index, result) => options.onEvent?.({ type: 'scenario-end', index, total: selected.length, result }),
    });
    scenarios.push(...results);
  }
  // Each side is left as it was found.
  await Promise.all([sessions.reference.finish(), sessions.target.finish()]);
  const tally = (s: ScenarioDiff['status']) => scenarios.filter((x) => x.status === s).length;
  return redactor.value({
    schemaVersion: 1,
    tool: { name: 'conform', version: options.version },
    reference: { url: reference.bases.primary, profile: reference.profile.file, embedded: options.embeddedReference },
    target: { url: target.bases.primary, profile: target.profile.file },
    seed: options.seed,
    runs: options.runs,
    filter: options.filter,
    startedAt: startedAt.toISOString(),
    durationMs: Math.round(performance.now() - t0),
    summary: {
      scenarios: scenarios.length,
      same: tally('same'),
      different: tally('different'),
      skipped: tally('skipped'),
      differences: scenarios.reduce((n, s) => n + s.differences.length, 0),
    },
    equivalences: EQUIVALENCES.map((e) => ({ id: e.id, field: e.field, why: e.why })),
    scenarios,
    ...(unreachable ? { unreachable } : {}),
  });
}
