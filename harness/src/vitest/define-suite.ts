/**
 * `defineConformSuite`: the conformance scenarios as vitest tests, one `it` per scenario, inside a team's own
 * `vitest run` (reporters, `-t`, `--shard`, watch mode). Scenarios and the profile are read synchronously when the
 * suite is defined, so the tests exist at collection time; the target is started, and the signers checked, in
 * `beforeAll`.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, it, type TestContext } from 'vitest';
import { createAuthenticator } from '../auth/authenticator.js';
import { assertSignersAgree } from '../auth/vectors.js';
import { ConformError } from '../errors.js';
import type { HttpClient } from '../http/client.js';
import { missingCapability } from '../profile/capabilities.js';
import { selectScenarios } from '../engine/run-suite.js';
import { openSession, type Session } from '../engine/session.js';
import { Lanes } from '../runner/schedule.js';
import { notRunResult, scenarioSeed } from '../runner/scenario.js';
import type { ScenarioResult, ScenarioStatus } from '../runner/types.js';
import type { Level, Scenario } from '../suite/types.js';
import { bundledPaths, loadProfileSync, loadRulesSync, loadSuiteSync } from './load-sync.js';
import { failureMessage, relativeToCwd, scenarioTestName, type ReplayContext } from './message.js';
import { failsRun } from '../runner/verdict.js';
import {
  DEFAULT_RUNS,
  resolveSettings,
  type ConformSuiteOptions,
  type ConformTargetServer,
  type ResolvedSuiteSettings,
} from './options.js';
import { clientFor, targetFromServer, targetFromUrl } from './target.js';

/** What the integration records on each scenario's vitest task (`task.meta.conform`; the JSON reporter prints it). */
export interface ConformTaskMeta {
  id: string;
  level: Level;
  /** The harness's verdict; a SHOULD/MAY `failed` under non-strict mode is a *passing* test with a warning. */
  status: ScenarioStatus;
  reason?: string;
  /** The run seed. */
  seed: number;
  /** The scenario's own fast-check seed (derived from the run seed and the id). */
  scenarioSeed: number;
  /** fast-check path of the shrunk counterexample, for `CONFORM_REPLAY`. */
  counterexamplePath?: string;
  /** True when a failure was reported as a warning only (SHOULD/MAY, not strict). */
  warning?: boolean;
}

declare module 'vitest' {
  interface TaskMeta {
    /** Set by `conform/vitest` on each scenario's test. */
    conform?: ConformTaskMeta;
  }
}

/** What `defineConformSuite` registered, and the results as the tests finish. */
export interface ConformSuite {
  /** The selected scenarios, one test each, in registration order. */
  readonly scenarios: readonly Scenario[];
  /** The run seed every scenario derives its values from. */
  readonly seed: number;
  readonly runs: number;
  readonly strict: boolean;
  /** Scenario id → harness result, filled as each test finishes, skips included (`-t`-filtered tests leave no entry). */
  readonly results: ReadonlyMap<string, ScenarioResult>;
}

/** The error a failing scenario's test throws: its message is the harness's reason, counterexample and replay command. */
export class ConformScenarioFailure extends Error {
  readonly scenarioId: string;
  readonly status: ScenarioStatus;
  constructor(message: string, result: Pick<ScenarioResult, 'id' | 'status'>) {
    super(message);
    this.name = 'ConformScenarioFailure';
    this.scenarioId = result.id;
    this.status = result.status;
    // The stack would point into the harness, never at anything the reader can act on: the message says where.
    this.stack = `${this.name}: ${message}`;
  }
}

/** Everything the tests share once `beforeAll` has run: the run's session (runner/session.ts), as `conform run`'s. */
interface Live {
  session: Session;
  client: HttpClient;
  targetUrl?: string;
}

