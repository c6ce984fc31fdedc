/**
 * Scenario format v1. This zod schema is the single source of truth: the TypeScript types are inferred from it and
 * the JSON Schema for editors (`specs/schema/scenario.v1.schema.json`) is generated from it.
 */
import { z } from 'zod';
import { ModelSchema } from './model-schema.js';
import { InstanceRef, Name, StatusSpec, Template } from './schema-parts.js';
import { ExpectSchema, type HeaderExpectation } from './expect-schema.js';
import { RequestSchema } from './request-schema.js';

export const LevelSchema = z.enum(['MUST', 'SHOULD', 'MAY']);

const CaptureSchema = z.union([
  z.strictObject({ header: z.string() }),
  z.strictObject({
    json: z.string().describe('Dotted path into a JSON body.'),
    secret: z.boolean().optional().describe('Redact this value from every report.'),
  }),
  z.strictObject({
    form: z.string().describe('A field of a form-encoded body.'),
    secret: z.boolean().optional().describe('Redact this value from every report.'),
  }),
  z.strictObject({ location: z.literal('path') }),
  z.strictObject({ allow: z.literal('list') }),
  z.strictObject({ status: z.literal(true) }),
  z.strictObject({ body: z.literal(true).describe('The whole body, as text.') }),
]);

const ScenarioId = z.string().regex(/^[a-z0-9][a-z0-9._/-]*$/, 'an id is lowercase letters, digits and . _ / -');

const SetupSchema = z
  .union([
    z.literal(true),
    z.strictObject({
      checkedBy: z
        .union([ScenarioId, z.array(ScenarioId).min(1)])
        .optional()
        .describe(
          'The scenario(s) that check what this step relies on; a step naming its own scenario is checked there.',
        ),
      what: z.string().optional().describe('What the step does, for the reason ("creating the article with POST").'),
    }),
  ])
  .describe(
    'This step only prepares what the check needs. When it fails, the scenario is errored with "precondition failed: …; that behaviour is checked by …", and its rules do not fail.',
  );

/** The checks of a step that a failure can be charged to: each key of `expect`, and `expectCount`. */
export const CHECK_NAMES = [
  'status',
  'refused',
  'statusNot',
  'notRefused',
  'headers',
  'location',
  'allow',
  'article',
  'sameDocument',
  'validArticle',
  'body',
  'json',
  'oob',
  'expectCount',
] as const;
export type CheckName = (typeof CHECK_NAMES)[number];

const StepRulesSchema = z
  .union([z.array(z.string()).min(1), z.partialRecord(z.enum(CHECK_NAMES), z.array(z.string()).min(1))])
  .describe(
    "The scenario's rules this step checks, as a list, or per check (`status`, `location`, `allow`, `article`, …). When the step fails, only the rules of the checks that failed are failed; the scenario's other rules are not judged by it. Default: all the scenario's rules.",
  );

