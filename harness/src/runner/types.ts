import type { Level, Scenario } from '../suite/types.js';
import type { RunTimeline, ScenarioTiming } from './timeline.js';

/** A scenario's outcome: passed, failed (the target broke a rule), errored (it could not be judged), skipped (with a reason). */
export type ScenarioStatus = 'passed' | 'failed' | 'errored' | 'skipped';
/** A rule's outcome in a run; `uncovered` when no selected scenario checks it. */
export type RuleStatus = 'passed' | 'failed' | 'errored' | 'skipped' | 'uncovered';

/**
 * How a request was authenticated when it was sent: what a script needs to authenticate the same request afresh
 * (`conform sign`, a fresh Date and nonce) instead of replaying a single-use credential. Never a secret.
 */
export interface SentCredential {
  /** basic, hmac, hmac-nonce, oauth2, oauth2-client (at the token endpoint) or oauth1. */
  scheme: string;
  /** The user the request authenticated as (for OAuth, the one its client or consumer acts for). */
  user: string;
  /** Basic, hmac, hmac-nonce: the header the credential went in. */
  header?: string;
  /** hmac, hmac-nonce: the path signed (the request-target, with its query when the profile signs it). */
  path?: string;
  /** hmac, hmac-nonce: whether the body hash was signed (§5.2 rule 6). */
  bodyHash?: boolean;
  /**
   * The knobs the scenario turned to send credentials a correct client would not (`digestMutation`, `secretOf`,
   * `skew`, a fixed `nonce` …): a fresh correct credential is then not what the run sent. Absent: none.
   */
  altered?: string[];
}

/** One request and its answer, as recorded for reports (already redacted). */
export interface Exchange {
  step: number;
  stepName?: string;
  /** The instance of the profile's `target.instances` it was sent to (1-based); absent: the target. */
  instance?: number;
  /** `credentials`: sent by the harness to obtain credentials a step needed (an OAuth token), not by the step itself. */
  purpose?: 'credentials';
  /** How the request was authenticated (absent: it carried no credentials the harness made, or an older report). */
  credential?: SentCredential;
  request: { method: string; url: string; headers: Record<string, string | string[]>; body?: string };
  response?: { status: number; headers: Record<string, string | string[]>; body?: string; durationMs: number };
  error?: { code: string; message: string };
}

export interface Counterexample {
  /** The generated values of the smallest failing run (redacted). */
  values: Record<string, unknown>;
  /** fast-check seed of this scenario (derived from the run seed and the scenario id). */
  seed: number;
  /** fast-check path of the counterexample: `--replay PATH` jumps straight to it. */
  path: string;
  shrinks: number;
}

/** Where a failed scenario failed: the step, its messages, and the rules its failing checks were charged with. */
export interface Failure {
  step: number;
  stepName?: string;
  messages: string[];
  /** The rules the failing step was charged with (its `rules`); absent, all the scenario's. */
  rules?: string[];
}

/**
 * A setup step that failed: the scenario checked none of its rules. `checkedBy` names the scenarios that check what
 * the step relied on (empty when the step names none).
 */
export interface Precondition {
  step: number;
  stepName?: string;
  checkedBy: string[];
}

/** What every result holds, whatever its status. */
interface ResultBase {
  id: string;
  title: string;
  file: string;
  line: number;
  rules: string[];
  level: Level;
  tags: string[];
  /** Requests sent for this scenario, those that obtained its OAuth credentials included. */
  requests: number;
  /**
   * Of `requests`, those sent to obtain OAuth credentials (absent: none). When they go out depends on the clock (a
   * token is obtained again once it is about to expire), not on the seed.
   */
  credentialRequests?: number;
  /** Property runs executed (1 for a plain scenario). */
  runs: number;
  /**
   * Most lanes its runs used at once, when more than its own: lanes the run lent it while nothing else wanted them
   * (runner/spread.ts). Absent: one.
   */
  lanes?: number;
  durationMs: number;
  /** Exchanges of the failing run, or of the last run when it passed (bounded). */
  transcript: Exchange[];
  /** Command that reproduces this result. */
  replay?: string;
  /** What the scenario left out and why (a scheme whose credentials could not be obtained), whatever its status. */
  notes?: string[];
  /** When it ran, ms from the run's start, and what it waited for meanwhile (absent: not run by `conform run`). */
  timing?: ScenarioTiming;
}

export interface PassedResult extends ResultBase {
  status: 'passed';
  reason?: never;
  failure?: never;
  precondition?: never;
  counterexample?: never;
  baselined?: never;
}

/** The target broke a rule: where (`failure`), why (`reason`), and the shrunk counterexample of a property. */
export interface FailedResult extends ResultBase {
  status: 'failed';
  reason: string;
  failure: Failure;
  counterexample?: Counterexample;
  precondition?: never;
  /** A failure listed in the --baseline file: reported, but it does not fail the run. */
  baselined?: boolean;
}

/** The target could not be judged (transport failure, a broken precondition): `reason` says why. */
export interface ErroredResult extends ResultBase {
  status: 'errored';
  reason: string;
  /** Set when a setup step failed: the scenario checked none of its rules. */
  precondition?: Precondition;
  counterexample?: Counterexample;
  failure?: never;
  baselined?: boolean;
}

/** Not run (the profile lacks a capability) or nothing sent: `reason` says which. */
export interface SkippedResult extends ResultBase {
  status: 'skipped';
  reason: string;
  failure?: never;
  precondition?: never;
  counterexample?: never;
  baselined?: never;
}

