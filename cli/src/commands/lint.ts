/** `conform lint [PATH…]`: validates scenario files, profiles and the rule catalogue; `file:line:col: message` each. */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { ConformError, formatIssue, InvalidFileError, type SourceIssue } from '../../../harness/src/errors.js';
import { checkProfileSource } from '../../../harness/src/profile/load.js';
import {
  checkScenarioSource,
  findScenarioFilesSync,
  loadRulesSync,
  readSourceSync,
} from '../../../harness/src/suite/load.js';
import { RuleFileSchema } from '../../../harness/src/suite/schema.js';
import type { RuleCatalogue } from '../../../harness/src/suite/types.js';
import { validateSource } from '../../../harness/src/suite/validate.js';
import { issueAt } from '../../../harness/src/suite/validate.js';
import { parse } from '../args.js';
import { defaults, type CliIo } from '../io.js';

const HELP = `Usage: conform lint [PATH…] [--rules FILE]

Validates scenario files, profiles and rule catalogues (the kind is read from each file's top-level keys:
"scenarios" → scenario file, "rules" → catalogue, anything else → profile). Folders are searched for *.yaml.
Default PATHs: the bundled specs/, specs/rules.yaml and reference-server/profile.yaml.
Prints file:line:col: message for each problem; exit 0 when clean, 2 otherwise.
`;

export async function lintCommand(argv: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parse(
    argv,
    { rules: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    true,
  );
  if (values.help) {
    io.stdout.write(HELP);
    return 0;
  }
  const rulesFile = values.rules !== undefined ? path.resolve(io.cwd, values.rules) : defaults.rules();
  const targets =
    positionals.length > 0
      ? positionals.map((p) => path.resolve(io.cwd, p))
      : [defaults.specs(), defaults.rules(), defaults.profile()];
  const files: string[] = [];
  for (const t of targets) {
    const st = await stat(t).catch(() => null);
    if (!st) throw new ConformError('CONFORM_USAGE', `no such file or folder: ${t}`);
    if (st.isDirectory()) {
      files.push(...findScenarioFilesSync([t]).map((f) => f.file));
      const rules = path.join(t, 'rules.yaml');
      if (await stat(rules).catch(() => null)) files.push(rules);
    } else files.push(t);
  }
  const issues: SourceIssue[] = [];
  let catalogue: RuleCatalogue | undefined;
  try {
    catalogue = loadRulesSync(rulesFile);
  } catch (err) {
    if (!(err instanceof InvalidFileError)) throw err;
    issues.push(...err.issues);
  }
  const ids = new Map<string, string>();
  for (const file of [...new Set(files)]) {
    const source = readSourceSync(file);
    const top = source.value && typeof source.value === 'object' ? (source.value as Record<string, unknown>) : {};
    if (source.syntaxIssues.length > 0) issues.push(...source.syntaxIssues);
    else if ('scenarios' in top) {
      if (!catalogue) continue;
      const r = checkScenarioSource(source, catalogue);
      issues.push(...r.issues);
      r.scenarios.forEach((s, i) => {
        const prev = ids.get(s.id);
        if (prev)
          issues.push(issueAt(source, ['scenarios', i, 'id'], `duplicate scenario id "${s.id}" (also in ${prev})`));
        ids.set(s.id, `${s.file}:${s.line}`);
      });
    } else if ('rules' in top) {
      if (path.resolve(file) === path.resolve(rulesFile)) continue;
      const r = validateSource(source, RuleFileSchema);
      if (!r.ok) issues.push(...r.issues);
    } else issues.push(...checkProfileSource(source, { env: false }).issues);
  }
  for (const issue of issues) io.stdout.write(`${formatIssue(issue)}\n`);
  const n = new Set(files).size;
  io.stderr.write(
    `${n} file${n === 1 ? '' : 's'} checked, ${issues.length} problem${issues.length === 1 ? '' : 's'}\n`,
  );
  return issues.length > 0 ? 2 : 0;
}