const StepSchema = z.strictObject({
  name: z.string().optional(),
  setup: SetupSchema.optional(),
  rules: StepRulesSchema.optional(),
  createArticle: z
    .strictObject({
      article: Template.describe('The article value to store.'),
      as: Name.describe("Name that receives the new article's path."),
    })
    .optional()
    .describe(
      'Setup: create an article with PUT at a client-chosen URL when the profile has articles.clientChosenPut, else with POST to the collection; its path becomes {{ as }}. No `request` then.',
    ),
  approve: z
    .strictObject({
      token: Template.describe('The temporary credentials (oauth_token) to approve.'),
      user: Template.optional().describe("The resource owner who approves. Default: the profile's auth.oauth1.user."),
      as: Name.describe('Name that receives the oauth_verifier (redacted from every report).'),
      optional: z
        .boolean()
        .optional()
        .describe('No verifier is not a failure: {{ as }} is then empty (for an approval the server may refuse).'),
      deny: z
        .boolean()
        .optional()
        .describe(
          "The owner denies instead, the way auth.oauth1.deny says (declared, or learned from the page's refusing button): {{ as }} gets the verifier the target's answer carried, empty when none. A denial that cannot be made (no answer) leaves the scenario unjudged; give the step a setup.",
        ),
    })
    .optional()
    .describe(
      "The resource owner approves OAuth 1 temporary credentials (RFC 5849 §2.2), the target's way: found once per run (GET with the token, the page's form, or a POST; the owner's Basic or signed credentials; the verifier from a redirect or the body) or pinned by auth.oauth1.approval. No `request` then.",
    ),
  authorize: z
    .strictObject({
      client: Template.describe('The client (its id in auth.oauth2) the authorization request is for.'),
      user: Template.optional().describe('The resource owner who approves. Default: the first user.'),
      as: Name.describe(
        'Name that receives the code; {{ as }}Verifier gets the PKCE verifier, {{ as }}RedirectUri the redirect URI sent (empty when none). All redacted.',
      ),
      redirectUri: Template.optional().describe(
        "The redirect_uri to send instead of the profile's auth.oauth2.redirectUri.",
      ),
    })
    .optional()
    .describe(
      "An OAuth 2 authorization request (RFC 6749 §4.1.1, PKCE S256): the owner approves the target's way (Basic, a signed request, the page's form) and the code is read from the redirect's Location. No `request` then.",
    ),
  token: z
    .strictObject({
      actor: Template.describe(
        'The way to the token: `{ clientId, grant, user }`, e.g. "{{ profile.auth.oauth2.actor }}" (any grant, the authorization code one included).',
      ),
      as: Name.describe(
        'Name that receives the access token; {{ as }}Ttl gets expires_in (when given), {{ as }}Refresh the refresh token (empty when none). All redacted but the lifetime.',
      ),
    })
    .optional()
    .describe(
      "A fresh OAuth 2 access token obtained the harness's way (never one shared with other scenarios). No `request` then.",
    ),
  replayOf: z
    .string()
    .optional()
    .describe('Send again, byte for byte, the request an earlier step (by name) sent; no `request` then.'),
  replayAs: z
    .strictObject({
      method: z.enum(['GET', 'HEAD']).optional().describe('Sent with this method instead (a safe one only).'),
      query: z
        .string()
        .min(1)
        .optional()
        .describe('Appended to the URL (after `?`, or `&` when it has a query already); templated.'),
    })
    .optional()
    .describe(
      "With replayOf: the earlier request's headers and body unchanged (its credentials and signature included), sent with another method or query.",
    ),
  repeat: z
    .strictObject({
      times: z.number().int().min(2).max(1000),
      concurrent: z.boolean().optional(),
      spread: z
        .boolean()
        .optional()
        .describe(
          "Send copy k to instance ((k − 1) mod n) + 1 of the profile's n target.instances (byte for byte, with the target's Host).",
        ),
    })
    .optional()
    .describe(
      'Send the same signed request this many times (at once when concurrent); `expect` applies to each answer.',
    ),
  instance: InstanceRef.optional().describe(
    "Send this step's request (a request, a replayOf, a repeat) to instance N of the profile's target.instances (1 = the first), instead of the load-balanced target: same transport, same Host (the target's), so a replay is byte for byte. Needs requires: [target.instances].",
  ),
  expectCount: z
    .array(z.strictObject({ status: StatusSpec, count: z.number().int().min(0) }))
    .optional()
    .describe('With `repeat`: how many answers must have each status.'),
  when: Template.optional().describe(
    'Run this step only when the template renders truthy (not false, 0, "", null or an empty list).',
  ),
  wait: Template.optional().describe('Seconds to wait before this step (at most 300), e.g. for a token to expire.'),
  atRunEnd: z
    .literal(true)
    .optional()
    .describe(
      'Wait until every other scenario of the run has finished before this step: the run itself is the wait (a replay, at the end, of a request signed at the start). Only in a scenario without given values (one run).',
    ),
  each: Template.optional().describe('Repeat this step for every element of a list; the element is `{{ item }}`.'),
  request: RequestSchema.optional(),
  expect: ExpectSchema.optional(),
  capture: z.record(Name, CaptureSchema).optional(),
  concurrent: z
    .array(
      z.strictObject({
        name: z.string().optional(),
        instance: InstanceRef.optional().describe('Send this request to instance N of target.instances.'),
        request: RequestSchema,
        expect: ExpectSchema.optional(),
      }),
    )
    .min(2)
    .max(64)
    .optional()
    .describe(
      'Send these different requests at once (each on its own connection) and check each answer against its own expect; no request, repeat or capture then.',
    ),
});

