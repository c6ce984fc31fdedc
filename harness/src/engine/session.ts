/**
 * One run against one target, whatever drives it — `conform run` (runSuite), `conform/vitest` and each side of
 * `conform diff`: the reachability probe, learning what the profile is silent on, why a scenario is skipped, the
 * shared credentials (tokens, OAuth 1 approvals), each scenario's own connections and `uniq` values, and at the end
 * the deletion of what the run created. The drivers only decide the order, the reporting and the verdict: one
 * engine, thin wrappers (as fast-check's `assert()` wraps `check()`).
 */
import { randomBytes } from 'node:crypto';
import type { Authenticator } from '../auth/authenticator.js';
import { notHttp, type HttpClient } from '../http/client.js';
import { formEncode } from '../http/percent.js';
import { checkCredentials, describeRefusal } from '../learn/credentials.js';
import type { LearnOutcome } from '../learn/learn.js';
import { missingCapability } from '../profile/capabilities.js';
import type { ResolvedProfile } from '../profile/schema.js';
import type { Scenario } from '../suite/types.js';
import { recordingClient } from '../runner/cleanup.js';
import type { Bases, ExecDeps } from '../runner/exec-types.js';
import { createApprover, createTokenSource, type TokenSource } from '../oauth/index.js';
import { oobUnreachable } from '../runner/oob.js';
import { createRedactor, type Redactor } from '../runner/redact.js';
import { drawnGiven, notRunResult, type ScenarioRunOptions } from '../runner/scenario.js';
import { CREDENTIALS_REFUSED_REASON } from '../runner/verdict.js';
import { SESSION_INDEX, learnSilent, scenarioUniq } from './learning.js';
import { runScenario } from './run-scenario.js';
import { createTidy, type TidyOptions } from './tidy.js';
import { redactExchange } from '../runner/transcript.js';
import type { Exchange, ScenarioResult } from '../runner/types.js';

export interface SessionDeps {
  client: HttpClient;
  profile: ResolvedProfile;
  authenticator: Authenticator;
}

export interface SessionOptions {
  bases: Bases;
  /** The run seed (templates read it as `seed`). */
  seed: number;
  /** Learn what the profile is silent on before anything is judged (default true; `conform diff` compares as declared). */
  learn?: boolean;
  /**
   * The capabilities the selected scenarios require (default: every one). What one scenario alone needs is learned
   * only when it is selected: how the OAuth 1 owner denies (`auth.oauth1.deny`) costs the learning a grant of its own.
   */
  requires?: ReadonlySet<string>;
  /** Most exchanges kept per scenario run (default: the executor's). */
  maxTranscript?: number;
  /** The harness clock, for the signers' dates. */
  now?: () => Date;
  /**
   * Try each user's credentials of each scheme once before any scenario (default true: VERDICTS.md §3); a refusal
   * stops the run (`credentialsRefused`). `--no-credential-check` runs the scenarios anyway.
   */
  credentialCheck?: boolean;
  /**
   * The scenarios the run will run: the arbitraries of their `given:` entries are built while the credential check's
   * requests are out (building one takes milliseconds: `fc.string` of graphemes, `fc.stringMatching`), once for the
   * run, so no scenario's time and no request waits on it. Default: none (each is built when first drawn from).
   */
  prepare?: readonly Scenario[];
  /**
   * `--keep-failed`: a failed or errored scenario's articles are not deleted as the run goes ({@link
   * Session.nextDeletion}), so `finish` can keep what its reported run created (and is `finish`'s default).
   */
  keepFailed?: boolean;
}

/** What a session learned and left, for the run's report. */
export interface SessionReport {
  learned?: Array<{ key: string; value: unknown; how: string }>;
  /** The requests the learning sent (bounded, redacted). */
  learning?: Exchange[];
  /** What the run created and could not delete (or kept). */
  leftovers?: string[];
  /** `keepFailed`: what each failed or errored scenario's reported run created, left on the target, by scenario id. */
  keptFailed?: Record<string, string[]>;
  cleanup?: { created: number; deleted: number; kept?: boolean };
}

