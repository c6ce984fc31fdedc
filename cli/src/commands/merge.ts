/** `conform merge`: joins the report.json files of a sharded run into one report, in every format. */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ConformError } from '../../../harness/src/errors.js';
import { mergeReports } from '../../../harness/src/report/merge.js';
import { REPORTER_NAMES } from '../../../harness/src/report/registry.js';
import { ReportSchema } from '../../../harness/src/report/schema.js';
import { renderSummary } from '../../../harness/src/report/console.js';
import { exitCodeFor } from '../../../harness/src/engine/run-suite.js';
import type { RunResult } from '../../../harness/src/runner/types.js';
import { listOption, parse } from '../args.js';
import type { CliIo } from '../io.js';
import { githubOutputs, writeReports, writeScripts } from '../output.js';

const HELP = `Usage: conform merge REPORT.json… [--report-dir DIR] [--reporter LIST] [--strict]

Joins the report.json files of the shards of one run (conform run --shard I/N) into one report, written in every
selected format (default: all) under --report-dir (default reports/). The exit code is the one the unsharded run
would have had: 0 pass, 1 a MUST scenario failed or errored, 3 the target was never reachable; 2 when the files
are not reports of one run (different seeds or versions).
`;

export async function mergeCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parse(
    argv,
    {
      'report-dir': { type: 'string' },
      reporter: { type: 'string', multiple: true },
      strict: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    true,
  );
  if (values.help) {
    io.stdout.write(HELP);
    return 0;
  }
  if (positionals.length === 0) throw new ConformError('CONFORM_USAGE', 'name the report.json files to merge');
  const reporters = listOption(values.reporter ?? [REPORTER_NAMES.join(',')]);
  for (const r of reporters)
    if (!REPORTER_NAMES.includes(r))
      throw new ConformError('CONFORM_USAGE', `unknown reporter "${r}" (known: ${REPORTER_NAMES.join(', ')})`);
  const reports: RunResult[] = [];
  for (const p of positionals) {
    const file = path.resolve(io.cwd, p);
    let data: unknown;
    try {
      data = JSON.parse(await readFile(file, 'utf8'));
    } catch (err) {
      throw new ConformError('CONFORM_USAGE', `cannot read ${p}: ${(err as Error).message}`);
    }
    const parsed = ReportSchema.safeParse(data);
    if (!parsed.success) {
      const i = parsed.error.issues[0];
      throw new ConformError(
        'CONFORM_USAGE',
        `${p} is not a conform report.json (schemaVersion 1): ${i?.path.join('.') ?? ''}: ${i?.message ?? ''}`,
      );
    }
    reports.push(data as RunResult);
  }
  const merged = mergeReports(reports, positionals);
  if (!merged.ok)
    throw new ConformError(
      'CONFORM_USAGE',
      `these reports are not shards of one run:\n  ${merged.problems.map((p) => p.message).join('\n  ')}`,
    );
  const run = values.strict ? { ...merged.run, options: { ...merged.run.options, strict: true } } : merged.run;
  const dir = path.resolve(io.cwd, values['report-dir'] ?? 'reports');
  const written = await writeReports(run, reporters, dir, io);
  // The replay scripts of the failures, which report.html names, beside the merged reports.
  await writeScripts(run, dir, io);
  await githubOutputs(run, io);
  if (reporters.includes('console'))
    io.stdout.write(`${renderSummary(run)}Merged ${positionals.length} reports: ${written.join(', ')}\n`);
  return exitCodeFor(run, values.strict ?? false);
}