/** One scenario's result, tagged by status: each status carries exactly what it needs (fast-check's RunDetails is the model). */
export type ScenarioResult = PassedResult | FailedResult | ErroredResult | SkippedResult;

/** One rule of the catalogue in a run: its status from the scenarios that cover it, and which they are. */
export interface RuleResult {
  id: string;
  section: string;
  level: Level;
  text: string;
  /** The words of SPEC.md (or of the standard in `source`) that the level rests on. */
  quote?: string;
  source?: string;
  subject?: string;
  status: RuleStatus;
  /** Why the rule has its status: which scenarios broke it, checked it, or could not (absent in older reports). */
  reason?: string;
  /** false: uncovered only because the run's selection left out every scenario that checks it. */
  selected?: false;
  scenarios: string[];
}

export interface RunSummary {
  total: number;
  passed: number;
  failed: number;
  errored: number;
  skipped: number;
}

/** How a run trusted TLS, for commands that repeat its requests (`curl -k`, `--cacert`). Absent: the system's CAs. */
export interface RunTls {
  /** Any certificate was accepted (`--insecure`, or the profile's `target.insecure`). */
  insecure?: boolean;
  /** The CA certificate file trusted (`--ca FILE`), relative to where conform ran. */
  ca?: string;
}

/** A whole run, as `report.json` holds it (`specs/schema/report.v1.schema.json`). */
export interface RunResult {
  schemaVersion: 1;
  tool: { name: 'conform'; version: string };
  target: string;
  profile: string;
  seed: number;
  runs: number;
  startedAt: string;
  durationMs: number;
  summary: RunSummary;
  scenarios: ScenarioResult[];
  rules: RuleResult[];
  /** Set when the run was interrupted (Ctrl-C): the scenarios not started are skipped, the report is partial. */
  interrupted?: boolean;
  /** Set when the target could not be reached at all (exit code 3). */
  unreachable?: string;
  /** Credentials the profile gives that the target refused where they must work, in words (exit code 2): nothing run. */
  credentialsRefused?: string[];
  /**
   * What the profile describes (a scheme it gives credentials for, a key it declares) that no selected scenario could
   * exercise, in words: the run is INCOMPLETE, not PASS. Absent: everything described was exercised.
   */
  incomplete?: string[];
  options: {
    filter: string[];
    exclude?: string[];
    levels?: Level[];
    strict: boolean;
    timeoutMs: number;
    /** `--scenario-timeout`: the limit of each scenario's own work, ms (absent: the default, 120 000). */
    scenarioTimeoutMs?: number;
    /** `--min-coverage`: the run fails when fewer than this percent of its MUST rules were checked. */
    minCoverage?: number;
    /** `--rerun-failed`: only these scenario ids were selected. */
    only?: string[];
    /** `--no-credential-check`: the scenarios ran without the profile's credentials tried first. */
    credentialCheck?: false;
    /** How the run trusted TLS: any certificate (`--insecure`, `target.insecure`), or a CA file (`--ca`). */
    tls?: RunTls;
  };
  /** One shard of a sharded run (--shard i/n). */
  shard?: { index: number; total: number };
  /** Set by `conform merge`: the shard reports joined. */
  merged?: string[];
  /** With --baseline: listed failures do not fail the run; `nowPassing` can leave the baseline. */
  baseline?: { file: string; expectedFailures: string[]; nowPassing: string[]; stillFailing: string[] };
  /**
   * The open points the profile is silent on, as learned from the target before anything was judged (harness/src/learn):
   * each with the profile key that would declare it, the value used, and how it was learned. Absent: nothing learned.
   */
  learned?: Array<{ key: string; value: unknown; how: string }>;
  /** The requests the learning sent, in order (bounded, redacted). */
  learning?: Exchange[];
  /** What the run created on the target and could not delete (paths), or kept (`--keep`). Absent: it left nothing behind. */
  leftovers?: string[];
  /**
   * `--keep-failed`: what the reported run of each failed or errored scenario created, left on the target so its
   * curl copies and its script find it (paths, also in `leftovers`), by scenario id. Absent: nothing kept so.
   */
  keptFailed?: Record<string, string[]>;
  /** Articles the scenarios created, and how many were deleted at the end (`kept`: `--keep` asked to leave them). */
  cleanup?: { created: number; deleted: number; kept?: boolean };
  /** Where the time went: the run's phases and the scenarios that bounded its wall time (absent: a merged report). */
  timeline?: RunTimeline;
}

/** What a run reports as it goes, to a reporter (`createConsoleReporter`) or your own sink. */
export type RunEvent =
  | { type: 'run-start'; total: number; target: string; seed: number }
  /** A scenario started; `running` counts the scenarios in flight, itself included. */
  | { type: 'scenario-start'; index: number; total: number; scenario: Scenario; running: number }
  /** A scenario finished, in the order they finish (for progress); `done` counts the finished ones. */
  | { type: 'scenario-settled'; index: number; total: number; result: ScenarioResult; done: number }
  /** A scenario's result, in catalogue order: emitted once it and every scenario before it have finished. */
  | { type: 'scenario-end'; index: number; total: number; result: ScenarioResult }
  /** What was learned from the target where the profile is silent, before the first scenario. */
  | { type: 'learned'; learned: Array<{ key: string; value: unknown; how: string }> }
  /**
   * Nothing will be judged: the target refused the profile's credentials, or did not answer the first probe (it is
   * still tried once per scenario). Reporters say so at once, and leave out the skips that would bury it.
   */
  | { type: 'stopped'; why: string[] }
  /** The scenarios are done; the articles they created are being deleted. */
  | { type: 'cleanup-start'; articles: number }
  | { type: 'run-end'; result: RunResult };
