/**
 * Runs a model scenario: `runs` sequences of commands (fc.commands), each checked against the model of the
 * resource; a failing sequence is shrunk by fast-check to a minimal one, reported as the requests it sent.
 */
import fc from 'fast-check';
import type { ExecDeps, RawExchange } from '../runner/exec-types.js';
import {
  budgeted,
  checkParameters,
  cutNote,
  internalError,
  resultBase,
  scenarioSeed,
  type ScenarioRunOptions,
} from '../runner/scenario.js';
import { createTokenSource } from '../oauth/index.js';
import { oauth2Actors } from '../profile/oauth2-actors.js';
import { tokensOf, usableSchemes } from '../runner/credentials.js';
import { redactExchange } from '../runner/transcript.js';
import { spreadRuns } from '../runner/spread.js';
import type { ScenarioResult } from '../runner/types.js';
import type { ModelScenario } from '../suite/types.js';
import { chargedLevel } from '../runner/verdict.js';
import { RUN_OPTION_SPEC } from '../runner/options.js';
import { emptyState, makePaths, type ModelState } from './articles.js';
import { commandArbitraries } from './arbitraries.js';
import { ModelError, ModelFailure, type Real } from './exchange.js';

/** The default `--runs`: a model scenario's own `runs` is scaled by `--runs` over this. */
const DEFAULT_RUNS = RUN_OPTION_SPEC.runs.default;
const DEFAULT_LENGTH = 12;

/** `--replay` of a model scenario: fast-check's path, then `~` and the commands' replay path. */
function splitReplay(path: string | undefined): { path?: string; commands?: string } {
  if (path === undefined) return {};
  const [p, commands] = path.split('~');
  return { ...(p ? { path: p } : {}), ...(commands ? { commands } : {}) };
}

/** The OAuth schemes the model would write with whose credentials cannot be obtained from the target, and why. */
async function unobtainable(deps: ExecDeps): Promise<Array<{ scheme: string; reason: string }>> {
  if (!deps.profile.articles.writeAuth) return [];
  const out: Array<{ scheme: string; reason: string }> = [];
  for (const scheme of usableSchemes(deps.profile, deps.bases)) {
    if (scheme === 'oauth2') {
      // Each actor acting for a user (every grant of the profile's clients) is drawn by the model: each must work.
      const base = deps.profile.auth.tlsOnly.includes('oauth2') && deps.bases.tls ? deps.bases.tls : deps.bases.primary;
      for (const actor of oauth2Actors(deps.profile).filter((a) => a.user !== undefined)) {
        const got = await tokensOf(deps).oauth2As(actor, base);
        if (!got.ok) out.push({ scheme: `oauth2:${actor.clientId}:${actor.grant}`, reason: got.reason });
      }
      continue;
    }
    if (scheme !== 'oauth1') continue;
    const user = deps.profile.auth.oauth1?.user;
    if (user === undefined) continue;
    const base = deps.profile.auth.tlsOnly.includes(scheme) && deps.bases.tls ? deps.bases.tls : deps.bases.primary;
    const got = await tokensOf(deps).oauth1(user, base);
    if (!got.ok) out.push({ scheme, reason: got.reason });
  }
  return out;
}