export interface Session {
  /** The profile the run judges by: the file's, with what was learned filled in. */
  readonly profile: ResolvedProfile;
  readonly authenticator: Authenticator;
  readonly redactor: Redactor;
  readonly bases: Bases;
  /** The profile's credentials the target refused where they must work, in words (redacted): nothing is run. */
  readonly credentialsRefused?: string[];
  /** Set when the target did not answer the reachability probe (redacted). */
  readonly unreachable?: string;
  /** True once the target has answered anything (the probe, or any scenario). */
  readonly reached: boolean;
  readonly learning?: LearnOutcome;
  /** Why `scenario` is skipped under this profile and target (a capability the profile lacks, an unreachable out-of-band listener), or null. */
  skipReason(scenario: Scenario): string | null;
  /**
   * What one scenario's executions use: its own connections (close with `close`), its own `uniq` values, the
   * run's token source. `index` is the scenario's position in the selection.
   */
  scenarioDeps(
    index: number,
    extras?: Pick<ExecDeps, 'idle' | 'atRunEnd' | 'sleep' | 'borrowLane'>,
  ): { deps: ExecDeps; close(): Promise<void> };
  /** Runs one scenario as `conform run` does: skipped, unreachable, or run on its own connections. */
  run(
    scenario: Scenario,
    index: number,
    options: ScenarioRunOptions,
    extras?: Pick<ExecDeps, 'idle' | 'atRunEnd' | 'sleep' | 'borrowLane'>,
  ): Promise<ScenarioResult>;
  /**
   * A job deleting one article a scenario that has ended made and left, or undefined when there is none now: for a
   * lane no scenario wants, so a run's cleanup overlaps its last scenarios (`conform run`; not with `--keep`). With
   * `keepFailed`, never an article of a failed or errored scenario: those wait for `finish`.
   */
  nextDeletion(): (() => Promise<void>) | undefined;
  /**
   * Deletes what the run created and is still there (unless `keep`; with `keepFailed`, all but what the reported run
   * of each failed or errored scenario created: the articles its transcript names), `concurrency` at once (default
   * 8), and says what was learned and what was left.
   */
  finish(options?: TidyOptions): Promise<SessionReport>;
}

/** Most exchanges of the learning kept for the report. */
const MAX_LEARNING_EXCHANGES = 60;

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

