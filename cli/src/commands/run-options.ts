/** `conform run`'s command line, resolved once into {@link RunCommandOptions}: every check of an option is here. */
import path from 'node:path';
import { ConformError } from '../../../harness/src/errors.js';
import type { Level } from '../../../harness/src/suite/types.js';
import { REPORTER_NAMES } from '../../../harness/src/report/registry.js';
import { flagNaming, intFromText, resolveRunOptions } from '../../../harness/src/runner/options.js';
import { parseFaultNames } from '../../../reference-server/src/faults/registry.js';
import { parseVariantNames } from '../../../reference-server/src/variants.js';
import { faultList, intOption, listOption, parse } from '../args.js';
import { defaults, type CliIo } from '../io.js';

/** Everything `conform run` was asked, resolved and checked. */
export interface RunCommandOptions {
  /** The `--target` URLs, at most one per scheme, in the order given (the first is the primary base). */
  targets: string[];
  profileFile: string;
  embedded: boolean;
  faults: string[];
  variants: string[];
  insecure: boolean;
  ca?: string;
  specs: string[];
  rulesFile: string;
  vectorsFile: string;
  filter: string[];
  exclude: string[];
  levels: Level[];
  /** `--min-coverage PERCENT`: fail below this share of MUST rules checked. */
  minCoverage?: number;
  /** `--rerun-failed FILE`: an earlier report.json whose failed and errored scenarios are run again. */
  rerunFailed?: string;
  /** Whether --seed was given (a rerun takes the earlier report's seed otherwise). */
  seedGiven: boolean;
  seed: number;
  runs: number;
  replayPath?: string;
  timeoutMs: number;
  /** `--scenario-timeout MS`: the limit of each scenario's own work (absent: the default). */
  scenarioTimeoutMs?: number;
  maxResponseBytes: number;
  concurrency: number;
  reportDir: string;
  reporters: string[];
  /** `--har FILE`: also write the run's exchanges as HAR 1.2 there. */
  harFile?: string;
  shard?: { index: number; total: number };
  baselineFile?: string;
  writeBaselineFile?: string;
  strict: boolean;
  /** Leave what the run created on the target. */
  keep: boolean;
  /** Leave what the reported run of each failed or errored scenario created (`--keep-failed`). */
  keepFailed: boolean;
  /** Run the scenarios without trying the profile's credentials first (`--no-credential-check`). */
  noCredentialCheck: boolean;
  quiet: boolean;
  /** Print the summary as JSON on stdout (the console output goes to stderr). */
  json: boolean;
  color: boolean;
  /** Redraw a progress line (stdout is a terminal). */
  live: boolean;
}

/**
 * Colour on a terminal, unless NO_COLOR is set; FORCE_COLOR forces it on (for CI logs that render ANSI) or, as `0`
 * or `false`, off — it wins over both, as in Node itself. `--no-color` wins over everything.
 */
function colorWanted(io: CliIo): boolean {
  const force = io.env['FORCE_COLOR'];
  if (force !== undefined) return force !== '0' && force.toLowerCase() !== 'false';
  return !io.env['NO_COLOR'] && io.stdout.isTTY === true;
}

/** `--level`: MUST, SHOULD or MAY (any case, repeatable or comma-separated). */
function levelList(values: string[] | undefined): Level[] {
  return listOption(values).map((v) => {
    const level = v.toUpperCase();
    if (level !== 'MUST' && level !== 'SHOULD' && level !== 'MAY')
      throw new ConformError('CONFORM_USAGE', `--level expects MUST, SHOULD or MAY, got "${v}"`);
    return level;
  });
}

/** The `--target` URLs: each http:// or https://, at most one of each scheme. */
function checkTargets(targets: readonly string[]): string[] {
  for (const t of targets) {
    if (!/^https?:\/\/[^\s/]+/.test(t))
      throw new ConformError('CONFORM_USAGE', `--target expects an http:// or https:// URL, got "${t}"`);
  }
  for (const scheme of ['http:', 'https:']) {
    const same = targets.filter((t) => t.startsWith(scheme));
    if (same.length > 1)
      throw new ConformError(
        'CONFORM_USAGE',
        `--target given twice for ${scheme}// (${same.join(', ')}): give one plain-HTTP and one TLS base URL at most`,
      );
  }
  return [...targets];
}

