/**
 * JSON Schema of report.json, versioned by `schemaVersion`. Consumers validate against
 * `specs/schema/report.v1.schema.json`; a test checks every report the harness writes against this schema.
 * Fields required by CONTRACT.md are required here; additions are optional so old readers keep working.
 */
import { z } from 'zod';

const Level = z.enum(['MUST', 'SHOULD', 'MAY']);
const Headers = z.record(z.string(), z.union([z.string(), z.array(z.string())]));

const Span = z.object({ startMs: z.number(), endMs: z.number() });
const WaitFor = z.enum(['clock', 'run-end', 'slot']);

const Timing = z
  .object({
    startMs: z.number(),
    endMs: z.number(),
    waits: z
      .array(Span.extend({ for: WaitFor }))
      .optional()
      .describe(
        "What it waited for meanwhile: clock, a wait its steps declare (a token's lifetime); run-end, parked until every other scenario ended; slot, a lane to go on in. These do not count against --scenario-timeout.",
      ),
  })
  .describe("When the scenario ran, ms from the run's start: from taking its lane to giving it back.");

const Timeline = z
  .object({
    setup: Span.describe('The probe, the learning and the credential check, before any scenario.'),
    scenarios: Span.describe('The scenarios, first start to last end.'),
    cleanup: Span.optional().describe('Deleting what the run created; absent: nothing to delete, or --keep.'),
    concurrency: z.number().int(),
    criticalPath: z
      .array(Span.extend({ id: z.string(), waitedMs: z.number().optional() }))
      .describe(
        'The chain of scenarios that bounded the wall time, earliest first: each from when it was let go on (its start, or the end of a wait another scenario ended) to its end; waitedMs, the part spent waiting for the clock.',
      ),
  })
  .describe("Where the run's time went (ms from its start). Absent in a merged report.");

const Exchange = z.object({
  step: z.number().int(),
  stepName: z.string().optional(),
  instance: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe(
      "The instance of the profile's target.instances the request was sent to (1 = the first listed); absent: the load-balanced target.",
    ),
  purpose: z
    .literal('credentials')
    .optional()
    .describe(
      'credentials: sent by the harness to obtain credentials the step needed (an OAuth token), not by the step itself.',
    ),
  credential: z
    .object({
      scheme: z.string(),
      user: z.string(),
      header: z.string().optional(),
      path: z.string().optional(),
      bodyHash: z.boolean().optional(),
      altered: z.array(z.string()).optional(),
    })
    .optional()
    .describe(
      'How the request was authenticated: the scheme, the user, and for Basic and hmac the header, the path signed and whether the body hash was; altered names the knobs the scenario turned to send credentials a correct client would not. What a script needs to sign the request afresh (conform sign); never a secret.',
    ),
  request: z.object({ method: z.string(), url: z.string(), headers: Headers, body: z.string().optional() }),
  response: z
    .object({ status: z.number().int(), headers: Headers, body: z.string().optional(), durationMs: z.number() })
    .optional(),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
});

export const ScenarioResultSchema = z.object({
  id: z.string(),
  title: z.string(),
  file: z.string(),
  line: z.number().int().optional(),
  rules: z.array(z.string()),
  level: Level,
  tags: z.array(z.string()).optional(),
  status: z.enum(['passed', 'failed', 'errored', 'skipped']),
  reason: z.string().optional(),
  requests: z.number().int(),
  credentialRequests: z
    .number()
    .int()
    .optional()
    .describe(
      'Of requests, those sent to obtain OAuth credentials; when they go out depends on the clock (a token about to expire is obtained again), not on the seed.',
    ),
  runs: z.number().int().optional(),
  lanes: z
    .number()
    .int()
    .min(2)
    .optional()
    .describe(
      'Most lanes its property runs used at once, when more than its own: lanes the run lent it while no other scenario wanted them (independent runs side by side). Absent: one.',
    ),
  durationMs: z.number().optional(),
  failure: z
    .object({
      step: z.number().int(),
      stepName: z.string().optional(),
      messages: z.array(z.string()),
      rules: z
        .array(z.string())
        .optional()
        .describe("The rules the failing step's checks were charged with; absent: all the scenario's rules."),
    })
    .optional(),
  precondition: z
    .object({ step: z.number().int(), stepName: z.string().optional(), checkedBy: z.array(z.string()) })
    .optional()
    .describe(
      'Errored because a setup step failed: none of its rules was checked; checkedBy names the scenarios that check that step.',
    ),
  counterexample: z
    .object({
      values: z.record(z.string(), z.unknown()),
      seed: z.number().int(),
      path: z.string(),
      shrinks: z.number().int(),
    })
    .optional(),
  transcript: z.array(Exchange).optional(),
  replay: z.string().optional(),
  notes: z
    .array(z.string())
    .optional()
    .describe('What the scenario left out and why (a scheme whose credentials could not be obtained).'),
  baselined: z.boolean().optional().describe('A listed expected failure (--baseline): it does not fail the run.'),
  timing: Timing.optional(),
});

