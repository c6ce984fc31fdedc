/** `conform rules`: the requirement catalogue with, for each rule, its level, the words it rests on and the scenarios that cover it. */
import path from 'node:path';
import { loadRulesSync, loadSuiteSync } from '../../../harness/src/suite/load.js';
import { parse } from '../args.js';
import { ConformError } from '../../../harness/src/errors.js';
import { rulesPageOptions } from '../docs/pages.js';
import { coveredRules, renderRulesPage } from '../docs/rules-page.js';
import { defaults, packageRoot, type CliIo } from '../io.js';

const HELP = `Usage: conform rules [--specs PATH]… [--rules FILE] [--json | --markdown] [--uncovered]

Prints every rule of the requirement catalogue: its id, section (or source standard), level, whom it binds when
that is not the server, its text, the quoted words of SPEC.md or of the standard that its level rests on, and the
scenarios that cover it. A scenario's level is the strongest level among its server rules; client and deployment
rules are listed for the record and never raise it.
  --specs PATH  Scenario file or folder (repeatable; default: specs/)
  --rules FILE  Rule catalogue (default: specs/rules.yaml)
  --json        Machine-readable output: one object per rule (id, section, level, text, quote, …, scenarios)
  --markdown    The catalogue as the Markdown page docs/rules.md (which conform schemas --write writes)
  --uncovered   Only rules no scenario covers
`;

export async function rulesCommand(argv: string[], io: CliIo): Promise<number> {
  const { values } = parse(argv, {
    specs: { type: 'string', multiple: true },
    rules: { type: 'string' },
    json: { type: 'boolean' },
    markdown: { type: 'boolean' },
    uncovered: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    io.stdout.write(HELP);
    return 0;
  }
  if (values.json && values.markdown) throw new ConformError('CONFORM_USAGE', '--json and --markdown: choose one');
  const rulesFile = values.rules !== undefined ? path.resolve(io.cwd, values.rules) : defaults.rules();
  const specs = values.specs?.length ? values.specs.map((s) => path.resolve(io.cwd, s)) : [defaults.specs()];
  const catalogue = loadRulesSync(rulesFile);
  const suite = loadSuiteSync(specs, catalogue);
  const rows = coveredRules(catalogue.rules, suite.scenarios).filter(
    (r) => !values.uncovered || r.scenarios.length === 0,
  );
  if (values.markdown) {
    io.stdout.write(renderRulesPage(rows, rulesPageOptions(packageRoot(), suite.scenarios)));
    return 0;
  }
  if (values.json) {
    io.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
    return 0;
  }
  let section = '';
  for (const r of rows) {
    if (r.section !== section) {
      section = r.section;
      io.stdout.write(`\n${/^\d/.test(section) ? '§' : ''}${section}\n`);
    }
    const note =
      r.subject && r.subject !== 'server'
        ? ` [binds the ${r.subject}]`
        : r.checkable === false
          ? ' [not checkable]'
          : '';
    io.stdout.write(`  ${r.level.padEnd(6)} ${r.id}${note}\n         ${r.text}\n`);
    io.stdout.write(`         ${r.level} because${r.source ? ` (${r.source})` : ''}: “${r.quote}”\n`);
    io.stdout.write(`         ${r.scenarios.length ? `covered by: ${r.scenarios.join(', ')}` : 'uncovered'}\n`);
  }
  const covered = rows.filter((r) => r.scenarios.length > 0).length;
  io.stdout.write(`\n${rows.length} rules, ${covered} covered, ${rows.length - covered} uncovered\n`);
  return 0;
}