export async function runModelScenario(
  scenario: ModelScenario,
  deps: ExecDeps,
  options: ScenarioRunOptions,
): Promise<ScenarioResult> {
  const model = scenario.model;
  const started = performance.now();
  const seed = scenarioSeed(options.seed, scenario.id);
  const base = resultBase(scenario);
  if (!deps.profile.articles.readable) {
    return {
      ...base,
      status: 'skipped',
      reason: 'a model scenario reads articles back: the profile says articles.readable: false',
      requests: 0,
      runs: 0,
      durationMs: 0,
      transcript: [],
    };
  }
  const numRuns =
    scenario.runs === undefined ? options.runs : Math.max(1, Math.round((scenario.runs * options.runs) / DEFAULT_RUNS));
  const replay = splitReplay(options.replayPath);
  // Its own OAuth tokens, obtained when its first sequence needs them and kept for the others: which scenario of a
  // run obtains the run's shared tokens first would otherwise depend on concurrency.
  const { deps: limited, budget } = budgeted(deps, options);
  const own = {
    ...limited,
    tokens: createTokenSource({
      client: deps.client,
      profile: deps.profile,
      authenticator: deps.authenticator,
      secret: (v) => deps.redactor.add(v),
    }),
  };
  // One broken scheme does not sink the model (VERDICTS.md §2): an OAuth scheme whose credentials cannot be obtained
  // leaves it, with the reason in the result; the auth scenarios judge that scheme.
  const leftOut = await unobtainable(own);
  const commands = fc.commands(commandArbitraries(deps, model, new Set(leftOut.map((l) => l.scheme))), {
    maxCommands: model.length ?? DEFAULT_LENGTH,
    size: 'max',
    ...(replay.commands ? { replayPath: replay.commands } : {}),
  });
  // Shrinking a sequence takes more runs than shrinking values: each command, then each command's values.
  const limit = numRuns + (options.maxShrinkRuns ?? 1000);
  let executions = 0;
  let requests = 0;
  let credentialRequests = 0;
  let failure: { error: ModelFailure; real: Real } | undefined;
  let firstError: { message: string; real: Real } | undefined;
  let lastPass: Real | undefined;
  let cut: { runs: number; shrinking: boolean } | undefined;
  let lanes = 1;

  type Outcome =
    | { kind: 'pass'; real: Real }
    | { kind: 'fail'; real: Real; error: ModelFailure }
    | { kind: 'error'; real: Real; message: string };
  /** One sequence, on `client`'s connections (the scenario's own, or a lent lane's). */
  const sequence = async (cmds: Iterable<fc.AsyncCommand<ModelState, Real>>, on: ExecDeps): Promise<Outcome> => {
    const real: Real = {
      deps: on,
      paths: makePaths(deps.profile, `m${deps.uniq()}`, model.slugs ?? 2),
      transcript: [],
      requests: 0,
      credentialRequests: 0,
      lines: [],
      maxTranscript: deps.maxTranscript ?? 40,
    };
    const state: ModelState = emptyState();
    try {
      await fc.asyncModelRun(() => ({ model: state, real }), cmds);
      return { kind: 'pass', real };
    } catch (err) {
      if (err instanceof ModelFailure) return { kind: 'fail', real, error: err };
      return {
        kind: 'error',
        real,
        message: err instanceof ModelError ? err.message : `internal error: ${String(err)}`,
      };
    } finally {
      requests += real.requests;
      credentialRequests += real.credentialRequests;
    }
  };
  const take = (outcome: Outcome): boolean => {
    if (outcome.kind === 'pass') return true;
    if (outcome.kind === 'fail') failure = { error: outcome.error, real: outcome.real };
    else firstError = { message: outcome.message, real: outcome.real };
    return false;
  };

  const property = fc.asyncProperty(commands, async (cmds) => {
    if (firstError || executions >= limit) return true;
    // Past its time limit no further sequence starts (runner/scenario.ts: the same rule for written steps).
    if (executions > 0 && budget.exceeded()) {
      cut ??= { runs: executions, shrinking: failure !== undefined };
      return true;
    }
    executions++;
    const outcome = await sequence(cmds, own);
    if (outcome.kind === 'pass') lastPass = outcome.real;
    return take(outcome);
  });
  // The sequences are independent (each on paths of its own): lanes the run lends go to them (runner/spread.ts),
  // with the verdict, counterexample and shrinking of a sequential check. A replay is one sequence: no spreading.
  const details =
    deps.borrowLane && replay.path === undefined
      ? await spreadThenShrink()
      : await fc.check(property, checkParameters(seed, numRuns, replay.path));

  async function spreadThenShrink() {
    const outcomes = new Map<number, Outcome>();
    const spread = await spreadRuns({
      values: fc.sample(commands, { seed, numRuns }),
      borrow: deps.borrowLane,
      stop: () => budget.exceeded(),
      run: async (cmds, index, borrowed) => {
        executions++;
        const client = borrowed ? deps.client.session() : undefined;
        try {
          const outcome = await sequence(cmds, client ? { ...own, client } : own);
          outcomes.set(index, outcome);
          return outcome.kind === 'pass';
        } finally {
          await client?.close();
        }
      },
    });
    lanes = spread.lanes;
    const stoppedAt = spread.firstNotPassed;
    if (spread.started < numRuns && stoppedAt === undefined) cut ??= { runs: spread.started, shrinking: false };
    if (stoppedAt === undefined) {
      lastPass = outcomes.get(spread.started - 1)?.real;
      return {
        failed: false as const,
        numRuns: spread.started,
        counterexample: null,
        counterexamplePath: null,
        numShrinks: 0,
        errorInstance: null,
      };
    }
    const first = outcomes.get(stoppedAt)!;
    // What ran one after another would have stopped here: the runs before it passed, this one is the verdict.
    executions = stoppedAt;
    if (first.kind === 'error') {
      executions++;
      take(first);
      return {
        failed: true as const,
        numRuns: stoppedAt + 1,
        counterexample: null,
        counterexamplePath: null,
        numShrinks: 0,
        errorInstance: null,
      };
    }
    // fast-check replays that run from its index and shrinks it, as it would have at this point of a sequential check.
    const shrunk = await fc.check(property, checkParameters(seed, numRuns, String(stoppedAt)));
    if (!failure && !firstError) take(first); // the target answered otherwise on the replay: the run seen stands
    return { ...shrunk, failed: true as const, numRuns: stoppedAt + 1 };
  }
  const durationMs = Math.round(performance.now() - started);
  const redacted = (t: RawExchange[]) => t.map((x) => redactExchange(x, deps.redactor));
  // Property runs, not shrink attempts: a failure at run 3 that shrank for 200 more executions is 3 runs.
  const runs = details.failed ? Math.min(details.numRuns, executions) : executions;
  const notes = leftOut.map((l) => `${l.scheme} left out of the sequences: ${deps.redactor.text(l.reason)}`);
  const note = cutNote(cut, runs, numRuns, budget);
  if (note) notes.push(note);
  const common = {
    ...base,
    requests,
    ...(credentialRequests > 0 ? { credentialRequests } : {}),
    runs,
    ...(lanes > 1 ? { lanes } : {}),
    durationMs,
    ...(notes.length > 0 ? { notes } : {}),
  };
  if (failure) {
    const { error, real } = failure;
    const replayPath = /replayPath="([^"]*)"/.exec(String(details.counterexample?.[0] ?? ''))?.[1];
    const step = real.lines.length;
    // A sequence checks rules from MUST to SHOULD: its failure counts at the strongest level it is charged to.
    const level = chargedLevel(scenario, error.rules);
    return {
      ...common,
      level,
      status: 'failed',
      reason: deps.redactor.text(error.messages.join('; ')),
      failure: { step, messages: error.messages.map((m) => deps.redactor.text(m)), rules: error.rules },
      counterexample: {
        values: { commands: real.lines.map((l) => deps.redactor.text(l)) },
        seed,
        path: `${details.counterexamplePath ?? ''}${replayPath ? `~${replayPath}` : ''}`,
        shrinks: details.numShrinks,
      },
      transcript: redacted(real.transcript),
    };
  }
  if (firstError) {
    return {
      ...common,
      status: 'errored',
      reason: deps.redactor.text(firstError.message),
      transcript: redacted(firstError.real.transcript),
    };
  }
  if (details.failed)
    return {
      ...common,
      status: 'errored',
      reason: internalError(details),
      transcript: [],
    };
  if (requests === 0)
    return {
      ...common,
      status: 'skipped',
      reason: 'sent no request: no command of the model applies under this profile',
      transcript: [],
    };
  return { ...common, status: 'passed', transcript: redacted(lastPass?.transcript ?? []) };
}