/** Parses and checks `conform run`'s arguments; `'help'` for `--help`. Throws ConformError (usage) on a bad one. */
export function parseRunArgs(argv: string[], io: CliIo): RunCommandOptions | 'help' {
  const { values } = parse(argv, {
    target: { type: 'string', multiple: true },
    profile: { type: 'string' },
    embedded: { type: 'boolean' },
    fault: { type: 'string', multiple: true },
    variant: { type: 'string', multiple: true },
    insecure: { type: 'boolean' },
    ca: { type: 'string' },
    specs: { type: 'string', multiple: true },
    rules: { type: 'string' },
    vectors: { type: 'string' },
    filter: { type: 'string', multiple: true },
    exclude: { type: 'string', multiple: true },
    level: { type: 'string', multiple: true },
    'min-coverage': { type: 'string' },
    'rerun-failed': { type: 'string' },
    seed: { type: 'string' },
    runs: { type: 'string' },
    replay: { type: 'string' },
    timeout: { type: 'string' },
    'scenario-timeout': { type: 'string' },
    'max-response-bytes': { type: 'string' },
    concurrency: { type: 'string' },
    'report-dir': { type: 'string' },
    reporter: { type: 'string', multiple: true },
    har: { type: 'string' },
    shard: { type: 'string' },
    baseline: { type: 'string' },
    'write-baseline': { type: 'string' },
    strict: { type: 'boolean' },
    keep: { type: 'boolean' },
    'keep-failed': { type: 'boolean' },
    'no-credential-check': { type: 'boolean' },
    quiet: { type: 'boolean' },
    json: { type: 'boolean' },
    'no-color': { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) return 'help';
  const reporters = listOption(values.reporter ?? [REPORTER_NAMES.join(',')]);
  let shard: { index: number; total: number } | undefined;
  if (values.shard !== undefined) {
    const m = /^(\d+)\/(\d+)$/.exec(values.shard);
    const index = Number(m?.[1]);
    const total = Number(m?.[2]);
    if (!m || total < 1 || index < 1 || index > total)
      throw new ConformError('CONFORM_USAGE', `--shard expects I/N with 1 <= I <= N, got "${values.shard}"`);
    shard = { index, total };
  }
  for (const r of reporters) {
    if (!REPORTER_NAMES.includes(r))
      throw new ConformError('CONFORM_USAGE', `unknown reporter "${r}" (known: ${REPORTER_NAMES.join(', ')})`);
  }
  const targets = checkTargets(values.target ?? []);
  if (targets.length > 0 && values.embedded)
    throw new ConformError('CONFORM_USAGE', '--target and --embedded cannot be combined');
  const faults = faultList(values.fault, parseFaultNames);
  if (faults.length > 0 && !values.embedded)
    throw new ConformError(
      'CONFORM_USAGE',
      '--fault needs --embedded (or run `conform serve --fault NAME` and point --target at it)',
    );
  const variants = faultList(values.variant, parseVariantNames);
  if (variants.length > 0 && !values.embedded)
    throw new ConformError(
      'CONFORM_USAGE',
      '--variant needs --embedded (or run `conform serve --variant NAME --profile-out FILE` and point --target and --profile at it)',
    );
  const abs = (p: string) => path.resolve(io.cwd, p);
  const options: RunCommandOptions = {
    targets,
    // `--profile -`: the profile is read from standard input.
    profileFile: values.profile === '-' ? '-' : values.profile !== undefined ? abs(values.profile) : defaults.profile(),
    embedded: values.embedded ?? false,
    faults,
    variants,
    insecure: values.insecure ?? false,
    ...(values.ca !== undefined ? { ca: abs(values.ca) } : {}),
    specs: values.specs?.length ? values.specs.map(abs) : [defaults.specs()],
    rulesFile: values.rules !== undefined ? abs(values.rules) : defaults.rules(),
    vectorsFile: values.vectors !== undefined ? abs(values.vectors) : defaults.vectors(),
    filter: listOption(values.filter),
    exclude: listOption(values.exclude),
    levels: levelList(values.level),
    ...(values['rerun-failed'] !== undefined ? { rerunFailed: abs(values['rerun-failed']) } : {}),
    seedGiven: values.seed !== undefined,
    ...(values['min-coverage'] !== undefined
      ? { minCoverage: intOption(values['min-coverage'].replace(/%$/, ''), 'min-coverage', 0, 100)! }
      : {}),
    ...resolveRunOptions(
      {
        seed: intFromText(values.seed, '--seed'),
        runs: intFromText(values.runs, '--runs'),
        timeoutMs: intFromText(values.timeout, '--timeout'),
        maxResponseBytes: intFromText(values['max-response-bytes'], '--max-response-bytes'),
        concurrency: intFromText(values.concurrency, '--concurrency'),
      },
      {},
      flagNaming,
    ),
    ...(values['scenario-timeout'] !== undefined
      ? { scenarioTimeoutMs: intOption(values['scenario-timeout'], 'scenario-timeout', 1, 86_400_000)! }
      : {}),
    ...(values.replay !== undefined ? { replayPath: values.replay } : {}),
    reportDir: abs(values['report-dir'] ?? 'reports'),
    reporters,
    ...(values.har !== undefined ? { harFile: abs(values.har) } : {}),
    ...(shard ? { shard } : {}),
    ...(values.baseline !== undefined ? { baselineFile: abs(values.baseline) } : {}),
    ...(values['write-baseline'] !== undefined ? { writeBaselineFile: abs(values['write-baseline']) } : {}),
    strict: values.strict ?? false,
    keep: values.keep ?? false,
    keepFailed: values['keep-failed'] ?? false,
    noCredentialCheck: values['no-credential-check'] ?? false,
    quiet: values.quiet ?? false,
    json: values.json ?? false,
    color: !values['no-color'] && colorWanted(io),
    live: io.stdout.isTTY === true && io.env['TERM'] !== 'dumb',
  };
  if (values.profile === undefined && !values.embedded)
    throw new ConformError(
      'CONFORM_USAGE',
      `${targets.length > 0 ? '--target needs --profile FILE' : 'nothing to run against: pass --target URL with --profile FILE, or --embedded'}: the profile says what your server offers where the spec leaves room (its users and credentials, schemes, open points), and conform will not guess it. Draft one from your server's answers with "conform init --target URL --user NAME" (docs/init.md), or write one from docs/profile-keys.md.`,
    );
  return options;
}