const GivenSchema = z.union([
  z.string().describe('A generator name.'),
  z.strictObject({ gen: z.string(), options: z.record(z.string(), z.unknown()).optional() }),
]);

export const ScenarioSchema = z.strictObject({
  /* the id comes first so editors suggest it first */
  id: ScenarioId,
  title: z.string().min(1),
  description: z.string().optional(),
  rules: z.array(z.string()).min(1).describe('Ids from specs/rules.yaml that this scenario checks.'),
  level: LevelSchema.optional().describe(
    'Default: the strongest level among its server rules (client and deployment rules never raise it).',
  ),
  tags: z.array(z.string()).optional(),
  requires: z
    .array(z.string())
    .optional()
    .describe('Profile capabilities; the scenario is skipped with a reason when one is missing.'),
  given: z
    .record(Name, GivenSchema)
    .optional()
    .describe('Values drawn from named generators; with `given`, the scenario is a property run N times.'),
  runs: z.number().int().min(1).max(100000).optional().describe('Property runs (default: --runs).'),
  exclusive: z
    .boolean()
    .optional()
    .describe(
      'Run with no other scenario in flight (default false): for scenarios that act on state the others read — the whole collection, / or the records — or that a concurrent neighbour could disturb.',
    ),
  let: z.record(Name, Template).optional().describe('Derived values, evaluated in order after `given`.'),
  steps: z
    .array(StepSchema)
    .min(1)
    .optional()
    .describe('The requests, in order. A scenario has steps or a model, not both.'),
  model: ModelSchema.optional(),
});

/** A scenario file (a YAML file under `specs/`), format v1: the zod schema its types and `scenario.v1.schema.json` come from. */
export const ScenarioFileSchema = z.strictObject({
  $schema: z.string().optional(),
  version: z.literal(1),
  tags: z.array(z.string()).optional(),
  scenarios: z.array(ScenarioSchema).min(1),
});

export type Level = z.infer<typeof LevelSchema>;
export type ScenarioFileData = z.infer<typeof ScenarioFileSchema>;
export type ScenarioData = z.infer<typeof ScenarioSchema>;
export type StepData = z.infer<typeof StepSchema>;
export type SetupData = z.infer<typeof SetupSchema>;
export type RequestData = z.infer<typeof RequestSchema>;
export type ExpectData = z.infer<typeof ExpectSchema>;
export type CaptureData = z.infer<typeof CaptureSchema>;
export type HeaderExpectationData = z.infer<typeof HeaderExpectation>;
export type StatusSpecData = z.infer<typeof StatusSpec>;
export type GivenData = z.infer<typeof GivenSchema>;

export const RuleSchema = z.strictObject({
  id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/),
  section: z.string(),
  level: LevelSchema,
  text: z.string(),
  quote: z
    .string()
    .trim()
    .min(1, 'a rule quotes the words its level rests on')
    .describe(
      "The exact words the level rests on: SPEC.md's own for a SPEC section, the standard's sentence for a rule with `source`.",
    ),
  source: z.string().optional(),
  subject: z
    .enum(['server', 'client', 'deployment'])
    .optional()
    .describe("Who the rule binds (default server). Only server rules set a scenario's level."),
  checkable: z.boolean().optional(),
  retired: z.boolean().optional(),
});
/** The rule catalogue file (`specs/rules.yaml`), format v1. */
export const RuleFileSchema = z.strictObject({ version: z.literal(1), rules: z.array(RuleSchema).min(1) });
export type RuleData = z.infer<typeof RuleSchema>;
