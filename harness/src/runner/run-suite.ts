/** Runs a suite against a target: selection, capability skips, reachability, verdicts, rule coverage. No printing. */
import { randomBytes } from 'node:crypto';
import type { Authenticator } from '../auth/authenticator.js';
import type { HttpClient } from '../http/client.js';
import { formEncode } from '../http/percent.js';
import { missingCapability } from '../profile/capabilities.js';
import { oobUnreachable } from './oob.js';
import type { ResolvedProfile } from '../profile/schema.js';
import type { Scenario, Suite } from '../spec/types.js';
import { createRedactor, type Redactor } from './redact.js';
import type { Bases, ExecDeps } from './exec-types.js';
import { baseOf, runScenario } from './scenario.js';
import { ruleStatus } from './rules.js';
import type { RuleResult, RunEvent, RunResult, ScenarioResult, RunSummary } from './types.js';
import { failsRun } from './verdict.js';
import { runAll } from './schedule.js';
import { createTokenSource } from './tokens.js';
import { createApprover } from './oauth1-approval.js';
import { cleanUp, createLedger, recordingClient } from './cleanup.js';
import { redactExchange } from './transcript.js';
import { LEARNABLE_KEYS, learnOpenPoints, type LearnOutcome } from '../learn/learn.js';
import { RUN_OPTION_SPEC } from './options.js';

export interface RunSuiteOptions {
  /** Where to send requests: the primary base URL, and the plain and TLS ones when known. */
  bases: Bases;
  seed: number;
  runs: number;
  filter: string[];
  strict: boolean;
  timeoutMs: number;
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
}

export interface RunSuiteDeps {
  client: HttpClient;
  profile: ResolvedProfile;
  authenticator: Authenticator;
  onEvent?: (event: RunEvent) => void;
  now?: () => Date;
}

