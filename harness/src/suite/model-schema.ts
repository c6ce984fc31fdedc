/**
 * The `model` kind of scenario (issue 15): instead of fixed steps, fast-check draws sequences of commands against a
 * model of the resource and shrinks a failing one to a minimal sequence. See model/articles.ts.
 */
import { z } from 'zod';

export const MODEL_COMMANDS = ['put', 'post', 'get', 'delete', 'options', 'concurrent'] as const;

export const ModelSchema = z
  .strictObject({
    resource: z
      .literal('articles')
      .describe("The resource modelled: the articles (§2, §4.1, §4.2), with the profile's open points."),
    commands: z
      .array(z.enum(MODEL_COMMANDS))
      .min(1)
      .optional()
      .describe(
        'The commands drawn (default all): PUT create and replace (canonical and alias paths, a small pool of client-chosen slugs), POST, GET, DELETE, OPTIONS, and `concurrent` (2–3 requests at once, judged by linearizability).',
      ),
    length: z.number().int().min(1).max(100).optional().describe('Most commands in one sequence. Default 12.'),
    slugs: z
      .number()
      .int()
      .min(1)
      .max(8)
      .optional()
      .describe('Client-chosen slugs per sequence (a small pool, so commands collide). Default 2.'),
  })
  .describe(
    'Model-based scenario: sequences of requests checked against a model of the resource; `runs` sequences, scaled by --runs.',
  );

export type ModelOptions = z.infer<typeof ModelSchema>;