/**
 * Registers the conformance scenarios as vitest tests: one `describe` (named `conform`, or `options.name`) holding
 * one `describe` per scenario file (or first tag; see `groupBy`) and one `it` per scenario, named
 * `<id> [<level>] <rules…>`. Call it at the top level of a test file (or inside a `describe`).
 *
 * - A MUST scenario that fails or errors fails its test with the harness's reason, the shrunk counterexample, the
 *   seed and a replay command.
 * - A SHOULD or MAY scenario that fails passes its test with a warning (`console.warn` and a `warning` annotation)
 *   unless `strict` is set; `task.meta.conform.status` still says `failed`.
 * - A scenario the profile excludes is skipped with `ctx.skip(reason)`; the reason names the profile key.
 *
 * Files are read synchronously now; invalid files, a bad option or an empty selection throw here, so vitest reports
 * them as a failed test file. The signer self-test, starting `target` (when it is a function) and a reachability
 * probe happen in `beforeAll`; the client and the server are closed in `afterAll`.
 *
 * @param options - the target, profile, scenario selection and run settings (see {@link ConformSuiteOptions}).
 * @returns the registered scenarios, the seed, and the results as tests finish.
 */
export function defineConformSuite(options: ConformSuiteOptions): ConformSuite {
  const settings = resolveSettings(options);
  const abs = (p: string) => path.resolve(p);
  const catalogue = loadRulesSync(abs(options.rules ?? bundledPaths().rules));
  const suite = loadSuiteSync((options.specs ?? [bundledPaths().specs]).map(abs), catalogue);
  const profileFile = typeof options.profile === 'object' ? undefined : abs(options.profile ?? bundledPaths().profile);
  const profile = typeof options.profile === 'object' ? options.profile : loadProfileSync(profileFile as string);
  const vectorsFile = abs(options.vectors ?? bundledPaths().vectors);
  const filter = options.filter ?? [];
  const selected = selectScenarios(suite.scenarios, filter);
  if (selected.length === 0) {
    throw new ConformError(
      'CONFORM_USAGE',
      `defineConformSuite: no scenario selected${filter.length ? ` by filter ${JSON.stringify(filter)}` : ''} (${suite.scenarios.length} loaded)`,
    );
  }
  const target = options.target;
  // A URL target is known now, so every capability can be checked; a started server's URLs only in beforeAll.
  const staticProfile = typeof target === 'function' ? profile : targetFromUrl(target, profile).profile;
  const staticRequires = (s: Scenario) =>
    typeof target === 'function' ? s.requires.filter((r) => !/^!?target\./.test(r)) : s.requires;
  if (selected.every((s) => missingCapability(staticRequires(s), staticProfile) !== null)) {
    throw new ConformError(
      'CONFORM_USAGE',
      `defineConformSuite: the profile excludes every selected scenario (${selected.length}); nothing would be checked`,
    );
  }

  const results = new Map<string, ScenarioResult>();
  // Admission as in `conform run`: at most `concurrency` scenarios in flight, exclusive ones alone.
  const lanes = new Lanes(settings.concurrency);
  let live: Live | undefined;
  let server: ConformTargetServer | undefined;

  const teardown = async (): Promise<void> => {
    const current = live;
    const started = server;
    live = undefined;
    server = undefined;
    try {
      // What the run created on the target is deleted, as `conform run` does.
      await current?.session.finish();
    } finally {
      try {
        await current?.client.close();
      } finally {
        await started?.close();
      }
    }
  };

  const setup = async (): Promise<void> => {
    await assertSignersAgree(vectorsFile);
    let client: HttpClient | undefined;
    try {
      if (typeof target === 'function') server = await target();
      const resolved = server
        ? targetFromServer(server, profile)
        : targetFromUrl(target as string | undefined, profile);
      client = clientFor(
        resolved.profile,
        {
          timeoutMs: settings.timeoutMs,
          maxResponseBytes: settings.maxResponseBytes,
          ...(options.insecure !== undefined ? { insecure: options.insecure } : {}),
          ...(options.ca !== undefined ? { ca: options.ca } : {}),
        },
        server,
      );
      // The same session as `conform run`: reachability, learning, skips (the out-of-band rule included), credentials.
      const session = await openSession(
        { client, profile: resolved.profile, authenticator: createAuthenticator({ profile: resolved.profile }) },
        { bases: resolved.bases, seed: settings.seed },
      );
      live = { session, client, ...(typeof target === 'string' ? { targetUrl: target } : {}) };
    } catch (err) {
      await client?.close().catch(() => {});
      await server?.close().catch(() => {});
      server = undefined;
      throw err;
    }
  };

  const replayContext = (ctx: TestContext, current: Live): ReplayContext => ({
    seed: settings.seed,
    seedSource: settings.seedSource,
    testFile: relativeToCwd(ctx.task.file.filepath),
    ...(current.targetUrl ? { targetUrl: current.targetUrl } : {}),
    ...(profileFile ? { profileFile: relativeToCwd(profileFile) } : {}),
    runs: settings.runs,
    defaultRuns: DEFAULT_RUNS,
  });

  const runOne = async (scenario: Scenario, ctx: TestContext): Promise<void> => {
    const current = live;
    if (!current)
      throw new ConformError(
        'CONFORM_INTERNAL',
        'conform: the suite is not set up (see the error of its beforeAll hook)',
      );
    const meta: ConformTaskMeta = {
      id: scenario.id,
      level: scenario.level,
      status: 'skipped',
      seed: settings.seed,
      scenarioSeed: scenarioSeed(settings.seed, scenario.id),
    };
    ctx.task.meta.conform = meta;
    const missing = current.session.skipReason(scenario);
    if (missing) {
      meta.reason = missing;
      results.set(scenario.id, notRunResult(scenario, 'skipped', missing));
      ctx.skip(missing);
    }
    const replayPath = settings.replay.get(scenario.id);
    const lane = await lanes.acquire(scenario.exclusive);
    let result: ScenarioResult;
    try {
      result = await current.session.run(
        scenario,
        selected.indexOf(scenario),
        {
          runs: settings.runs,
          seed: settings.seed,
          timeBudgetMs: shrinkBudget(settings),
          ...(replayPath ? { replayPath } : {}),
        },
        scenario.exclusive ? {} : { idle: <T>(wait: () => Promise<T>) => lanes.idle(wait) },
      );
    } finally {
      lanes.release(lane);
    }
    results.set(scenario.id, result);
    meta.status = result.status;
    if (result.reason !== undefined) meta.reason = result.reason;
    if (result.counterexample?.path) meta.counterexamplePath = result.counterexample.path;
    if (result.status === 'passed') return;
    if (result.status === 'skipped') ctx.skip(result.reason ?? 'skipped');
    const message = failureMessage(result, replayContext(ctx, current));
    if (failsRun(result, { strict: settings.strict })) throw new ConformScenarioFailure(message, result);
    meta.warning = true;
    console.warn(
      `⚠ conform: ${scenario.level} scenario ${result.status} (a warning; strict: true makes it fail)\n${message}`,
    );
    await ctx.annotate(message, 'warning').catch(() => {});
  };

  const register = (scenario: Scenario) => {
    it(scenarioTestName(scenario), (ctx) => runOne(scenario, ctx), settings.testTimeoutMs);
  };

  // Concurrent tests are admitted by `lanes`; at concurrency 1 vitest runs them in order, as before.
  const outer = settings.concurrency > 1 ? describe.concurrent : describe.sequential;
  outer(options.name ?? 'conform', () => {
    beforeAll(setup, settings.hookTimeoutMs);
    afterAll(teardown, settings.hookTimeoutMs);
    const grouping = options.groupBy ?? 'file';
    if (grouping === 'none') {
      selected.forEach(register);
      return;
    }
    const groups = new Map<string, Scenario[]>();
    for (const s of selected) {
      const key = grouping === 'tag' ? (s.tags[0] ?? '(untagged)') : (suite.fileLabels.get(s.id) ?? s.file);
      const list = groups.get(key) ?? [];
      list.push(s);
      groups.set(key, list);
    }
    for (const [name, scenarios] of groups) describe(name, () => scenarios.forEach(register));
  });

  return { scenarios: selected, seed: settings.seed, runs: settings.runs, strict: settings.strict, results };
}

/**
 * Time allowed for one scenario's runs and shrinking: what is left of the test's timeout after room for two
 * in-flight requests and reporting, so a slow shrink ends with the best counterexample rather than a vitest timeout.
 */
function shrinkBudget(settings: ResolvedSuiteSettings): number {
  return Math.max(1_000, settings.testTimeoutMs - 2 * settings.timeoutMs - 5_000);
}
