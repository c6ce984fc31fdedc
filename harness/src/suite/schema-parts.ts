/** The pieces every part of the scenario format is built from: names, templates, instance references, statuses. */
import { z } from 'zod';

export const Name = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'a name is letters, digits and "_", not starting with a digit');
export const Template = z.string().describe('Text; `{{ expr }}` inserts a value (see docs/scenarios.md).');
export const TemplateList = z.union([z.array(Template), Template]);
/** An instance of the profile's target.instances: its number (1 = the first), or a template rendering to one. */
export const InstanceRef = z.union([z.number().int().min(1), Template]);
export const StatusItem = z.union([
  z.number().int().min(100).max(599),
  z.string().regex(/^(?:[1-5]xx|[1-5]\d\d|\{\{.*\}\})$/, 'a status is a code (201), a class ("2xx") or a template'),
]);
export const StatusSpec = z
  .union([StatusItem, z.array(StatusItem).min(1)])
  .describe('One status, a class like "2xx", a list of them, or a template evaluating to them.');
