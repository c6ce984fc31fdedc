/**
 * `conform schemas`: the JSON Schemas for editors, generated from the same zod schemas that validate on load, and the
 * documentation pages generated from them and from the catalogue (docs/profile-keys.md, docs/rules.md).
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { ProfileSchema } from '../../../harness/src/profile/schema.js';
import { RuleFileSchema, ScenarioFileSchema } from '../../../harness/src/suite/schema.js';
import { ReportSchema } from '../../../harness/src/report/schema.js';
import { ClientReportSchema } from '../../../harness/src/report/client/schema.js';
import { parse } from '../args.js';
import { generatedPages } from '../docs/pages.js';
import type { JsonSchema } from '../docs/profile-keys.js';
import { packageRoot, type CliIo } from '../io.js';
import { makeDirectory } from '../output.js';

const HELP = `Usage: conform schemas [--write | --check] [--dir DIR]

Generates the JSON Schemas of scenario files, profiles, the rule catalogue, report.json and client-report.json (default DIR:
specs/schema), and the documentation pages made from them: docs/profile-keys.md (the key tables, from the profile
schema's descriptions) and docs/rules.md (the catalogue, from specs/rules.yaml and the scenarios under specs/).
  --write   Write them (default: print the list of files)
  --check   Exit 1 when a committed schema or page differs from the generated one
`;

export function generatedSchemas(): Record<string, string> {
  const out: Record<string, string> = {};
  const emit = (name: string, schema: z.ZodType, title: string) => {
    const json = { ...z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }), title } as Record<
      string,
      unknown
    >;
    if (name.startsWith('report.') || name.startsWith('client-report.')) delete json['additionalProperties'];
    out[name] = `${JSON.stringify(json, null, 2)}\n`;
  };
  emit('scenario.v1.schema.json', ScenarioFileSchema, 'conform scenario file, format v1');
  emit('profile.v1.schema.json', ProfileSchema, 'conform target profile');
  emit('rules.v1.schema.json', RuleFileSchema, 'conform requirement catalogue');
  emit('report.v1.schema.json', ReportSchema, 'conform report.json, schemaVersion 1');
  emit(
    'client-report.v1.schema.json',
    ClientReportSchema,
    'conform client-report.json (check-client), schemaVersion 1',
  );
  return out;
}

export async function schemasCommand(argv: string[], io: CliIo): Promise<number> {
  const { values } = parse(argv, {
    write: { type: 'boolean' },
    check: { type: 'boolean' },
    dir: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    io.stdout.write(HELP);
    return 0;
  }
  const dir = values.dir !== undefined ? path.resolve(io.cwd, values.dir) : path.join(packageRoot(), 'specs', 'schema');
  const schemas = generatedSchemas();
  const files: Array<{ file: string; text(current: string | undefined): string }> = Object.entries(schemas).map(
    ([name, text]) => ({ file: path.join(dir, name), text: () => text }),
  );
  const pages = generatedPages(packageRoot(), JSON.parse(schemas['profile.v1.schema.json'] ?? '{}') as JsonSchema);
  files.push(...pages.map((p) => ({ file: path.join(packageRoot(), p.file), text: p.text })));
  let stale = 0;
  for (const { file, text } of files) {
    if (values.write) {
      const current = await readFile(file, 'utf8').catch(() => undefined);
      await makeDirectory(path.dirname(file));
      await writeFile(file, text(current));
      io.stdout.write(`wrote ${path.relative(io.cwd, file)}\n`);
    } else if (values.check) {
      const current = await readFile(file, 'utf8').catch(() => undefined);
      if (current !== text(current)) {
        stale++;
        io.stderr.write(`${path.relative(io.cwd, file)} is out of date: run conform schemas --write\n`);
      }
    } else io.stdout.write(`${path.relative(io.cwd, file)}\n`);
  }
  return stale > 0 ? 1 : 0;
}