export const RuleResultSchema = z.object({
  id: z.string(),
  section: z.string(),
  level: Level,
  text: z.string(),
  quote: z
    .string()
    .optional()
    .describe('The words of SPEC.md (or of the standard in `source`) that the level rests on.'),
  source: z.string().optional(),
  subject: z.string().optional(),
  status: z.enum(['passed', 'failed', 'errored', 'skipped', 'uncovered']),
  reason: z
    .string()
    .optional()
    .describe('Why the rule has its status: the scenarios that broke it, checked it, or could not.'),
  scenarios: z.array(z.string()),
});

export const ReportSchema = z.object({
  schemaVersion: z.literal(1),
  tool: z.object({ name: z.literal('conform'), version: z.string() }),
  target: z.string(),
  profile: z.string().optional(),
  seed: z.number().int(),
  runs: z.number().int().optional(),
  startedAt: z.string(),
  durationMs: z.number(),
  summary: z.object({
    total: z.number().int(),
    passed: z.number().int(),
    failed: z.number().int(),
    errored: z.number().int(),
    skipped: z.number().int(),
  }),
  scenarios: z.array(ScenarioResultSchema),
  rules: z.array(RuleResultSchema),
  unreachable: z.string().optional(),
  credentialsRefused: z
    .array(z.string())
    .optional()
    .describe(
      "Set when credentials the profile gives were refused where they must work (exit 2): each user, scheme, request and the target's answer, with the ways out. No scenario was run.",
    ),
  incomplete: z
    .array(z.string())
    .optional()
    .describe(
      'What the profile describes (a scheme it gives credentials for, a key it declares) that no selected scenario could exercise, each with why: the verdict is INCOMPLETE (exit 6), not PASS.',
    ),
  interrupted: z
    .boolean()
    .optional()
    .describe(
      'Set when the run was interrupted (Ctrl-C): the scenarios not started are skipped, the report is partial.',
    ),
  learned: z
    .array(z.object({ key: z.string(), value: z.unknown(), how: z.string() }))
    .optional()
    .describe(
      'Open points the profile is silent on, learned from the target before judging: the profile key that would declare each, the value used, and the answers it was learned from.',
    ),
  learning: z.array(Exchange).optional().describe('The requests the learning sent, in order (bounded, redacted).'),
  keptFailed: z
    .record(z.string(), z.array(z.string()))
    .optional()
    .describe(
      '--keep-failed: what the reported run of each failed or errored scenario created, left on the target (paths, also in leftovers), by scenario id.',
    ),
  leftovers: z
    .array(z.string())
    .optional()
    .describe('Paths of what the run created on the target and could not delete (or kept, with --keep).'),
  cleanup: z
    .object({ created: z.number().int(), deleted: z.number().int(), kept: z.boolean().optional() })
    .optional()
    .describe('Articles the scenarios created, and how many the run deleted at its end (kept: --keep left them).'),
  options: z
    .object({
      filter: z.array(z.string()),
      exclude: z.array(z.string()).optional(),
      levels: z.array(z.enum(['MUST', 'SHOULD', 'MAY'])).optional(),
      strict: z.boolean(),
      timeoutMs: z.number(),
      scenarioTimeoutMs: z
        .number()
        .optional()
        .describe(
          "--scenario-timeout: the limit of each scenario's own work, ms (waits it declares and parking until the run's end do not count); absent: 120000.",
        ),
      minCoverage: z
        .number()
        .optional()
        .describe('--min-coverage: the run fails when fewer than this percent of its MUST rules were checked.'),
      credentialCheck: z
        .literal(false)
        .optional()
        .describe("--no-credential-check: the scenarios ran without trying the profile's credentials first."),
      only: z
        .array(z.string())
        .optional()
        .describe('--rerun-failed: only these scenario ids (the failed and errored ones of an earlier report).'),
      tls: z
        .object({ insecure: z.boolean().optional(), ca: z.string().optional() })
        .optional()
        .describe(
          'How the run trusted TLS: any certificate (--insecure or target.insecure), or the CA file of --ca (relative to where conform ran).',
        ),
    })
    .optional(),
  shard: z
    .object({ index: z.number().int(), total: z.number().int() })
    .optional()
    .describe('Set on one shard of a sharded run (--shard i/n).'),
  merged: z.array(z.string()).optional().describe('Set by conform merge: the shard reports joined.'),
  baseline: z
    .object({
      file: z.string(),
      expectedFailures: z.array(z.string()),
      nowPassing: z.array(z.string()),
      stillFailing: z.array(z.string()),
    })
    .optional()
    .describe('Set with --baseline: listed failures do not fail the run; nowPassing can leave the baseline.'),
  timeline: Timeline.optional(),
});
export type Report = z.infer<typeof ReportSchema>;