/** Opens a session: probes the target, learns what the profile is silent on, sets up the shared credentials. */
export async function openSession(deps: SessionDeps, options: SessionOptions): Promise<Session> {
  const redactor = profileRedactor(deps.profile);
  const runTag = randomBytes(4).toString('hex');
  const primary = options.bases.primary;
  // Each base URL is tried once before anything else: the primary, then the TLS one when it is another. Something
  // that answers in broken HTTP was reached (its answers are judged); something that does not speak HTTP at all (an
  // SSH banner), refuses, or presents a certificate the run does not trust was not: one message, nothing run.
  const probeBase = async (base: string): Promise<string | undefined> => {
    const probe = await deps.client.send({ method: 'OPTIONS', url: base.replace(/\/$/, '') + '/', headers: {} });
    if (
      probe.ok ||
      ((probe.error.code === 'BAD_RESPONSE' || probe.error.code === 'RESPONSE_TOO_LARGE') && !notHttp(probe.error))
    )
      return undefined;
    const hint =
      probe.error.code === 'TLS' ? ' (a self-signed certificate? give --ca FILE to trust it, or --insecure)' : '';
    return redactor.text(`${base}: ${probe.error.message}${hint}`);
  };
  const tls = options.bases.tls;
  // Both at once (a round trip, not two); the primary's failure is the one reported.
  const probes = await Promise.all([
    probeBase(primary),
    tls !== undefined && tls !== primary ? probeBase(tls) : undefined,
  ]);
  const unreachable = probes[0] ?? probes[1];
  let reached = unreachable === undefined;
  const learning =
    unreachable === undefined && options.learn !== false
      ? await learnSilent(deps, options, redactor, runTag)
      : undefined;
  const profile = learning?.profile ?? deps.profile;
  const authenticator = learning ? deps.authenticator.withProfile(profile) : deps.authenticator;
  const secret = (v: string) => redactor.add(v);
  // One token source for the run, on the run's own connection: tokens outlive the scenario that first needed them.
  const approver = createApprover({
    client: deps.client,
    profile,
    authenticator,
    secret,
    ...(learning?.approval ? { known: learning.approval } : {}),
  });
  const tokens: TokenSource = createTokenSource({ client: deps.client, profile, authenticator, secret, approver });
  const checking =
    unreachable === undefined && options.credentialCheck !== false
      ? checkCredentials({ client: deps.client, bases: options.bases, profile, authenticator, tokens })
      : undefined;
  // Its requests are under way: the generators are built meanwhile (of the scenarios this profile does not skip).
  // One that cannot be built is left to its scenario, which reports why.
  if (unreachable === undefined)
    for (const s of options.prepare ?? [])
      if (missingCapability(s.requires, profile) === null)
        for (const g of s.given)
          try {
            drawnGiven(g, profile);
          } catch {
            // reported by the scenario
          }
  const refusals = checking ? await checking : [];
  const credentialsRefused = refusals.map((r) => redactor.text(describeRefusal(r)));
  // Every article the scenarios create is noted, to be deleted as the run goes or when it ends (engine/tidy.ts).
  const tidy = createTidy(profile, options.bases, options.keepFailed === true, () => scenarioDeps(SESSION_INDEX));

  const scenarioDeps: Session['scenarioDeps'] = (index, extras = {}) => {
    const client = recordingClient(deps.client.session(), tidy.ledger, index);
    const execDeps: ExecDeps = {
      client,
      bases: options.bases,
      profile,
      redactor,
      authenticator,
      uniq: scenarioUniq(runTag, index),
      seed: options.seed,
      tokens,
      ...(options.maxTranscript !== undefined ? { maxTranscript: options.maxTranscript } : {}),
      ...(options.now ? { now: options.now } : {}),
      ...extras,
    };
    return { deps: execDeps, close: () => client.close() };
  };

  const skipReason: Session['skipReason'] = (scenario) =>
    missingCapability(scenario.requires, profile) ??
    (scenario.requires.includes('oob') ? oobUnreachable(primary, profile.oob.url) : null);

  const session: Session = {
    profile,
    authenticator,
    redactor,
    bases: options.bases,
    ...(unreachable !== undefined ? { unreachable } : {}),
    ...(credentialsRefused.length > 0 ? { credentialsRefused } : {}),
    get reached() {
      return reached;
    },
    ...(learning ? { learning } : {}),
    skipReason,
    scenarioDeps,
    async run(scenario, index, runOptions, extras) {
      const missing = skipReason(scenario);
      if (missing) return notRunResult(scenario, 'skipped', missing);
      if (unreachable && !reached) return notRunResult(scenario, 'errored', `target unreachable: ${unreachable}`);
      if (credentialsRefused.length > 0) return notRunResult(scenario, 'skipped', CREDENTIALS_REFUSED_REASON);
      const own = scenarioDeps(index, extras);
      let result: ScenarioResult | undefined;
      try {
        result = await runScenario(scenario, own.deps, runOptions);
        if (result.transcript.some((x) => x.response)) reached = true;
        return result;
      } finally {
        await own.close();
        tidy.ended(index, result);
      }
    },
    nextDeletion: () => tidy.nextDeletion(),
    async finish(finishOptions = {}) {
      const tidied = await tidy.finish(finishOptions);
      const leftovers = [...(learning?.leftovers ?? []), ...tidied.left];
      const learned = learning?.learned.map((l) => ({ ...l, how: redactor.text(l.how) })) ?? [];
      return {
        ...(learned.length > 0 ? { learned } : {}),
        ...(learning && learning.exchanges.length > 0
          ? { learning: learning.exchanges.slice(0, MAX_LEARNING_EXCHANGES).map((x) => redactExchange(x, redactor)) }
          : {}),
        ...(leftovers.length > 0 ? { leftovers } : {}),
        ...(tidied.keptFailed ? { keptFailed: tidied.keptFailed } : {}),
        cleanup: tidied.cleanup,
      };
    },
  };
  return session;
}
