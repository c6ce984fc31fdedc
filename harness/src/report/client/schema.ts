/**
 * JSON Schema of client-report.json (`conform check-client`), versioned by `schemaVersion`: the verdicts on the client
 * rules of specs/rules.yaml for the requests one client command sent to the reference server. Consumers validate
 * against `specs/schema/client-report.v1.schema.json`. Never a password, secret, token, signature or credential
 * header value in clear.
 */
import { z } from 'zod';

const Level = z.enum(['MUST', 'SHOULD', 'MAY']);
const Headers = z.record(z.string(), z.union([z.string(), z.array(z.string())]));

export const ClientViolationSchema = z.object({
  request: z.number().int().min(1).describe('The `seq` of the request (in `requests`) that broke the rule.'),
  reason: z.string(),
  mistake: z
    .string()
    .optional()
    .describe('The common mistake the request was signed with, when one explains its digest (docs/clients.md).'),
  signed: z
    .string()
    .optional()
    .describe(
      'When no common mistake explains a digest or signature: the message (hmac) or signature base string (OAuth 1) the server built for the request.',
    ),
  sent: z
    .string()
    .optional()
    .describe(
      'Beside `signed`: the OAuth 1 base string rebuilt with the parameters as the request encodes them, when it differs.',
    ),
  difference: z.string().optional().describe('The first part of `signed` that differs from `sent`.'),
  method: z.string().optional().describe('The method of the request, as received (also past --max-requests).'),
  target: z.string().optional().describe('Its request-target, secrets in the query redacted.'),
});

export const ClientRuleResultSchema = z.object({
  id: z.string(),
  section: z.string(),
  level: Level,
  text: z.string(),
  quote: z.string().optional(),
  source: z.string().optional(),
  status: z.enum(['passed', 'failed', 'not exercised']),
  exercised: z.number().int().min(0).describe('How many recorded requests the rule applied to.'),
  violations: z.array(ClientViolationSchema),
  notJudged: z
    .array(ClientViolationSchema)
    .optional()
    .describe(
      'Requests the rule applied to that the judge could not decide (a signature method the reference server does not support, a document it cannot read): neither passed nor failed.',
    ),
});

export const ClientRequestSchema = z.object({
  seq: z.number().int().min(1),
  method: z.string(),
  target: z.string().describe('The request-target as received, secrets in its query redacted.'),
  transport: z.enum(['http', 'https']),
  at: z.string().describe('Arrival time by the server clock (ISO 8601).'),
  status: z.number().int().describe('The status the reference server answered.'),
  headers: Headers.describe('Header fields as received, credential values redacted.'),
  bodyBytes: z.number().int().min(0),
  detail: z.string().optional().describe('Why the server refused the request (problem detail), redacted.'),
});

export const ClientReportSchema = z.object({
  schemaVersion: z.literal(1),
  kind: z.literal('client'),
  tool: z.object({ name: z.literal('conform'), version: z.string() }),
  command: z
    .array(z.string())
    .describe('The client command that was run (or the conform serve command line that recorded), redacted.'),
  exit: z
    .object({
      code: z.number().int().nullable(),
      signal: z.string().nullable(),
      timedOut: z.boolean(),
      outputHeld: z
        .boolean()
        .optional()
        .describe(
          'After the command exited, a process it left behind in a session of its own still held its output open; conform stopped reading it after a short drain.',
        ),
      checked: z
        .boolean()
        .optional()
        .describe(
          'Whether the way the command ended counts in the verdict: a non-zero exit, a signal or a timeout fails the check (false under --ignore-client-exit).',
        ),
    })
    .optional()
    .describe(
      'How the client command ended (timedOut: killed at --timeout; its process group got SIGKILL). Absent under conform serve --client-report, which runs no command.',
    ),
  server: z.object({ http: z.string(), https: z.string().optional() }),
  startedAt: z.string(),
  durationMs: z.number(),
  summary: z.object({
    total: z.number().int(),
    passed: z.number().int(),
    failed: z.number().int(),
    notExercised: z.number().int(),
    requests: z.number().int(),
  }),
  rules: z.array(ClientRuleResultSchema),
  requests: z.array(ClientRequestSchema).describe('Every request the server received, in order (bounded).'),
  requestsDropped: z
    .number()
    .int()
    .optional()
    .describe('Requests judged but left out of `requests` because the report keeps at most --max-requests.'),
  unjudged: z
    .array(z.string())
    .optional()
    .describe('Client rules of the catalogue that check-client does not judge (no request can show them).'),
});
export type ClientReport = z.infer<typeof ClientReportSchema>;
export type ClientRuleResult = z.infer<typeof ClientRuleResultSchema>;