/** Scenarios whose id, a rule id or a tag contains one of the filter texts (all when the filter is empty). */
export function selectScenarios(scenarios: readonly Scenario[], filter: readonly string[]): Scenario[] {
  if (filter.length === 0) return [...scenarios];
  return scenarios.filter((s) => filter.some((f) => s.id.includes(f) || s.rules.some((r) => r.includes(f)) || s.tags.some((t) => t.includes(f))));
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

/** Every secret the profile holds, for redaction. */
export function profileRedactor(profile: ResolvedProfile): Redactor {
  const secrets = profile.users.flatMap((u) => [u.password, u.secret]).filter((s): s is string => !!s);
  if (profile.auth.oauth2) secrets.push(profile.auth.oauth2.clientSecret);
  if (profile.auth.oauth1) secrets.push(profile.auth.oauth1.consumerSecret);
  const pairs = profile.users.filter((u) => u.password).map((u) => [u.name, u.password as string] as const);
  for (const c of [profile.auth.oauth2, profile.auth.oauth2?.otherClient]) {
    if (!c) continue;
    secrets.push(c.clientSecret);
    pairs.push([c.clientId, c.clientSecret]);
    pairs.push([formEncode(c.clientId), formEncode(c.clientSecret)]);
  }
  return createRedactor(secrets, pairs);
}

export async function runSuite(suite: Suite, options: RunSuiteOptions, deps: RunSuiteDeps): Promise<RunResult> {
  const now = deps.now ?? (() => new Date());
  const startedAt = now();
  const t0 = performance.now();
  const emit = deps.onEvent ?? (() => {});
  const redactor = profileRedactor(deps.profile);
  const selected = shardOf(selectScenarios(suite.scenarios, options.filter), options.shard);
  const runTag = randomBytes(4).toString('hex');
  const baseUrl = options.bases.primary;
  emit({ type: 'run-start', total: selected.length, target: baseUrl, seed: options.seed });

  let unreachable: string | undefined;
  const probe = await deps.client.send({ method: 'OPTIONS', url: baseUrl.replace(/\/$/, '') + '/', headers: {} });
  if (!probe.ok && probe.error.code !== 'BAD_RESPONSE' && probe.error.code !== 'RESPONSE_TOO_LARGE') {
    unreachable = `${baseUrl}: ${probe.error.message}`;
  }
  let reached = !unreachable;
  // Where the profile is silent on an open point the target's choice is learned first, and judged by.
  const learning = unreachable ? undefined : await learnSilentPoints(deps, options.bases, redactor, runTag);
  const profile = learning?.profile ?? deps.profile;
  if (learning && learning.learned.length > 0) emit({ type: 'learned', learned: learning.learned.map((l) => ({ ...l, how: redactor.text(l.how) })) });
  const authenticator = learning ? deps.authenticator.withProfile(profile) : deps.authenticator;
  // One token source for the run, on the run's own connection: tokens outlive the scenario that first needed them.
  const approver = createApprover({ client: deps.client, profile, authenticator, secret: (v) => redactor.add(v), ...(learning?.approval ? { known: learning.approval } : {}) });
  const tokens = createTokenSource({ client: deps.client, profile, authenticator, secret: (v) => redactor.add(v), approver });
  // Every article the scenarios create is noted, to be deleted when the run ends.
  const ledger = createLedger(profile, options.bases);
  const recording = recordingClient(deps.client, ledger);
  const runOne = async (scenario: Scenario, index: number, _lane: number, idle: ExecDeps['idle'], atEnd?: () => Promise<void>): Promise<ScenarioResult> => {
    let result: ScenarioResult;
    const missing = missingCapability(scenario.requires, profile) ?? (scenario.requires.includes('oob') ? oobUnreachable(baseUrl, profile.oob.url) : null);
    if (missing) {
      result = { ...baseOf(scenario), status: 'skipped', reason: missing, requests: 0, runs: 0, durationMs: 0, transcript: [] };
    } else if (unreachable && !reached) {
      result = { ...baseOf(scenario), status: 'errored', reason: `target unreachable: ${unreachable}`, requests: 0, runs: 0, durationMs: 0, transcript: [] };
    } else {
      // Its own connections: nothing another scenario left on a connection reaches this one's answers.
      const client = recording.session();
      const execDeps = {
        client,
        bases: options.bases,
        profile,
        redactor,
        authenticator,
        uniq: scenarioUniq(runTag, index),
        seed: options.seed,
        tokens,
        ...(idle ? { idle } : {}),
        ...(atEnd ? { atRunEnd: atEnd } : {}),
      };
      try {
        result = await runScenario(scenario, execDeps, { runs: options.runs, seed: options.seed, ...(options.replayPath ? { replayPath: options.replayPath } : {}) });
      } finally {
        await client.close();
      }
      if (result.transcript.some((x) => x.response)) reached = true;
    }
    if ((result.status === 'failed' || result.status === 'errored') && options.replayCommand) {
      result.replay = options.replayCommand(result, options.seed);
    }
    return result;
  };
  const results = await runAll(selected, {
    // A target that did not answer the probe is tried one scenario at a time, as before: the first answer it gives
    // lets the rest run; none at all, and each is reported unreachable without sending anything.
    concurrency: unreachable ? 1 : (options.concurrency ?? RUN_OPTION_SPEC.concurrency.default),
    exclusive: (s) => s.exclusive,
    priority: waitsForClock,
    first: (s) => s.steps.some((step) => step.atRunEnd === true),
    run: runOne,
    onStart: (index, running) => emit({ type: 'scenario-start', index, total: selected.length, scenario: selected[index]!, running }),
    onSettled: (index, result, done) => emit({ type: 'scenario-settled', index, total: selected.length, result, done }),
    onOrdered: (index, result) => emit({ type: 'scenario-end', index, total: selected.length, result }),
  });
  const created = ledger.created();
  let left = created;
  if (!options.keep && created.length > 0) {
    emit({ type: 'cleanup-start', articles: created.length });
    const client = deps.client.session();
    try {
      left = (await cleanUp(created, { client, bases: options.bases, profile, redactor, authenticator, uniq: scenarioUniq(runTag, LEARNING_INDEX), seed: options.seed, tokens })).left;
    } finally {
      await client.close();
    }
  }
  const leftovers = [...(learning?.leftovers ?? []), ...left];
  const run: RunResult = {
    schemaVersion: 1,
    tool: { name: 'conform', version: options.version },
    target: redactor.text(withoutUserinfo(baseUrl)),
    profile: deps.profile.file,
    seed: options.seed,
    runs: options.runs,
    startedAt: startedAt.toISOString(),
    durationMs: Math.round(performance.now() - t0),
    summary: summarize(results),
    scenarios: results,
    rules: ruleResults(suite, results),
    ...(unreachable && !reached ? { unreachable } : {}),
    ...(learning && learning.learned.length > 0 ? { learned: learning.learned.map((l) => ({ ...l, how: redactor.text(l.how) })) } : {}),
    ...(learning && learning.exchanges.length > 0 ? { learning: learning.exchanges.slice(0, MAX_LEARNING_EXCHANGES).map((x) => redactExchange(x, redactor)) } : {}),
    ...(leftovers.length > 0 ? { leftovers } : {}),
    cleanup: { created: created.length + ledger.missed(), deleted: options.keep ? 0 : created.length - left.length, ...(options.keep ? { kept: true } : {}) },
    options: { filter: options.filter, strict: options.strict, timeoutMs: options.timeoutMs },
    ...(options.shard ? { shard: options.shard } : {}),
  };
  emit({ type: 'run-end', result: run });
  return run;
}

/** Most exchanges of the learning kept for the report. */
const MAX_LEARNING_EXCHANGES = 60;

/**
 * Learns what the profile leaves silent (harness/src/learn), on a connection of its own; undefined when the profile
 * declares every learnable key and pins or does not need the OAuth 1 approval.
 */
async function learnSilentPoints(deps: RunSuiteDeps, bases: RunSuiteOptions['bases'], redactor: Redactor, runTag: string): Promise<LearnOutcome | undefined> {
  const silent = LEARNABLE_KEYS.filter((k) => !deps.profile.declared.has(k));
  const approvalOpen = deps.profile.auth.oauth1 !== undefined && deps.profile.auth.oauth1.approval === undefined && !deps.profile.declared.has('auth.schemes');
  if (silent.length === 0 && !approvalOpen) return undefined;
  const client = deps.client.session();
  try {
    return await learnOpenPoints({ client, bases, profile: deps.profile, authenticator: deps.authenticator, redactor, uniq: scenarioUniq(runTag, LEARNING_INDEX) });
  } finally {
    await client.close();
  }
}

/** The `uniq` position of the learning's own values (scenarios count from 0; this never meets one of theirs). */
const LEARNING_INDEX = 36 ** 3 - 1;

/**
 * Start-order priority: scenarios that wait out a clock (`wait:` steps) or the whole run (`atRunEnd` steps) start
 * first, so their waits overlap the rest (and a request replayed at the end was signed at the start).
 */
export function waitsForClock(scenario: Scenario): number {
  return scenario.steps.some((step) => step.wait !== undefined || step.atRunEnd === true) ? 1 : 0;
}

/**
 * The `uniq` values of one scenario: the run's tag, the scenario's position (three base-36 digits, so the values of
 * two scenarios never meet) and a counter. They depend on nothing another scenario does, so a run gives the same
 * values at any concurrency.
 */
export function scenarioUniq(runTag: string, index: number): () => string {
  const prefix = `${runTag}${index.toString(36).padStart(3, '0')}`;
  let counter = 0;
  return () => `${prefix}${(counter++).toString(36)}`;
}

export function summarize(results: readonly ScenarioResult[]): RunSummary {
  const s: RunSummary = { total: results.length, passed: 0, failed: 0, errored: 0, skipped: 0 };
  for (const r of results) s[r.status]++;
  return s;
}

/** Rule status from the scenarios that cover it in this run; rules no selected scenario covers are `uncovered`. */
export function ruleResults(suite: Suite, results: readonly ScenarioResult[]): RuleResult[] {
  return suite.catalogue.rules.filter((r) => !r.retired).map((rule) => {
    const covering = results.filter((r) => r.rules.includes(rule.id));
    const status = ruleStatus(covering, rule.id);
    return {
      id: rule.id,
      section: rule.section,
      level: rule.level,
      text: rule.text,
      quote: rule.quote,
      ...(rule.source ? { source: rule.source } : {}),
      ...(rule.subject ? { subject: rule.subject } : {}),
      status,
      scenarios: covering.map((c) => c.id),
    };
  });
}

/**
 * Exit code per CONTRACT.md: 3 when the target was never reachable, 1 when a MUST scenario failed or errored (or,
 * with `strict`, any scenario), 0 otherwise. Zero selected scenarios is a usage error (2), decided by the caller.
 */
export function exitCodeFor(run: RunResult, strict: boolean): 0 | 1 | 3 {
  if (run.unreachable) return 3;
  return run.scenarios.some((s) => failsRun(s, { strict })) ? 1 : 0;
}
