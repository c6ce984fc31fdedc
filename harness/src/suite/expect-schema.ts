/** A step's `expect` in the scenario format: the checks a response must pass. */
import { z } from 'zod';
import { StatusSpec, Template, TemplateList } from './schema-parts.js';

export const HeaderExpectation = z.union([
  z.enum(['present', 'absent']),
  z.strictObject({
    present: z.boolean().optional(),
    equals: Template.optional().describe('Exact value after trimming.'),
    matches: z.string().optional().describe('A JavaScript regular expression the value must match.'),
    contains: Template.optional(),
    ifStatus: z.array(z.number().int()).optional().describe('Only check when the response status is one of these.'),
  }),
]);

export const ExpectSchema = z.strictObject({
  status: StatusSpec.optional(),
  refused: z
    .strictObject({
      kind: z
        .enum(['credentials', 'authorization', 'malformed', 'endpoint'])
        .optional()
        .describe(
          "What is refused. credentials (default): missing or wrong credentials, the statuses of the profile's auth.refusalStatus. authorization: valid credentials asking for someone else's resource, 403 or 404 (RFC 9110 §15.5.4, §15.5.5) whatever auth.refusalStatus says. malformed: a request the server cannot read as one credential (two of them, a repeated field), 400 (RFC 9110 §15.5.1, RFC 6750 §3.1 invalid_request) whatever auth.refusalStatus says. endpoint: a refusal at an OAuth endpoint, any refusing 4xx; the status its RFC names is checked apart, at that RFC's level.",
        ),
      hidden: z.boolean().optional().describe('The same as kind: authorization (kept for older scenarios).'),
    })
    .optional()
    .describe(
      "A refusal: a status of the profile's auth.refusalStatus for missing or wrong credentials (default: any 4xx that means a refusal, not 404, 405, 429…), with a WWW-Authenticate challenge when it is 401 (RFC 9110 §15.5.2); `kind` widens it for the refusals the key does not describe.",
    ),
  statusNot: StatusSpec.optional().describe('The status must not be any of these.'),
  notRefused: z
    .literal(true)
    .optional()
    .describe(
      'The answer is not a refusal of the valid credentials sent, nor a 404: 401, 403 and 404 fail this check. Apart from statusNot so a step can charge it to a rule of its own level (a listed method refused to valid credentials is not proof that it is unhandled: only 405 and 501 are).',
    ),
  oob: z
    .strictObject({
      contacted: z
        .literal(false)
        .describe('The out-of-band listener ({{ oob.url }}) must not have been contacted since the iteration began.'),
      within: z
        .number()
        .min(0)
        .max(5)
        .optional()
        .describe('Seconds to keep listening after the response before judging. Default 1.'),
    })
    .optional()
    .describe(
      "Out-of-band check (the scenario must require oob): the target made no request to the harness's listener.",
    ),
  headers: z.record(z.string(), HeaderExpectation).optional(),
  location: z
    .strictObject({
      path: TemplateList.optional().describe(
        'The Location, resolved against the request URL, has this path (or one of these).',
      ),
      shape: Template.optional().describe(
        'A path template such as `/articles/{id}`: each `{name}` matches one non-empty segment.',
      ),
      sameOrigin: z
        .boolean()
        .optional()
        .describe(
          "Default true: an absolute Location must be on one of the target's origins when the profile lists target.origins (without it, any absolute Location is read through the base URL by its path). false: any origin.",
        ),
      differsFrom: TemplateList.optional().describe(
        'The Location path must differ from these (e.g. an earlier Location).',
      ),
    })
    .optional()
    .describe('Requires a Location header and checks it.'),
  allow: z
    .strictObject({
      includes: TemplateList.optional(),
      excludes: TemplateList.optional(),
      subsetOf: TemplateList.optional().describe('Every listed method is also in this list.'),
    })
    .optional()
    .describe('Requires a well-formed Allow header (comma-separated method tokens) and checks its members.'),
  article: TemplateList.optional().describe(
    'The body is an XML article equal, as data, to this article value (or to one of these).',
  ),
  sameDocument: Template.optional().describe(
    'The body is the same XML document as this text (a captured body), element for element: names, attributes and text, every element, known or not; only whitespace between elements and attribute order may differ.',
  ),
  validArticle: z
    .literal(true)
    .optional()
    .describe(
      'The body is a valid §2 article, whatever its values: root <article>, one <title> of text, one <price> of text with a fractional part and a currency attribute of three lowercase letters.',
    ),
  body: z
    .strictObject({ empty: z.boolean().optional(), contains: Template.optional(), notContains: Template.optional() })
    .optional(),
  json: z
    .record(
      z.string(),
      z.strictObject({
        present: z.boolean().optional(),
        equals: z.union([Template, z.number(), z.boolean()]).optional(),
        matches: z
          .string()
          .optional()
          .describe('A regular expression (case-sensitive) the value, as text, must match.'),
        type: z.enum(['string', 'number', 'boolean', 'object', 'array']).optional(),
      }),
    )
    .optional()
    .describe('The body is JSON; each dotted path is checked.'),
});
